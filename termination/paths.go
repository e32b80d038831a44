package termination

import (
	"fmt"
	"maps"
	"slices"

	"github.com/wyvernmc/wyvern/ir"
	S "github.com/wyvernmc/wyvern/symbolic"
)

// Limits of the path enumeration of one loop.
const (
	maxPaths    = 48
	maxPathLen  = 4000
	maxFreshVar = 4000
)

// pathEnc enumerates the paths of one loop's iteration.
type pathEnc struct {
	l *loop
	// start is where the paths start (the loop's head, or for the paths
	// that enter the loop the function's entry, with entry set)
	start int32
	entry bool
	f     *ir.Func
	q     *S.Query
	decl  map[string]bool
	fresh int
	out   []pathOut
	prog  *ir.Program
	lp64  bool
	// rec, when >= 0 (entry paths of a recursive function), is the
	// function whose calls calls records.
	rec   int32
	calls []callOut
}

type pstate struct {
	pc    int32
	regs  map[int32]S.Term
	mem   map[int32]S.Term
	cond  []S.Term
	steps int
	rough bool
}

func (e *pathEnc) v(name string) S.Term {
	if !e.decl[name] {
		e.decl[name] = true
		e.q.BitVec(name, 64)
	}
	return S.Term(name)
}

func (e *pathEnc) freshVar() S.Term {
	e.fresh++
	return e.v(fmt.Sprintf("h%d", e.fresh))
}

// memPre is tracked variable s at the head.
func (e *pathEnc) memPre(s int32) S.Term { return e.v(fmt.Sprintf("m%d", s)) }

func (e *pathEnc) reg(ps *pstate, s int32) S.Term {
	if s >= e.f.ConstBase && int(s-e.f.ConstBase) < len(e.f.Consts) {
		return S.BV(e.f.Consts[s-e.f.ConstBase], 64)
	}
	if t, ok := ps.regs[s]; ok {
		return t
	}
	return e.v(fmt.Sprintf("r%d", s))
}

func low(t S.Term, w uint8) S.Term {
	if w >= 64 || w == 0 {
		return t
	}
	return S.Extract(int(w)-1, 0, t)
}

func zx(t S.Term, w uint8) S.Term {
	if w >= 64 || w == 0 {
		return t
	}
	return S.ZeroExt(64-int(w), t)
}

func boolBV(c S.Term) S.Term { return S.Ite(c, S.BV(1, 64), S.BV(0, 64)) }

// enumerate returns the paths of l's iteration.
func (e *pathEnc) enumerate() error {
	work := []*pstate{{pc: e.start, regs: map[int32]S.Term{}, mem: map[int32]S.Term{}}}
	for len(work) > 0 {
		ps := work[len(work)-1]
		work = work[:len(work)-1]
		for {
			if (ps.steps > 0 || e.entry) && ps.pc == e.l.head {
				e.out = append(e.out, pathOut{back: true, cond: ps.cond, mem: ps.mem, rough: ps.rough})
				break
			}
			if !e.l.body[ps.pc] {
				e.out = append(e.out, pathOut{cond: ps.cond, mem: ps.mem, rough: ps.rough})
				break
			}
			if len(e.out)+len(work) > maxPaths || ps.steps > maxPathLen || e.fresh > maxFreshVar {
				return fmt.Errorf("more than %d paths or %d steps in an iteration", maxPaths, maxPathLen)
			}
			if inner := e.innerAt(ps.pc); inner != nil && (ps.steps > 0 || e.entry) {
				next, err := e.skipInner(ps, inner)
				if err != nil {
					return err
				}
				work = append(work, next...)
				break
			}
			next, err := e.step(ps)
			if err != nil {
				return err
			}
			if len(next) == 0 {
				// the run ends (abort, exit, unreachable) or the function
				// returns: the loop is left
				e.out = append(e.out, pathOut{cond: ps.cond, mem: ps.mem, rough: ps.rough})
				break
			}
			if len(next) == 1 && next[0] == ps {
				continue
			}
			work = append(work, next...)
			break
		}
	}
	return nil
}

// innerAt returns the loop nested in e.l whose head is pc.
func (e *pathEnc) innerAt(pc int32) *loop {
	for _, l2 := range e.l.fn.loops {
		if l2.head != e.l.head && l2.head == pc && e.l.body[pc] && len(l2.body) < len(e.l.body) {
			return l2
		}
	}
	return nil
}

// skipInner over-approximates the inner loop l2 entered at its head: the
// registers and tracked variables it writes become fresh, and the path goes
// on at each of its exits.
func (e *pathEnc) skipInner(ps *pstate, l2 *loop) ([]*pstate, error) {
	regs, mem := maps.Clone(ps.regs), maps.Clone(ps.mem)
	var exits []edgeTo
	for pc := range l2.body {
		in := &e.f.Code[pc]
		if in.Op == ir.OpStore {
			if _, ok := e.l.fn.tracked[in.A]; ok {
				mem[in.A] = e.freshVar()
			}
		}
		if in.Op != ir.OpStore && in.Op != ir.OpBr && in.Op != ir.OpBrE && in.Op != ir.OpJmp && in.Op != ir.OpJmpE && in.Op != ir.OpSwitch {
			regs[in.Dst] = e.freshVar()
			if in.Op == ir.OpCall || in.Op == ir.OpCallB || in.Op == ir.OpCallInd {
				cs := &e.f.Calls[in.Imm]
				if cs.Ret >= 0 {
					for k := int32(0); k < max(cs.RetSlots, 1); k++ {
						regs[cs.Ret+k] = e.freshVar()
					}
				}
			}
		}
		for _, s := range e.l.fn.succ[pc] {
			for _, mv := range s.moves {
				regs[mv.Dst] = e.freshVar()
			}
			if !l2.body[s.pc] {
				exits = append(exits, s)
			}
		}
	}
	var out []*pstate
	for _, x := range exits {
		n := &pstate{pc: x.pc, regs: maps.Clone(regs), mem: maps.Clone(mem), cond: ps.cond, steps: ps.steps + 1, rough: true}
		e.moves(n, x.moves)
		out = append(out, n)
	}
	return out, nil
}

func (e *pathEnc) moves(ps *pstate, mv []ir.Move) {
	for _, m := range mv {
		ps.regs[m.Dst] = e.reg(ps, m.Src)
	}
}

func (e *pathEnc) branch(ps *pstate, c S.Term, a, b edgeTo) []*pstate {
	p1 := &pstate{pc: a.pc, regs: maps.Clone(ps.regs), mem: maps.Clone(ps.mem), cond: append(append([]S.Term(nil), ps.cond...), c), steps: ps.steps + 1, rough: ps.rough}
	p2 := &pstate{pc: b.pc, regs: ps.regs, mem: ps.mem, cond: append(append([]S.Term(nil), ps.cond...), S.Not(c)), steps: ps.steps + 1, rough: ps.rough}
	e.moves(p1, a.moves)
	e.moves(p2, b.moves)
	return []*pstate{p1, p2}
}

// errUnsupported marks an instruction the encoder does not model.
type errUnsupported struct{ what string }

func (x errUnsupported) Error() string { return x.what }

// step executes the instruction at ps.pc; it returns ps itself (changed)
// when the path goes on to one successor, the successors otherwise (none:
// the path ends the run, which is no iteration).
func (e *pathEnc) step(ps *pstate) ([]*pstate, error) {
	f := e.f
	in := &f.Code[ps.pc]
	r := func(s int32) S.Term { return e.reg(ps, s) }
	set := func(t S.Term) { ps.regs[in.Dst] = t }
	a := func() S.Term { return low(r(in.A), in.W) }
	b := func() S.Term { return low(r(in.B), in.W) }
	bin := func(t S.Term) { set(zx(t, in.W)) }
	cmp := func(t S.Term) { set(boolBV(t)) }
	succ := f.Code[ps.pc : ps.pc+1]
	_ = succ
	next := func() []*pstate {
		ps.steps++
		ps.pc++
		return []*pstate{ps}
	}
	switch in.Op {
	case ir.OpNop, ir.OpFence:
		return next(), nil
	case ir.OpAdd, ir.OpSub, ir.OpMul:
		x, y := a(), b()
		var ub []S.Term
		if in.Flags&ir.FlagLax == 0 {
			if in.Flags&ir.FlagNSW != 0 {
				ub = append(ub, overflows(in.Op, true, x, y, int(in.W)))
			}
			if in.Flags&ir.FlagNUW != 0 {
				ub = append(ub, overflows(in.Op, false, x, y, int(in.W)))
			}
		}
		var v S.Term
		switch in.Op {
		case ir.OpAdd:
			v = S.BVAdd(x, y)
		case ir.OpSub:
			v = S.BVSub(x, y)
		default:
			v = S.BVMul(x, y)
		}
		bin(e.undefinedIf(ps, ub, v, in.W))
	case ir.OpUDiv, ir.OpURem:
		zero := S.BV(0, int(in.W))
		// Bit-blasting solvers get stuck on division (seconds to prove
		// a % b < b for 32 bits): the result is a fresh value with what
		// the loop's ranking functions need of it.
		x := low(e.freshVar(), in.W)
		facts := []S.Term{S.BVULE(x, a())}
		if in.Op == ir.OpURem {
			facts = append(facts, S.BVULT(x, b()))
		}
		ps.cond = append(ps.cond, S.Implies(S.Not(S.Eq(b(), zero)), S.And(facts...)))
		bin(e.undefinedIf(ps, []S.Term{S.Eq(b(), zero)}, x, in.W))
	case ir.OpSDiv, ir.OpSRem:
		minv := S.BV(uint64(1)<<(in.W-1), int(in.W))
		ub := S.Or(S.Eq(b(), S.BV(0, int(in.W))), S.And(S.Eq(a(), minv), S.Eq(b(), S.BV(ir.Mask(in.W), int(in.W)))))
		v := S.BVSDiv(a(), b())
		if in.Op == ir.OpSRem {
			v = S.BVSRem(a(), b())
		}
		bin(e.undefinedIf(ps, []S.Term{ub}, v, in.W))
	case ir.OpShl, ir.OpLShr, ir.OpAShr:
		if in.Flags&ir.FlagLax != 0 {
			return nil, errUnsupported{"a shift in optimised code"}
		}
		if in.Flags&(ir.FlagNSW|ir.FlagNUW|ir.FlagExact) != 0 {
			return nil, errUnsupported{"a flagged shift"}
		}
		var v S.Term
		switch in.Op {
		case ir.OpShl:
			v = S.BVShl(a(), b())
		case ir.OpLShr:
			v = S.BVLShr(a(), b())
		default:
			v = S.BVAShr(a(), b())
		}
		bin(e.undefinedIf(ps, []S.Term{S.BVUGE(b(), S.BV(uint64(in.W), int(in.W)))}, v, in.W))
	case ir.OpAnd:
		bin(S.BVAnd(a(), b()))
	case ir.OpOr:
		bin(S.BVOr(a(), b()))
	case ir.OpXor:
		bin(S.BVXor(a(), b()))
	case ir.OpEq:
		cmp(S.Eq(a(), b()))
	case ir.OpNe:
		cmp(S.Not(S.Eq(a(), b())))
	case ir.OpUlt:
		cmp(S.BVULT(a(), b()))
	case ir.OpUle:
		cmp(S.BVULE(a(), b()))
	case ir.OpUgt:
		cmp(S.BVUGT(a(), b()))
	case ir.OpUge:
		cmp(S.BVUGE(a(), b()))
	case ir.OpSlt:
		cmp(S.BVSLT(a(), b()))
	case ir.OpSle:
		cmp(S.BVSLE(a(), b()))
	case ir.OpSgt:
		cmp(S.BVSGT(a(), b()))
	case ir.OpSge:
		cmp(S.BVSGE(a(), b()))
	case ir.OpMov, ir.OpIntToPtr:
		if in.Op == ir.OpIntToPtr && in.Aux != 0 {
			return nil, errUnsupported{"32-bit pointers"}
		}
		set(r(in.A))
	case ir.OpSelect:
		set(S.Ite(S.Eq(S.Extract(0, 0, r(in.A)), S.BV(1, 1)), r(in.B), r(in.C)))
	case ir.OpTrunc, ir.OpPtrToInt:
		if in.Op == ir.OpPtrToInt && in.Aux != 0 {
			return nil, errUnsupported{"32-bit pointers"}
		}
		set(S.BVAnd(r(in.A), S.BV(in.Imm, 64)))
	case ir.OpSExt:
		set(S.BVAnd(S.SignExt(64-int(in.W), low(r(in.A), in.W)), S.BV(in.Imm, 64)))
	case ir.OpGEPC:
		set(S.BVAdd(r(in.A), S.BV(in.Imm, 64)))
	case ir.OpGEP1:
		set(S.BVAdd(r(in.A), S.BVMul(S.SignExt(64-int(in.W), low(r(in.B), in.W)), S.BV(in.Imm, 64))))
	case ir.OpGEPN:
		g := &f.GEPs[in.Imm]
		t := S.BVAdd(r(g.Base), S.BV(uint64(g.Off), 64))
		for i, s := range g.Idx {
			t = S.BVAdd(t, S.BVMul(S.SignExt(64-int(g.Width[i]), low(r(s), g.Width[i])), S.BV(uint64(g.Scale[i]), 64)))
		}
		set(t)
	case ir.OpLoad:
		if _, ok := e.l.fn.tracked[in.A]; ok {
			t, ok := ps.mem[in.A]
			if !ok {
				t = e.memPre(in.A)
			}
			set(S.BVAnd(t, S.BV(ir.Mask(in.W*8), 64)))
			break
		}
		if e.lp64 {
			// the load succeeded: its pointer's block is not null
			ps.cond = append(ps.cond, S.Not(S.Eq(S.Extract(63, 32, r(in.A)), S.BV(0, 32))))
		}
		set(S.BVAnd(e.freshVar(), S.BV(ir.Mask(in.W*8), 64)))
	case ir.OpStore:
		if _, ok := e.l.fn.tracked[in.A]; ok {
			ps.mem[in.A] = S.BVAnd(r(in.B), S.BV(ir.Mask(in.W*8), 64))
		}
	case ir.OpAlloca:
		ps.rough = true
		set(e.freshVar())
	case ir.OpCall, ir.OpCallInd:
		cs := &f.Calls[in.Imm]
		if in.Op == ir.OpCallInd {
			return nil, errUnsupported{"an indirect call"}
		}
		if e.rec >= 0 && cs.Callee == e.rec {
			c := callOut{cond: slices.Clone(ps.cond)}
			for _, a := range cs.Args {
				c.args = append(c.args, e.reg(ps, a))
			}
			e.calls = append(e.calls, c)
		}
		ps.rough = true
		e.freshRet(ps, cs)
	case ir.OpCallB:
		cs := &f.Calls[in.Imm]
		if cs.Callee < 0 || int(cs.Callee) >= len(e.prog.Funcs) {
			return nil, errUnsupported{"a platform call without a callee"}
		}
		name := e.prog.Funcs[cs.Callee].Name
		switch {
		case name == "__VERIFIER_assume":
			ps.cond = append(ps.cond, S.Not(S.Eq(low(r(cs.Args[0]), 32), S.BV(0, 32))))
		case name == "abort" || name == "exit" || name == "_exit" || name == "reach_error" || name == "__VERIFIER_error" || name == "__assert_fail":
			return nil, nil
		case isNondet(name):
		case name == "pthread_create" || name == "pthread_join" || name == "pthread_mutex_lock" || name == "pthread_cond_wait":
			return nil, errUnsupported{name}
		default:
			ps.rough = true
		}
		e.freshRet(ps, cs)
	case ir.OpBr:
		c := S.Eq(S.Extract(0, 0, r(in.A)), S.BV(1, 1))
		return e.branch(ps, c, edgeTo{pc: in.B}, edgeTo{pc: in.C}), nil
	case ir.OpBrE:
		c := S.Eq(S.Extract(0, 0, r(in.A)), S.BV(1, 1))
		return e.branch(ps, c, edgeTo{f.Edges[in.B].PC, f.Edges[in.B].Moves}, edgeTo{f.Edges[in.C].PC, f.Edges[in.C].Moves}), nil
	case ir.OpJmp, ir.OpJmpE:
		x := e.l.fn.succ[ps.pc][0]
		ps.pc = x.pc
		ps.steps++
		e.moves(ps, x.moves)
		return []*pstate{ps}, nil
	case ir.OpSwitch:
		sw := &f.Switches[in.Imm]
		x := r(in.A)
		var out []*pstate
		var none []S.Term
		for i, v := range sw.Vals {
			c := S.Eq(x, S.BV(v, 64))
			none = append(none, S.Not(c))
			ed := f.Edges[sw.Targets[i]]
			n := &pstate{pc: ed.PC, regs: maps.Clone(ps.regs), mem: maps.Clone(ps.mem), cond: append(append([]S.Term(nil), ps.cond...), c), steps: ps.steps + 1, rough: ps.rough}
			e.moves(n, ed.Moves)
			out = append(out, n)
		}
		ed := f.Edges[sw.Default]
		n := &pstate{pc: ed.PC, regs: ps.regs, mem: ps.mem, cond: append(append([]S.Term(nil), ps.cond...), none...), steps: ps.steps + 1, rough: ps.rough}
		e.moves(n, ed.Moves)
		return append(out, n), nil
	case ir.OpRet, ir.OpUnreachable, ir.OpTrap:
		return nil, nil
	default:
		return nil, errUnsupported{fmt.Sprintf("instruction %q", f.Text[ps.pc])}
	}
	return next(), nil
}

// undefinedIf handles an operation whose behaviour is undefined where one
// of ub holds (a flagged overflow at -O0, a division by zero, a shift by
// the width or more). The vm stops the run there in an error state, but
// C (and SV-COMP's verdicts) do not say what such a program does: for
// ranking functions the operation yields any value and the path goes on
// (no proof may rest on the vm's stop); for recurrent sets the case is a
// path that leaves the loop (a non-terminating run must not pass it). It
// returns the operation's w-bit result v, or a fresh value where ub holds.
func (e *pathEnc) undefinedIf(ps *pstate, ub []S.Term, v S.Term, w uint8) S.Term {
	if len(ub) == 0 {
		return v
	}
	c := S.Or(ub...)
	if len(ub) == 1 {
		c = ub[0]
	}
	e.out = append(e.out, pathOut{cond: append(append([]S.Term(nil), ps.cond...), c), mem: ps.mem, rough: ps.rough, err: true})
	return S.Ite(c, low(e.freshVar(), w), v)
}

// overflows says whether op (add, sub, mul) of the w-bit a and b
// overflows as signed (nsw) or unsigned (nuw) numbers. Sums and
// differences are told by their signs (cheaper for the solver than wider
// arithmetic), products by the double-width product.
func overflows(op ir.Op, signed bool, a, b S.Term, w int) S.Term {
	sign := func(t S.Term) S.Term { return S.Extract(w-1, w-1, t) }
	switch {
	case op == ir.OpAdd && signed:
		r := S.BVAdd(a, b)
		return S.And(S.Eq(sign(a), sign(b)), S.Not(S.Eq(sign(r), sign(a))))
	case op == ir.OpSub && signed:
		r := S.BVSub(a, b)
		return S.And(S.Not(S.Eq(sign(a), sign(b))), S.Not(S.Eq(sign(r), sign(a))))
	case op == ir.OpAdd:
		return S.BVULT(S.BVAdd(a, b), a)
	case op == ir.OpSub:
		return S.BVULT(a, b)
	}
	ext := func(t S.Term) S.Term {
		if signed {
			return S.SignExt(w, t)
		}
		return S.ZeroExt(w, t)
	}
	r := S.BVMul(ext(a), ext(b))
	return S.Not(S.Eq(r, ext(S.Extract(w-1, 0, r))))
}

func (e *pathEnc) freshRet(ps *pstate, cs *ir.CallSite) {
	if cs.Ret < 0 {
		return
	}
	for k := int32(0); k < max(cs.RetSlots, 1); k++ {
		t := e.freshVar()
		if k == 0 && cs.RetBits > 0 && cs.RetBits < 64 {
			t = S.BVAnd(t, S.BV(ir.Mask(cs.RetBits), 64))
		}
		ps.regs[cs.Ret+k] = t
	}
}

func isNondet(name string) bool {
	return len(name) > len("__VERIFIER_nondet_") && name[:len("__VERIFIER_nondet_")] == "__VERIFIER_nondet_"
}
