package symbolic

import (
	"fmt"
	"math/big"

	"github.com/wyvernmc/wyvern/ir"
)

// Static trip counts (issue 30): the smallest unwinding bound at which no
// execution of the program can be cut, when every loop is a counted loop
// with constant bounds. The deepening (Check) jumps to it after the small
// bounds instead of doubling through bounds that must cut an execution.
// It only schedules the checks: a wrong bound costs time, never a
// verdict, because a proof still needs the unwinding check to be unsat.
//
// A bound K lets a loop take at most K back edges per entry (runFrom: the
// header's (K+1)-th evaluation may only leave the loop), so a loop that
// takes at most n back edges per entry is never cut at unwind n.
//
// A counted loop, in the shape clang -O0 gives `for` and `while` loops:
//   - its header's block ends in a branch on a comparison of a load of a
//     private stack slot (an alloca whose address is only ever used by
//     loads and stores of its function, privateAllocas: no call, no other
//     thread and no other pointer reaches it) with a constant, one target
//     in the loop and the other outside;
//   - the loop stores to the slot exactly once, slot = load slot ± c, the
//     load in the store's block with no store between, that block on
//     every cycle through the header and on no inner loop (so every
//     iteration that comes back changes the counter exactly once);
//   - every edge entering the header from outside the loop comes from a
//     block whose last store to the slot stores a constant.
//
// The counter then takes the values a, a+s, a+2s, … at the header's
// evaluations, and the number of values for which the loop goes on is the
// loop's back-edge count per entry, provided no value up to the first that
// leaves wraps around (else no bound). Other exits (break, return, errors)
// only shorten a loop. With the partial-order encoding (po), a stutter
// loop (encode_spin.go) takes no back edge and a wait loop
// (encode_wait.go) needs unwind 1. Any other loop, recursion, or an
// indirect call leaves the program without a static bound.

// StaticUnwind is the smallest unwinding bound at which the
// partial-order check cuts no execution of p, when every loop of p has a
// static trip count (false otherwise).
func StaticUnwind(p *ir.Program) (int, bool) {
	b, _, ok := staticUnwind(p, true)
	return b, ok
}

// staticUnwind is the smallest unwinding bound at which no loop of p is
// cut, at least 1; ok is false (why says why) when some loop has no
// static trip count. The functions without code (the platform's) have no
// loops that the bound cuts.
func staticUnwind(p *ir.Program, po bool) (bound int, why string, ok bool) {
	bound = 1
	e := &encoder{p: p, graphs: map[int]*graph{}}
	if f, why := e.recursive(); why != "" {
		return 0, f + ": " + why, false
	}
	for _, f := range p.Funcs {
		if f.External || len(f.Code) == 0 {
			continue
		}
		g, err := e.graphOf(f)
		if err != nil {
			return 0, err.Error(), false
		}
		priv := privateAllocas(f)
		for hp := range g.endOf {
			n, why, ok := tripCount(f, g, hp, priv)
			if !ok && po {
				if isStutterLoop(f, g, hp) {
					n, ok = 0, true
				} else if _, w := waitLoop(f, g, hp); w {
					n, ok = 1, true
				}
			}
			if !ok {
				return 0, fmt.Sprintf("%s: the loop at %s: %s", f.Name, blockName(g, g.order[hp]), why), false
			}
			bound = max(bound, n)
		}
	}
	return bound, "", true
}

// blockName names a block of f for a reason.
func blockName(g *graph, b int) string {
	return fmt.Sprintf("pc %d", g.start[b])
}

// recursive names a function of the program that may call itself, and
// why (empty: none does): a cycle of direct calls and calls through a
// constant function pointer (callInd), or a call through a pointer that is
// not a constant.
func (e *encoder) recursive() (string, string) {
	p := e.p
	callees := make([][]int, len(p.Funcs))
	for i, f := range p.Funcs {
		for pc := range f.Code {
			in := &f.Code[pc]
			if (in.Op != ir.OpCall && in.Op != ir.OpCallInd) || in.Imm >= uint64(len(f.Calls)) {
				continue
			}
			cs := &f.Calls[in.Imm]
			c := int(cs.Callee)
			if in.Op == ir.OpCallInd {
				v, ok := constOf(f, cs.FnSlot)
				callee := e.funcOf(v)
				if !ok || callee == nil {
					return f.Name, fmt.Sprintf("a call through a function pointer at pc %d", pc)
				}
				c = callee.Index
			}
			if c >= 0 && c < len(p.Funcs) {
				callees[i] = append(callees[i], c)
			}
		}
	}
	state := make([]uint8, len(p.Funcs)) // 0 new, 1 on the stack, 2 done
	var visit func(i int) bool
	visit = func(i int) bool {
		state[i] = 1
		for _, c := range callees[i] {
			if state[c] == 1 || (state[c] == 0 && visit(c)) {
				return true
			}
		}
		state[i] = 2
		return false
	}
	for i := range p.Funcs {
		if state[i] == 0 && visit(i) {
			return p.Funcs[i].Name, "recursion"
		}
	}
	return "", ""
}

// lastDef is the pc of the last instruction of pc's block before pc that
// writes register r (-1: none). Instructions with several results are
// not definitions a counted loop uses, so any other write of r counts.
func lastDef(f *ir.Func, g *graph, pc int32, r int32) int32 {
	b := g.pcBlock[pc]
	for q := pc - 1; q >= g.start[b]; q-- {
		if f.Code[q].Dst == r && writesDst(f.Code[q].Op) {
			return q
		}
		if writesOther(f, &f.Code[q], r) {
			return -2
		}
	}
	return -1
}

// writesDst reports whether op writes its Dst register.
func writesDst(op ir.Op) bool {
	switch op {
	case ir.OpStore, ir.OpStoreAgg, ir.OpJmp, ir.OpJmpE, ir.OpBr, ir.OpBrE, ir.OpSwitch, ir.OpRet,
		ir.OpUnreachable, ir.OpTrap, ir.OpNop, ir.OpFence, ir.OpCall, ir.OpCallB, ir.OpCallInd:
		return false
	}
	return true
}

// writesOther reports whether in may write r other than through Dst: a
// call's result slots (calls are the only such writers the analysis
// meets between a load and its use; anything else unusual refuses).
func writesOther(f *ir.Func, in *ir.Inst, r int32) bool {
	switch in.Op {
	case ir.OpCall, ir.OpCallB, ir.OpCallInd:
		if in.Imm >= uint64(len(f.Calls)) {
			return true
		}
		cs := &f.Calls[in.Imm]
		return cs.Ret >= 0 && r >= cs.Ret && r < cs.Ret+max(cs.RetSlots, 1)
	case ir.OpMovN, ir.OpSelectN, ir.OpInsert, ir.OpExtract, ir.OpLoadAgg:
		return true // several slots
	}
	return false
}

// constOf reads register r of f as a constant (false: not a constant).
func constOf(f *ir.Func, r int32) (uint64, bool) {
	if r < f.ConstBase || r >= f.ConstBase+int32(len(f.Consts)) {
		return 0, false
	}
	return f.Consts[r-f.ConstBase], true
}

// tripCount is the most back edges the loop whose header is at position
// hp of g can take per entry (false, and why: not a counted loop).
func tripCount(f *ir.Func, g *graph, hp int, priv map[int32]bool) (int, string, bool) {
	loop := naturalLoop(g, hp)
	if loop == nil {
		return 0, "no back edge", false
	}
	h := g.order[hp]
	// the test: the header's branch, one target in the loop
	br := g.end[h] - 1
	in := &f.Code[br]
	if in.Op != ir.OpBr && in.Op != ir.OpBrE {
		return 0, "the header does not end in a two-way branch", false
	}
	ts, err := targets(f, in)
	if err != nil || len(ts) != 2 {
		return 0, "the header does not end in a two-way branch", false
	}
	inT, inF := loop[g.pcBlock[ts[0]]], loop[g.pcBlock[ts[1]]]
	if inT == inF {
		return 0, "the header's branch does not leave the loop", false
	}
	cmpPC := lastDef(f, g, br, in.A)
	if cmpPC < 0 {
		return 0, "the branch condition is not a comparison in the header", false
	}
	cmp := f.Code[cmpPC]
	op := cmp.Op
	x, k := cmp.A, cmp.B
	if _, c := constOf(f, x); c {
		x, k, op = k, x, ir.SwappedCmp(op)
	}
	kv, kc := constOf(f, k)
	if !kc || op == ir.OpNop {
		return 0, "the branch condition is not a comparison with a constant", false
	}
	if inF {
		op = ir.NegatedCmp(op) // the loop goes on while op holds
	}
	ld := lastDef(f, g, cmpPC, x)
	if ld < 0 || f.Code[ld].Op != ir.OpLoad {
		return 0, "the comparison is not of a loaded value", false
	}
	slot := f.Code[ld].A
	size := f.Code[ld].W
	w := cmp.W
	if w == 0 || w > 64 || uint(size)*8 != uint(w) {
		return 0, "the counter's width differs from the comparison's", false
	}
	allocaPC := -1
	for pc := range f.Code {
		if a := &f.Code[pc]; a.Op == ir.OpAlloca && a.Dst == slot {
			allocaPC = pc
		}
	}
	if allocaPC < 0 || !priv[int32(allocaPC)] {
		return 0, "the counter is not a private stack slot", false
	}
	if loop[g.pcBlock[allocaPC]] {
		return 0, "the counter is allocated in the loop", false
	}
	if storeBetween(f, g.start[h], br, slot) {
		return 0, "the header stores to the counter", false
	}
	// the increment: the loop's only store to the slot
	inc := int32(-1)
	for b := range loop {
		for pc := g.start[b]; pc < g.end[b]; pc++ {
			st := &f.Code[pc]
			if st.A != slot {
				continue
			}
			switch st.Op {
			case ir.OpStoreAgg, ir.OpLoadAgg:
				return 0, "an aggregate access of the counter", false
			case ir.OpStore:
				if inc >= 0 {
					return 0, "the loop stores to the counter twice", false
				}
				inc = pc
			}
		}
	}
	if inc < 0 {
		return 0, "the loop does not change the counter", false
	}
	st := &f.Code[inc]
	if st.W != size {
		return 0, "the counter is stored at another width", false
	}
	addPC := lastDef(f, g, inc, st.B)
	if addPC < 0 {
		return 0, "the counter's new value is not computed in its block", false
	}
	add := &f.Code[addPC]
	if (add.Op != ir.OpAdd && add.Op != ir.OpSub) || add.W != w {
		return 0, "the counter does not step by a constant", false
	}
	from, by := add.A, add.B
	if _, c := constOf(f, from); c && add.Op == ir.OpAdd {
		from, by = by, from
	}
	sv, sc := constOf(f, by)
	old := lastDef(f, g, addPC, from)
	if !sc || old < 0 || f.Code[old].Op != ir.OpLoad || f.Code[old].A != slot || f.Code[old].W != size || storeBetween(f, old, inc, slot) {
		return 0, "the counter does not step by a constant", false
	}
	step := signed(sv, w)
	if add.Op == ir.OpSub {
		step.Neg(step)
	}
	if step.Sign() == 0 {
		return 0, "the counter steps by 0", false
	}
	ib := g.pcBlock[inc]
	if ib == h {
		return 0, "the header steps the counter", false
	}
	// the increment's block is on every cycle through the header, on none
	// that avoids the header (no inner loop)
	if cycleAvoiding(g, loop, h, h, ib) {
		return 0, "a cycle through the header does not step the counter", false
	}
	if cycleAvoiding(g, loop, ib, ib, h) {
		return 0, "the counter steps in an inner loop", false
	}
	// the counter's value at every entry
	var init *big.Int
	for b, ss := range g.succ {
		if loop[b] || g.pos[b] < 0 {
			continue
		}
		for _, s := range ss {
			if s != h {
				continue
			}
			v, ok := lastConstStore(f, g.start[b], g.end[b], slot, size)
			if !ok {
				return 0, "the counter's value at an entry is not a constant stored before it", false
			}
			switch vv := valueAt(v, w, op); {
			case init == nil:
				init = vv
			case init.Cmp(vv) != 0:
				return 0, "entries start the counter at different values", false
			}
		}
	}
	if init == nil {
		return 0, "no entry", false
	}
	n, ok := iterations(init, valueAt(kv, w, op), step, op, w)
	if !ok {
		return 0, "the counter may wrap around or never reach its bound", false
	}
	return n, "", true
}

// storeBetween reports a store to slot at pcs [from, to).
func storeBetween(f *ir.Func, from, to int32, slot int32) bool {
	for q := from; q < to; q++ {
		if in := &f.Code[q]; (in.Op == ir.OpStore || in.Op == ir.OpStoreAgg) && in.A == slot {
			return true
		}
	}
	return false
}

// lastConstStore is the constant the last store to slot of [from, to)
// stores (false: none, or not a constant of the counter's size).
func lastConstStore(f *ir.Func, from, to int32, slot int32, size uint8) (uint64, bool) {
	for q := to - 1; q >= from; q-- {
		in := &f.Code[q]
		if (in.Op == ir.OpStore || in.Op == ir.OpStoreAgg) && in.A == slot {
			if in.Op != ir.OpStore || in.W != size {
				return 0, false
			}
			return constOf(f, in.B)
		}
	}
	return 0, false
}

// cycleAvoiding reports whether a path of at least one edge within loop
// leads from block from to block to without passing block avoid.
func cycleAvoiding(g *graph, loop map[int]bool, from, to, avoid int) bool {
	seen := map[int]bool{}
	work := []int{from}
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		for _, s := range g.succ[b] {
			if !loop[s] {
				continue
			}
			if s == to {
				return true
			}
			if s != avoid && !seen[s] {
				seen[s] = true
				work = append(work, s)
			}
		}
	}
	return false
}

// signed is v's signed value at width w.
func signed(v uint64, w uint8) *big.Int {
	v &= ir.Mask(w)
	x := new(big.Int).SetUint64(v)
	if w < 64 && v>>(w-1)&1 == 1 || w == 64 && v>>63 == 1 {
		x.Sub(x, new(big.Int).Lsh(big.NewInt(1), uint(w)))
	}
	return x
}

// valueAt is v at width w as the comparison op sees it.
func valueAt(v uint64, w uint8, op ir.Op) *big.Int {
	switch op {
	case ir.OpUlt, ir.OpUle, ir.OpUgt, ir.OpUge:
		return new(big.Int).SetUint64(v & ir.Mask(w))
	}
	return signed(v, w)
}

// maxTrip is the largest static trip count used: a bound beyond it is no
// bound worth jumping to.
const maxTrip = 1 << 20

// iterations is the number of values a, a+s, a+2s, … for which the loop
// goes on (op a k holds) before the first for which it does not, every
// one of them, that first included, within the range of width w as op
// sees it (no wrap around).
func iterations(a, k, s *big.Int, op ir.Op, w uint8) (int, bool) {
	lo, hi := new(big.Int), new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(w)), big.NewInt(1))
	switch op {
	case ir.OpSlt, ir.OpSle, ir.OpSgt, ir.OpSge, ir.OpNe, ir.OpEq: // (== and != in the signed view)
		lo = new(big.Int).Neg(new(big.Int).Lsh(big.NewInt(1), uint(w-1)))
		hi = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(w-1)), big.NewInt(1))
	}
	holds := func(v *big.Int) bool {
		c := v.Cmp(k)
		switch op {
		case ir.OpSlt, ir.OpUlt:
			return c < 0
		case ir.OpSle, ir.OpUle:
			return c <= 0
		case ir.OpSgt, ir.OpUgt:
			return c > 0
		case ir.OpSge, ir.OpUge:
			return c >= 0
		case ir.OpNe:
			return c != 0
		case ir.OpEq:
			return c == 0
		}
		return true
	}
	if !holds(a) {
		return 0, true
	}
	var n *big.Int
	d := new(big.Int).Sub(k, a) // k - a
	pos := s.Sign() > 0
	switch op {
	case ir.OpSlt, ir.OpUlt: // a < k: n = ceil((k-a)/s), s > 0
		if !pos {
			return 0, false
		}
		n = ceilDiv(d, s)
	case ir.OpSle, ir.OpUle: // a <= k: n = floor((k-a)/s) + 1
		if !pos {
			return 0, false
		}
		n = new(big.Int).Add(new(big.Int).Div(d, s), big.NewInt(1))
	case ir.OpSgt, ir.OpUgt: // a > k, s < 0: n = ceil((a-k)/-s)
		if pos {
			return 0, false
		}
		n = ceilDiv(new(big.Int).Neg(d), new(big.Int).Neg(s))
	case ir.OpSge, ir.OpUge: // a >= k, s < 0: n = floor((a-k)/-s) + 1
		if pos {
			return 0, false
		}
		n = new(big.Int).Add(new(big.Int).Div(new(big.Int).Neg(d), new(big.Int).Neg(s)), big.NewInt(1))
	case ir.OpNe: // a != k: the step must hit k exactly, going towards it
		q, r := new(big.Int).QuoRem(d, s, new(big.Int))
		if r.Sign() != 0 || q.Sign() <= 0 {
			return 0, false
		}
		n = q
	default: // a == k goes on only while the counter stays k, which it leaves at once
		n = big.NewInt(1)
	}
	if !n.IsInt64() || n.Int64() > maxTrip {
		return 0, false
	}
	last := new(big.Int).Add(a, new(big.Int).Mul(n, s))
	if last.Cmp(lo) < 0 || last.Cmp(hi) > 0 || holds(last) {
		return 0, false
	}
	return int(n.Int64()), true
}

// ceilDiv is ceil(a/b) for b > 0 and a >= 0.
func ceilDiv(a, b *big.Int) *big.Int {
	q := new(big.Int).Add(a, new(big.Int).Sub(b, big.NewInt(1)))
	return q.Div(q, b)
}
