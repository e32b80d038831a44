package termination

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/wyvernmc/wyvern/ir"
	S "github.com/wyvernmc/wyvern/symbolic"
	"github.com/wyvernmc/wyvern/vm"
)

// loopAnalysis is the result of the ranking and recurrent-set analysis of
// every loop of the functions reachable from main.
type loopAnalysis struct {
	reports   []LoopReport
	proved    bool   // every loop ranked, no recursion
	why       string // why not proved
	funcs     int
	recurrent []*recurrentSet
}

// sampleValues are the values the search should try for wide inputs: the
// recurrent sets' parameters.
func (a *loopAnalysis) sampleValues() []uint64 {
	var out []uint64
	for _, r := range a.recurrent {
		for _, v := range r.vals {
			out = append(out, v, uint64(sx(v, r.width(v))))
		}
	}
	return out
}

// reachable returns the functions reachable from main through direct
// calls, and whether the call graph among them has a cycle.
func reachable(prog *ir.Program) (fns []*ir.Func, self map[int]bool, recursive string, indirect bool) {
	self = map[int]bool{}
	seen := map[int]int{} // 1 on stack, 2 done
	var visit func(i int)
	visit = func(i int) {
		seen[i] = 1
		f := prog.Funcs[i]
		fns = append(fns, f)
		for k := range f.Code {
			in := &f.Code[k]
			switch in.Op {
			case ir.OpCallInd:
				indirect = true
			case ir.OpCall:
				c := int(f.Calls[in.Imm].Callee)
				if c < 0 || prog.Funcs[c].External {
					continue
				}
				switch seen[c] {
				case 0:
					visit(c)
				case 1:
					if c == i {
						self[i] = true
					} else if recursive == "" {
						recursive = prog.Funcs[c].Name
					}
				}
			}
		}
		seen[i] = 2
	}
	visit(prog.Entry)
	return fns, self, recursive, indirect
}

func analyzeLoops(ctx context.Context, prog *ir.Program, opts *Options) (*loopAnalysis, error) {
	a := &loopAnalysis{}
	fns, self, rec, indirect := reachable(prog)
	a.funcs = len(fns)
	var why []string
	if rec != "" {
		why = append(why, fmt.Sprintf("%s is mutually recursive (left to the search)", rec))
	}
	if indirect {
		why = append(why, "the program calls through function pointers")
	}
	timeout := 3 * time.Second
	sol, err := S.New(opts.Solver, S.Options{Timeout: timeout})
	if err != nil {
		return nil, fmt.Errorf("termination: %w", err)
	}
	defer sol.Close()
	ranked := true
	for _, f := range fns {
		fi := newFnInfo(f)
		if fi.why != "" {
			why = append(why, fi.why)
			ranked = false
			continue
		}
		if self[f.Index] {
			rep := LoopReport{Func: f.Name, Loc: "recursion"}
			ra := &rankAnalysis{ctx: ctx, sol: sol, prog: prog}
			rk, err := ra.rankRecursion(fi)
			switch {
			case err != nil:
				rep.Why = err.Error()
				ranked = false
			case rk != "" && !strings.HasPrefix(rk, "no recursive"):
				rep.Ranking = rk
			default:
				rep.Why = "no ranking function over the recursive calls' arguments"
				ranked = false
			}
			a.reports = append(a.reports, rep)
		}
		for _, l := range fi.loops {
			if ctx.Err() != nil {
				return a, nil
			}
			l.loc = loopLoc(prog, f, l.head)
			rep := LoopReport{Func: f.Name, Loc: l.loc}
			ra := &rankAnalysis{ctx: ctx, sol: sol, l: l, prog: prog}
			rk, rs, err := ra.run()
			switch {
			case err != nil:
				rep.Why = err.Error()
				ranked = false
			case rk != "":
				rep.Ranking = rk
			default:
				rep.Why = "no linear or lexicographic ranking function among the candidates"
				ranked = false
			}
			if rs != nil {
				rep.Recurrent = rs.String()
				a.recurrent = append(a.recurrent, rs)
			}
			a.reports = append(a.reports, rep)
		}
	}
	if !ranked {
		why = append(why, "a loop has no ranking function")
	}
	a.proved = ranked && rec == "" && !indirect
	a.why = strings.Join(why, "; ")
	return a, nil
}

func loopLoc(prog *ir.Program, f *ir.Func, pc int32) string {
	if int(pc) < len(f.Locs) {
		if li := f.Locs[pc]; li > 0 && int(li) < len(prog.Locs) {
			return prog.Locs[li].String()
		}
	}
	return fmt.Sprintf("%s pc %d", f.Name, pc)
}

// rankAnalysis looks for a ranking function and a recurrent set of a loop.
type rankAnalysis struct {
	ctx  context.Context
	sol  S.Solver
	l    *loop
	prog *ir.Program
	enc  *pathEnc
}

// candidate is a ranking function candidate: an expression over the
// tracked variables at the head (pre) and after an iteration (post).
type candidate struct {
	name   string
	pre    S.Term
	postOf func(pathOut) S.Term
	signed bool
}

func (c candidate) post(p pathOut) S.Term { return c.postOf(p) }

func (c candidate) lt(a, b S.Term) S.Term {
	if c.signed {
		return S.BVSLT(a, b)
	}
	return S.BVULT(a, b)
}

func (c candidate) le(a, b S.Term) S.Term {
	if c.signed {
		return S.BVSLE(a, b)
	}
	return S.BVULE(a, b)
}

func (c candidate) String() string {
	if c.signed {
		return c.name + " signed"
	}
	return c.name + " unsigned"
}

// unsat checks that the conjunction of ts is unsatisfiable.
func (ra *rankAnalysis) unsat(ts ...S.Term) (bool, error) {
	return ra.unsatIn(ra.enc, ts...)
}

// unsatIn is unsat over the variables of encoder e.
func (ra *rankAnalysis) unsatIn(e *pathEnc, ts ...S.Term) (bool, error) {
	q := S.NewQuery()
	for n := range e.decl {
		q.BitVec(n, 64)
	}
	q.Assert(S.And(ts...))
	q.Want()
	ans, err := ra.sol.Check(ra.ctx, q)
	if err != nil {
		return false, err
	}
	return ans.Status == S.Unsat, nil
}

func (ra *rankAnalysis) run() (string, *recurrentSet, error) {
	fi := ra.l.fn
	e := &pathEnc{l: ra.l, start: ra.l.head, rec: -1, f: fi.f, q: S.NewQuery(), decl: map[string]bool{}, prog: ra.prog, lp64: ra.prog.DataModel != ir.ILP32}
	ra.enc = e
	if err := e.enumerate(); err != nil {
		return "", nil, err
	}
	var backs []pathOut
	for _, p := range e.out {
		if p.back {
			backs = append(backs, p)
		}
	}
	rs, err := ra.recurrent()
	if err != nil {
		return "", nil, err
	}
	if len(backs) == 0 {
		return "no iteration (no path returns to the head)", rs, nil
	}
	inv, err := ra.invariants(backs)
	if err != nil {
		return "", rs, err
	}
	if len(inv) > 0 {
		for i := range backs {
			backs[i].cond = append(slices.Clone(backs[i].cond), inv...)
		}
	}
	cands := ra.candidates()
	// a single ranking function
	for _, c := range cands {
		var bad []S.Term
		for _, p := range backs {
			bad = append(bad, S.And(append(slices.Clone(p.cond), S.Not(c.lt(c.post(p), c.pre)))...))
		}
		ok, err := ra.unsat(S.Or(bad...))
		if err != nil {
			return "", rs, err
		}
		if ok {
			return c.String(), rs, nil
		}
	}
	// lexicographic: each component decreases on some of the remaining
	// paths and increases on none of them
	left := backs
	var comps []string
	for len(left) > 0 && len(comps) < 3 {
		found := false
		for _, c := range cands {
			var nonInc []S.Term
			for _, p := range left {
				nonInc = append(nonInc, S.And(append(slices.Clone(p.cond), S.Not(c.le(c.post(p), c.pre)))...))
			}
			ok, err := ra.unsat(S.Or(nonInc...))
			if err != nil {
				return "", rs, err
			}
			if !ok {
				continue
			}
			var rest []pathOut
			for _, p := range left {
				dec, err := ra.unsat(append(slices.Clone(p.cond), S.Not(c.lt(c.post(p), c.pre)))...)
				if err != nil {
					return "", rs, err
				}
				if !dec {
					rest = append(rest, p)
				}
			}
			if len(rest) < len(left) {
				comps = append(comps, c.String())
				left, found = rest, true
				break
			}
		}
		if !found {
			return "", rs, nil
		}
	}
	if len(left) > 0 {
		return "", rs, nil
	}
	return "[" + strings.Join(comps, ", ") + "]", rs, nil
}

// invariants returns the conditions among a few candidates (each tracked
// variable v of the loop: v >= 0, v > 0, v != MAX, v != MIN; each pair:
// v == u, v <= u, u <= v; signed) that
// hold on every path entering the loop from the function's entry and that
// every iteration keeps (Houdini: drop what is not kept, until what
// remains is inductive). Only for a loop that no other loop contains.
func (ra *rankAnalysis) invariants(backs []pathOut) ([]S.Term, error) {
	fi := ra.l.fn
	for _, l2 := range fi.loops {
		if l2 != ra.l && l2.body[ra.l.head] {
			return nil, nil
		}
	}
	ee := &pathEnc{l: &loop{fn: fi, head: ra.l.head, body: allPCs(fi.f)}, start: 0, entry: true, rec: -1, f: fi.f, q: S.NewQuery(),
		decl: map[string]bool{}, prog: ra.prog, lp64: ra.prog.DataModel != ir.ILP32}
	if err := ee.enumerate(); err != nil {
		return nil, nil // (no invariants: the ranking function must do without)
	}
	type cand struct {
		at func(get func(int32) S.Term) S.Term
	}
	var cands []cand
	for _, v := range ra.trackedIn() {
		w := fi.tracked[v] * 8
		if w < 8 {
			continue
		}
		zero := S.BV(0, int(w))
		maxv, minv := S.BV(ir.Mask(w)>>1, int(w)), S.BV(ir.Mask(w)>>1+1, int(w))
		cands = append(cands,
			cand{func(g func(int32) S.Term) S.Term { return S.BVSGE(low(g(v), w), zero) }},
			cand{func(g func(int32) S.Term) S.Term { return S.BVSGT(low(g(v), w), zero) }},
			cand{func(g func(int32) S.Term) S.Term { return S.Not(S.Eq(low(g(v), w), maxv)) }},
			cand{func(g func(int32) S.Term) S.Term { return S.Not(S.Eq(low(g(v), w), minv)) }})
	}
	for _, v := range ra.trackedIn() {
		for _, u := range ra.trackedIn() {
			w := fi.tracked[v] * 8
			if u <= v || fi.tracked[u] != fi.tracked[v] {
				continue
			}
			cands = append(cands,
				cand{func(g func(int32) S.Term) S.Term { return S.Eq(low(g(v), w), low(g(u), w)) }},
				cand{func(g func(int32) S.Term) S.Term { return S.BVSLE(low(g(v), w), low(g(u), w)) }},
				cand{func(g func(int32) S.Term) S.Term { return S.BVSLE(low(g(u), w), low(g(v), w)) }})
		}
	}
	postOf := func(e *pathEnc, p pathOut) func(int32) S.Term {
		return func(s int32) S.Term {
			if t, ok := p.mem[s]; ok {
				return t
			}
			return e.memPre(s)
		}
	}
	// holds at entry
	var live []cand
	for _, c := range cands {
		var bad []S.Term
		for _, p := range ee.out {
			if p.back {
				bad = append(bad, S.And(append(slices.Clone(p.cond), S.Not(c.at(postOf(ee, p))))...))
			}
		}
		if len(bad) == 0 {
			return nil, nil // the loop is not entered from the entry
		}
		ok, err := ra.unsatIn(ee, S.Or(bad...))
		if err != nil {
			return nil, err
		}
		if ok {
			live = append(live, c)
		}
	}
	// inductive
	for changed := true; changed && len(live) > 0; {
		changed = false
		var pre []S.Term
		for _, c := range live {
			pre = append(pre, c.at(ra.enc.memPre))
		}
		var keep []cand
		for _, c := range live {
			var bad []S.Term
			for _, p := range backs {
				bad = append(bad, S.And(append(append(slices.Clone(p.cond), pre...), S.Not(c.at(postOf(ra.enc, p))))...))
			}
			ok := true
			if len(bad) > 0 {
				var err error
				if ok, err = ra.unsat(S.Or(bad...)); err != nil {
					return nil, err
				}
			}
			if ok {
				keep = append(keep, c)
			} else {
				changed = true
			}
		}
		live = keep
	}
	var out []S.Term
	for _, c := range live {
		out = append(out, c.at(ra.enc.memPre))
	}
	return out, nil
}

func allPCs(f *ir.Func) map[int32]bool {
	m := make(map[int32]bool, len(f.Code))
	for pc := range f.Code {
		m[int32(pc)] = true
	}
	return m
}

// trackedIn returns the tracked variables the loop reads or writes, in
// slot order.
func (ra *rankAnalysis) trackedIn() []int32 {
	fi := ra.l.fn
	var out []int32
	for pc := range ra.l.body {
		in := &fi.f.Code[pc]
		if in.Op == ir.OpLoad || in.Op == ir.OpStore {
			if _, ok := fi.tracked[in.A]; ok && !slices.Contains(out, in.A) {
				out = append(out, in.A)
			}
		}
	}
	slices.Sort(out)
	return out
}

// loopConsts are the constants the loop computes or compares with.
func (ra *rankAnalysis) loopConsts() []uint64 {
	f := ra.l.fn.f
	var out []uint64
	for pc := range ra.l.body {
		in := &f.Code[pc]
		if in.Op < ir.OpAdd || in.Op > ir.OpSge {
			continue
		}
		for _, s := range []int32{in.A, in.B} {
			if k := s - f.ConstBase; s >= f.ConstBase && int(k) < len(f.Consts) {
				v := f.Consts[k]
				if !slices.Contains(out, v) {
					out = append(out, v)
				}
			}
		}
	}
	slices.Sort(out)
	return out
}

// candidates are the ranking function candidates: each variable and its
// negation, differences of two variables, a variable minus (and a
// constant minus it) the constants the loop compares with and 1, each as
// an unsigned and a signed number.
func (ra *rankAnalysis) candidates() []candidate {
	vars := ra.trackedIn()
	fi := ra.l.fn
	e := ra.enc
	type ex struct {
		name string
		w    uint8
		f    func(get func(int32) S.Term) S.Term
	}
	var exs []ex
	name := func(s int32) string { return varName(fi.f, s) }
	consts := append(ra.loopConsts(), 1)
	for _, v := range vars {
		w := fi.tracked[v] * 8
		exs = append(exs, ex{name(v), w, func(g func(int32) S.Term) S.Term { return low(g(v), w) }},
			ex{"-" + name(v), w, func(g func(int32) S.Term) S.Term { return S.BVNeg(low(g(v), w)) }})
	}
	for _, v := range vars {
		for _, u := range vars {
			if u == v || fi.tracked[u] != fi.tracked[v] {
				continue
			}
			w := fi.tracked[v] * 8
			exs = append(exs, ex{name(v) + " - " + name(u), w, func(g func(int32) S.Term) S.Term { return S.BVSub(low(g(v), w), low(g(u), w)) }})
			if u > v {
				exs = append(exs, ex{name(v) + " + " + name(u), w, func(g func(int32) S.Term) S.Term { return S.BVAdd(low(g(v), w), low(g(u), w)) }},
					ex{"-(" + name(v) + " + " + name(u) + ")", w, func(g func(int32) S.Term) S.Term { return S.BVNeg(S.BVAdd(low(g(v), w), low(g(u), w))) }})
				exs = append(exs, ex{"|" + name(v) + " - " + name(u) + "|", w, func(g func(int32) S.Term) S.Term {
					x, y := low(g(v), w), low(g(u), w)
					return S.Ite(S.BVSGT(x, y), S.BVSub(x, y), S.BVSub(y, x))
				}})
			}
		}
	}
	for _, v := range vars {
		w := fi.tracked[v] * 8
		for _, c := range consts {
			cw := S.BV(c&ir.Mask(w), int(w))
			cs := fmt.Sprint(sx(c&ir.Mask(w), w))
			exs = append(exs, ex{name(v) + " - " + cs, w, func(g func(int32) S.Term) S.Term { return S.BVSub(low(g(v), w), cw) }},
				ex{cs + " - " + name(v), w, func(g func(int32) S.Term) S.Term { return S.BVSub(cw, low(g(v), w)) }})
		}
	}
	var out []candidate
	for _, x := range exs {
		pre := x.f(e.memPre)
		for _, signed := range []bool{false, true} {
			c := candidate{name: x.name, pre: pre, signed: signed}
			xf := x.f
			c.postOf = func(p pathOut) S.Term {
				return xf(func(s int32) S.Term {
					if t, ok := p.mem[s]; ok {
						return t
					}
					return e.memPre(s)
				})
			}
			out = append(out, c)
		}
	}
	if len(out) > maxCandidates {
		out = out[:maxCandidates]
	}
	return out
}

const maxCandidates = 120

func varName(f *ir.Func, slot int32) string {
	for _, v := range f.Vars {
		if v.Slot == slot {
			return v.Name
		}
	}
	return fmt.Sprintf("%%%d", slot)
}

// recurrentSet is a set of states at a loop's head from which the loop
// never ends: the tracked variables vars (which the loop does not write)
// equal vals, whatever the others are.
type recurrentSet struct {
	fn    *ir.Func
	head  int32
	loc   string
	vars  []int32
	sizes []uint8
	vals  []uint64
	names []string
	// parity, when paritySize > 0: the tracked variable in slot parity
	// has the lowest bit parityBit.
	parity     int32
	paritySize uint8
	parityBit  uint64
	parityName string
}

func (r *recurrentSet) width(v uint64) uint8 {
	for i, x := range r.vals {
		if x == v {
			return r.sizes[i] * 8
		}
	}
	return 64
}

func (r *recurrentSet) String() string {
	if r.paritySize > 0 {
		return fmt.Sprintf("{%s %% 2 == %d}", r.parityName, r.parityBit)
	}
	if len(r.vars) == 0 {
		return "{every state at the loop's head}"
	}
	var parts []string
	for i := range r.vars {
		parts = append(parts, fmt.Sprintf("%s == %d", r.names[i], r.vals[i]))
	}
	return "{" + strings.Join(parts, " && ") + "}"
}

// recurrent looks for a recurrent set of the loop: values of the tracked
// variables the loop reads but never writes for which no path leaves the
// loop. Only loops whose paths are exact (no inner loop, call, untracked
// load, or instruction that can fail) qualify.
func (ra *rankAnalysis) recurrent() (*recurrentSet, error) {
	fi := ra.l.fn
	var exits []S.Term
	for _, p := range ra.enc.out {
		if p.rough {
			return nil, nil
		}
		if !p.back {
			exits = append(exits, S.And(p.cond...))
		}
	}
	for pc := range ra.l.body {
		in := &fi.f.Code[pc]
		switch in.Op {
		case ir.OpCall, ir.OpCallInd, ir.OpAlloca:
			return nil, nil
		case ir.OpLoad, ir.OpStore:
			if _, ok := fi.tracked[in.A]; !ok {
				return nil, nil
			}
		case ir.OpCallB:
			if c := fi.f.Calls[in.Imm].Callee; c < 0 || !isNondet(ra.prog.Funcs[c].Name) {
				return nil, nil
			}
		}
	}
	written := map[int32]bool{}
	for _, p := range ra.enc.out {
		for s := range p.mem {
			written[s] = true
		}
	}
	var inv []int32
	for _, v := range ra.trackedIn() {
		if !written[v] {
			inv = append(inv, v)
		}
	}
	if len(exits) == 0 || len(inv) == 0 {
		// no invariant variables: the set of every state at the head
		ok := len(exits) == 0
		if !ok {
			var err error
			if ok, err = ra.unsat(S.Or(exits...)); err != nil {
				return nil, err
			}
		}
		if !ok {
			return ra.parityRecurrent(exits, written)
		}
		return &recurrentSet{fn: fi.f, head: ra.l.head, loc: ra.l.loc}, nil
	}
	if len(inv) > 2 {
		return nil, nil
	}
	vals := func(w uint8) []uint64 {
		m := ir.Mask(w)
		out := []uint64{m, m >> 1, (m >> 1) + 1, 0, 1}
		for _, c := range ra.loopConsts() {
			out = append(out, c&m, (c+1)&m, (c-1)&m)
		}
		return out
	}
	try := func(assign []uint64) (bool, error) {
		var eqs []S.Term
		for i, v := range inv {
			w := fi.tracked[v] * 8
			eqs = append(eqs, S.Eq(low(ra.enc.memPre(v), w), S.BV(assign[i], int(w))))
		}
		return ra.unsat(S.And(eqs...), S.Or(exits...))
	}
	var assigns [][]uint64
	v0 := vals(fi.tracked[inv[0]] * 8)
	for _, a := range v0 {
		if len(inv) == 1 {
			assigns = append(assigns, []uint64{a})
			continue
		}
		for _, b := range vals(fi.tracked[inv[1]] * 8) {
			assigns = append(assigns, []uint64{a, b})
		}
	}
	for _, as := range assigns[:min(len(assigns), 40)] {
		ok, err := try(as)
		if err != nil {
			return nil, err
		}
		if ok {
			rs := &recurrentSet{fn: fi.f, head: ra.l.head, loc: ra.l.loc, vars: inv, vals: as}
			for _, v := range inv {
				rs.sizes = append(rs.sizes, fi.tracked[v])
				rs.names = append(rs.names, varName(fi.f, v))
			}
			return rs, nil
		}
	}
	return nil, nil
}

// parityRecurrent looks for a recurrent set {v % 2 == b} over a variable
// v the loop writes: no exit path starts in it, and every path back to
// the head keeps v's parity (an even x never reaches 1 in steps of 2).
func (ra *rankAnalysis) parityRecurrent(exits []S.Term, written map[int32]bool) (*recurrentSet, error) {
	fi := ra.l.fn
	for _, v := range ra.trackedIn() {
		if !written[v] {
			continue
		}
		w := fi.tracked[v] * 8
		for _, b := range []uint64{0, 1} {
			at := func(t S.Term) S.Term { return S.Eq(S.Extract(0, 0, low(t, w)), S.BV(b, 1)) }
			ok, err := ra.unsat(at(ra.enc.memPre(v)), S.Or(exits...))
			if err != nil || !ok {
				if err != nil {
					return nil, err
				}
				continue
			}
			var leave []S.Term
			for _, p := range ra.enc.out {
				if !p.back {
					continue
				}
				post, ok := p.mem[v]
				if !ok {
					post = ra.enc.memPre(v)
				}
				leave = append(leave, S.And(append(slices.Clone(p.cond), S.Not(at(post)))...))
			}
			if len(leave) > 0 {
				if ok, err = ra.unsat(at(ra.enc.memPre(v)), S.Or(leave...)); err != nil {
					return nil, err
				}
			}
			if ok {
				return &recurrentSet{fn: fi.f, head: ra.l.head, loc: ra.l.loc, parity: v, paritySize: fi.tracked[v],
					parityBit: b, parityName: varName(fi.f, v)}, nil
			}
		}
	}
	return nil, nil
}

// recurWatch recognises states in recurrent sets.
type recurWatch struct {
	m   *vm.Machine
	set []*recurrentSet
}

func newRecurWatch(m *vm.Machine, set []*recurrentSet) *recurWatch {
	return &recurWatch{m: m, set: set}
}

// check returns the lasso of a state in a recurrent set (without its stem),
// nil when st is in none.
func (w *recurWatch) check(_ context.Context, st *vm.State) *Lasso {
	for _, t := range st.Threads {
		if t.Done || len(t.Frames) == 0 {
			continue
		}
		fr := &t.Frames[len(t.Frames)-1]
		for _, r := range w.set {
			if fr.Fn != r.fn || fr.PC != r.head || !r.holds(st, t, fr) {
				continue
			}
			return &Lasso{Kind: LassoRecurrent, Head: fmt.Sprintf("%s (%s)", r.loc, r.fn.Name), HeadFunc: r.fn.Name,
				HeadLine: int(w.m.Loc(t).Line), Recurrent: r.String()}
		}
	}
	return nil
}

// holds reports whether the frame fr of thread t in st is in the set.
func (r *recurrentSet) holds(st *vm.State, t *vm.Thread, fr *vm.Frame) bool {
	if r.paritySize > 0 {
		x, ek := st.Mem.Load(t.Regs[fr.Base+r.parity], uint32(r.paritySize))
		return ek == vm.ErrNone && x&1 == r.parityBit
	}
	for i, v := range r.vars {
		addr := t.Regs[fr.Base+v]
		x, ek := st.Mem.Load(addr, uint32(r.sizes[i]))
		if ek != vm.ErrNone || x&ir.Mask(r.sizes[i]*8) != r.vals[i] {
			return false
		}
	}
	return true
}
