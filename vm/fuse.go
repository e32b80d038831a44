package vm

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"slices"
	"unsafe"

	"github.com/wyvernmc/wyvern/ir"
)

// Superinstructions. The interpreter runs a copy of each function's code in
// which the first instruction of some frequent pairs carries a fused opcode
// (below); the operands of both instructions, and the second instruction
// itself, are unchanged, so a jump to the second one still runs it alone.
// A fused instruction does the work of its first instruction and, when the
// step budget of the exec call has room for a second step (and, for a load
// as the second half, when its access hits the access cache), that of the
// second one too, counting two steps; otherwise it stops after the first,
// exactly as the unfused code would (a 1-step budget, the multi-threaded
// scheduler's, always runs the halves as two steps). Errors of a second half
// are never raised by the fused path: it falls back to the first half alone
// and the second instruction runs, and fails, on its own.
const (
	// opCmpBr+k: the integer comparison ir.OpEq+k (OpEq..OpSge, ten
	// opcodes) followed by a conditional branch (OpBr or OpBrE).
	opCmpBr ir.Op = 0x80 + iota
	_
	_
	_
	_
	_
	_
	_
	_
	_
	// opSExtGEP: OpSExt followed by OpGEP1.
	opSExtGEP
	// opGEPLoad: OpGEP1 followed by OpLoad.
	opGEPLoad
	// opStoreJmp: OpStore followed by OpJmp.
	opStoreJmp
	// opLoadOp: a non-atomic OpLoad followed by one of the integer
	// instructions of loadOpFusable, whose opcode is in Aux; Flags is
	// fuseStore when a store follows them (load-op-store, the -O0 pattern
	// of x += k on a local).
	opLoadOp
	// opJmpJmp: OpJmp to an OpJmp.
	opJmpJmp
	// opLoadS: a load of a promoted alloca (see promote): C is its slot.
	// opLoadSOp: the same fused with an integer instruction as opLoadOp.
	opLoadS
	opLoadSOp
	// opGEPStore: OpGEP1 followed by OpStore (or opStoreJmp, whose jump
	// then runs too).
	opGEPStore
	// opLoadSIdx: an opLoadSOp that begins the access a[j] or a[j + 1]
	// of -O0 code (see idxChain): the fused path runs the whole chain,
	// the load, its sext (or add nsw and sext), the GEP and the load or
	// store through it, at once when all of it fits the budget and hits
	// the access cache, and otherwise runs as an opLoadSOp.
	opLoadSIdx
	// opLoadSF: an opLoadS of a pointer that begins the access p->f of
	// -O0 code (see fieldLoad): the load of p, an OpGEPC of it and an
	// OpLoad (or opLoadOp) through the GEPC. The fused path runs the
	// three at once when they fit the budget, the slot is valid and the
	// last load hits the access cache (an opLoadOp then goes on with its
	// integer instruction); otherwise it runs as an opLoadS.
	opLoadSF
	// opUniform: an OpCallB of wyvern_uniform (see fuseUniform): A and B
	// are the registers of lo and hi, W their width in bits, Dst the
	// result's register and Imm its mask, C the call site. exec runs it
	// through Machine.uniformCall: with a *Rand chooser over a range of a
	// power of two, the simulator's draw, drawCall's draw and result
	// without its general path; otherwise drawCall.
	opUniform
	// opPtrEq, opPtrNe: an OpEq or OpNe of two pointers (ir.FlagPtrCmp)
	// in a program that may reuse addresses (Machine.reuse): its result
	// is Machine.ptrEqual's.
	opPtrEq
	opPtrNe
)

// Aux codes of opLoadOp and opLoadSOp besides the integer opcodes: an add
// or sub of 32 bits with the nsw flag alone (C's int arithmetic at -O0).
// They take the numbers of the two opcodes after OpSExt, which are never
// fused (loadOpFusable), so that the codes stay dense and Go compiles
// exec's switch on them to a jump table instead of a binary search.
const (
	auxAddNSW32 = ir.OpSExt + 1 + iota
	auxSubNSW32
	// auxAdd, auxSub, auxMul: an add, sub or mul without flags (no
	// overflow check: unsigned arithmetic).
	auxAdd
	auxSub
	auxMul
)

// Flags of fused loads (unused by loads otherwise): fuseStore marks an
// opLoadOp or opLoadSOp followed by an OpStore, fuseOp the fused integer
// instruction of both (its opcode in Aux); fuseJmp a load-op-store followed
// by an OpJmp (or opJmpJmp), fuseBr a load and comparison followed by an
// OpBr: the fused path runs those too, as third or fourth instruction.
const (
	fuseStore = 1
	fuseOp    = 2
	fuseJmp   = 4
	fuseBr    = 8
	// fuseChain: the instruction after a load and its integer instruction
	// (not fuseStore, not fuseBr) is an opSExtGEP, opGEPLoad or opGEPStore,
	// which the fused path runs too, without a dispatch (a[i] at -O0).
	fuseChain = 16
	// fuseChainS: the instruction after a load and its integer instruction
	// (and its store, under fuseStore without fuseJmp) is a load of a
	// promoted alloca, which the fused path runs too when its slot is
	// valid (-O0 reads a local just stored, or two locals in a row).
	fuseChainS = 32
	// fuseNext: the instruction after a load-op pair (or load-op-store)
	// is in the code (the fused path dispatches it without the loop's
	// turn).
	fuseNext = 64
)

// fuseSlot marks, in Flags (unused by stores and allocas otherwise), an
// OpStore or opStoreJmp to a promoted alloca (its Imm then the mask of W
// bytes), or the OpAlloca of one: C is its slot.
const fuseSlot = 1

// fuseCode returns the code the interpreter runs for fn.
func fuseCode(fn *ir.Func, promote bool) []ir.Inst {
	code := append([]ir.Inst(nil), fn.Code...)
	var slots map[int32]int32
	if promote {
		slots = promotable(fn)
	}
	for pc := range code {
		in := &code[pc]
		if slots != nil && in.Op == ir.OpAlloca {
			if k, ok := slots[in.Dst]; ok {
				in.Flags, in.C = fuseSlot, k
			}
		}
		if slots != nil && (in.Op == ir.OpLoad || in.Op == ir.OpStore) {
			if k, ok := slots[in.A]; ok {
				in.C = k
				if in.Op == ir.OpLoad {
					in.Op = opLoadS
				} else {
					in.Flags, in.Imm = fuseSlot, ^uint64(0)>>(64-8*uint(in.W))
				}
			}
		}
		if in.Op == ir.OpCallB && fuseUniform(fn, in) {
			continue
		}
		if in.Op == ir.OpJmp {
			if t := int(in.Imm); t < len(fn.Code) && fn.Code[t].Op == ir.OpJmp {
				in.Op = opJmpJmp
			}
			continue
		}
		if pc+1 >= len(code) {
			continue
		}
		next := &fn.Code[pc+1]
		switch {
		case in.Op >= ir.OpEq && in.Op <= ir.OpSge && (next.Op == ir.OpBr || next.Op == ir.OpBrE):
			in.Op = opCmpBr + (in.Op - ir.OpEq)
		case in.Op == ir.OpSExt && next.Op == ir.OpGEP1:
			in.Op = opSExtGEP
		case in.Op == ir.OpGEP1 && next.Op == ir.OpLoad:
			in.Op = opGEPLoad
		case in.Op == ir.OpGEP1 && next.Op == ir.OpStore:
			in.Op = opGEPStore
		case in.Op == ir.OpStore && next.Op == ir.OpJmp:
			in.Op = opStoreJmp
		case (in.Op == ir.OpLoad || in.Op == opLoadS) && in.Aux == 0 && loadOpFusable(next):
			if in.Op == ir.OpLoad {
				in.Op = opLoadOp
			} else {
				in.Op = opLoadSOp
			}
			in.Aux, in.Flags = uint8(next.Op), fuseOp
			if next.Flags == ir.FlagNSW && next.W == 32 && next.Op == ir.OpAdd {
				in.Aux = uint8(auxAddNSW32)
			} else if next.Flags == ir.FlagNSW && next.W == 32 && next.Op == ir.OpSub {
				in.Aux = uint8(auxSubNSW32)
			} else if next.Flags == 0 {
				switch next.Op {
				case ir.OpAdd:
					in.Aux = uint8(auxAdd)
				case ir.OpSub:
					in.Aux = uint8(auxSub)
				case ir.OpMul:
					in.Aux = uint8(auxMul)
				}
			}
			if pc+2 < len(code) && fn.Code[pc+2].Op == ir.OpStore {
				in.Flags |= fuseStore
				if pc+3 < len(code) && fn.Code[pc+3].Op == ir.OpJmp {
					in.Flags |= fuseJmp
				}
			}
			if next.Op >= ir.OpEq && next.Op <= ir.OpSge && pc+2 < len(code) && fn.Code[pc+2].Op == ir.OpBr {
				in.Flags |= fuseBr
			}
		}
	}
	for pc := range code {
		if fieldLoad(code[pc:]) {
			code[pc].Op = opLoadSF
		}
	}
	for pc := 0; pc+2 < len(code); pc++ {
		in := &code[pc]
		if (in.Op == opLoadOp || in.Op == opLoadSOp) && in.Flags&(fuseStore|fuseBr) == 0 {
			switch code[pc+2].Op {
			case opSExtGEP, opGEPLoad, opGEPStore:
				in.Flags |= fuseChain
			case opLoadS, opLoadSOp:
				in.Flags |= fuseChainS
			}
		}
		if (in.Op == opLoadOp || in.Op == opLoadSOp) && (in.Flags&fuseStore == 0 || pc+3 < len(code)) {
			in.Flags |= fuseNext
		}
		if (in.Op == opLoadOp || in.Op == opLoadSOp) && in.Flags&(fuseStore|fuseJmp) == fuseStore && pc+3 < len(code) {
			if op := code[pc+3].Op; op == opLoadS || op == opLoadSOp {
				in.Flags |= fuseChainS
			}
		}
	}
	for pc := range code { // (a chain's head is no other chain's part)
		if idxChain(code[pc:]) > 0 {
			code[pc].Op = opLoadSIdx
		}
	}
	return code
}

// fuseUniform makes in, an OpCallB of fn, an opUniform when it calls
// wyvern_uniform with two scalar arguments of the same size and a result,
// in registers of fn, and reports whether it did.
func fuseUniform(fn *ir.Func, in *ir.Inst) bool {
	if ir.Builtin(in.B) != ir.BUniform || in.Imm >= uint64(len(fn.Calls)) {
		return false
	}
	cs := &fn.Calls[in.Imm]
	ok := func(r int32) bool { return r >= 0 && r < int32(fn.NRegs) }
	if len(cs.Args) != 2 || len(cs.ArgSizes) != 2 || cs.ArgSizes[0] != cs.ArgSizes[1] ||
		len(cs.ArgSlots) != 2 || cs.ArgSlots[0] != 1 || cs.ArgSlots[1] != 1 ||
		!ok(cs.Args[0]) || !ok(cs.Args[1]) || !ok(cs.Ret) || cs.RetSlots != 1 {
		return false
	}
	w := 8 * cs.ArgSizes[0]
	if w == 0 || w > 64 {
		w = 64 // (as argInt)
	}
	rw := cs.RetBits
	if rw == 0 {
		rw = 64 // (as setRet)
	}
	in.Op, in.Dst, in.A, in.B, in.C = opUniform, cs.Ret, cs.Args[0], cs.Args[1], int32(in.Imm)
	in.W, in.Imm = w, ir.Mask(rw)
	return true
}

// fieldLoad reports whether c begins with the access p->f of -O0 code,
// which fused code runs as an opLoadSF:
//
//	opLoadS  p (a promoted load, not fused with anything)
//	OpGEPC   of p
//	OpLoad   (or opLoadOp; not atomic) through the GEPC
//
// where each instruction reads its predecessor's result (and nothing
// else): so exec may compute the three results from the slot alone and
// write them in order, with the same result as running the instructions
// one by one, whatever registers they write.
func fieldLoad(c []ir.Inst) bool {
	if len(c) < 3 || c[0].Op != opLoadS || c[0].Flags != 0 || c[0].Aux != 0 {
		return false
	}
	g, y := &c[1], &c[2]
	return g.Op == ir.OpGEPC && g.A == c[0].Dst &&
		(y.Op == ir.OpLoad && y.Aux == 0 || y.Op == opLoadOp) && y.A == g.Dst
}

// idxChain returns the number of instructions (4 or 5) of the chain that
// c begins with when it is the access a[j] or a[j + 1] of -O0 code, or 0:
//
//	opLoadSOp j (a promoted load; Aux: OpSExt, or auxAddNSW32 and then an OpSExt)
//	OpSExt    (or opSExtGEP)
//	OpGEP1    (or opGEPLoad, opGEPStore) of width 64 indexed by the sext
//	OpLoad    (or opLoadOp; not atomic) or OpStore (or opStoreJmp; not
//	          promoted) through the GEP
//
// where each instruction reads its predecessor's result, the results of
// the first four are distinct registers, and none of them is another
// operand the chain reads (the add's B, the GEP's base, the stored value):
// so exec may compute them all from the registers as they are before the
// chain and write them at the end, in any order, with the same result as
// running the instructions one by one.
func idxChain(c []ir.Inst) int {
	if len(c) < 5 || c[0].Op != opLoadSOp || c[0].Flags&(fuseOp|fuseChain) != fuseOp|fuseChain {
		return 0
	}
	ld, k := &c[0], 1
	dsts := []int32{ld.Dst}
	var reads []int32
	prev := ld.Dst
	if ld.Aux == uint8(auxAddNSW32) {
		add := &c[1]
		if add.A != prev {
			return 0
		}
		reads = append(reads, add.B)
		dsts = append(dsts, add.Dst)
		prev, k = add.Dst, 2
	} else if ld.Aux != uint8(ir.OpSExt) {
		return 0
	}
	sext, gep, acc := &c[k], &c[k+1], &c[k+2]
	if sext.Op != ir.OpSExt && sext.Op != opSExtGEP || sext.A != prev {
		return 0
	}
	if gep.Op != ir.OpGEP1 && gep.Op != opGEPLoad && gep.Op != opGEPStore || gep.B != sext.Dst || gep.W != 64 {
		return 0
	}
	dsts = append(dsts, sext.Dst, gep.Dst)
	reads = append(reads, gep.A)
	switch {
	case (acc.Op == ir.OpLoad && acc.Aux == 0 || acc.Op == opLoadOp) && acc.A == gep.Dst:
	case (acc.Op == ir.OpStore || acc.Op == opStoreJmp) && acc.Flags == 0 && acc.A == gep.Dst:
		reads = append(reads, acc.B)
	default:
		return 0
	}
	for i, d := range dsts {
		if slices.Contains(dsts[i+1:], d) || slices.Contains(reads, d) {
			return 0
		}
	}
	return k + 3
}

// loadOpFusable reports whether in can be the second half of opLoadOp:
// simple integer arithmetic (an add, sub or mul that overflows under nsw or
// nuw is left to run, and fail, on its own).
func loadOpFusable(in *ir.Inst) bool {
	switch in.Op {
	case ir.OpAdd, ir.OpSub, ir.OpMul:
		return true
	case ir.OpLShr:
		return in.Flags&^ir.FlagLax == 0
	case ir.OpAnd, ir.OpOr, ir.OpXor, ir.OpSExt, ir.OpTrunc:
		return true
	case ir.OpEq, ir.OpNe, ir.OpUlt, ir.OpUle, ir.OpUgt, ir.OpUge, ir.OpSlt, ir.OpSle, ir.OpSgt, ir.OpSge:
		return true
	}
	return false
}

// codeOf returns the code the interpreter runs for fn: m's fused copy
// (m.code is indexed by ir.Func.Index), or fn's own code for a function m
// did not prepare.
func (m *Machine) codeOf(fn *ir.Func) []ir.Inst {
	if uint(fn.Index) < uint(len(m.code)) {
		return m.code[fn.Index]
	}
	return fn.Code
}

// fuseProgram returns the per-function code of p for m.code, or nil (the
// functions' own code) when some function's Index is not its position.
func fuseProgram(p *ir.Program, promote, reuse bool) [][]ir.Inst {
	code := make([][]ir.Inst, len(p.Funcs))
	for i, f := range p.Funcs {
		if f.Index != i {
			return nil
		}
		if reuse {
			f = ptrCmpCode(f)
		}
		code[i] = fuseCode(f, promote)
	}
	return code
}

// ptrCmpCode returns fn, or a copy of it whose comparisons of two pointers
// (ir.FlagPtrCmp) are opPtrEq and opPtrNe, which no superinstruction fuses:
// the comparisons address reuse decides (reuse.go).
func ptrCmpCode(fn *ir.Func) *ir.Func {
	var code []ir.Inst
	for pc, in := range fn.Code {
		if (in.Op != ir.OpEq && in.Op != ir.OpNe) || in.Flags&ir.FlagPtrCmp == 0 {
			continue
		}
		if code == nil {
			code = append([]ir.Inst(nil), fn.Code...)
		}
		code[pc].Op = opPtrEq + (in.Op - ir.OpEq)
	}
	if code == nil {
		return fn
	}
	g := *fn
	g.Code = code
	return &g
}

// Promoted allocas. At -O0 nearly every LLVM instruction is a load or store
// of a local variable's alloca. A scalar alloca whose address does not
// escape (promotable) is read and written only by the loads and stores of
// its own frame, so while one exec call runs in that frame, the value it
// last stored or loaded there can be kept in a slot of the call (the
// exec-local promoSlots, never part of a state) and a load of it read from
// the slot instead of memory. Stores still write memory (through the
// ordinary checked, copy-on-write store path) and also the slot, so memory
// always holds what it holds without promotion: state keys, snapshots,
// properties and error reports see no difference. A load whose slot is not
// yet valid in the call reads memory as an ordinary load and makes the slot
// valid with the value read (bindLoad); the slots are dropped at every
// change of frame, allocation and slow instruction.

// maxPromoted is the number of slots of promoSlots (a power of two, at
// most 32).
const maxPromoted = 8

// promoSlots holds, during one exec call, the values of the promoted allocas
// of the running frame. Slot k is bound when bit maxPromoted+k of valid is
// set: d[k] is then its block's bytes (owned and writable, as a w entry of
// the access cache), which the frame's stores to it write directly; it is
// valid when bit k is set (only a bound slot is): v[k] is then the value
// the frame last stored there, which its loads read. A bound slot's block
// is never in the access cache: bind drops it, and an access that fills the
// cache from it (a pointer forged to the block by integer arithmetic, which
// the escape analysis cannot see) unbinds the slot (forget), so that no
// store to the block bypasses the slot. Whatever clears the access cache
// drops the slots too.
type promoSlots struct {
	valid uint64
	v     [maxPromoted]uint64
	d     [maxPromoted]unsafe.Pointer
}

// bind binds slot k to the block that p (the alloca's address) points to,
// when it is an owned and writable stack block of at least w bytes (a store
// to a block not yet owned takes the ordinary path, which copies it), and
// reports whether it did.
func (ps *promoSlots) bind(lc *accessCache, mem *Memory, k uint32, p uint64, w uint8) bool {
	id := uint32(p >> ir.PtrBlockShift)
	if id >= mem.n || uint32(p) != ir.PtrBase(id) {
		return false
	}
	ch := mem.chunks[id>>chunkBits]
	b := &ch.b[id&(chunkSize-1)]
	if ch.owner != mem.epoch || b.owner != mem.epoch || b.kind != blkStack || b.pages != nil || len(b.data) < int(w) || w == 0 {
		return false
	}
	if ps.valid != 0 {
		ps.forget(b) // another slot of the same block (not made by the compiler)
	}
	if e := &lc[(p>>pageBits)&(lcSize-1)]; e.key == p>>pageBits {
		e.key, e.p, e.n = 0, nil, 0 // a small block: its only window
	}
	ps.d[k] = unsafe.Pointer(unsafe.SliceData(b.data))
	ps.valid |= 1 << (maxPromoted + k)
	return true
}

// bindLoad binds slot k as bind does, after a load of its alloca at p
// that read d (the block's bytes, from the access cache's fill) missed the
// slot, and makes it valid with the value loaded, so that the frame's next
// loads of an alloca it does not store to again (a pointer parameter kept
// at -O0, loaded at every use) read the slot.
func (ps *promoSlots) bindLoad(lc *accessCache, mem *Memory, k uint32, p uint64, w uint8, d []byte) {
	if ps.bind(lc, mem, k, p, w) {
		ps.v[k] = loadLE(d, w)
		ps.valid |= 1 << k
	}
}

// forget unbinds (and drops) the slots bound to block b.
func (ps *promoSlots) forget(b *block) {
	if b.kind != blkStack || b.pages != nil || len(b.data) == 0 {
		return // only small stack blocks are bound
	}
	d := unsafe.Pointer(unsafe.SliceData(b.data))
	for m := ps.valid >> maxPromoted; m != 0; m &= m - 1 {
		k := bits.TrailingZeros64(m) & (maxPromoted - 1)
		if ps.d[k] == d {
			ps.valid &^= 1<<k | 1<<(maxPromoted+k)
		}
	}
}

// promotable returns the slot of each promotable alloca of fn, keyed by the
// register holding its address, or nil. An alloca is promotable when its
// size is fixed and 1, 2, 4 or 8 bytes, its register is written by it
// alone, and every other mention of the register, in any instruction field
// (whatever the field means), phi move, call site, GEP or multi-slot
// operand range, is the address operand of a non-atomic load or store of
// exactly its size (the stored value being another register).
func promotable(fn *ir.Func) map[int32]int32 {
	cand := map[int32]uint8{} // register -> size
	for _, in := range fn.Code {
		if in.Op == ir.OpAlloca && in.A < 0 && (in.Imm == 1 || in.Imm == 2 || in.Imm == 4 || in.Imm == 8) &&
			in.Dst >= int32(fn.NParams) && in.Dst < fn.ConstBase {
			if _, dup := cand[in.Dst]; dup {
				cand[in.Dst] = 0 // two allocas: keep it simple
				continue
			}
			cand[in.Dst] = uint8(in.Imm)
		}
	}
	for d, w := range cand {
		if w == 0 {
			delete(cand, d)
		}
	}
	if len(cand) == 0 {
		return nil
	}
	for _, prm := range fn.Params {
		delete(cand, prm)
	}
	esc := func(d int32) { delete(cand, d) }
	span := func(first, n int32) { // the registers [first, first+n) escape
		for d := range cand {
			if d >= first && d < first+max(n, 1) {
				esc(d)
			}
		}
	}
	for _, in := range fn.Code {
		switch {
		case in.Op == ir.OpAlloca:
			// its Dst is the candidate; A is a count register when >= 0
			span(in.A, 1)
			if _, ok := cand[in.Dst]; !ok {
				span(in.Dst, 1)
			}
			if in.Aux != ir.AuxUndef { // (there B is an index of UndefMasks)
				span(in.B, 1)
			}
			span(in.C, 1)
			continue
		case (in.Op == ir.OpLoad || in.Op == ir.OpStore) && in.Aux == 0:
			if w, ok := cand[in.A]; !ok || w != in.W {
				span(in.A, 1)
			}
			if in.Op == ir.OpLoad {
				span(in.Dst, 1)
			} else {
				span(in.B, 1)
			}
			// B of a load and Dst, C of both are unused (0)
			continue
		}
		n := int32(in.Imm)
		if in.Imm > 1<<20 {
			n = 1 << 20
		}
		switch in.Op {
		case ir.OpJmp, ir.OpJmpE:
			continue // no registers
		case ir.OpBr, ir.OpBrE, ir.OpSwitch:
			span(in.A, 1) // B, C: pcs or edges
			continue
		case ir.OpCall, ir.OpCallInd, ir.OpCallB:
			continue // their registers are the call site's (below)
		case ir.OpRet:
			span(in.A, n)
			continue
		}
		// Any other instruction: every field, a second result after Dst,
		// and for the multi-slot ones the ranges they read or write.
		span(in.Dst, 2)
		span(in.A, 1)
		span(in.B, 1)
		span(in.C, 1)
		switch in.Op {
		case ir.OpMovN, ir.OpExtract:
			span(in.Dst, n)
			span(in.A, n+max(in.B, 0))
		case ir.OpSelectN:
			span(in.Dst, n)
			span(in.B, n)
			span(in.C, n)
		case ir.OpInsert:
			span(in.Dst, in.C)
			span(in.A, in.C)
			span(in.B, int32(in.Imm>>32))
		case ir.OpLoadAgg, ir.OpStoreAgg:
			if in.Imm >= uint64(len(fn.Aggs)) {
				return nil
			}
			k := int32(len(fn.Aggs[in.Imm].Offs))
			span(in.Dst, k)
			span(in.B, k)
		}
		if len(cand) == 0 {
			return nil
		}
	}
	for _, e := range fn.Edges {
		for _, mv := range e.Moves {
			span(mv.Dst, 1)
			span(mv.Src, 1)
		}
	}
	for _, cs := range fn.Calls {
		if cs.Callee < 0 {
			span(cs.FnSlot, 1)
		}
		for i, a := range cs.Args {
			k := int32(1)
			if i < len(cs.ArgSlots) {
				k = cs.ArgSlots[i]
			}
			span(a, k)
		}
		span(cs.Ret, cs.RetSlots)
	}
	for _, g := range fn.GEPs {
		span(g.Base, 1)
		for _, x := range g.Idx {
			span(x, 1)
		}
	}
	if len(cand) == 0 {
		return nil
	}
	// slots in order of the allocas
	slots := map[int32]int32{}
	for _, in := range fn.Code {
		if _, ok := cand[in.Dst]; ok && in.Op == ir.OpAlloca && len(slots) < maxPromoted {
			slots[in.Dst] = int32(len(slots))
		}
	}
	return slots
}

// loadLE reads a little-endian scalar of w bytes (1 to 8).
func loadLE(d []byte, w uint8) uint64 {
	switch w { // C's int and long first
	case 4:
		return uint64(binary.LittleEndian.Uint32(d))
	case 8:
		return binary.LittleEndian.Uint64(d)
	case 1:
		return uint64(d[0])
	case 2:
		return uint64(binary.LittleEndian.Uint16(d))
	}
	return loadOdd(d, w)
}

// loadOdd reads a little-endian scalar of 3, 5, 6 or 7 bytes: an integer
// of an odd width (ir: a load's width is its type's store size).
func loadOdd(d []byte, w uint8) uint64 {
	var v uint64
	for i := int(w) - 1; i >= 0; i-- {
		v = v<<8 | uint64(d[i])
	}
	return v
}

// storeLE writes v as a little-endian scalar of w bytes (1 to 8).
func storeLE(d []byte, w uint8, v uint64) {
	switch w { // C's int and long first
	case 4:
		binary.LittleEndian.PutUint32(d, uint32(v))
	case 8:
		binary.LittleEndian.PutUint64(d, v)
	case 1:
		d[0] = byte(v)
	case 2:
		binary.LittleEndian.PutUint16(d, uint16(v))
	default:
		storeOdd(d, w, v)
	}
}

// storeOdd writes v as a little-endian scalar of 3, 5, 6 or 7 bytes.
func storeOdd(d []byte, w uint8, v uint64) {
	for i := range int(w) {
		d[i] = byte(v >> (8 * i))
	}
}

// checkRegs panics unless the register operands of the instructions whose
// registers exec reads and writes without bounds checks (reg) lie in
// [0, fn.NRegs): the compiler's invariant, checked once per machine so that
// a broken one cannot make exec touch memory outside a register file.
func checkRegs(fn *ir.Func) {
	n := int32(fn.NRegs)
	bad := func(rs ...int32) bool {
		for _, x := range rs {
			if x < 0 || x >= n {
				return true
			}
		}
		return false
	}
	for pc, in := range fn.Code {
		var wrong bool
		switch {
		case in.Op >= ir.OpAdd && in.Op <= ir.OpSge, in.Op == ir.OpGEP1:
			wrong = bad(in.Dst, in.A, in.B)
		case in.Op == ir.OpMov, in.Op == ir.OpTrunc, in.Op == ir.OpSExt, in.Op == ir.OpGEPC, in.Op == ir.OpLoad:
			wrong = bad(in.Dst, in.A)
		case in.Op == ir.OpStore:
			wrong = bad(in.A, in.B)
		case in.Op == ir.OpBr, in.Op == ir.OpBrE:
			wrong = bad(in.A)
		}
		if wrong {
			panic(fmt.Sprintf("vm: %s pc %d: %s has a register operand outside the function's %d registers", fn.Name, pc, in.Op, n))
		}
	}
}

// checkPCs panics unless every pc that exec can reach in fn's code lies in
// [0, len(fn.Code)): the targets of jumps, branches and edges, and the
// instruction after every instruction that goes on to the next one (all
// but jumps, branches, switches, returns, unreachable and trap). exec
// checks the pc it starts a frame at, and from there reads its
// instructions without bounds checks (instAt): every pc it sets is a
// target checked here, or lies after an instruction (fused code: after
// the last instruction of a fused group) that goes on to the next one.
// Fused code has the same instructions in the same places, with the same
// targets. The compiler's invariant (LLVM blocks end in terminators),
// checked once per machine as checkRegs is.
func checkPCs(fn *ir.Func) {
	n := int32(len(fn.Code))
	bad := func(pc int32) bool { return pc < 0 || pc >= n }
	for _, e := range fn.Edges {
		if bad(e.PC) {
			panic(fmt.Sprintf("vm: %s: an edge goes to pc %d, outside the function's %d instructions", fn.Name, e.PC, n))
		}
	}
	for pc, in := range fn.Code {
		var wrong bool
		switch in.Op {
		case ir.OpJmp:
			wrong = in.Imm >= uint64(n)
		case ir.OpBr:
			wrong = bad(in.B) || bad(in.C)
		case ir.OpBrE:
			wrong = in.B < 0 || int(in.B) >= len(fn.Edges) || in.C < 0 || int(in.C) >= len(fn.Edges)
		case ir.OpJmpE:
			wrong = in.Imm >= uint64(len(fn.Edges))
		case ir.OpSwitch:
			if in.Imm >= uint64(len(fn.Switches)) {
				wrong = true
				break
			}
			sw := &fn.Switches[in.Imm]
			wrong = sw.Default < 0 || int(sw.Default) >= len(fn.Edges)
			for _, e := range sw.Targets {
				wrong = wrong || e < 0 || int(e) >= len(fn.Edges)
			}
		case ir.OpRet, ir.OpUnreachable, ir.OpTrap:
		default:
			wrong = int32(pc)+1 >= n
		}
		if wrong {
			panic(fmt.Sprintf("vm: %s pc %d: %s can reach a pc outside the function's %d instructions", fn.Name, pc, in.Op, n))
		}
	}
}

// instAt returns &code[pc] without a bounds check: exec checks the pc a
// frame starts at, and checkPCs every pc exec goes on to from there.
func instAt(code []ir.Inst, pc int32) *ir.Inst {
	return (*ir.Inst)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(code)), uintptr(pc)*unsafe.Sizeof(ir.Inst{})))
}

// nextInst returns the instruction k places after in in its code (fused
// code guarantees it is there: see fuseCode).
func nextInst(in *ir.Inst, k uintptr) *ir.Inst {
	return (*ir.Inst)(unsafe.Add(unsafe.Pointer(in), k*unsafe.Sizeof(ir.Inst{})))
}

// maxStraight caps a straight distance (straightDists): a process goes on
// for at most that many steps without the scheduler looking again.
const maxStraight = 1<<16 - 1

// straightProgram returns the straight distances of every function of p
// (indexed by ir.Func.Index, which fuseProgram checked is its position).
//
// In a program that may allocate undefined memory (undef), it returns two
// tables: d, for states with a block of undefined bytes, where a load may
// draw (undef.go) and ends a straight run as a call does (but for a load
// from a scalar local's own alloca, which never draws); and def, for
// states without one, where no load draws until an alloca of undefined
// bytes (ir.AuxUndef) makes one, so those allocas end a run instead (a
// call, which may allocate or copy undefined bytes, does anyway).
func straightProgram(p *ir.Program, reuse, undef bool) (d, def [][]uint16) {
	d = make([][]uint16, len(p.Funcs))
	if undef {
		def = make([][]uint16, len(p.Funcs))
	}
	for i, f := range p.Funcs {
		if reuse {
			// a comparison address reuse decides may draw, as a call
			// may: it ends a straight run like one (straightDists)
			f = ptrCmpCode(f)
		}
		// (a pointer comparison of ptrCmpCode's may draw, as a call may)
		stop := func(in *ir.Inst) bool { return isCall(in) || in.Op == opPtrEq || in.Op == opPtrNe }
		if !undef {
			d[i] = straightDists(f, stop)
			continue
		}
		defined := definedSlots(f)
		d[i] = straightDists(f, func(in *ir.Inst) bool {
			return stop(in) || (in.Op == ir.OpLoad || in.Op == ir.OpLoadAgg || in.Op == ir.OpAtomicRMW || in.Op == ir.OpCmpXchg) && !defined[in.A]
		})
		def[i] = straightDists(f, func(in *ir.Inst) bool {
			return stop(in) || in.Op == ir.OpAlloca && in.Aux == ir.AuxUndef
		})
	}
	return d, def
}

// straightDists returns, for each pc of f's own code, its straight
// distance: the least number of instructions a process at pc runs, along
// any path of the code, up to its first call (excluded) or return,
// unreachable or trap (included), at most maxStraight (a loop without
// calls or returns has no end): a process at pc can take that many steps
// with no call among them and no call at the states between them, and
// none of those steps but the last can change which processes are enabled
// (see slicer.next). A call has distance 0, a return 1, a jump or branch
// one more than the least of its targets'.
func straightDists(f *ir.Func, stop func(*ir.Inst) bool) []uint16 {
	code := f.Code
	n := len(code)
	// succs calls visit for each successor pc of the non-call instruction
	// at pc (end: the instruction ends the run, a return).
	succs := func(pc int, visit func(to int32), end func()) {
		in := &code[pc]
		edge := func(e int32) {
			if e >= 0 && int(e) < len(f.Edges) {
				visit(f.Edges[e].PC)
			} else {
				end()
			}
		}
		switch in.Op {
		case ir.OpJmp:
			visit(int32(in.Imm))
		case ir.OpJmpE:
			edge(int32(min(in.Imm, uint64(len(f.Edges)))))
		case ir.OpBr:
			visit(in.B)
			visit(in.C)
		case ir.OpBrE:
			edge(in.B)
			edge(in.C)
		case ir.OpSwitch:
			if in.Imm >= uint64(len(f.Switches)) {
				end()
				return
			}
			sw := &f.Switches[in.Imm]
			edge(sw.Default)
			for _, e := range sw.Targets {
				edge(e)
			}
		case ir.OpRet, ir.OpUnreachable, ir.OpTrap:
			end()
		default:
			visit(int32(pc + 1))
		}
	}
	// Predecessors, for a breadth-first search back from the calls and
	// the ends (a virtual node n after every return).
	preds := make([][]int32, n+1)
	for pc := range code {
		if stop(&code[pc]) {
			continue
		}
		succs(pc, func(to int32) {
			if to < 0 || int(to) >= n {
				to = int32(n) // (checkPCs: not reached)
			}
			preds[to] = append(preds[to], int32(pc))
		}, func() { preds[n] = append(preds[n], int32(pc)) })
	}
	const unset = -1
	dist := make([]int32, n+1)
	queue := make([]int32, 0, n+1)
	for pc := range dist {
		dist[pc] = unset
		if pc == n || stop(&code[pc]) {
			dist[pc] = 0
			queue = append(queue, int32(pc))
		}
	}
	for i := 0; i < len(queue); i++ {
		q := queue[i]
		for _, p := range preds[q] {
			if dist[p] == unset {
				dist[p] = dist[q] + 1
				queue = append(queue, p)
			}
		}
	}
	d := make([]uint16, n)
	for pc := range d {
		if dist[pc] == unset || dist[pc] > maxStraight {
			d[pc] = maxStraight // no call or return ahead
		} else {
			d[pc] = uint16(dist[pc])
		}
	}
	return d
}
