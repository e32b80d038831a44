package symbolic

// k-induction (issue 29, item 4): proofs past the unwinding bound for
// single-threaded programs.
//
// The target is one loop L of main that no other loop of main encloses.
// Number the evaluations of L's header 0, 1, 2, … and call segment j what
// an execution does from evaluation j to evaluation j+1 or, when it leaves
// L (or main returns, or the run ends) there, to its end. Three encodings
// of the same program, all the ordinary merged symbolic execution with a
// few hooks (kinduction hooks in encode_cfg.go and encode.go):
//
//   - base (indBase): the BMC encoding at unwind K with the cuts of L's
//     back edge kept apart from the others. No violation and no other cut
//     means segments 0..K-1 and the exit of segment K are violation-free in
//     every execution, and every other loop and recursion of those
//     executions stays within K.
//   - probe (indProbe): the program runs to evaluation indM of L's header
//     (S) and one more iteration (S'); the footprint of that iteration is
//     what differs: registers, input counters, and the bytes, block kinds
//     and sizes stored (at constant addresses only: a store at a symbolic
//     address, an allocation that does not balance within the iteration —
//     a malloc, a different stack — makes k-induction inapplicable).
//   - step (indStep): the program runs to evaluation indM, where the state
//     H is S with its footprint havocked (fresh values: the set A of every
//     state equal to S outside the footprint). One iteration from H must
//     land in A again: the components outside the footprint are the same
//     terms, and every store hits the footprint ("closed"); then every
//     reachable state at evaluations ≥ indM is in A. From H, k = K - indM
//     iterations run with their violations assumed away (the encoder's
//     paths go on where no check fails) and their exits dropped (in the
//     argument they are iterations, not the last segment), and the
//     violations of segment indM+k (= K) count: its iteration and its exit
//     with the rest of the program. Any cut but L's own back edge after
//     that iteration counts as a failure of the step too.
//
// If base and step are unsat, no execution violates: take the first
// violation, in segment J. J < K or the exit of segment K: base. J ≥ K:
// the state at evaluation J-k is reachable, at an evaluation ≥ indM, hence
// in A; segments J-k..J-1 are violation-free iterations; so the step's
// formula has a model with a violation in segment J. A program whose loop
// is not k-inductive (the violation reachable from an unreachable state of
// A) stays incomplete, never wrong.
//
// What is memory-specific (the footprint's bytes and the havoc of memory)
// is in kinduction_mem.go, to follow the memory model.

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/wyvernmc/wyvern/ir"
)

// maxGrow bounds the step encodings that grow the footprint.
const maxGrow = 4

// indM is the number of iterations of L before the havoc point: one, so
// that a callee's stack frame (an assert function's argument) was
// allocated and freed once and the allocation state is the same at every
// later evaluation.
const indM = 1

type indMode int

const (
	indBase indMode = iota + 1
	indProbe
	indStep
)

// induct is the k-induction part of an encoding (EncodeOptions.induct).
type induct struct {
	mode  indMode
	hp    int // L's header: its position in main's scan order
	end   int // the last position of L's body
	k     int // step: iterations assumed; the final evaluation is indM+k
	limit int // probe, step: L's unwinding (iterations of its body)

	fp *footprint // probe: found; step: given

	// results
	cutL   []Term  // base: cuts of L's back edge
	snap   *pstate // probe: the state at evaluation indM; step: H
	pre    *pstate // step: the state at evaluation indM before the havoc
	next   *pstate // step: the state at evaluation indM+1
	closed bool    // step: one iteration from H was checked closed
	counts bool    // the block under way belongs to the final segment
	// defs are the definitions of the encoding's arrays, by name (the
	// footprint follows them back from one state's memory to another's).
	defs map[Term]Term
}

// footprint is what one iteration of L changes.
type footprint struct {
	regs map[int]int  // register → width
	cnt  map[int]bool // input counters
	mem  memFootprint
}

// indFail is why k-induction does not apply to a loop (an encoding error
// of the probe and step encodings, never a refusal of the program).
type indFail struct {
	why  string
	grow *footprint // set when a larger footprint may be closed
}

func (f *indFail) Error() string { return "k-induction does not apply: " + f.why }

// errProbed ends a probe encoding once the footprint is known.
var errProbed = errors.New("probe done")

// mainLoops are the positions of the headers of main's loops that no other
// loop of main encloses, in scan order, with their bodies' last positions.
func mainLoops(p *ir.Program) ([][2]int, error) {
	e := &encoder{p: p, graphs: map[int]*graph{}}
	g, err := e.graphOf(p.Funcs[p.Entry])
	if err != nil {
		return nil, err
	}
	var hs []int
	for hp := range g.endOf {
		hs = append(hs, hp)
	}
	sort.Ints(hs)
	var out [][2]int
	for _, hp := range hs {
		inner := false
		for h2, end2 := range g.endOf {
			if h2 < hp && end2 >= hp {
				inner = true
			}
		}
		if !inner {
			out = append(out, [2]int{hp, g.endOf[hp]})
		}
	}
	return out, nil
}

// --- hooks of the encoder (encode_cfg.go, encode.go) ---

// atL reports whether position pos of fn is L's header in main's own
// activation (not an inlined call of main).
func (e *encoder) atL(fn *ir.Func, pos int) bool {
	return e.ind != nil && e.depth == 0 && fn.Index == e.p.Entry && pos == e.ind.hp
}

// unwindAt is the unwinding bound of the loop whose header is at pos.
func (e *encoder) unwindAt(fn *ir.Func, pos int) int {
	if e.atL(fn, pos) && e.ind.limit > 0 {
		return e.ind.limit
	}
	return e.opts.Unwind
}

// cutLoop cuts a path at the bound of the loop whose header is at hp: L's
// cut is kept apart (base) or dropped (probe and step: the last segment
// has been encoded), any other is the encoding's unwinding condition.
func (e *encoder) cutLoop(fn *ir.Func, hp int, s *pstate) {
	if e.atL(fn, hp) {
		switch e.ind.mode {
		case indBase:
			if s.g != "false" {
				e.ind.cutL = append(e.ind.cutL, s.g)
			}
			s.g = "false"
			return
		case indProbe, indStep:
			s.g = "false"
			return
		}
	}
	e.cut(s)
}

// addViol adds a violation's condition, unless the step case assumes it
// away (a segment before the last).
func (e *encoder) addViol(t Term) {
	if e.ind != nil && e.ind.mode != indBase && !e.ind.counts {
		return
	}
	e.viol = append(e.viol, t)
}

// noteDef records an array's definition (the footprint follows them).
func (e *encoder) noteDef(name, t Term, so Sort) {
	if e.ind != nil && so.Kind == KindArray {
		e.ind.defs[name] = t
	}
}

// dropExit reports whether the step drops a path leaving L from pos (in
// L's body, evaluation count) to tp: only the last segment's exit goes on.
func (e *encoder) dropExit(fn *ir.Func, pos, tp int, count map[int]int) bool {
	if e.ind == nil || e.ind.mode != indStep || e.depth != 0 || fn.Index != e.p.Entry {
		return false
	}
	in := pos >= e.ind.hp && pos <= e.ind.end
	return in && tp > e.ind.end && count[e.ind.hp] != indM+e.ind.k
}

// enterBlock is called with the merged state of main's block at pos
// before it runs: it tracks the segment, and at L's header records (probe)
// or havocs (step) the state at evaluation indM and checks the next one.
func (e *encoder) enterBlock(fn *ir.Func, pos int, count map[int]int, st *pstate) (*pstate, error) {
	ind := e.ind
	if ind == nil || e.depth != 0 || fn.Index != e.p.Entry {
		return st, nil
	}
	switch {
	case pos < ind.hp:
		ind.counts = false
	case pos > ind.end:
		ind.counts = true
	default:
		ind.counts = count[ind.hp] == indM+ind.k
	}
	if pos != ind.hp || ind.mode == indBase {
		return st, nil
	}
	switch count[pos] {
	case indM:
		if ind.mode == indProbe {
			ind.snap = st.clone()
			return st, nil
		}
		h, err := e.havoc(st, ind.fp)
		if err != nil {
			return nil, err
		}
		ind.pre, ind.snap = st.clone(), h.clone()
		return h, nil
	case indM + 1:
		if ind.mode == indProbe {
			fp, err := e.footprintOf(ind.snap, st)
			if err != nil {
				return nil, err
			}
			ind.fp = fp
			return nil, errProbed
		}
		if err := e.closedUnder(ind.snap, st, ind.fp); err != nil {
			return nil, err
		}
		ind.closed, ind.next = true, st.clone()
	}
	return st, nil
}

// footprintOf is what changes from a to b (states at L's header).
func (e *encoder) footprintOf(a, b *pstate) (*footprint, error) {
	fp := &footprint{regs: map[int]int{}, cnt: map[int]bool{}}
	if len(a.regs) != len(b.regs) {
		return nil, &indFail{why: "main's registers change"}
	}
	for i := range a.regs {
		if a.regs[i].bad != "" || b.regs[i].bad != "" {
			return nil, &indFail{why: fmt.Sprintf("register %d holds a value the encoder does not model", i)}
		}
		if !a.regs[i].same(b.regs[i]) {
			fp.regs[i] = width(b.regs[i], 64)
		}
	}
	if err := sameAlloc(a, b); err != nil {
		return nil, err
	}
	for k := range unionKeys(a.cnt, b.cnt) {
		if !cntOf(a, k).same(cntOf(b, k)) {
			fp.cnt[k] = true
		}
	}
	mem, err := e.memFootprintOf(a, b)
	if err != nil {
		return nil, err
	}
	fp.mem = mem
	return fp, nil
}

// closedUnder checks that b, one iteration after the havocked h, is in
// the set h stands for: the same outside fp, stores only inside it. A
// register, counter or constant address that changes only from h (a
// branch the first iteration could not take) is an indFail whose grow is
// the larger footprint to try.
func (e *encoder) closedUnder(h, b *pstate, fp *footprint) error {
	if len(h.regs) != len(b.regs) {
		return &indFail{why: "main's registers change"}
	}
	if err := sameAlloc(h, b); err != nil {
		return err
	}
	grow := &footprint{regs: map[int]int{}, cnt: map[int]bool{}}
	for i := range h.regs {
		if w, ok := fp.regs[i]; ok {
			// the havoc stood for values below 2^w: one iteration
			// must keep the register within them
			if bw := width(b.regs[i], 64); bw > w {
				grow.regs[i] = bw
			}
			continue
		}
		if b.regs[i].bad != "" {
			return &indFail{why: fmt.Sprintf("register %d holds a value the encoder does not model", i)}
		}
		if !h.regs[i].same(b.regs[i]) {
			grow.regs[i] = width(b.regs[i], 64)
		}
	}
	for k := range unionKeys(h.cnt, b.cnt) {
		if !fp.cnt[k] && !cntOf(h, k).same(cntOf(b, k)) {
			grow.cnt[k] = true
		}
	}
	mem, err := e.memClosed(h, b, fp.mem)
	if err != nil {
		return err
	}
	grow.mem = mem
	if len(grow.regs) > 0 || len(grow.cnt) > 0 || !mem.empty() {
		return &indFail{why: "an iteration from the havocked state changes more than the first iteration", grow: grow}
	}
	return nil
}

// union adds o to fp.
func (fp *footprint) union(o *footprint) {
	for i, w := range o.regs {
		fp.regs[i] = max(fp.regs[i], w)
	}
	for k := range o.cnt {
		fp.cnt[k] = true
	}
	fp.mem.union(o.mem)
}

// sameAlloc checks that the allocation state is the same term in a and b:
// an iteration that allocates for good (malloc) or changes the stack is
// not one k-induction handles.
func sameAlloc(a, b *pstate) error {
	if len(a.allocas) != len(b.allocas) || !a.next.same(b.next) || !a.flen.same(b.flen) || len(a.free) != len(b.free) ||
		a.atomic != b.atomic || len(a.ret) != len(b.ret) {
		return &indFail{why: "an iteration of the loop allocates (the allocation state changes)"}
	}
	for i := range a.allocas {
		if !a.allocas[i].same(b.allocas[i]) {
			return &indFail{why: "main's stack changes in the loop"}
		}
	}
	for i := range a.free {
		if !a.free[i].same(b.free[i]) {
			return &indFail{why: "an iteration of the loop allocates (the free stack changes)"}
		}
	}
	return nil
}

func unionKeys(a, b map[int]val) map[int]bool {
	out := map[int]bool{}
	for k := range a {
		out[k] = true
	}
	for k := range b {
		out[k] = true
	}
	return out
}

func cntOf(s *pstate, k int) val {
	if v, ok := s.cnt[k]; ok {
		return v
	}
	return cst(0, 32)
}

// havoc is s with its footprint fresh: registers, input counters, memory.
func (e *encoder) havoc(s *pstate, fp *footprint) (*pstate, error) {
	if fp == nil {
		return nil, &indFail{why: "no footprint"}
	}
	h := s.clone()
	regs := make([]int, 0, len(fp.regs))
	for i := range fp.regs {
		regs = append(regs, i)
	}
	sort.Ints(regs)
	for _, i := range regs {
		// a fresh value of width w stands for values below 2^w only:
		// wide enough for the state it replaces (a val may be narrower
		// than its register, encode_narrow.go)
		w := max(fp.regs[i], width(s.regs[i], 64))
		fp.regs[i] = w
		h.regs[i] = val{t: e.q.Declare(e.fresh("hr"), BitVec(w)), w: w}
		e.terms++
	}
	cnts := make([]int, 0, len(fp.cnt))
	for k := range fp.cnt {
		cnts = append(cnts, k)
	}
	sort.Ints(cnts)
	for _, k := range cnts {
		h.cnt[k] = val{t: e.q.Declare(e.fresh("hc"), BitVec(32)), w: 32}
		e.terms++
	}
	e.havocMem(h, fp.mem)
	return h, e.q.Err()
}

// --- the checks (Check's hook) ---

// KInduction is one k-induction attempt's record (Result.Induction).
type KInduction struct {
	Unwind int    `json:"unwind"` // the base case's bound K
	K      int    `json:"k"`      // iterations assumed in the step case
	Loop   string `json:"loop"`   // the loop's header (source location)
	// Base and Step are the solver's answers (unsat: holds); Step is
	// empty when the step was not checked.
	Base          string  `json:"base"`
	Step          string  `json:"step,omitempty"`
	Terms         int     `json:"terms"` // the step's formula size
	SolverSeconds float64 `json:"solver_s"`
	EncodeSeconds float64 `json:"encode_s"`
	// Invariants: the range invariants the step case assumed at the
	// havoc point (kinduction_inv.go).
	Invariants []string `json:"invariants,omitempty"`
	// NotApplicable: why the loop's iterations cannot be havocked (then
	// no larger bound tries it again).
	NotApplicable string `json:"not_applicable,omitempty"`
}

// inductor tries k-induction after each bound of a Check.
type inductor struct {
	p     *ir.Program
	opts  EncodeOptions
	s     Solver
	loops [][2]int
	dead  map[int]bool // loops shown not to apply
	// progress, if set, hears from the checks while they run (the
	// progress line), solverSeconds being the run's solver time before.
	progress      func(Progress)
	solverSeconds float64
	budget        time.Duration // a check's time limit (prove)
}

// check is one k-induction check with progress reports while it runs.
func (in *inductor) check(ctx context.Context, K int, enc *Encoding, goal Term, rec *KInduction) (Answer, error) {
	ctx, cancel := context.WithTimeout(ctx, in.budget)
	defer cancel()
	stop := solving(in.progress, Progress{Unwind: K, Terms: enc.Terms, SolverSeconds: in.solverSeconds + rec.SolverSeconds, Phase: "k-induction"})
	ans, err := in.s.Check(ctx, withGoal(enc, goal, false))
	stop()
	rec.SolverSeconds += ans.Elapsed.Seconds()
	return ans, err
}

func newInductor(p *ir.Program, opts EncodeOptions, s Solver) *inductor {
	loops, err := mainLoops(p)
	if err != nil {
		loops = nil
	}
	return &inductor{p: p, opts: opts, s: s, loops: loops, dead: map[int]bool{}}
}

// minInductBudget is the least time a k-induction check gets.
const minInductBudget = 6 * time.Second

// inductFloor is the least budget prove gives (minInductBudget); tests
// whose proofs must not depend on the machine's load raise it.
var inductFloor = minInductBudget

// prove tries each loop of main at bound K: true when one is proved. Each
// of its checks (and the invariant search in all) gets budget (at least
// minInductBudget), so that a bound that cannot be proved costs a few
// times the bound's own checks.
func (in *inductor) prove(ctx context.Context, K int, budget time.Duration) (bool, []KInduction, error) {
	in.budget = max(budget, inductFloor)
	var recs []KInduction
	for _, l := range in.loops {
		if in.dead[l[0]] {
			continue
		}
		rec, ok, err := in.try(ctx, K, l)
		if err != nil {
			return false, recs, err
		}
		recs = append(recs, rec)
		if rec.NotApplicable != "" {
			in.dead[l[0]] = true
		}
		if ok {
			return true, recs, nil
		}
	}
	return false, recs, nil
}

func (in *inductor) loc(hp int) string {
	e := &encoder{p: in.p, graphs: map[int]*graph{}}
	fn := in.p.Funcs[in.p.Entry]
	g, err := e.graphOf(fn)
	if err != nil {
		return fmt.Sprint(hp)
	}
	return e.where(fn, g.start[g.order[hp]])
}

func (in *inductor) encode(K int, ind *induct) (*Encoding, error) {
	o := in.opts
	o.Unwind = K
	ind.defs = map[Term]Term{}
	o.induct = ind
	// The havoc (kinduction_mem.go) is written for the flat array: every
	// byte the loop may store is a select of s.mem. Object memory
	// (encode_obj.go) keeps bytes per block instead, where the havoc would
	// miss them, so the three encodings of an attempt use the flat array.
	o.FlatMemory = true
	return Encode(in.p, o)
}

// try is one loop at bound K: base (no cut but L's), probe, step.
func (in *inductor) try(ctx context.Context, K int, l [2]int) (KInduction, bool, error) {
	rec := KInduction{Unwind: K, K: K - indM, Loop: in.loc(l[0])}
	if rec.K < 0 {
		rec.Base = "bound below the havoc point"
		return rec, false, nil
	}
	t0 := time.Now()
	base, err := in.encode(K, &induct{mode: indBase, hp: l[0], end: l[1]})
	rec.EncodeSeconds += time.Since(t0).Seconds()
	if err != nil {
		rec.NotApplicable = err.Error()
		return rec, false, nil
	}
	ans, err := in.check(ctx, K, base, Or(base.Violation, base.Unwound), &rec)
	if err != nil {
		return rec, false, err
	}
	rec.Base = ans.String()
	if ans.Status != Unsat {
		return rec, false, nil
	}
	t0 = time.Now()
	probe := &induct{mode: indProbe, hp: l[0], end: l[1], limit: K + 1}
	_, err = in.encode(K, probe)
	if !errors.Is(err, errProbed) {
		rec.EncodeSeconds += time.Since(t0).Seconds()
		var f *indFail
		switch {
		case errors.As(err, &f):
			rec.NotApplicable = f.why
		case err != nil:
			rec.NotApplicable = err.Error()
		default:
			rec.NotApplicable = fmt.Sprintf("the loop does not iterate %d times", indM+1)
		}
		return rec, false, nil
	}
	fp := probe.fp
	var enc *Encoding
	var step *induct
	for round := 0; ; round++ {
		step = &induct{mode: indStep, hp: l[0], end: l[1], k: K - indM, limit: K + 1, fp: fp}
		enc, err = in.encode(K, step)
		var f *indFail
		if errors.As(err, &f) && f.grow != nil && round < maxGrow {
			fp.union(f.grow) // a larger footprint: havoc it too, try again
			continue
		}
		break
	}
	rec.EncodeSeconds += time.Since(t0).Seconds()
	if err != nil {
		var f *indFail
		if errors.As(err, &f) {
			rec.NotApplicable = f.why
		} else {
			rec.NotApplicable = err.Error()
		}
		return rec, false, nil
	}
	rec.Terms = enc.Terms
	ans, err = in.check(ctx, K, enc, Or(enc.Violation, enc.Unwound), &rec)
	if err != nil {
		return rec, false, err
	}
	rec.Step = ans.String()
	if ans.Status != Sat {
		return rec, ans.Status == Unsat, nil
	}
	// a counterexample to induction: strengthen with range invariants
	// (kinduction_inv.go) and check again
	ictx, cancel := context.WithTimeout(ctx, in.budget)
	inv, names, err := in.invariants(ictx, K, enc, step, &rec)
	cancel()
	if err != nil || len(names) == 0 {
		return rec, false, err
	}
	rec.Invariants = names
	ans, err = in.check(ctx, K, enc, And(inv, Or(enc.Violation, enc.Unwound)), &rec)
	if err != nil {
		return rec, false, err
	}
	rec.Step = ans.String() + " with invariants"
	return rec, ans.Status == Unsat, nil
}
