package symbolic

import (
	"fmt"
	"sort"

	"github.com/wyvernmc/wyvern/ir"
)

// graph is a function's control-flow graph as the encoder scans it.
type graph struct {
	start   []int32 // block → first pc
	end     []int32 // block → one past its last pc
	succ    [][]int // block → successor blocks
	pcBlock []int   // pc → block
	pos     []int   // block → position in the scan order (-1: unreachable)
	order   []int   // position → block
	// ends maps the last position of a loop body to the positions of the
	// loop headers whose body ends there, innermost (largest) first.
	ends map[int][]int
	// endOf maps a loop header's position to the last position of its body.
	endOf map[int]int
	// condOf maps the position of a block of a loop's condition to its
	// header's position: blocks of the body reached only from the header
	// or other such blocks, without side effects (no store, call, alloca,
	// atomic) and without the back edge — the rest of a condition such as
	// `i < n && a[i] != k`, which clang splits into blocks. The (Unwind+1)-th
	// evaluation of the header evaluates them too: a path leaving the loop
	// from them goes on, as it leaves from a one-block header (CBMC's loop
	// guard is the whole condition).
	condOf map[int]int
}

// pure reports whether block b has no side effect but errors, so that it
// may belong to a loop's condition.
func pureBlock(fn *ir.Func, g *graph, b int) bool {
	for pc := g.start[b]; pc < g.end[b]; pc++ {
		switch fn.Code[pc].Op {
		case ir.OpAlloca, ir.OpStore, ir.OpStoreAgg, ir.OpAtomicRMW, ir.OpCmpXchg, ir.OpCall, ir.OpCallInd,
			ir.OpCallB, ir.OpStackSave, ir.OpStackRestore, ir.OpRet, ir.OpUnreachable, ir.OpTrap:
			return false
		}
	}
	return true
}

func isTerminator(op ir.Op) bool {
	switch op {
	case ir.OpJmp, ir.OpJmpE, ir.OpBr, ir.OpBrE, ir.OpSwitch, ir.OpRet, ir.OpUnreachable, ir.OpTrap:
		return true
	}
	return false
}

// targets are the pcs an instruction may jump to (terminators only).
func targets(fn *ir.Func, in *ir.Inst) ([]int32, error) {
	edge := func(i int64) (int32, error) {
		if i < 0 || i >= int64(len(fn.Edges)) {
			return 0, fmt.Errorf("edge %d out of range", i)
		}
		return fn.Edges[i].PC, nil
	}
	switch in.Op {
	case ir.OpJmp:
		return []int32{int32(in.Imm)}, nil
	case ir.OpBr:
		return []int32{in.B, in.C}, nil
	case ir.OpJmpE:
		t, err := edge(int64(in.Imm))
		return []int32{t}, err
	case ir.OpBrE:
		a, err := edge(int64(in.B))
		if err != nil {
			return nil, err
		}
		b, err := edge(int64(in.C))
		return []int32{a, b}, err
	case ir.OpSwitch:
		if in.Imm >= uint64(len(fn.Switches)) {
			return nil, fmt.Errorf("switch %d out of range", in.Imm)
		}
		sw := &fn.Switches[in.Imm]
		var out []int32
		for _, t := range append(append([]int32(nil), sw.Targets...), sw.Default) {
			pc, err := edge(int64(t))
			if err != nil {
				return nil, err
			}
			out = append(out, pc)
		}
		return out, nil
	}
	return nil, nil
}

// graphOf builds (once) the scan order of fn: a reverse postorder of its
// blocks, successors visited last-first so that a loop's body (usually the
// true branch of its header) comes before its exit; retreating edges of
// that order are the back edges, and each header's loop body is the set of
// blocks that reach one of its back edges without passing the header.
func (e *encoder) graphOf(fn *ir.Func) (*graph, error) {
	if g := e.graphs[fn.Index]; g != nil {
		return g, nil
	}
	n := int32(len(fn.Code))
	if n == 0 {
		return nil, fmt.Errorf("%s: function without code", fn.Name)
	}
	leader := make([]bool, n+1)
	leader[0] = true
	for pc := int32(0); pc < n; pc++ {
		in := &fn.Code[pc]
		ts, err := targets(fn, in)
		if err != nil {
			return nil, fmt.Errorf("%s: pc %d: %w", fn.Name, pc, err)
		}
		for _, t := range ts {
			if t < 0 || t >= n {
				return nil, fmt.Errorf("%s: pc %d: jump to pc %d out of range", fn.Name, pc, t)
			}
			leader[t] = true
		}
		if isTerminator(in.Op) {
			leader[pc+1] = true
		}
	}
	g := &graph{pcBlock: make([]int, n), ends: map[int][]int{}}
	for pc := int32(0); pc < n; pc++ {
		if leader[pc] {
			g.start = append(g.start, pc)
		}
		g.pcBlock[pc] = len(g.start) - 1
	}
	nb := len(g.start)
	g.end = make([]int32, nb)
	g.succ = make([][]int, nb)
	for b := 0; b < nb; b++ {
		if b+1 < nb {
			g.end[b] = g.start[b+1]
		} else {
			g.end[b] = n
		}
		last := &fn.Code[g.end[b]-1]
		if !isTerminator(last.Op) {
			if g.end[b] < n {
				g.succ[b] = []int{b + 1}
			}
			continue
		}
		ts, _ := targets(fn, last)
		for _, t := range ts {
			g.succ[b] = append(g.succ[b], g.pcBlock[t])
		}
	}
	// reverse postorder, iteratively
	state := make([]uint8, nb) // 0 new, 1 on stack, 2 done
	var post []int
	type item struct{ b, i int }
	stack := []item{{0, len(g.succ[0]) - 1}}
	state[0] = 1
	var back [][2]int
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.i < 0 {
			state[top.b] = 2
			post = append(post, top.b)
			stack = stack[:len(stack)-1]
			continue
		}
		s := g.succ[top.b][top.i]
		top.i--
		switch state[s] {
		case 0:
			state[s] = 1
			stack = append(stack, item{s, len(g.succ[s]) - 1})
		case 1:
			back = append(back, [2]int{top.b, s})
		}
	}
	g.pos = make([]int, nb)
	for i := range g.pos {
		g.pos[i] = -1
	}
	for i := len(post) - 1; i >= 0; i-- {
		g.pos[post[i]] = len(g.order)
		g.order = append(g.order, post[i])
	}
	// loop bodies
	preds := make([][]int, nb)
	for b, ss := range g.succ {
		if g.pos[b] < 0 {
			continue
		}
		for _, s := range ss {
			preds[s] = append(preds[s], b)
		}
	}
	endOf := map[int]int{}
	for _, be := range back {
		latch, h := be[0], be[1]
		end := g.pos[latch]
		seen := map[int]bool{h: true, latch: true}
		work := []int{latch}
		for len(work) > 0 {
			b := work[len(work)-1]
			work = work[:len(work)-1]
			if g.pos[b] > end {
				end = g.pos[b]
			}
			for _, p := range preds[b] {
				if !seen[p] {
					seen[p] = true
					work = append(work, p)
				}
			}
		}
		hp := g.pos[h]
		if old, ok := endOf[hp]; !ok || end > old {
			endOf[hp] = end
		}
	}
	g.endOf = endOf
	g.condOf = map[int]int{}
	for hp, end := range endOf {
		h := g.order[hp]
		for p := hp + 1; p <= end; p++ {
			b := g.order[p]
			ok := pureBlock(fn, g, b) && len(preds[b]) > 0
			for _, q := range preds[b] {
				if q == h {
					continue
				}
				if c, in := g.condOf[g.pos[q]]; g.pos[q] < 0 || !in || c != hp {
					ok = false
				}
			}
			for _, s := range g.succ[b] {
				if s == h {
					ok = false // the latch
				}
			}
			if ok {
				if _, inner := g.condOf[p]; !inner {
					g.condOf[p] = hp
				}
			}
		}
	}
	for hp, end := range endOf {
		g.ends[end] = append(g.ends[end], hp)
	}
	for _, hs := range g.ends {
		sort.Sort(sort.Reverse(sort.IntSlice(hs)))
	}
	e.graphs[fn.Index] = g
	return g, nil
}

// run executes one activation of fn from s (its registers set up) and
// returns the merge of the states that return from it (one per round of a
// threaded program), none if none does.
func (e *encoder) run(fn *ir.Func, s *pstate) ([]*pstate, error) {
	return e.runFrom(fn, []*pstate{s})
}

// runFrom is run from several states (one per round of a threaded program).
func (e *encoder) runFrom(fn *ir.Func, ss []*pstate) ([]*pstate, error) {
	g, err := e.graphOf(fn)
	if err != nil {
		return nil, err
	}
	np := len(g.order)
	pending := make([][]*pstate, np)
	back := map[int][]*pstate{}
	count := map[int]int{}
	last := map[int]bool{} // loop headers (positions) in their last evaluation
	pending[0] = ss
	var rets []*pstate
	for pos := 0; pos < np; {
		ps := pending[pos]
		pending[pos] = nil
		e.visits++
		visit := e.visits // one execution of the block for all rounds' states
		for _, grp := range byRound(ps) {
			e.visit = visit
			st, err := e.merge(grp)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", e.where(fn, g.start[g.order[pos]]), err)
			}
			if st != nil && e.ind != nil { // k-induction (kinduction.go)
				if st, err = e.enterBlock(fn, pos, count, st); err != nil {
					return nil, err
				}
			}
			if st != nil {
				e.steps++
				if e.terms > e.maxTerms {
					return nil, fmt.Errorf("symbolic: encode: formula larger than %d terms at %s (lower the unwind bound)", e.maxTerms, e.where(fn, g.start[g.order[pos]]))
				}
				outs, ret, err := e.block(fn, g, g.order[pos], st)
				if err != nil {
					return nil, err
				}
				rets = append(rets, ret...)
				// The pass after a loop's Unwind-th back edge evaluates the
				// header once more: leaving the loop goes on, but entering
				// the body a (Unwind+1)-th time is cut (CBMC's unwinding
				// assertion at --unwind Unwind+1).
				end, isHeader := g.endOf[pos]
				lastPass := isHeader && count[pos] >= e.unwindAt(fn, pos)
				if isHeader {
					last[pos] = lastPass
				}
				if hp, ok := g.condOf[pos]; ok && last[hp] {
					// a block of the condition in its last evaluation
					end, lastPass = g.endOf[hp], true
				}
				hp, inCond := pos, isHeader
				if c, ok := g.condOf[pos]; ok {
					hp, inCond = c, true
				}
				for _, o := range outs {
					tp := g.pos[o.block]
					if e.po != nil && e.waitDrop(fn, g, pos, tp, count) {
						continue // a second wait in a wait loop's entry: dropped (encode_wait.go)
					}
					if lastPass && tp > pos && tp <= end && !(inCond && g.condOf[tp] == hp && tp != hp) {
						e.cutLoop(fn, hp, o.s)
						continue
					}
					if e.ind != nil && e.dropExit(fn, pos, tp, count) {
						continue // k-induction's step: not the last segment's exit
					}
					if tp > pos {
						pending[tp] = append(pending[tp], o.s)
						continue
					}
					if e.po != nil && e.stutterLoop(fn, g, tp) {
						continue // a completed iteration of a stutter loop: dropped (encode_spin.go)
					}
					if count[tp] < e.unwindAt(fn, tp) {
						back[tp] = append(back[tp], o.s)
					} else {
						e.cutLoop(fn, tp, o.s)
					}
				}
			}
		}
		jumped := false
		for _, h := range g.ends[pos] {
			if bs := back[h]; len(bs) > 0 {
				delete(back, h)
				pending[h] = append(pending[h], bs...)
				count[h]++
				pos = h
				jumped = true
				break
			}
		}
		if jumped {
			continue
		}
		pos++
		if pos < np {
			count[pos] = 0 // entered from before: a new entry of the loop
		}
	}
	var out []*pstate
	for _, grp := range byRound(rets) {
		st, err := e.merge(grp)
		if err != nil {
			return nil, fmt.Errorf("%s: returns: %w", fn.Name, err)
		}
		if st != nil {
			out = append(out, st)
		}
	}
	return out, nil
}

// byRound groups path states by their round (a constant: see
// switchPoint), in increasing round order; states keep their order within
// a group. Single-threaded programs have one group.
func byRound(ps []*pstate) [][]*pstate {
	if len(ps) == 0 {
		return nil
	}
	var groups [][]*pstate
	var rounds []uint64
	for _, s := range ps {
		i := 0
		for i < len(rounds) && rounds[i] < s.rnd.c {
			i++
		}
		if i < len(rounds) && rounds[i] == s.rnd.c {
			groups[i] = append(groups[i], s)
			continue
		}
		rounds = append(rounds[:i], append([]uint64{s.rnd.c}, rounds[i:]...)...)
		groups = append(groups[:i], append([][]*pstate{{s}}, groups[i:]...)...)
	}
	return groups
}

// merge joins path states at a block: the guard is their disjunction,
// everything else an ite on their guards where they differ. States whose
// guard is false are dropped; nil if none is left.
func (e *encoder) merge(ps []*pstate) (*pstate, error) {
	var live []*pstate
	for _, s := range ps {
		if s.g != "false" {
			live = append(live, s)
		}
	}
	switch len(live) {
	case 0:
		return nil, nil
	case 1:
		return live[0], nil
	}
	e.poBlockJoin(live) // (encode_block.go)
	first := live[0]
	for _, s := range live {
		if s.atomic != first.atomic {
			return nil, fmt.Errorf("paths inside and outside an atomic section join")
		}
		if s.poSec != first.poSec {
			return nil, unsupported{fmt.Errorf("paths inside different atomic sections join: not supported by the partial-order encoding yet")}
		}
		if e.threaded {
			e.settle(s)
		}
	}
	out := first.clone()
	gs := make([]Term, len(live))
	for i, s := range live {
		gs[i] = s.g
	}
	out.g = e.defBool(or(gs...))
	// vals merges the i-th values of the states (ite chain on the guards).
	vals := func(get func(s *pstate) val, w0 int) val {
		v0 := get(live[0])
		allSame := true
		w := w0
		for _, s := range live {
			v := get(s)
			if !v.same(v0) {
				allSame = false
			}
			if v.w > w {
				w = v.w
			}
		}
		if allSame {
			return v0
		}
		for _, s := range live {
			if v := get(s); v.bad != "" {
				return val{bad: v.bad}
			}
		}
		if w == 0 {
			w = 64
		}
		gs := make([]Term, len(live))
		vs := make([]val, len(live))
		for i, s := range live {
			gs[i], vs[i] = s.g, get(s)
		}
		return e.merged(gs, vs, w)
	}
	arrays := func(get func(s *pstate) Term, so Sort, prefix string) Term {
		t := get(live[len(live)-1])
		for i := len(live) - 2; i >= 0; i-- {
			t = ite(live[i].g, get(live[i]), t)
		}
		return e.def(t, so, prefix)
	}
	for i := range out.regs {
		out.regs[i] = vals(func(s *pstate) val { return s.regs[i] }, 0)
	}
	for _, s := range live {
		if len(s.allocas) != len(first.allocas) {
			return nil, fmt.Errorf("paths with different numbers of allocas join (alloca on some paths only)")
		}
		if len(s.ret) != len(first.ret) {
			return nil, fmt.Errorf("paths return different numbers of values")
		}
	}
	for i := range out.allocas {
		out.allocas[i] = vals(func(s *pstate) val { return s.allocas[i] }, 32)
	}
	for i := range out.ret {
		out.ret[i] = vals(func(s *pstate) val { return s.ret[i] }, 0)
	}
	if e.obj {
		out.tm = e.mergeObj(live, vals)
	} else if !e.threaded {
		out.mem = arrays(func(s *pstate) Term { return s.mem }, Memory(), "m")
		out.kind = arrays(func(s *pstate) Term { return s.kind }, ArraySort(32, 8), "k")
		out.size = arrays(func(s *pstate) Term { return s.size }, ArraySort(32, 32), "z")
	}
	out.next = vals(func(s *pstate) val { return s.next }, 32)
	out.flen = vals(func(s *pstate) val { return s.flen }, 32)
	nf := 0
	for _, s := range live {
		nf = max(nf, len(s.free))
	}
	out.free = make([]val, nf)
	for i := range out.free {
		out.free[i] = vals(func(s *pstate) val {
			if i < len(s.free) {
				return s.free[i]
			}
			return cst(0, 32)
		}, 32)
	}
	keys := map[int]bool{}
	for _, s := range live {
		for k := range s.cnt {
			keys[k] = true
		}
	}
	for k := range keys {
		out.cnt[k] = vals(func(s *pstate) val {
			if v, ok := s.cnt[k]; ok {
				return v
			}
			return cst(0, 32)
		}, 32)
	}
	if e.threaded {
		out.rnd = vals(func(s *pstate) val { return s.rnd }, 8)
		out.steps = vals(func(s *pstate) val { return s.steps }, 32)
		out.halted = vals(func(s *pstate) val { return s.halted }, 1)
		out.nthr = vals(func(s *pstate) val { return s.nthr }, 32)
		out.cseq = vals(func(s *pstate) val { return s.cseq }, 32)
		tm, err := e.mergeMaps(live, vals)
		if err != nil {
			return nil, err
		}
		out.tm = tm
	}
	if e.err != nil {
		return nil, e.err
	}
	return out, nil
}
