package explicit

import (
	"github.com/wyvernmc/wyvern/ir"
	"github.com/wyvernmc/wyvern/vm"
)

// Inputs bounded by an assumption (issue #30). A __VERIFIER_nondet_* call
// of 2^32 or 2^64 values cannot be enumerated, but SV-COMP programs often
// bound the value at once:
//
//	tmp = __VERIFIER_nondet_uint();
//	__VERIFIER_assume(tmp < K);
//
// When the call is followed, on straight-line code of the same function, by
// nothing but a copy of its result into a private stack slot (store, load),
// its zero extension (a copy), a comparison of the result with a constant
// that admits the values [0, n) (v < k, v <= k, k > v, k >= v unsigned, or
// signed on a value zero-extended to a wider type and a non-negative
// constant), copies of the comparison's result and either the call of
// __VERIFIER_assume on it or a branch on it whose rejecting side is a call
// of abort() (`if (!(v < k)) abort();`), the search enumerates n+1
// values instead of 2^w: each admitted value 0..n-1 (the program may use
// them in any way afterwards) and n, which stands for every rejected value.
//
// Sound for E<> and A[] queries that read no registers and no local
// variables (the search applies it only then): from the call to the
// assumption or the abort() the process runs only invisible instructions
// that touch its registers and a private slot and never fail or block (the
// one branch goes where the comparison says), so for every rejected value v
// the runs in which the process took v and those in which it took n differ
// in that process's registers and private slot only, and both end at the
// assumption (the run is discarded) or in the same abort() error; nothing
// the query can read tells them apart. Every admitted value is kept as
// itself. It is used only where the choice would otherwise be refused (more
// outcomes than MaxBranching), so no search that worked before changes.

// site is an instruction: function index and pc.
type site struct {
	fn int
	pc int32
}

// assumeBounds returns, for each nondet call of p bounded by an
// assumption as described above, the number n of values it admits
// (0 < n < 2^w).
func assumeBounds(p *ir.Program) map[site]uint64 {
	var out map[site]uint64
	for _, f := range p.Funcs {
		if f.External {
			continue
		}
		var private map[int32]bool
		for pc := range f.Code {
			if b, ok := builtinAt(p, f, pc); !ok || b != ir.BNondet {
				continue
			}
			if private == nil {
				private = privateAllocas(f)
			}
			if n, ok := boundAfter(p, f, pc, private); ok {
				if out == nil {
					out = map[site]uint64{}
				}
				out[site{f.Index, int32(pc)}] = n
			}
		}
	}
	return out
}

// boundAfter matches the instructions after the nondet call at pc.
func boundAfter(p *ir.Program, f *ir.Func, pc int, private map[int32]bool) (uint64, bool) {
	at := func(i int) *ir.Inst {
		if i < len(f.Code) {
			return &f.Code[i]
		}
		return nil
	}
	konst := func(s int32) (uint64, bool) {
		if s >= f.ConstBase && int(s-f.ConstBase) < len(f.Consts) {
			return f.Consts[s-f.ConstBase], true
		}
		return 0, false
	}
	call := &f.Code[pc]
	cs := &f.Calls[call.Imm] // (builtinAt checked the index)
	w := int(cs.RetBits)
	v := cs.Ret
	if v < 0 || cs.RetSlots != 1 || w < 8 || w >= 64 || v != call.Dst {
		return 0, false
	}
	i := pc + 1
	// optional: the result goes through a private slot
	if in := at(i); in != nil && in.Op == ir.OpStore && in.B == v && private[in.A] && int(in.W)*8 == w {
		ld := at(i + 1)
		if ld == nil || ld.Op != ir.OpLoad || ld.A != in.A || int(ld.W)*8 != w {
			return 0, false
		}
		v, i = ld.Dst, i+2
	}
	// optional: zero extension (a copy: slots hold values zero-extended)
	widened := false
	for k := 0; k < 2; k++ {
		in := at(i)
		if in == nil || in.Op != ir.OpMov || in.A != v {
			break
		}
		v, i, widened = in.Dst, i+1, true
	}
	cmp := at(i)
	if cmp == nil || int(cmp.W) < w || int(cmp.W) > 64 || int(cmp.W) > w && !widened {
		return 0, false
	}
	op, k, ok := cmp.Op, uint64(0), false
	switch {
	case cmp.A == v && cmp.B != v:
		k, ok = konst(cmp.B)
	case cmp.B == v && cmp.A != v: // k op v: mirror it to v op' k
		k, ok = konst(cmp.A)
		op = map[ir.Op]ir.Op{ir.OpUgt: ir.OpUlt, ir.OpUge: ir.OpUle, ir.OpSgt: ir.OpSlt, ir.OpSge: ir.OpSle}[op]
	}
	if !ok {
		return 0, false
	}
	switch op {
	case ir.OpSlt, ir.OpSle:
		// a signed comparison is the unsigned one for a value zero-extended
		// to a wider type (its sign bit clear) and a constant with its sign
		// bit clear (a copy at the same width extends nothing)
		if int(cmp.W) <= w || k>>(cmp.W-1) != 0 {
			return 0, false
		}
	case ir.OpUlt, ir.OpUle:
	default:
		return 0, false
	}
	n := k
	if op == ir.OpUle || op == ir.OpSle {
		n = k + 1
	}
	c := cmp.Dst
	i++
	for k := 0; k < 4; k++ { // zext of the i1: copies
		in := at(i)
		if in == nil || in.Op != ir.OpMov || in.A != c {
			break
		}
		c, i = in.Dst, i+1
	}
	as := at(i)
	if as == nil {
		return 0, false
	}
	if b, ok := builtinAt(p, f, i); ok && b == ir.BAssume {
		// __VERIFIER_assume(c)
		if args := f.Calls[as.Imm].Args; len(args) != 1 || args[0] != c {
			return 0, false
		}
	} else if as.Op == ir.OpBr && as.A == c && as.B != as.C && as.C >= 0 {
		// if (!c) abort(); the rejected values branch to the abort call
		if b, ok := builtinAt(p, f, int(as.C)); !ok || b != ir.BAbort {
			return 0, false
		}
	} else {
		return 0, false
	}
	if n == 0 || n >= uint64(1)<<w {
		return 0, false
	}
	return n, true
}

// builtinAt returns the platform function that the instruction at pc
// calls: a direct builtin call, or an indirect call through a constant
// pointer to an external function (what clang emits for a call of a
// function declared without a prototype, as `unsigned int
// __VERIFIER_nondet_uint();`).
func builtinAt(p *ir.Program, f *ir.Func, pc int) (ir.Builtin, bool) {
	if pc >= len(f.Code) {
		return 0, false
	}
	in := &f.Code[pc]
	if int(in.Imm) >= len(f.Calls) {
		return 0, false
	}
	switch in.Op {
	case ir.OpCallB:
		return ir.Builtin(in.B), true
	case ir.OpCallInd:
		s := f.Calls[in.Imm].FnSlot
		if s < f.ConstBase || int(s-f.ConstBase) >= len(f.Consts) {
			return 0, false
		}
		ptr := f.Consts[s-f.ConstBase]
		id := uint32(ptr >> ir.PtrBlockShift)
		if ir.PtrOff(ptr) != 0 || id < p.FirstFuncBlock || id >= p.FirstFuncBlock+uint32(len(p.Funcs)) {
			return 0, false
		}
		if g := p.Funcs[id-p.FirstFuncBlock]; g.External {
			return g.Builtin, true
		}
	}
	return 0, false
}

// boundAt returns the number of values the assumption after the nondet
// call that thread t is about to make admits, or 0.
func (c *scripted) boundAt(t *vm.Thread) uint64 {
	if c.bounds == nil || t == nil || t.Done || len(t.Frames) == 0 {
		return 0
	}
	fr := &t.Frames[len(t.Frames)-1]
	return c.bounds[site{fr.Fn.Index, fr.PC}]
}

// classAt returns the input classes of the nondet call that thread t is
// about to make, or nil.
func (c *scripted) classAt(t *vm.Thread) *classes {
	if c.classes == nil || t == nil || t.Done || len(t.Frames) == 0 {
		return nil
	}
	fr := &t.Frames[len(t.Frames)-1]
	return c.classes[site{fr.Fn.Index, fr.PC}]
}
