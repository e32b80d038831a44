package symbolic

import (
	"fmt"
	"math/big"
	"math/bits"

	"github.com/wyvernmc/wyvern/ir"
	"github.com/wyvernmc/wyvern/vm"
)

// out is a path state leaving a block for a successor block.
type out struct {
	block int
	s     *pstate
}

// block executes block b of fn on s and returns the states leaving it by
// its edges and those returning from the function. In a threaded program
// a context switch before a visible instruction forks the state, one per
// later round (see switchPoint), and an inlined call may return one state
// per round: the block goes on with each.
func (e *encoder) block(fn *ir.Func, g *graph, b int, s *pstate) ([]out, []*pstate, error) {
	start, end := g.start[b], g.end[b]
	states := []*pstate{s}
	visit := e.visit
	for pc := start; pc < end; pc++ {
		in := &fn.Code[pc]
		term := isTerminator(in.Op)
		e.instance = visit<<20 | int(pc)
		e.curCallB = in.Op == ir.OpCallB
		if e.threaded && e.switchBefore(fn, in) && !e.lockMover(fn, pc) {
			e.cinfo.fn, e.cinfo.in = fn, in // for countSwitch
			var all []*pstate
			for _, st := range states {
				if e.ownAccess(st, in) {
					all = append(all, st)
					continue
				}
				forks := e.switchPoint(st)
				all = append(append(all, st), forks...)
			}
			merged, err := e.mergeRounds(all)
			if err != nil {
				return nil, nil, fmt.Errorf("%s: %w", e.where(fn, pc), err)
			}
			states = merged
		}
		var next []*pstate
		var outs []out
		var rets []*pstate
		for _, st := range states {
			if st.g == "false" {
				continue
			}
			blk := e.poBlockEnter(fn, pc, in, st) // critical sections as blocks (encode_block.go)
			ngrp := 0
			if e.po != nil {
				ngrp = len(e.po.grps)
			}
			// every instruction is one step of the thread; a platform
			// call's step counts once it is enabled (see threadBuiltin)
			if e.threaded && in.Op != ir.OpCallB {
				st.soff++
			}
			var err error
			var ns *pstate
			if term {
				var o []out
				var r []*pstate
				o, r, err = e.terminator(fn, g, pc, in, st)
				outs, rets = append(outs, o...), append(rets, r...)
			} else {
				ns, err = e.inst(fn, pc, in, st)
			}
			if err == nil && e.err != nil {
				err = fmt.Errorf("%s: %s: %w", e.where(fn, pc), in.Op, e.err)
			}
			e.poBlockLeave(blk)
			if err != nil {
				return nil, nil, err
			}
			extra := e.extra
			e.extra = nil
			if term {
				continue
			}
			for _, x := range append([]*pstate{ns}, extra...) {
				if x == nil || x.g == "false" {
					continue
				}
				if e.threaded && in.Op == ir.OpCallB {
					x.soff++
				}
				if e.po != nil {
					e.poBlockAfter(fn, in, x, ngrp)
				}
				next = append(next, x)
			}
		}
		if term {
			return outs, rets, nil
		}
		if len(next) == 0 {
			return nil, nil, nil
		}
		states = next
	}
	if end < int32(len(fn.Code)) {
		var outs []out
		for _, st := range states {
			outs = append(outs, out{g.pcBlock[end], st})
		}
		return outs, nil, nil
	}
	return nil, nil, fmt.Errorf("%s: falls off the end of the function", e.where(fn, end-1))
}

// mergeRounds merges the states of each round.
func (e *encoder) mergeRounds(ps []*pstate) ([]*pstate, error) {
	if len(ps) <= 1 {
		return ps, nil
	}
	var out []*pstate
	for _, grp := range byRound(ps) {
		st, err := e.merge(grp)
		if err != nil {
			return nil, err
		}
		if st != nil {
			out = append(out, st)
		}
	}
	return out, nil
}

// edge follows CFG edge i (its phi copies) from s.
func (e *encoder) edge(fn *ir.Func, g *graph, i int32, s *pstate, cond Term) (out, error) {
	if i < 0 || int(i) >= len(fn.Edges) {
		return out{}, fmt.Errorf("%s: edge %d out of range", fn.Name, i)
	}
	ed := &fn.Edges[i]
	ns := s.clone()
	ns.g = e.defBool(and2(s.g, cond))
	for _, mv := range ed.Moves {
		if mv.Dst < 0 || int(mv.Dst) >= len(ns.regs) || mv.Src < 0 || int(mv.Src) >= len(ns.regs) {
			return out{}, fmt.Errorf("%s: edge %d: slot out of range", fn.Name, i)
		}
		ns.regs[mv.Dst] = ns.regs[mv.Src]
	}
	return out{g.pcBlock[ed.PC], ns}, nil
}

func (e *encoder) terminator(fn *ir.Func, g *graph, pc int32, in *ir.Inst, s *pstate) ([]out, []*pstate, error) {
	r := s.regs
	switch in.Op {
	case ir.OpJmp:
		return []out{{g.pcBlock[in.Imm], s}}, nil, nil
	case ir.OpBr:
		c := e.defBool(e.truth(r[in.A]))
		t, f := s.clone(), s
		t.g = e.defBool(and2(s.g, c))
		f.g = e.defBool(and2(s.g, not(c)))
		return []out{{g.pcBlock[in.B], t}, {g.pcBlock[in.C], f}}, nil, nil
	case ir.OpJmpE:
		o, err := e.edge(fn, g, int32(in.Imm), s, "true")
		return []out{o}, nil, err
	case ir.OpBrE:
		c := e.defBool(e.truth(r[in.A]))
		t, err := e.edge(fn, g, in.B, s, c)
		if err != nil {
			return nil, nil, err
		}
		f, err := e.edge(fn, g, in.C, s, not(c))
		return []out{t, f}, nil, err
	case ir.OpSwitch:
		sw := &fn.Switches[in.Imm]
		x := r[in.A]
		w := width(x, 64)
		xt := e.bv(x, w)
		var outs []out
		var none []Term
		for i, v := range sw.Vals {
			c := e.defBool(eqT(xt, BV(v, w)))
			if x.isConst() {
				c = Bool(x.c == v&ir.Mask(uint8(w)))
			}
			// the first matching value wins
			o, err := e.edge(fn, g, sw.Targets[i], s, and2(c, not(or(none...))))
			if err != nil {
				return nil, nil, err
			}
			outs = append(outs, o)
			none = append(none, c)
		}
		o, err := e.edge(fn, g, sw.Default, s, not(or(none...)))
		return append(outs, o), nil, err
	case ir.OpRet:
		k := int32(in.Imm)
		if in.A >= 0 {
			if in.A+k > int32(len(r)) {
				return nil, nil, fmt.Errorf("%s: return slots out of range", e.where(fn, pc))
			}
			s.ret = append([]val(nil), r[in.A:in.A+k]...)
		} else {
			s.ret = nil
		}
		for i := len(s.allocas) - 1; i >= 0; i-- {
			id := s.allocas[i]
			if e.obj {
				e.oSetBlock(s, "true", id, cst(kDead, 8), nil, 0, false)
			} else if e.po != nil && e.depth == 0 && e.th == e.slots[0] {
				// main returns: the run ends, its blocks no longer matter
			} else {
				e.setDead(s, id)
			}
			e.pushFree(s, id)
		}
		s.allocas = nil
		return nil, []*pstate{s}, nil
	case ir.OpUnreachable:
		e.check(s, errCond{vm.ErrUnreachable, "true"})
		return nil, nil, nil
	case ir.OpTrap:
		e.check(s, errCond{vm.ErrTrap, "true"})
		return nil, nil, nil
	}
	return nil, nil, e.unsupported(fn, pc, "terminator "+in.Op.String())
}

// inst executes a non-terminator instruction; the state it returns may be
// a new one (after an inlined call), nil when every path ended.
func (e *encoder) inst(fn *ir.Func, pc int32, in *ir.Inst, s *pstate) (*pstate, error) {
	r := s.regs
	if in.Op != ir.OpCall && in.Op != ir.OpCallB && in.Op != ir.OpCallInd {
		for _, x := range []int32{in.Dst, in.A, in.B, in.C} {
			if int(x) >= len(r) {
				return nil, fmt.Errorf("%s: slot %d out of range", e.where(fn, pc), x)
			}
		}
	} else if in.Imm >= uint64(len(fn.Calls)) {
		return nil, fmt.Errorf("%s: call site %d out of range", e.where(fn, pc), in.Imm)
	}
	switch in.Op {
	case ir.OpNop, ir.OpFence:
	case ir.OpAdd, ir.OpSub, ir.OpMul, ir.OpUDiv, ir.OpSDiv, ir.OpURem, ir.OpSRem,
		ir.OpShl, ir.OpLShr, ir.OpAShr, ir.OpAnd, ir.OpOr, ir.OpXor,
		ir.OpEq, ir.OpNe, ir.OpUlt, ir.OpUle, ir.OpUgt, ir.OpUge, ir.OpSlt, ir.OpSle, ir.OpSgt, ir.OpSge:
		if in.W < 1 || in.W > 64 {
			return nil, e.unsupported(fn, pc, fmt.Sprintf("%s of width %d", in.Op, in.W))
		}
		e.binop(s, in)
	case ir.OpMov:
		r[in.Dst] = r[in.A]
	case ir.OpMovN:
		k := int32(in.Imm)
		if in.A+k > int32(len(r)) || in.Dst+k > int32(len(r)) {
			return nil, fmt.Errorf("%s: slots out of range", e.where(fn, pc))
		}
		copy(r[in.Dst:in.Dst+k], append([]val(nil), r[in.A:in.A+k]...))
	case ir.OpSelect:
		r[in.Dst] = e.sel(e.truth(r[in.A]), r[in.B], r[in.C])
	case ir.OpSelectN:
		k := int32(in.Imm)
		if in.B+k > int32(len(r)) || in.C+k > int32(len(r)) || in.Dst+k > int32(len(r)) {
			return nil, fmt.Errorf("%s: slots out of range", e.where(fn, pc))
		}
		c := e.defBool(e.truth(r[in.A]))
		vs := make([]val, k)
		for i := int32(0); i < k; i++ {
			vs[i] = e.sel(c, r[in.B+i], r[in.C+i])
		}
		copy(r[in.Dst:], vs)
	case ir.OpTrunc:
		w := bits.Len64(in.Imm)
		if w == 0 {
			return nil, e.unsupported(fn, pc, "trunc to width 0")
		}
		switch a := r[in.A]; {
		case a.isConst():
			r[in.Dst] = cst(a.c&in.Imm, w)
		case a.bad == "" && a.w > 0 && a.w <= w:
			r[in.Dst] = a // narrower already: the same value
		default:
			r[in.Dst] = withBits(e.term(e.bv(a, w), w), bitsOf(a))
		}
	case ir.OpSExt:
		from, to := int(in.W), bits.Len64(in.Imm)
		if from < 1 || to < from {
			return nil, e.unsupported(fn, pc, fmt.Sprintf("sext from %d to %d bits", from, to))
		}
		switch a := r[in.A]; {
		case a.isConst():
			r[in.Dst] = cst(uint64(sx(a.c, from)), to)
		case a.bad == "" && a.w > 0 && a.w <= from && bitsOf(a) < from:
			// the sign bit is zero (encode_narrow.go): sext is zext,
			// and the value is a itself
			r[in.Dst] = a
		default:
			r[in.Dst] = e.term(SignExt(to-from, e.bv(a, from)), to)
		}
	case ir.OpInsert:
		nc := in.C
		off, k := int32(in.Imm&0xffffffff), int32(in.Imm>>32)
		if in.A+nc > int32(len(r)) || in.Dst+nc > int32(len(r)) || in.B+k > int32(len(r)) || in.Dst+off+k > int32(len(r)) {
			return nil, fmt.Errorf("%s: slots out of range", e.where(fn, pc))
		}
		agg := append([]val(nil), r[in.A:in.A+nc]...)
		part := append([]val(nil), r[in.B:in.B+k]...)
		copy(r[in.Dst:], agg)
		copy(r[in.Dst+off:], part)
	case ir.OpGEPC:
		r[in.Dst] = e.add64(r[in.A], cst(in.Imm, 64))
	case ir.OpGEP1:
		r[in.Dst] = e.add64(r[in.A], e.scaled(r[in.B], int(in.W), int64(in.Imm)))
	case ir.OpGEPN:
		gp := &fn.GEPs[in.Imm]
		p := e.add64(r[gp.Base], cst(uint64(gp.Off), 64))
		for i, sl := range gp.Idx {
			p = e.add64(p, e.scaled(r[sl], int(gp.Width[i]), gp.Scale[i]))
		}
		r[in.Dst] = p
	case ir.OpLoad:
		e.drfCheck(fn, in, s)
		if in.Flags&ir.FlagRMW != 0 {
			e.undefSilent = true // (the vm does not draw: encode_undef.go)
		}
		return s, e.load(s, in)
	case ir.OpStore:
		e.drfCheck(fn, in, s)
		return s, e.store(s, in)
	case ir.OpLoadAgg, ir.OpStoreAgg:
		e.drfCheck(fn, in, s)
		return s, e.agg(fn, s, in)
	case ir.OpAlloca:
		return s, e.alloca(fn, pc, s, in)
	case ir.OpCall:
		cs := &fn.Calls[in.Imm]
		if cs.Callee < 0 || int(cs.Callee) >= len(e.p.Funcs) {
			return nil, fmt.Errorf("%s: callee out of range", e.where(fn, pc))
		}
		return e.call(fn, pc, s, e.p.Funcs[cs.Callee], cs)
	case ir.OpCallInd:
		return e.callInd(fn, pc, s, &fn.Calls[in.Imm])
	case ir.OpCallB:
		cs := &fn.Calls[in.Imm]
		return e.builtin(fn, pc, s, ir.Builtin(in.B), cs)
	case ir.OpPtrToInt:
		e.pointerBits(in, r[in.A])
		if in.Aux == ir.AuxPtr32 {
			x := e.toPtr32(s, r[in.A])
			if s.g == "false" {
				return s, nil
			}
			r[in.Dst] = e.ptrToInt(e.intToPtr(x), in.Imm) // (zero-extended to 64 bits first)
			break
		}
		r[in.Dst] = e.ptrToInt(r[in.A], in.Imm)
	case ir.OpIntToPtr:
		e.pointerBits(in, r[in.A])
		if in.Aux == ir.AuxPtr32 {
			r[in.Dst] = e.fromPtr32(e.ptrToInt(r[in.A], 1<<32-1))
			break
		}
		r[in.Dst] = e.intToPtr(r[in.A])
	case ir.OpSMin, ir.OpSMax, ir.OpUMin, ir.OpUMax:
		w := int(in.W)
		a, b := e.bv(r[in.A], w), e.bv(r[in.B], w)
		var c Term
		switch in.Op {
		case ir.OpSMin:
			c = BVSLT(b, a)
		case ir.OpSMax:
			c = BVSGT(b, a)
		case ir.OpUMin:
			c = BVULT(b, a)
		default:
			c = BVUGT(b, a)
		}
		r[in.Dst] = e.term(ite(c, b, a), w)
	case ir.OpAbs:
		w := int(in.W)
		a := e.bv(r[in.A], w)
		if in.Flags&1 != 0 {
			e.check(s, errCond{vm.ErrOverflow, eqT(a, BV(1<<(w-1), w))})
		}
		r[in.Dst] = e.term(ite(BVSLT(a, BV(0, w)), BVNeg(a), a), w)
	case ir.OpSAddO, ir.OpUAddO, ir.OpSSubO, ir.OpUSubO, ir.OpSMulO, ir.OpUMulO:
		if int(in.Dst)+1 >= len(r) {
			return nil, fmt.Errorf("%s: slots out of range", e.where(fn, pc))
		}
		w := int(in.W)
		a, b := e.bv(r[in.A], w), e.bv(r[in.B], w)
		var v, ov Term
		switch in.Op {
		case ir.OpSAddO, ir.OpUAddO:
			v = e.defBV(BVAdd(a, b), w)
			ov = addOv(a, b, v, w, in.Op == ir.OpSAddO)
		case ir.OpSSubO, ir.OpUSubO:
			v = e.defBV(BVSub(a, b), w)
			ov = subOv(a, b, v, w, in.Op == ir.OpSSubO)
		default:
			v = e.defBV(BVMul(a, b), w)
			ov = mulOv(a, b, v, w, in.Op == ir.OpSMulO)
		}
		r[in.Dst] = val{t: v, w: w}
		r[in.Dst+1] = e.term(ite(ov, BV(1, 1), BV(0, 1)), 1)
	case ir.OpUAddSat, ir.OpUSubSat, ir.OpSAddSat, ir.OpSSubSat:
		w := int(in.W)
		a, b := e.bv(r[in.A], w), e.bv(r[in.B], w)
		var t Term
		minS, maxS := BV(1<<(w-1), w), BV(ir.Mask(uint8(w))>>1, w)
		switch in.Op {
		case ir.OpUAddSat:
			sum := BVAdd(a, b)
			t = ite(addOv(a, b, sum, w, false), BV(ir.Mask(uint8(w)), w), sum)
		case ir.OpUSubSat:
			t = ite(BVULT(a, b), BV(0, w), BVSub(a, b))
		case ir.OpSAddSat:
			sum := BVAdd(a, b)
			t = ite(addOv(a, b, sum, w, true), ite(BVSLT(a, BV(0, w)), minS, maxS), sum)
		default:
			d := BVSub(a, b)
			t = ite(subOv(a, b, d, w, true), ite(BVSLT(a, BV(0, w)), minS, maxS), d)
		}
		r[in.Dst] = e.term(t, w)
	case ir.OpBswap:
		w := int(in.W)
		if w != 16 && w != 32 && w != 64 {
			e.check(s, errCond{vm.ErrBadArg, "true"})
			return s, nil
		}
		a := e.bv(r[in.A], w)
		var parts []Term
		for i := 0; i < w/8; i++ {
			parts = append(parts, Extract(8*i+7, 8*i, a))
		}
		r[in.Dst] = e.term(concat(parts), w)
	case ir.OpFPToSI, ir.OpFPToUI, ir.OpSIToFP, ir.OpUIToFP, ir.OpFPTrunc, ir.OpFPExt,
		ir.OpFAdd, ir.OpFSub, ir.OpFMul, ir.OpFDiv, ir.OpFRem, ir.OpFNeg, ir.OpFCmp,
		ir.OpFAbs, ir.OpSqrt, ir.OpFMulAdd:
		return nil, e.unsupported(fn, pc, "floating point ("+in.Op.String()+")")
	default:
		return nil, e.unsupported(fn, pc, "instruction "+in.Op.String())
	}
	return s, nil
}

func sx(v uint64, w int) int64 {
	sh := 64 - w
	return int64(v<<sh) >> sh
}

// sel is the value c ? a : b.
func (e *encoder) sel(c Term, a, b val) val {
	switch {
	case c == "true":
		return a
	case c == "false":
		return b
	case a.same(b):
		return a
	}
	if a.bad != "" {
		return a
	}
	if b.bad != "" {
		return b
	}
	w := max(a.w, b.w)
	if w == 0 {
		w = 64
	}
	v := withSets(e.term(ite(c, e.bv(a, w), e.bv(b, w)), w), a, b)
	if pa := provenance(a); pa != 0 && pa == provenance(b) {
		v.blk = pa
	}
	return v
}

// add64 is pointer arithmetic: a + b modulo 2^64.
func (e *encoder) add64(a, b val) val {
	if a.isConst() && b.isConst() {
		return cst(a.c+b.c, 64)
	}
	if b.isConst() && b.c == 0 {
		return val{t: e.bv(a, 64), w: 64, blk: provenance(a), cs: csOf(a), pts: ptsOf(a), guess: a.guess}
	}
	v := addSets(e.term(BVAdd(e.bv(a, 64), e.bv(b, 64)), 64), a, b)
	if pa, pb := provenance(a), provenance(b); pa == 0 || pb == 0 {
		v.blk = pa | pb // a pointer plus an offset
	}
	return v
}

// scaled is sext(x from w bits) * scale, 64 bits.
func (e *encoder) scaled(x val, w int, scale int64) val {
	if w < 1 || w > 64 {
		w = 64
	}
	if x.isConst() {
		return cst(uint64(sx(x.c, w)*scale), 64)
	}
	t := SignExt(64-w, e.bv(x, w))
	if scale == 1 {
		return e.term(t, 64)
	}
	return e.term(BVMul(t, BVInt(scale, 64)), 64)
}

func sign(t Term, w int) Term { return Extract(w-1, w-1, t) }

func addOv(a, b, v Term, w int, signed bool) Term {
	if signed {
		return And(Eq(sign(a, w), sign(b, w)), Not(Eq(sign(v, w), sign(a, w))))
	}
	return Eq(Extract(w, w, BVAdd(ZeroExt(1, a), ZeroExt(1, b))), BV(1, 1))
}

func subOv(a, b, v Term, w int, signed bool) Term {
	if signed {
		return And(Not(Eq(sign(a, w), sign(b, w))), Not(Eq(sign(v, w), sign(a, w))))
	}
	return BVULT(a, b)
}

func mulOv(a, b, v Term, w int, signed bool) Term {
	if signed {
		return Not(Eq(BVMul(SignExt(w, a), SignExt(w, b)), SignExt(w, v)))
	}
	return Not(Eq(Extract(2*w-1, w, BVMul(ZeroExt(w, a), ZeroExt(w, b))), BV(0, w)))
}

// binop encodes the integer arithmetic and comparisons, with the vm's
// checks (vm/exec.go): division by zero, INT_MIN / -1 (sdiv and srem),
// nsw/nuw overflow of add, sub, mul and shl, exact division and shifts,
// shift amounts ≥ the width (an error, or 0 in optimised code).
func (e *encoder) binop(s *pstate, in *ir.Inst) {
	r := s.regs
	w := int(in.W)
	av, bv := r[in.A], r[in.B]
	if e.reuseTest(in) {
		e.reuseCut(s, av, bv, w)
	}
	if av.isConst() && bv.isConst() {
		v, k := concrete(in, av.c&ir.Mask(in.W), bv.c&ir.Mask(in.W))
		if k != vm.ErrNone {
			e.check(s, errCond{k, "true"})
			return
		}
		rw := w
		if in.Op >= ir.OpEq && in.Op <= ir.OpSge {
			rw = 1
		}
		r[in.Dst] = cst(v, rw)
		return
	}
	if e.narrowBinop(s, in, av, bv) {
		return
	}
	a, b := e.bv(av, w), e.bv(bv, w)
	lax := in.Flags&ir.FlagLax != 0
	nsw, nuw, exact := !lax && in.Flags&ir.FlagNSW != 0, !lax && in.Flags&ir.FlagNUW != 0, !lax && in.Flags&ir.FlagExact != 0
	zero := BV(0, w)
	cmp := func(c Term) { r[in.Dst] = e.term(ite(c, BV(1, 1), BV(0, 1)), 1) }
	switch in.Op {
	case ir.OpAdd, ir.OpSub, ir.OpMul:
		var v Term
		switch in.Op {
		case ir.OpAdd:
			v = e.defBV(BVAdd(a, b), w)
		case ir.OpSub:
			v = e.defBV(BVSub(a, b), w)
		default:
			v = e.defBV(BVMul(a, b), w)
		}
		var ov []Term
		for _, sg := range []bool{true, false} {
			if sg && !nsw || !sg && !nuw {
				continue
			}
			switch in.Op {
			case ir.OpAdd:
				ov = append(ov, addOv(a, b, v, w, sg))
			case ir.OpSub:
				ov = append(ov, subOv(a, b, v, w, sg))
			default:
				ov = append(ov, mulOv(a, b, v, w, sg))
			}
		}
		e.check(s, errCond{vm.ErrOverflow, or(ov...)})
		r[in.Dst] = val{t: v, w: w}
	case ir.OpUDiv, ir.OpURem:
		dz := eqT(b, zero)
		conds := []errCond{{vm.ErrDivZero, dz}}
		if in.Op == ir.OpUDiv && exact {
			conds = append(conds, errCond{vm.ErrOverflow, And(not(dz), Not(Eq(BVURem(a, b), zero)))})
		}
		e.check(s, conds...)
		if in.Op == ir.OpUDiv {
			r[in.Dst] = e.term(BVUDiv(a, b), w)
		} else {
			r[in.Dst] = e.urem(a, b, w)
		}
	case ir.OpSDiv, ir.OpSRem:
		dz := eqT(b, zero)
		ov := And(Eq(b, BV(ir.Mask(in.W), w)), Eq(a, BV(1<<(w-1), w)))
		conds := []errCond{{vm.ErrDivZero, dz}, {vm.ErrOverflow, ov}}
		if in.Op == ir.OpSDiv && exact {
			conds = append(conds, errCond{vm.ErrOverflow, And(not(dz), Not(ov), Not(Eq(BVSRem(a, b), zero)))})
		}
		e.check(s, conds...)
		if in.Op == ir.OpSDiv {
			r[in.Dst] = e.term(BVSDiv(a, b), w)
		} else {
			r[in.Dst] = e.term(BVSRem(a, b), w)
		}
	case ir.OpShl, ir.OpLShr, ir.OpAShr:
		big := BVUGE(b, BV(uint64(w), w))
		if w == 1 {
			big = eqT(b, BV(1, 1))
		}
		if bv.isConst() {
			big = Bool(bv.c&ir.Mask(in.W) >= uint64(w))
		}
		var v Term
		switch in.Op {
		case ir.OpShl:
			v = e.defBV(BVShl(a, b), w)
		case ir.OpLShr:
			v = e.defBV(BVLShr(a, b), w)
		default:
			v = e.defBV(BVAShr(a, b), w)
		}
		nbits := shiftBits(in.Op, w, min(bitsOf(av), w), bv)
		if lax {
			r[in.Dst] = withBits(e.term(ite(big, zero, v), w), nbits)
			return
		}
		var ov []Term
		switch {
		case in.Op == ir.OpShl:
			if nsw {
				ov = append(ov, Not(Eq(BVAShr(v, b), a)))
			}
			if nuw {
				ov = append(ov, Not(Eq(BVLShr(v, b), a)))
			}
		case exact:
			ov = append(ov, Not(Eq(BVShl(v, b), a)))
		}
		conds := []errCond{{vm.ErrShiftOverflow, big}}
		if len(ov) > 0 {
			conds = append(conds, errCond{vm.ErrOverflow, and2(not(big), or(ov...))})
		}
		e.check(s, conds...)
		r[in.Dst] = withBits(val{t: v, w: w}, nbits)
	case ir.OpAnd:
		r[in.Dst] = e.term(BVAnd(a, b), w)
	case ir.OpOr:
		r[in.Dst] = e.term(BVOr(a, b), w)
	case ir.OpXor:
		r[in.Dst] = e.term(BVXor(a, b), w)
	case ir.OpEq:
		cmp(eqT(a, b))
	case ir.OpNe:
		cmp(not(eqT(a, b)))
	case ir.OpUlt:
		cmp(BVULT(a, b))
	case ir.OpUle:
		cmp(BVULE(a, b))
	case ir.OpUgt:
		cmp(BVUGT(a, b))
	case ir.OpUge:
		cmp(BVUGE(a, b))
	case ir.OpSlt:
		cmp(BVSLT(a, b))
	case ir.OpSle:
		cmp(BVSLE(a, b))
	case ir.OpSgt:
		cmp(BVSGT(a, b))
	case ir.OpSge:
		cmp(BVSGE(a, b))
	}
}

// concrete is the vm's semantics of a binary instruction on known operands
// (a, b masked to the width): the result, or the error the vm raises.
func concrete(in *ir.Inst, a, b uint64) (uint64, vm.ErrKind) {
	w := int(in.W)
	m := ir.Mask(in.W)
	lax := in.Flags&ir.FlagLax != 0
	nsw, nuw, exact := !lax && in.Flags&ir.FlagNSW != 0, !lax && in.Flags&ir.FlagNUW != 0, !lax && in.Flags&ir.FlagExact != 0
	sa, sb := sx(a, w), sx(b, w)
	inS := func(x *big.Int) bool { // x fits w signed bits
		lo := new(big.Int).Neg(new(big.Int).Lsh(big.NewInt(1), uint(w-1)))
		hi := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(w-1)), big.NewInt(1))
		return x.Cmp(lo) >= 0 && x.Cmp(hi) <= 0
	}
	inU := func(x *big.Int) bool { return x.Sign() >= 0 && x.BitLen() <= w }
	bs, bb := big.NewInt(sa), big.NewInt(sb)
	ua, ub := new(big.Int).SetUint64(a), new(big.Int).SetUint64(b)
	switch in.Op {
	case ir.OpAdd, ir.OpSub, ir.OpMul:
		var v uint64
		var es, eu *big.Int
		switch in.Op {
		case ir.OpAdd:
			v, es, eu = a+b, new(big.Int).Add(bs, bb), new(big.Int).Add(ua, ub)
		case ir.OpSub:
			v, es, eu = a-b, new(big.Int).Sub(bs, bb), new(big.Int).Sub(ua, ub)
		default:
			v, es, eu = a*b, new(big.Int).Mul(bs, bb), new(big.Int).Mul(ua, ub)
		}
		if nsw && !inS(es) || nuw && !inU(eu) {
			return 0, vm.ErrOverflow
		}
		return v & m, vm.ErrNone
	case ir.OpUDiv, ir.OpURem:
		if b == 0 {
			return 0, vm.ErrDivZero
		}
		if in.Op == ir.OpURem {
			return a % b, vm.ErrNone
		}
		if exact && a%b != 0 {
			return 0, vm.ErrOverflow
		}
		return a / b, vm.ErrNone
	case ir.OpSDiv, ir.OpSRem:
		if sb == 0 {
			return 0, vm.ErrDivZero
		}
		if sb == -1 && sa == sx(1<<(w-1), w) {
			return 0, vm.ErrOverflow
		}
		if in.Op == ir.OpSRem {
			return uint64(sa%sb) & m, vm.ErrNone
		}
		if exact && sa%sb != 0 {
			return 0, vm.ErrOverflow
		}
		return uint64(sa/sb) & m, vm.ErrNone
	case ir.OpShl, ir.OpLShr, ir.OpAShr:
		if b >= uint64(w) {
			if lax {
				return 0, vm.ErrNone
			}
			return 0, vm.ErrShiftOverflow
		}
		switch in.Op {
		case ir.OpShl:
			v := (a << b) & m
			if nsw && sx(v, w)>>b != sa || nuw && v>>b != a {
				return 0, vm.ErrOverflow
			}
			return v, vm.ErrNone
		case ir.OpLShr:
			v := a >> b
			if exact && v<<b != a {
				return 0, vm.ErrOverflow
			}
			return v, vm.ErrNone
		}
		v := uint64(sa>>b) & m
		if exact && (v<<b)&m != a {
			return 0, vm.ErrOverflow
		}
		return v, vm.ErrNone
	case ir.OpAnd:
		return a & b, vm.ErrNone
	case ir.OpOr:
		return a | b, vm.ErrNone
	case ir.OpXor:
		return a ^ b, vm.ErrNone
	case ir.OpEq:
		return b2u(a == b), vm.ErrNone
	case ir.OpNe:
		return b2u(a != b), vm.ErrNone
	case ir.OpUlt:
		return b2u(a < b), vm.ErrNone
	case ir.OpUle:
		return b2u(a <= b), vm.ErrNone
	case ir.OpUgt:
		return b2u(a > b), vm.ErrNone
	case ir.OpUge:
		return b2u(a >= b), vm.ErrNone
	case ir.OpSlt:
		return b2u(sa < sb), vm.ErrNone
	case ir.OpSle:
		return b2u(sa <= sb), vm.ErrNone
	case ir.OpSgt:
		return b2u(sa > sb), vm.ErrNone
	case ir.OpSge:
		return b2u(sa >= sb), vm.ErrNone
	}
	return 0, vm.ErrInvalidCall
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// ptrBase is ir.PtrBase of a 32-bit block id: the low 32 bits of a
// pointer to the block's first byte.
func ptrBase(id Term) Term {
	return ite(eqT(id, BV(0, 32)), BV(0, 32),
		BVAdd(BVShl(BVAnd(id, BV(1<<18-1, 32)), BV(12, 32)), BV(1<<12, 32)))
}

// ptrToInt is ptrtoint: the pointer's bits (an integer address, see
// ir.MakePtr) masked to the integer's width.
func (e *encoder) ptrToInt(p val, mask uint64) val {
	w := bits.Len64(mask)
	if p.isConst() {
		return cst(p.c&mask, w)
	}
	if w == 64 {
		return p
	}
	return e.term(Extract(w-1, 0, e.bv(p, 64)), w)
}

// intToPtr is inttoptr: the integer's bits (zero-extended to 64).
func (e *encoder) intToPtr(x val) val {
	if x.isConst() {
		return cst(x.c, 64)
	}
	return val{t: e.bv(x, 64), w: 64, blk: x.blk, cs: x.cs, pts: x.pts, guess: x.guess}
}

// urem is a % b at width w, named, with two facts about it asserted:
// a % b <= a, and a % b < b where b is not 0. Both hold for every value
// (SMT-LIB's a % 0 is a), so the formula's models are the same; the
// solvers do not derive them quickly from the divider's circuit, and a
// chain of remainders (Euclid's loop, testdata/bmc/safe_gcd.c) is proved
// faster with them (BENCHMARKS.md).
func (e *encoder) urem(a, b Term, w int) val {
	v := e.term(BVURem(a, b), w)
	e.q.Assert(BVULE(v.t, a))
	e.q.Assert(or(eqT(b, BV(0, w)), BVULT(v.t, b)))
	return v
}
