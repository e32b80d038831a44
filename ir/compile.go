package ir

import (
	"fmt"
	"slices"
	"strings"

	lir "github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/metadata"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"
)

type fixup struct {
	pc    int
	field int // 0: Imm, 1: B, 2: C
	block int
}

type fnCompiler struct {
	// rmw: the loads of bit-field stores (bitfieldRMW), flagged FlagRMW
	rmw map[*lir.InstLoad]bool
	// undef: the allocas whose bytes are undefined (undefAllocas),
	// marked AuxUndef
	undef    map[*lir.InstAlloca]bool
	l        *loader
	f        *lir.Func
	out      *Func
	slots    map[value.Value]int32
	nslots   int32
	consts   map[uint64]int32
	constVal []uint64 // values of the constant slots, in slot order from constBase
	blockIdx map[*lir.Block]int
	start    []int32 // pc of each block
	fixups   []fixup
	curBlock string
	curBI    int32
	curInst  string
}

func (c *fnCompiler) errf(format string, args ...any) error {
	return &LoadError{File: c.l.name, Func: c.f.Name(), Block: c.curBlock, Inst: c.curInst, Msg: fmt.Sprintf(format, args...)}
}

func (c *fnCompiler) alloc(n int) int32 {
	s := c.nslots
	c.nslots += int32(n)
	return s
}

func (l *loader) compileFunc(f *lir.Func, out *Func) (*Func, error) {
	c := &fnCompiler{l: l, f: f, out: out, slots: map[value.Value]int32{}, consts: map[uint64]int32{},
		blockIdx: map[*lir.Block]int{}}
	out.Atomic = strings.HasPrefix(f.Name(), "__VERIFIER_atomic_")
	out.SrcLoc = l.prog.Locs[l.location(f.Metadata)]
	if sp := funcSubprogram(f); sp != nil {
		out.SrcLoc = SrcLoc{File: fileName(sp.File), Line: int32(sp.Line)}
	}
	out.RegSlots = map[string]int32{}
	rs, err := slotsOf(f.Sig.RetType)
	if err != nil {
		return nil, c.errf("return type: %v", err)
	}
	out.RetSlots = rs
	for _, p := range f.Params {
		n, err := slotsOf(p.Typ)
		if err != nil {
			return nil, c.errf("parameter %%%s: %v", p.Name(), err)
		}
		s := c.alloc(n)
		c.slots[p] = s
		out.Params = append(out.Params, s)
		if p.Name() != "" {
			out.RegSlots[p.Name()] = s
		}
	}
	out.NParams = int(c.nslots)
	out.Optimised = !hasOptNone(f.FuncAttrs)
	c.rmw = bitfieldRMW(f)
	c.undef = undefAllocas(f)
	for _, p := range f.Params {
		var sz uint32
		for _, a := range p.Attrs {
			if bv, ok := a.(lir.Byval); ok {
				t := bv.Typ
				if t == nil {
					if pt, ok := p.Typ.(*types.PointerType); ok {
						t = pt.ElemType
					}
				}
				s, err := c.l.dl.sizeOf(t)
				if err != nil {
					return nil, c.errf("byval parameter %%%s: %v", p.Name(), err)
				}
				sz = uint32(s)
				out.HasByval = true
			}
		}
		out.Byval = append(out.Byval, sz)
	}
	// Pass 1: a slot for every value-producing instruction.
	for bi, b := range f.Blocks {
		c.blockIdx[b] = bi
		out.Blocks = append(out.Blocks, b.Name())
		for _, inst := range b.Insts {
			v, ok := inst.(value.Value)
			if !ok {
				continue
			}
			if _, isVoid := v.Type().(*types.VoidType); isVoid {
				continue
			}
			c.curBlock, c.curInst = b.Name(), inst.LLString()
			n, err := slotsOf(v.Type())
			if err != nil {
				return nil, c.errf("%v", err)
			}
			c.slots[v] = c.alloc(n)
			if nv, ok := v.(interface{ Name() string }); ok && nv.Name() != "" {
				out.RegSlots[nv.Name()] = c.slots[v]
			}
		}
	}
	// Pass 2: code.
	c.start = make([]int32, len(f.Blocks))
	for bi, b := range f.Blocks {
		c.curBlock, c.curBI = b.Name(), int32(bi)
		c.start[bi] = int32(len(out.Code))
		for _, inst := range b.Insts {
			c.curInst = inst.LLString()
			if err := c.inst(inst); err != nil {
				return nil, err
			}
		}
		c.curInst = b.Term.LLString()
		if err := c.term(b, b.Term); err != nil {
			return nil, err
		}
	}
	c.curBlock, c.curInst = "", ""
	for _, fx := range c.fixups {
		pc := c.start[fx.block]
		switch fx.field {
		case 0:
			out.Code[fx.pc].Imm = uint64(pc)
		case 1:
			out.Code[fx.pc].B = pc
		case 2:
			out.Code[fx.pc].C = pc
		}
	}
	for i := range out.Edges {
		out.Edges[i].PC = c.start[out.Edges[i].PC]
	}
	// Constants live after all value and temporary slots.
	base := c.nslots
	for pc := range out.Code {
		relocConst(&out.Code[pc], base)
	}
	for i := range out.Edges {
		for j := range out.Edges[i].Moves {
			out.Edges[i].Moves[j].Src = reloc(out.Edges[i].Moves[j].Src, base)
		}
	}
	for i := range out.Calls {
		cs := &out.Calls[i]
		cs.FnSlot = reloc(cs.FnSlot, base)
		for j := range cs.Args {
			cs.Args[j] = reloc(cs.Args[j], base)
		}
	}
	for i := range out.GEPs {
		g := &out.GEPs[i]
		g.Base = reloc(g.Base, base)
		for j := range g.Idx {
			g.Idx[j] = reloc(g.Idx[j], base)
		}
	}
	out.ConstBase = base
	out.Consts = c.constVal
	out.NRegs = int(base) + len(c.constVal)
	return out, nil
}

// Constant slots are numbered with constTag set until the final layout is
// known; reloc moves them after the value slots.
const constTag = int32(1) << 30

func reloc(s int32, base int32) int32 {
	if s >= constTag {
		return s - constTag + base
	}
	return s
}

// relocConst relocates constant slots of an instruction. Fields that are not
// slots (pcs, edge and builtin numbers, counts) are far below constTag and
// are left unchanged.
func relocConst(in *Inst, base int32) {
	in.A = reloc(in.A, base)
	in.B = reloc(in.B, base)
	in.C = reloc(in.C, base)
}

func funcSubprogram(f *lir.Func) *metadata.DISubprogram {
	for _, md := range f.Metadata {
		if sp, ok := md.Node.(*metadata.DISubprogram); ok && md.Name == "dbg" {
			return sp
		}
	}
	return nil
}

func fileName(f *metadata.DIFile) string {
	if f == nil {
		return ""
	}
	return f.Filename
}

// operand returns the first slot of a value, allocating constant slots.
func (c *fnCompiler) operand(v value.Value) (int32, error) {
	if a, ok := v.(*lir.Arg); ok {
		v = a.Value
	}
	if s, ok := c.slots[v]; ok {
		return s, nil
	}
	switch v := v.(type) {
	case constant.Constant:
		switch v.Type().(type) {
		case *types.StructType, *types.ArrayType:
			vals, err := c.l.constSlots(v, nil)
			if err != nil {
				return 0, c.errf("%v", err)
			}
			s := int32(len(c.constVal)) + constTag
			c.constVal = append(c.constVal, vals...)
			return s, nil
		case *types.VectorType:
			return 0, c.errf("vector constants are not supported")
		}
		x, err := c.l.scalarConst(v)
		if err != nil {
			return 0, c.errf("%v", err)
		}
		if s, ok := c.consts[x]; ok {
			return s, nil
		}
		s := int32(len(c.constVal)) + constTag
		c.constVal = append(c.constVal, x)
		c.consts[x] = s
		return s, nil
	case *lir.InlineAsm:
		return 0, c.errf("inline assembly is not supported")
	case *metadata.Value:
		return 0, c.errf("metadata operand used as a value")
	}
	return 0, c.errf("operand %s (%T) is not supported", v.Ident(), v)
}

// operands returns the slots of up to three values.
func (c *fnCompiler) operands(vs ...value.Value) ([3]int32, error) {
	var out [3]int32
	for i, v := range vs {
		s, err := c.operand(v)
		if err != nil {
			return out, err
		}
		out[i] = s
	}
	return out, nil
}

func (c *fnCompiler) emit(in Inst, loc int32) int {
	pc := len(c.out.Code)
	c.out.Code = append(c.out.Code, in)
	c.out.Locs = append(c.out.Locs, loc)
	c.out.Text = append(c.out.Text, instText(c.curInst))
	return pc
}

func (c *fnCompiler) dst(v value.Value) int32 { return c.slots[v] }

func ovFlags(fl []enum.OverflowFlag) uint8 {
	var r uint8
	for _, f := range fl {
		switch f {
		case enum.OverflowFlagNSW:
			r |= FlagNSW
		case enum.OverflowFlagNUW:
			r |= FlagNUW
		}
	}
	return r
}

func exactFlag(e bool) uint8 {
	if e {
		return FlagExact
	}
	return 0
}

func (c *fnCompiler) binop(op Op, dst value.Value, x, y value.Value, flags uint8, loc int32) error {
	w, ok := intWidth(x.Type())
	if !ok {
		return c.errf("integer operation on type %s is not supported", x.Type())
	}
	o, err := c.operands(x, y)
	if err != nil {
		return err
	}
	a, b := o[0], o[1]
	if c.out.Optimised {
		flags = FlagLax | flags&FlagPtrCmp
	}
	c.emit(Inst{Op: op, W: w, Flags: flags, Dst: c.dst(dst), A: a, B: b, Imm: Mask(w)}, loc)
	return nil
}

func (c *fnCompiler) fbinop(op Op, dst value.Value, x, y value.Value, loc int32) error {
	w, err := floatWidth(x.Type())
	if err != nil {
		return c.errf("%v", err)
	}
	a, err := c.operand(x)
	if err != nil {
		return err
	}
	b := int32(-1)
	if y != nil {
		if b, err = c.operand(y); err != nil {
			return err
		}
	}
	c.emit(Inst{Op: op, W: w, Dst: c.dst(dst), A: a, B: b}, loc)
	return nil
}

func floatWidth(t types.Type) (uint8, error) {
	ft, ok := t.(*types.FloatType)
	if !ok {
		return 0, fmt.Errorf("type %s is not a supported floating-point type", t)
	}
	switch ft.Kind {
	case types.FloatKindFloat:
		return 32, nil
	case types.FloatKindDouble:
		return 64, nil
	}
	return 0, fmt.Errorf("floating-point type %s is not supported", t)
}

var icmpOps = map[enum.IPred]Op{
	enum.IPredEQ: OpEq, enum.IPredNE: OpNe, enum.IPredULT: OpUlt, enum.IPredULE: OpUle,
	enum.IPredUGT: OpUgt, enum.IPredUGE: OpUge, enum.IPredSLT: OpSlt, enum.IPredSLE: OpSle,
	enum.IPredSGT: OpSgt, enum.IPredSGE: OpSge,
}

var fcmpPreds = map[enum.FPred]uint8{
	enum.FPredFalse: FCmpFalse, enum.FPredOEQ: FCmpOEQ, enum.FPredOGT: FCmpOGT, enum.FPredOGE: FCmpOGE,
	enum.FPredOLT: FCmpOLT, enum.FPredOLE: FCmpOLE, enum.FPredONE: FCmpONE, enum.FPredORD: FCmpORD,
	enum.FPredUEQ: FCmpUEQ, enum.FPredUGT: FCmpUGT, enum.FPredUGE: FCmpUGE, enum.FPredULT: FCmpULT,
	enum.FPredULE: FCmpULE, enum.FPredUNE: FCmpUNE, enum.FPredUNO: FCmpUNO, enum.FPredTrue: FCmpTrue,
}

var rmwOps = map[enum.AtomicOp]uint8{
	enum.AtomicOpXChg: RMWXchg, enum.AtomicOpAdd: RMWAdd, enum.AtomicOpSub: RMWSub,
	enum.AtomicOpAnd: RMWAnd, enum.AtomicOpNAnd: RMWNand, enum.AtomicOpOr: RMWOr,
	enum.AtomicOpXor: RMWXor, enum.AtomicOpMax: RMWMax, enum.AtomicOpMin: RMWMin,
	enum.AtomicOpUMax: RMWUMax, enum.AtomicOpUMin: RMWUMin,
}

func (c *fnCompiler) inst(inst lir.Instruction) error {
	var loc int32
	if m, ok := inst.(interface{ MDAttachments() []*metadata.Attachment }); ok {
		loc = c.l.location(m.MDAttachments())
	}
	switch in := inst.(type) {
	case *lir.InstPhi:
		return nil // lowered onto the incoming edges
	case *lir.InstAdd:
		return c.binop(OpAdd, in, in.X, in.Y, ovFlags(in.OverflowFlags), loc)
	case *lir.InstSub:
		return c.binop(OpSub, in, in.X, in.Y, ovFlags(in.OverflowFlags), loc)
	case *lir.InstMul:
		return c.binop(OpMul, in, in.X, in.Y, ovFlags(in.OverflowFlags), loc)
	case *lir.InstUDiv:
		return c.binop(OpUDiv, in, in.X, in.Y, exactFlag(in.Exact), loc)
	case *lir.InstSDiv:
		return c.binop(OpSDiv, in, in.X, in.Y, exactFlag(in.Exact), loc)
	case *lir.InstURem:
		return c.binop(OpURem, in, in.X, in.Y, 0, loc)
	case *lir.InstSRem:
		return c.binop(OpSRem, in, in.X, in.Y, 0, loc)
	case *lir.InstShl:
		return c.binop(OpShl, in, in.X, in.Y, ovFlags(in.OverflowFlags), loc)
	case *lir.InstLShr:
		return c.binop(OpLShr, in, in.X, in.Y, exactFlag(in.Exact), loc)
	case *lir.InstAShr:
		return c.binop(OpAShr, in, in.X, in.Y, exactFlag(in.Exact), loc)
	case *lir.InstAnd:
		return c.binop(OpAnd, in, in.X, in.Y, 0, loc)
	case *lir.InstOr:
		return c.binop(OpOr, in, in.X, in.Y, 0, loc)
	case *lir.InstXor:
		return c.binop(OpXor, in, in.X, in.Y, 0, loc)
	case *lir.InstFAdd:
		return c.fbinop(OpFAdd, in, in.X, in.Y, loc)
	case *lir.InstFSub:
		return c.fbinop(OpFSub, in, in.X, in.Y, loc)
	case *lir.InstFMul:
		return c.fbinop(OpFMul, in, in.X, in.Y, loc)
	case *lir.InstFDiv:
		return c.fbinop(OpFDiv, in, in.X, in.Y, loc)
	case *lir.InstFRem:
		return c.fbinop(OpFRem, in, in.X, in.Y, loc)
	case *lir.InstFNeg:
		return c.fbinop(OpFNeg, in, in.X, nil, loc)
	case *lir.InstICmp:
		if _, vec := in.X.Type().(*types.VectorType); vec {
			return c.errf("vector instructions are not supported")
		}
		var flags uint8
		if _, ptr := in.X.Type().(*types.PointerType); ptr {
			if in.Pred != enum.IPredEQ && in.Pred != enum.IPredNE {
				c.out.OrdersPointers = true
			} else if !isConstant(in.X) && !isConstant(in.Y) {
				flags = FlagPtrCmp
			}
		}
		return c.binop(icmpOps[in.Pred], in, in.X, in.Y, flags, loc)
	case *lir.InstFCmp:
		w, err := floatWidth(in.X.Type())
		if err != nil {
			return c.errf("%v", err)
		}
		o, err := c.operands(in.X, in.Y)
		if err != nil {
			return err
		}
		c.emit(Inst{Op: OpFCmp, W: w, Aux: fcmpPreds[in.Pred], Dst: c.dst(in), A: o[0], B: o[1]}, loc)
		return nil
	case *lir.InstSelect:
		n, err := slotsOf(in.Typ)
		if err != nil {
			return c.errf("%v", err)
		}
		if _, vec := in.Cond.Type().(*types.VectorType); vec {
			return c.errf("vector instructions are not supported")
		}
		o, err := c.operands(in.Cond, in.ValueTrue, in.ValueFalse)
		if err != nil {
			return err
		}
		op := OpSelect
		if n != 1 {
			op = OpSelectN
		}
		c.emit(Inst{Op: op, Dst: c.dst(in), A: o[0], B: o[1], C: o[2], Imm: uint64(n)}, loc)
		return nil
	case *lir.InstFreeze:
		return c.move(in, in.X, loc)
	case *lir.InstBitCast:
		if _, vec := in.To.(*types.VectorType); vec {
			return c.errf("vector instructions are not supported")
		}
		if _, vec := in.From.Type().(*types.VectorType); vec {
			return c.errf("vector instructions are not supported")
		}
		return c.move(in, in.From, loc)
	case *lir.InstAddrSpaceCast:
		return c.move(in, in.From, loc)
	case *lir.InstZExt:
		if _, ok := intWidth(in.To); !ok {
			return c.errf("type %s is not supported", in.To)
		}
		return c.move(in, in.From, loc)
	case *lir.InstIntToPtr:
		return c.conv(OpIntToPtr, in, in.From, in.To, loc)
	case *lir.InstTrunc:
		return c.conv(OpTrunc, in, in.From, in.To, loc)
	case *lir.InstPtrToInt:
		return c.conv(OpPtrToInt, in, in.From, in.To, loc)
	case *lir.InstSExt:
		return c.conv(OpSExt, in, in.From, in.To, loc)
	case *lir.InstFPTrunc:
		return c.conv(OpFPTrunc, in, in.From, in.To, loc)
	case *lir.InstFPExt:
		return c.conv(OpFPExt, in, in.From, in.To, loc)
	case *lir.InstFPToSI:
		return c.conv(OpFPToSI, in, in.From, in.To, loc)
	case *lir.InstFPToUI:
		return c.conv(OpFPToUI, in, in.From, in.To, loc)
	case *lir.InstSIToFP:
		return c.conv(OpSIToFP, in, in.From, in.To, loc)
	case *lir.InstUIToFP:
		return c.conv(OpUIToFP, in, in.From, in.To, loc)
	case *lir.InstExtractValue:
		a, err := c.operand(in.X)
		if err != nil {
			return err
		}
		off, t, err := slotOffset(in.X.Type(), in.Indices)
		if err != nil {
			return c.errf("%v", err)
		}
		n, err := slotsOf(t)
		if err != nil {
			return c.errf("%v", err)
		}
		c.emitMove(c.dst(in), a+int32(off), n, loc)
		return nil
	case *lir.InstInsertValue:
		o, err := c.operands(in.X, in.Elem)
		if err != nil {
			return err
		}
		a, b := o[0], o[1]
		total, err := slotsOf(in.X.Type())
		if err != nil {
			return c.errf("%v", err)
		}
		off, t, err := slotOffset(in.X.Type(), in.Indices)
		if err != nil {
			return c.errf("%v", err)
		}
		n, err := slotsOf(t)
		if err != nil {
			return c.errf("%v", err)
		}
		c.emit(Inst{Op: OpInsert, Dst: c.dst(in), A: a, B: b, C: int32(total), Imm: uint64(off) | uint64(n)<<32}, loc)
		return nil
	case *lir.InstAlloca:
		size, err := c.l.dl.sizeOf(in.ElemType)
		if err != nil {
			return c.errf("%v", err)
		}
		a := int32(-1)
		var w uint8
		if in.NElems != nil {
			if ci, ok := in.NElems.(*constant.Int); ok && ci.X.IsInt64() {
				size *= uint64(ci.X.Int64())
			} else {
				if a, err = c.operand(in.NElems); err != nil {
					return err
				}
				w, _ = intWidth(in.NElems.Type())
			}
		}
		var aux uint8
		var mask int32
		if c.undef[in] {
			aux = AuxUndef
			if m := c.l.dl.fieldMask(in.ElemType, size); a < 0 && m != nil {
				c.out.UndefMasks = append(c.out.UndefMasks, m)
				mask = int32(len(c.out.UndefMasks))
			}
		}
		c.emit(Inst{Op: OpAlloca, Dst: c.dst(in), A: a, W: w, B: mask, Aux: aux, Imm: size}, loc)
		return nil
	case *lir.InstLoad:
		p, err := c.operand(in.Src)
		if err != nil {
			return err
		}
		if err := c.memop(true, in.ElemType, c.dst(in), p, 0, loc); err != nil {
			return err
		}
		if last := &c.out.Code[len(c.out.Code)-1]; c.rmw[in] && last.Op == OpLoad {
			last.Flags |= FlagRMW
		}
		if in.Atomic {
			if err := c.atomicAccess(); err != nil {
				return err
			}
		}
		return nil
	case *lir.InstStore:
		o, err := c.operands(in.Dst, in.Src)
		if err != nil {
			return err
		}
		if err := c.memop(false, in.Src.Type(), 0, o[0], o[1], loc); err != nil {
			return err
		}
		if in.Atomic {
			if err := c.atomicAccess(); err != nil {
				return err
			}
		}
		return nil
	case *lir.InstGetElementPtr:
		return c.gep(in, loc)
	case *lir.InstAtomicRMW:
		o, err := c.operands(in.Dst, in.X)
		if err != nil {
			return err
		}
		p, v := o[0], o[1]
		if err := c.notPtr32("atomicrmw", in.X.Type()); err != nil {
			return err
		}
		size, err := c.l.dl.scalarSize(in.X.Type())
		if err != nil {
			return c.errf("%v", err)
		}
		op, ok := rmwOps[in.Op]
		if !ok {
			return c.errf("atomicrmw operation %s is not supported", in.Op)
		}
		if _, isPtr := in.X.Type().(*types.PointerType); !isPtr {
			c.out.NumLoads = append(c.out.NumLoads, int32(len(c.out.Code)))
		}
		c.emit(Inst{Op: OpAtomicRMW, W: size, Aux: op, Dst: c.dst(in), A: p, B: v}, loc)
		return nil
	case *lir.InstCmpXchg:
		o, err := c.operands(in.Ptr, in.Cmp, in.New)
		if err != nil {
			return err
		}
		if err := c.notPtr32("cmpxchg", in.Cmp.Type()); err != nil {
			return err
		}
		size, err := c.l.dl.scalarSize(in.Cmp.Type())
		if err != nil {
			return c.errf("%v", err)
		}
		if _, isPtr := in.Cmp.Type().(*types.PointerType); !isPtr {
			c.out.NumLoads = append(c.out.NumLoads, int32(len(c.out.Code)))
		}
		c.emit(Inst{Op: OpCmpXchg, W: size, Dst: c.dst(in), A: o[0], B: o[1], C: o[2]}, loc)
		return nil
	case *lir.InstFence:
		c.emit(Inst{Op: OpFence}, loc)
		return nil
	case *lir.InstCall:
		return c.call(in, loc)
	case *lir.InstVAArg:
		return c.errf("va_arg (variadic functions defined in the program) is not supported")
	case *lir.InstExtractElement, *lir.InstInsertElement, *lir.InstShuffleVector:
		return c.errf("vector instructions are not supported")
	}
	return c.errf("instruction is not supported")
}

// scalarSize is the access width of a load, store or atomic operation of
// a scalar of type t: its store size (an i24 accesses 3 bytes).
func (dl layout) scalarSize(t types.Type) (uint8, error) {
	if _, err := slotsOf(t); err != nil {
		return 0, err
	}
	s, err := dl.storeSize(t)
	if err != nil {
		return 0, err
	}
	if s > 8 {
		return 0, fmt.Errorf("scalar of %d bytes is not supported", s)
	}
	return uint8(s), nil
}

func (c *fnCompiler) move(dst, src value.Value, loc int32) error {
	a, err := c.operand(src)
	if err != nil {
		return err
	}
	n, err := slotsOf(dst.Type())
	if err != nil {
		return c.errf("%v", err)
	}
	c.emitMove(c.dst(dst), a, n, loc)
	return nil
}

func (c *fnCompiler) emitMove(dst, src int32, n int, loc int32) {
	if n == 1 {
		c.emit(Inst{Op: OpMov, Dst: dst, A: src}, loc)
	} else {
		c.emit(Inst{Op: OpMovN, Dst: dst, A: src, Imm: uint64(n)}, loc)
	}
}

func (c *fnCompiler) conv(op Op, dst value.Value, from value.Value, to types.Type, loc int32) error {
	a, err := c.operand(from)
	if err != nil {
		return err
	}
	if _, vec := to.(*types.VectorType); vec {
		return c.errf("vector instructions are not supported")
	}
	in := Inst{Op: op, Dst: c.dst(dst), A: a}
	if (op == OpPtrToInt || op == OpIntToPtr) && c.l.dl.ilp32 {
		in.Aux = AuxPtr32
	}
	switch op {
	case OpTrunc, OpPtrToInt:
		w, ok := intWidth(to)
		if !ok {
			return c.errf("type %s is not supported", to)
		}
		in.Imm = Mask(w)
	case OpSExt:
		fw, ok1 := intWidth(from.Type())
		tw, ok2 := intWidth(to)
		if !ok1 || !ok2 {
			return c.errf("sext from %s to %s is not supported", from.Type(), to)
		}
		in.W, in.Imm = fw, Mask(tw)
	case OpFPTrunc, OpFPExt:
		if _, err := floatWidth(from.Type()); err != nil {
			return c.errf("%v", err)
		}
		if _, err := floatWidth(to); err != nil {
			return c.errf("%v", err)
		}
	case OpFPToSI, OpFPToUI:
		fw, err := floatWidth(from.Type())
		if err != nil {
			return c.errf("%v", err)
		}
		tw, ok := intWidth(to)
		if !ok {
			return c.errf("type %s is not supported", to)
		}
		in.W, in.Aux, in.Imm = fw, tw, Mask(tw)
	case OpSIToFP, OpUIToFP:
		fw, ok := intWidth(from.Type())
		if !ok {
			return c.errf("type %s is not supported", from.Type())
		}
		tw, err := floatWidth(to)
		if err != nil {
			return c.errf("%v", err)
		}
		in.W, in.Aux = tw, fw
	}
	c.emit(in, loc)
	return nil
}

func (c *fnCompiler) memop(load bool, t types.Type, dst, ptr, val int32, loc int32) error {
	switch t.(type) {
	case *types.StructType, *types.ArrayType:
		var acc AggAccess
		var kinds []ValueKind
		if err := c.l.dl.leaves(t, 0, &acc, &kinds); err != nil {
			return c.errf("%v", err)
		}
		idx := uint64(len(c.out.Aggs))
		c.out.Aggs = append(c.out.Aggs, acc)
		if load {
			if slices.ContainsFunc(kinds, func(k ValueKind) bool { return k != KindPtr }) {
				c.out.NumLoads = append(c.out.NumLoads, int32(len(c.out.Code)))
			}
			c.emit(Inst{Op: OpLoadAgg, Dst: dst, A: ptr, Imm: idx}, loc)
		} else {
			c.emit(Inst{Op: OpStoreAgg, A: ptr, B: val, Imm: idx}, loc)
		}
		return nil
	}
	if _, isPtr := t.(*types.PointerType); isPtr && c.l.dl.ilp32 {
		// a 32-bit pointer in memory: a one-leaf aggregate access, whose
		// leaf the vm converts (AggAccess.Ptr32)
		idx := uint64(len(c.out.Aggs))
		c.out.Aggs = append(c.out.Aggs, AggAccess{Offs: []uint32{0}, Sizes: []uint8{4}, Ptr32: []bool{true}})
		if load {
			c.emit(Inst{Op: OpLoadAgg, Dst: dst, A: ptr, Imm: idx}, loc)
		} else {
			c.emit(Inst{Op: OpStoreAgg, A: ptr, B: val, Imm: idx}, loc)
		}
		return nil
	}
	size, err := c.l.dl.scalarSize(t)
	if err != nil {
		return c.errf("%v", err)
	}
	if load {
		in := Inst{Op: OpLoad, W: size, Dst: dst, A: ptr}
		if _, isPtr := t.(*types.PointerType); !isPtr {
			c.out.NumLoads = append(c.out.NumLoads, int32(len(c.out.Code)))
		}
		if it, ok := t.(*types.IntType); ok && it.BitSize < uint64(size)*8 {
			in.Imm = Mask(uint8(it.BitSize)) // i1 and odd widths: keep the value's bits
		}
		c.emit(in, loc)
	} else {
		c.emit(Inst{Op: OpStore, W: size, A: ptr, B: val}, loc)
	}
	return nil
}

// atomicAccess marks the load or store just emitted atomic. The
// aggregate accesses (and ILP32 pointers, which are accessed as
// aggregates) have no atomic form: such an access is refused, by name,
// rather than seen as a plain access that races.
func (c *fnCompiler) atomicAccess() error {
	in := &c.out.Code[len(c.out.Code)-1]
	if in.Op != OpLoad && in.Op != OpStore {
		if c.l.dl.ilp32 {
			return c.errf("atomic load or store of a pointer or aggregate is not supported under the ILP32 data model")
		}
		return c.errf("atomic load or store of an aggregate is not supported")
	}
	in.Aux = AuxAtomic
	return nil
}

// notPtr32 refuses an atomic read-modify-write of a pointer in an ILP32
// module (the vm's atomics access 64-bit register forms).
func (c *fnCompiler) notPtr32(what string, t types.Type) error {
	if _, ptr := t.(*types.PointerType); ptr && c.l.dl.ilp32 {
		return c.errf("%s on a pointer is not supported under the ILP32 data model", what)
	}
	return nil
}

func (c *fnCompiler) gep(in *lir.InstGetElementPtr, loc int32) error {
	if _, vec := in.Typ.(*types.VectorType); vec {
		return c.errf("vector instructions are not supported")
	}
	base, err := c.operand(in.Src)
	if err != nil {
		return err
	}
	var g GEP
	g.Base = base
	t := in.ElemType
	for i, ix := range in.Indices {
		var scale int64
		if i == 0 {
			s, err := c.l.dl.sizeOf(t)
			if err != nil {
				return c.errf("%v", err)
			}
			scale = int64(s)
		} else {
			switch tt := t.(type) {
			case *types.StructType:
				ci, ok := ix.(*constant.Int)
				if !ok {
					return c.errf("non-constant struct index")
				}
				offs, _, err := c.l.dl.structLayout(tt)
				if err != nil {
					return c.errf("%v", err)
				}
				fi := ci.X.Int64()
				if fi < 0 || fi >= int64(len(offs)) {
					return c.errf("struct index %d out of range", fi)
				}
				g.Off += int64(offs[fi])
				t = tt.Fields[fi]
				continue
			case *types.ArrayType:
				s, err := c.l.dl.sizeOf(tt.ElemType)
				if err != nil {
					return c.errf("%v", err)
				}
				scale = int64(s)
				t = tt.ElemType
			default:
				return c.errf("cannot index into %s", t)
			}
		}
		w, ok := intWidth(ix.Type())
		if !ok {
			return c.errf("index of type %s is not supported", ix.Type())
		}
		if cst, ok := ix.(constant.Constant); ok {
			v, err := c.l.scalarConst(cst)
			if err != nil {
				return c.errf("%v", err)
			}
			g.Off += sext(v, w) * scale
			continue
		}
		s, err := c.operand(ix)
		if err != nil {
			return err
		}
		g.Idx = append(g.Idx, s)
		g.Scale = append(g.Scale, scale)
		g.Width = append(g.Width, w)
	}
	d := c.dst(in)
	switch {
	case len(g.Idx) == 0:
		c.emit(Inst{Op: OpGEPC, Dst: d, A: base, Imm: uint64(g.Off)}, loc)
	case len(g.Idx) == 1 && g.Off == 0:
		c.emit(Inst{Op: OpGEP1, Dst: d, A: base, B: g.Idx[0], W: g.Width[0], Imm: uint64(g.Scale[0])}, loc)
	default:
		c.emit(Inst{Op: OpGEPN, Dst: d, Imm: uint64(len(c.out.GEPs))}, loc)
		c.out.GEPs = append(c.out.GEPs, g)
	}
	return nil
}

var intrinsicOps = map[string]Op{
	"llvm.ctpop": OpCtpop, "llvm.ctlz": OpCtlz, "llvm.cttz": OpCttz, "llvm.bswap": OpBswap,
	"llvm.abs": OpAbs, "llvm.smin": OpSMin, "llvm.smax": OpSMax, "llvm.umin": OpUMin,
	"llvm.umax": OpUMax, "llvm.fshl": OpFshl, "llvm.fshr": OpFshr,
	"llvm.sadd.with.overflow": OpSAddO, "llvm.uadd.with.overflow": OpUAddO,
	"llvm.ssub.with.overflow": OpSSubO, "llvm.usub.with.overflow": OpUSubO,
	"llvm.smul.with.overflow": OpSMulO, "llvm.umul.with.overflow": OpUMulO,
	"llvm.fabs": OpFAbs, "llvm.sqrt": OpSqrt,
	"llvm.sadd.sat": OpSAddSat, "llvm.uadd.sat": OpUAddSat, "llvm.ssub.sat": OpSSubSat,
	"llvm.usub.sat": OpUSubSat,
}

func intrinsicBase(name string) string {
	// llvm.ctpop.i32 -> llvm.ctpop ; llvm.sadd.with.overflow.i32 -> llvm.sadd.with.overflow
	if i := strings.LastIndex(name, "."); i > 0 {
		suf := name[i+1:]
		if strings.HasPrefix(suf, "i") || suf == "f32" || suf == "f64" {
			return name[:i]
		}
	}
	return name
}

func (c *fnCompiler) call(in *lir.InstCall, loc int32) error {
	callee, direct := in.Callee.(*lir.Func)
	if direct && strings.HasPrefix(callee.Name(), "llvm.") {
		return c.intrinsic(in, callee.Name(), loc)
	}
	if bc, ok := in.Callee.(*constant.ExprBitCast); ok && !direct {
		// A platform function called through a bitcast of its address, as
		// clang calls an unprototyped declaration (`void
		// __VERIFIER_atomic_begin();`) under ILP32: the vm calls it as it
		// would directly, so it is a direct platform call (OpCallB) and every
		// analysis that looks for one finds it. A call with fewer arguments
		// than the declaration's parameters stays indirect (the vm's error).
		if f, ok := bc.From.(*lir.Func); ok && len(f.Blocks) == 0 && !strings.HasPrefix(f.Name(), "llvm.") && len(f.Params) <= len(in.Args) {
			callee, direct = f, true
		}
	}
	cs := CallSite{Callee: -1, FnSlot: -1, Ret: -1}
	sig, ok := funcSig(in.Callee.Type())
	if !ok {
		return c.errf("callee of type %s is not a function", in.Callee.Type())
	}
	cs.NFixed = int32(len(sig.Params))
	if _, isVoid := in.Typ.(*types.VoidType); !isVoid {
		n, err := slotsOf(in.Typ)
		if err != nil {
			return c.errf("%v", err)
		}
		cs.Ret, cs.RetSlots = c.dst(in), int32(n)
		if w, ok := intWidth(in.Typ); ok {
			cs.RetBits = w
		} else if fw, err := floatWidth(in.Typ); err == nil {
			cs.RetBits = fw
		}
	}
	for _, a := range in.Args {
		s, err := c.operand(a)
		if err != nil {
			return err
		}
		n, err := slotsOf(a.Type())
		if err != nil {
			return c.errf("%v", err)
		}
		var size uint8
		if n == 1 {
			size = c.l.dl.argSize(a.Type())
		}
		cs.Args = append(cs.Args, s)
		cs.ArgSlots = append(cs.ArgSlots, int32(n))
		cs.ArgKinds = append(cs.ArgKinds, kindOf(a.Type()))
		cs.ArgSizes = append(cs.ArgSizes, size)
	}
	op := OpCall
	var b int32
	if direct {
		fi := c.l.funcIdx[callee]
		cs.Callee = int32(fi)
		if len(callee.Blocks) == 0 {
			op = OpCallB
			b = int32(c.l.prog.Funcs[fi].Builtin)
		}
	} else {
		s, err := c.operand(in.Callee)
		if err != nil {
			return err
		}
		cs.FnSlot = s
		op = OpCallInd
	}
	idx := uint64(len(c.out.Calls))
	c.out.Calls = append(c.out.Calls, cs)
	c.emit(Inst{Op: op, Dst: cs.Ret, A: cs.FnSlot, B: b, Imm: idx}, loc)
	return nil
}

func funcSig(t types.Type) (*types.FuncType, bool) {
	if pt, ok := t.(*types.PointerType); ok {
		t = pt.ElemType
	}
	ft, ok := t.(*types.FuncType)
	return ft, ok
}

func (c *fnCompiler) intrinsic(in *lir.InstCall, name string, loc int32) error {
	if strings.HasPrefix(name, "llvm.dbg.declare") {
		c.dbgDeclare(in)
		return nil
	}
	if ignoredIntrinsic(name) {
		return nil
	}
	if b, ok := LookupBuiltin(name); ok {
		if c.l.dl.ilp32 && !b.ILP32Ready() {
			return c.errf("intrinsic %s is not supported under the ILP32 data model yet", name)
		}
		args := make([]int32, 0, len(in.Args))
		cs := CallSite{Callee: int32(c.l.funcIdx[in.Callee.(*lir.Func)]), FnSlot: -1, Ret: -1}
		for _, a := range in.Args {
			s, err := c.operand(a)
			if err != nil {
				return err
			}
			args = append(args, s)
			cs.ArgSlots = append(cs.ArgSlots, 1)
			cs.ArgKinds = append(cs.ArgKinds, kindOf(a.Type()))
			cs.ArgSizes = append(cs.ArgSizes, c.l.dl.argSize(a.Type()))
		}
		cs.Args = args
		cs.NFixed = int32(len(args))
		if IsMathIntrinsic(name) {
			fw, err := floatWidth(in.Typ)
			if err != nil {
				return c.errf("intrinsic %s: %v", name, err)
			}
			cs.Ret, cs.RetSlots, cs.RetBits = c.dst(in), 1, fw
		}
		idx := uint64(len(c.out.Calls))
		c.out.Calls = append(c.out.Calls, cs)
		c.emit(Inst{Op: OpCallB, Dst: -1, A: -1, B: int32(b), Imm: idx}, loc)
		return nil
	}
	base := intrinsicBase(name)
	if strings.HasPrefix(name, "llvm.expect.") {
		return c.move(in, in.Args[0], loc)
	}
	switch base {
	case "llvm.stacksave":
		c.emit(Inst{Op: OpStackSave, Dst: c.dst(in)}, loc)
		return nil
	case "llvm.stackrestore":
		a, err := c.operand(in.Args[0])
		if err != nil {
			return err
		}
		c.emit(Inst{Op: OpStackRestore, A: a}, loc)
		return nil
	case "llvm.fmuladd", "llvm.fma":
		if len(in.Args) != 3 {
			return c.errf("%s needs three arguments", name)
		}
		w, err := floatWidth(in.Args[0].Type())
		if err != nil {
			return c.errf("%v", err)
		}
		ops, err := c.operands(in.Args[0], in.Args[1], in.Args[2])
		if err != nil {
			return err
		}
		c.emit(Inst{Op: OpFMulAdd, W: w, Dst: c.dst(in), A: ops[0], B: ops[1], C: ops[2]}, loc)
		return nil
	case "llvm.trap", "llvm.debugtrap", "llvm.ubsantrap":
		c.emit(Inst{Op: OpTrap}, loc)
		return nil
	case "llvm.va_start", "llvm.va_end", "llvm.va_copy":
		return c.errf("variadic functions defined in the program are not supported")
	}
	op, ok := intrinsicOps[base]
	if !ok {
		return c.errf("intrinsic %s is not supported", name)
	}
	if len(in.Args) == 0 {
		return c.errf("intrinsic %s without arguments", name)
	}
	var ops [3]int32
	for i := 0; i < len(in.Args) && i < 3; i++ {
		s, err := c.operand(in.Args[i])
		if err != nil {
			return err
		}
		ops[i] = s
	}
	t := in.Args[0].Type()
	var w uint8
	if op == OpFAbs || op == OpSqrt {
		fw, err := floatWidth(t)
		if err != nil {
			return c.errf("%v", err)
		}
		w = fw
	} else {
		iw, ok := intWidth(t)
		if !ok {
			return c.errf("intrinsic %s on type %s is not supported", name, t)
		}
		w = iw
	}
	var flags uint8
	if op == OpAbs {
		if ci, ok := unwrapArg(in.Args[1]).(*constant.Int); ok && ci.X.Sign() != 0 {
			flags = 1
		}
	}
	if (op == OpCtlz || op == OpCttz) && len(in.Args) > 1 {
		if ci, ok := unwrapArg(in.Args[1]).(*constant.Int); ok && ci.X.Sign() != 0 {
			flags = 1 // zero is poison
		}
	}
	c.emit(Inst{Op: op, W: w, Flags: flags, Dst: c.dst(in), A: ops[0], B: ops[1], C: ops[2], Imm: Mask(w)}, loc)
	return nil
}

// dbgDeclare records a C local variable's name and the slot of its address.
func (c *fnCompiler) dbgDeclare(in *lir.InstCall) {
	val, v := declared(in)
	if val == nil || v == nil || v.Name == "" {
		return
	}
	s, ok := c.slots[val]
	if !ok {
		return
	}
	vr := Var{Name: v.Name, Slot: s, Kind: KindInt}
	if pt, ok := val.Type().(*types.PointerType); ok {
		vr.Kind = kindOf(pt.ElemType)
		if sz, err := c.l.dl.sizeOf(pt.ElemType); err == nil && sz <= 8 {
			vr.Size = uint8(sz)
		}
	}
	c.out.Vars = append(c.out.Vars, vr)
}

// declared returns what a call of llvm.dbg.declare describes: the
// variable's address (an alloca) and its debug information (nil for an
// operand of another form).
func declared(in *lir.InstCall) (value.Value, *metadata.DILocalVariable) {
	if len(in.Args) < 2 {
		return nil, nil
	}
	mv, ok := unwrapArg(in.Args[0]).(*metadata.Value)
	if !ok {
		return nil, nil
	}
	val, _ := mv.Value.(value.Value)
	var v *metadata.DILocalVariable
	if lv, ok := unwrapArg(in.Args[1]).(*metadata.Value); ok {
		v, _ = lv.Value.(*metadata.DILocalVariable)
	}
	return val, v
}

// edge builds the phi copies for the edge from block `from` to `to`.
func (c *fnCompiler) edge(from *lir.Block, to value.Value) (int32, bool, error) {
	tb, ok := to.(*lir.Block)
	if !ok {
		return 0, false, c.errf("branch target is not a block")
	}
	ti := c.blockIdx[tb]
	var moves []Move
	for _, inst := range tb.Insts {
		phi, ok := inst.(*lir.InstPhi)
		if !ok {
			break
		}
		var src value.Value
		for _, inc := range phi.Incs {
			if inc.Pred == from {
				src = inc.X
				break
			}
		}
		if src == nil {
			return 0, false, c.errf("phi %s has no value for predecessor %%%s", phi.Ident(), from.Name())
		}
		s, err := c.operand(src)
		if err != nil {
			return 0, false, err
		}
		n, err := slotsOf(phi.Typ)
		if err != nil {
			return 0, false, c.errf("%v", err)
		}
		d := c.dst(phi)
		for k := 0; k < n; k++ {
			if d+int32(k) != s+int32(k) {
				moves = append(moves, Move{Dst: d + int32(k), Src: s + int32(k)})
			}
		}
	}
	if len(moves) == 0 {
		return int32(ti), false, nil
	}
	// Parallel copy: go through temporaries if a destination is read later.
	conflict := false
	dsts := map[int32]bool{}
	for _, m := range moves {
		dsts[m.Dst] = true
	}
	for _, m := range moves {
		if dsts[m.Src] {
			conflict = true
			break
		}
	}
	if conflict {
		tmp := c.alloc(len(moves))
		seq := make([]Move, 0, 2*len(moves))
		for i, m := range moves {
			seq = append(seq, Move{Dst: tmp + int32(i), Src: m.Src})
		}
		for i, m := range moves {
			seq = append(seq, Move{Dst: m.Dst, Src: tmp + int32(i)})
		}
		moves = seq
	}
	idx := int32(len(c.out.Edges))
	c.out.Edges = append(c.out.Edges, Edge{PC: int32(ti), Moves: moves})
	return idx, true, nil
}

func (c *fnCompiler) term(b *lir.Block, t lir.Terminator) error {
	var loc int32
	if m, ok := t.(interface{ MDAttachments() []*metadata.Attachment }); ok {
		loc = c.l.location(m.MDAttachments())
	}
	switch t := t.(type) {
	case *lir.TermRet:
		if t.X == nil {
			c.emit(Inst{Op: OpRet, A: -1}, loc)
			return nil
		}
		a, err := c.operand(t.X)
		if err != nil {
			return err
		}
		n, err := slotsOf(t.X.Type())
		if err != nil {
			return c.errf("%v", err)
		}
		c.emit(Inst{Op: OpRet, A: a, Imm: uint64(n)}, loc)
		return nil
	case *lir.TermBr:
		e, moves, err := c.edge(b, t.Target)
		if err != nil {
			return err
		}
		if moves {
			c.emit(Inst{Op: OpJmpE, Imm: uint64(e)}, loc)
		} else {
			pc := c.emit(Inst{Op: OpJmp}, loc)
			c.fixups = append(c.fixups, fixup{pc: pc, field: 0, block: int(e)})
		}
		return nil
	case *lir.TermCondBr:
		cond, err := c.operand(t.Cond)
		if err != nil {
			return err
		}
		e1, m1, err := c.edge(b, t.TargetTrue)
		if err != nil {
			return err
		}
		e2, m2, err := c.edge(b, t.TargetFalse)
		if err != nil {
			return err
		}
		if !m1 && !m2 {
			pc := c.emit(Inst{Op: OpBr, A: cond}, loc)
			c.fixups = append(c.fixups, fixup{pc: pc, field: 1, block: int(e1)}, fixup{pc: pc, field: 2, block: int(e2)})
			return nil
		}
		if !m1 {
			e1 = c.plainEdge(e1)
		}
		if !m2 {
			e2 = c.plainEdge(e2)
		}
		c.emit(Inst{Op: OpBrE, A: cond, B: e1, C: e2}, loc)
		return nil
	case *lir.TermSwitch:
		x, err := c.operand(t.X)
		if err != nil {
			return err
		}
		var sw Switch
		d, m, err := c.edge(b, t.TargetDefault)
		if err != nil {
			return err
		}
		if !m {
			d = c.plainEdge(d)
		}
		sw.Default = d
		for _, cs := range t.Cases {
			cx, ok := cs.X.(constant.Constant)
			if !ok {
				return c.errf("switch case value is not a constant")
			}
			v, err := c.l.scalarConst(cx)
			if err != nil {
				return c.errf("%v", err)
			}
			e, m, err := c.edge(b, cs.Target)
			if err != nil {
				return err
			}
			if !m {
				e = c.plainEdge(e)
			}
			sw.Vals = append(sw.Vals, v)
			sw.Targets = append(sw.Targets, e)
		}
		idx := uint64(len(c.out.Switches))
		c.out.Switches = append(c.out.Switches, sw)
		c.emit(Inst{Op: OpSwitch, A: x, Imm: idx}, loc)
		return nil
	case *lir.TermUnreachable:
		c.emit(Inst{Op: OpUnreachable}, loc)
		return nil
	}
	return c.errf("terminator is not supported")
}

// plainEdge makes an edge without copies to block index bi.
func (c *fnCompiler) plainEdge(bi int32) int32 {
	idx := int32(len(c.out.Edges))
	c.out.Edges = append(c.out.Edges, Edge{PC: bi})
	return idx
}

func unwrapArg(v value.Value) value.Value {
	if a, ok := v.(*lir.Arg); ok {
		return a.Value
	}
	return v
}

func hasOptNone(attrs []lir.FuncAttribute) bool {
	for _, a := range attrs {
		switch a := a.(type) {
		case enum.FuncAttr:
			if a == enum.FuncAttrOptNone {
				return true
			}
		case *lir.AttrGroupDef:
			if hasOptNone(a.FuncAttrs) {
				return true
			}
		}
	}
	return false
}

// instText is an instruction's LLVM text without its metadata attachments.
func instText(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.Index(s, ", !"); i >= 0 && !strings.Contains(s[:i], "\n") {
		s = s[:i]
	}
	return s
}
