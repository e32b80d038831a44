package symbolic

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/wyvernmc/wyvern/ir"
	"github.com/wyvernmc/wyvern/jobs"
	"github.com/wyvernmc/wyvern/query"
	"github.com/wyvernmc/wyvern/trace"
	"github.com/wyvernmc/wyvern/vm"
)

// Verdicts of a bounded model-checking run, in the terms of the query:
// E<> V is satisfied when a violation V is reachable, A[] !V when none is.
const (
	VerdictSatisfied    = "satisfied"
	VerdictNotSatisfied = "not-satisfied"
	VerdictIncomplete   = "incomplete" // no violation up to the bound, but the bound cut some execution
	VerdictUnknown      = "unknown"    // the solver gave no answer (timeout, crash); see Reason
)

// DefaultMaxUnwind is the deepening limit when none is given.
const DefaultMaxUnwind = 64

// BoundCheck is one bound's encoding and solver checks.
type BoundCheck struct {
	Unwind        int     `json:"unwind"`
	Terms         int     `json:"terms"`
	EncodeSeconds float64 `json:"encode_s"`
	SolverSeconds float64 `json:"solver_s"`
	Violation     string  `json:"violation"`         // the solver's answer: sat, unsat, unknown (...)
	Unwound       string  `json:"unwound,omitempty"` // whether the bound cut an execution (when no violation)
	// Answered: the portfolio's member that answered the last check.
	Answered string `json:"answered,omitempty"`
	// Rounds: a threaded program's complete check (encode_complete.go).
	Rounds int `json:"rounds,omitempty"`
	// PartialOrder: a threaded program's check of every interleaving
	// (encode_po.go).
	PartialOrder bool `json:"partial_order,omitempty"`
	// Order: a check of one order of a sequentialized threaded program
	// (sequential.go): the order's number, from 1.
	Order int `json:"order,omitempty"`
}

// WitnessInput is a nondeterministic value of the witness: the k-th
// execution of the choosing call at pc of function Func returned Value.
type WitnessInput struct {
	Func  string `json:"func"`
	PC    int32  `json:"pc"`
	Loc   string `json:"loc,omitempty"` // file:line:col
	K     int    `json:"k"`
	Value uint64 `json:"value"`
}

// WitnessContext is one context of a threaded witness's schedule: in
// round Round, process Thread runs until it has taken Steps steps in all
// (0xffffffff: until the violation).
type WitnessContext struct {
	Round  int    `json:"round"`
	Thread int32  `json:"thread"`
	Steps  uint64 `json:"steps"`
}

// Result is a bounded model-checking run's answer.
type Result struct {
	Query   string `json:"query"`
	Verdict string `json:"verdict"`
	Reason  string `json:"reason"`
	// Bound is the unwinding bound of the last check.
	Bound  int          `json:"bound"`
	Solver string       `json:"solver"`
	Checks []BoundCheck `json:"checks"`
	// Witness: the violation's inputs in execution order and the concrete
	// run that reproduces it in the vm (replay with `wyvern replay FILE
	// --counterexample RESULT.json`).
	Inputs []WitnessInput `json:"inputs,omitempty"`
	// Induction: the k-induction attempts (kinduction.go), in order.
	Induction []KInduction `json:"induction,omitempty"`
	// Threaded programs: the round bound, and the witness's schedule;
	// CompleteRounds: the rounds of a proof (every schedule).
	Contexts       int              `json:"contexts,omitempty"`
	CompleteRounds int              `json:"complete_rounds,omitempty"`
	Schedule       []WitnessContext `json:"schedule,omitempty"`
	Trace          *trace.Trace     `json:"trace,omitempty"`
	Description    string           `json:"description,omitempty"`
	SolverSeconds  float64          `json:"solver_s"`
	EncodeSeconds  float64          `json:"encode_s"`
	ElapsedSec     float64          `json:"elapsed_s"`
}

// Progress is reported after each bound and, every few seconds, while a
// solver works (Phase says on what).
type Progress struct {
	Unwind        int
	Terms         int
	SolverSeconds float64
	// Phase is empty after a bound, else what the solver is checking:
	// "violation", "unwinding", "k-induction".
	Phase string
}

// ErrUnsupported matches (errors.Is) Check's errors for a program the
// encoder does not support: a refusal, not a failure.
var ErrUnsupported = errors.New("unsupported by BMC")

// unsupported is an encoding error, which matches ErrUnsupported.
type unsupported struct{ err error }

func (u unsupported) Error() string        { return u.err.Error() }
func (u unsupported) Unwrap() error        { return u.err }
func (u unsupported) Is(target error) bool { return target == ErrUnsupported }

// Check runs bounded model checking of an E<> or A[] query on program p:
// for each bound (the fixed one, or 1, 2, 4, ... up to MaxUnwind), it
// encodes the program, asks the solver for a violation, and if there is
// none whether the bound cut an execution. A violation's model is replayed
// concretely in the vm; a model that does not reproduce the violation is
// an internal error, never a verdict.
func Check(ctx context.Context, p *ir.Program, q *query.Query, o jobs.BMCOptions, progress func(Progress)) (*Result, error) {
	start := time.Now()
	target, err := query.BMCTarget(q)
	if err != nil {
		return nil, err
	}
	name := o.Solver
	if name == "" {
		name = DefaultSolver
	}
	s, err := New(name, Options{Timeout: time.Duration(o.SolverTimeoutS * float64(time.Second))})
	if err != nil {
		return nil, err
	}
	defer s.Close()
	res := &Result{Query: q.Text, Solver: name}
	if err := checkOptions(o); err != nil {
		return nil, err
	}
	bounds := []int{o.Unwind}
	threaded := Threaded(p)
	if o.Unwind <= 0 {
		max := o.MaxUnwind
		if max <= 0 {
			max = DefaultMaxUnwind
		}
		static := 0
		if threaded && !o.RoundsOnly {
			// the partial-order check proves only at a bound that cuts
			// no execution: the static trip counts' (tripcount.go)
			if b, _, ok := staticUnwind(p, true); ok {
				static = b
			}
		}
		bounds = deepening(max, static)
	}
	// A bound K lets every loop body run at most K times per entry of the
	// loop and recursion nest K calls deep (CBMC's --unwind K+1).
	opts := EncodeOptions{Errors: target.Errors, Calls: target.Calls, CallProcs: target.CallProcs, Contexts: o.Contexts}
	if threaded {
		res.Contexts = o.Contexts
		if res.Contexts <= 0 {
			res.Contexts = DefaultContexts
		}
	}
	if target.AnyError {
		opts.Errors = nil
	} else if len(opts.Errors) == 0 {
		opts.Errors = []vm.ErrKind{} // no error kind is a violation, only the calls
	}
	var ki *inductor // k-induction after each bound (single-threaded programs)
	if !threaded {
		ki = newInductor(p, opts, s)
		ki.progress = progress
	}
	// poRefused: why the partial-order encoding refused the program;
	// poUsed: it answered at some bound
	var poRefused string
	var poUsed bool
	// poGaveUp: why the partial-order check gave no proof (without
	// --complete the round-robin rounds then go on alone)
	var poGaveUp string
	reuse := ""
	if threaded {
		reuse = createAfterJoin(p)
	}
	reuseCut := false // an encoding cut a path at a comparison address reuse may decide
	finish := func(verdict, reason string) (*Result, error) {
		proof := verdict == VerdictNotSatisfied && !target.Negated || verdict == VerdictSatisfied && target.Negated
		if proof && reuse != "" {
			// (see createAfterJoin: the vm reuses a joined thread's id)
			verdict, reason = VerdictIncomplete, reason+"; but "+reuse+", and the vm gives it a joined thread's id where the encoding numbers threads in creation order: no proof"
		}
		if verdict == VerdictIncomplete && reuseCut {
			reason += "; " + reuseCutNote
		}
		res.Verdict, res.Reason = verdict, reason
		res.ElapsedSec = time.Since(start).Seconds()
		return res, nil
	}
	if threaded && !o.RoundsOnly && reuse == "" && trySequential {
		if v, why, ok := proveSequential(ctx, p, q, target, o, res); ok {
			return finish(v, why)
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	}
	for _, k := range bounds {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		opts.Unwind = k
		res.Bound = k
		// A threaded program's partial-order check (every interleaving at
		// this bound, encode_po.go) comes first: a proof or a replayed
		// violation it finds is the answer; some interleaving cut by the
		// bound deepens (no interleaving has a violation within this bound,
		// so the rounds would find none either). When it refuses the program
		// or gives no answer or no proof, the round-robin rounds go on alone,
		// as they did before it existed. (It came after the rounds until
		// issue 29's wait-loop reduction: the rounds' formula, with many
		// rounds, often took longer than the whole limit — 20 s without an
		// answer on mt_condvar_ok at 6 rounds, where the partial-order
		// check proves it in a few seconds — and the partial-order check
		// finds the corpus's threaded bugs in under a second.)
		if threaded && !o.RoundsOnly && poRefused == "" && poGaveUp == "" {
			v, why, done, refusal, err := provePO(ctx, p, q, target, s, name, opts, res, progress)
			if err != nil {
				return nil, err
			}
			switch {
			case refusal != "":
				poRefused = refusal
			case !done:
				poUsed = true
				continue // some interleaving needs a deeper bound
			case v != VerdictIncomplete:
				return finish(v, why)
			default:
				poGaveUp = why // the rounds go on alone
			}
		}
		// The round-robin encoding is built only when the partial-order
		// check did not decide this bound (with many rounds it takes
		// longer than that check: 8 s of mt_condvar_ok's 12 at 6 rounds on
		// a loaded machine). Every refusal of the round-robin encoder that
		// soundness needs (thread-local globals) is made by the common
		// part of Encode, which the partial-order check goes through too.
		t0 := time.Now()
		enc, err := Encode(p, opts)
		if err == nil && enc.ReuseCut {
			reuseCut = true
		}
		if err != nil {
			// what the encoder cannot encode is a refusal: the program
			// uses a construct it does not support (bad input for BMC)
			return nil, unsupported{err}
		}
		bc := BoundCheck{Unwind: k, Terms: enc.Terms, EncodeSeconds: time.Since(t0).Seconds()}
		res.EncodeSeconds += bc.EncodeSeconds
		bs, err := openBound(s, enc) // the formula once for both checks (incremental.go)
		if err != nil {
			return nil, fmt.Errorf("solver %s at unwind %d: %w", name, k, err)
		}
		stop := solving(progress, Progress{Unwind: k, Terms: enc.Terms, SolverSeconds: res.SolverSeconds, Phase: "violation"})
		ans, err := bs.check(ctx, enc.Violation, true)
		stop()
		if err != nil || ans.Status != Unsat {
			bs.close()
		}
		if err != nil {
			return nil, fmt.Errorf("solver %s at unwind %d: %w", name, k, err)
		}
		bc.SolverSeconds += ans.Elapsed.Seconds()
		bc.Violation = ans.String()
		if name == Portfolio {
			bc.Answered = ans.Solver
		}
		switch ans.Status {
		case Unknown:
			res.Checks = append(res.Checks, bc)
			res.SolverSeconds += bc.SolverSeconds
			return finish(VerdictUnknown, fmt.Sprintf("solver %s gave no answer at unwind %d: %s", name, k, ans))
		case Sat:
			res.Checks = append(res.Checks, bc)
			res.SolverSeconds += bc.SolverSeconds
			if err := witness(p, q, target, enc, ans.Model, res); err != nil {
				if why, ok := undefNoReplay(err); ok {
					res.Inputs, res.Schedule, res.Trace = nil, nil, nil
					return finish(VerdictUnknown, fmt.Sprintf("at unwind %d, %s", k, why))
				}
				return nil, fmt.Errorf("internal error: the solver's model of a violation at unwind %d does not replay: %w", k, err)
			}
			v := VerdictSatisfied
			if target.Negated {
				v = VerdictNotSatisfied
			}
			return finish(v, fmt.Sprintf("a violation is reachable (unwind %d): %s", k, res.Description))
		}
		// No violation within the bound: did the bound cut an execution?
		stop = solving(progress, Progress{Unwind: k, Terms: enc.Terms, SolverSeconds: res.SolverSeconds + bc.SolverSeconds, Phase: "unwinding"})
		ans, err = bs.check(ctx, enc.Unwound, false)
		stop()
		bs.close()
		if err != nil {
			return nil, fmt.Errorf("solver %s at unwind %d: %w", name, k, err)
		}
		bc.SolverSeconds += ans.Elapsed.Seconds()
		bc.Unwound = ans.String()
		if name == Portfolio {
			bc.Answered = ans.Solver
		}
		res.Checks = append(res.Checks, bc)
		res.SolverSeconds += bc.SolverSeconds
		if progress != nil {
			progress(Progress{Unwind: k, Terms: enc.Terms, SolverSeconds: res.SolverSeconds})
		}
		switch ans.Status {
		case Unknown:
			return finish(VerdictUnknown, fmt.Sprintf("solver %s gave no answer on the unwinding assertion at unwind %d: %s", name, k, ans))
		case Unsat:
			if threaded && o.Complete && poGaveUp != "" {
				// --complete stops at the partial-order check's answer
				return finish(VerdictIncomplete, fmt.Sprintf("no violation within %d round-robin rounds and unwind %d; %s", res.Contexts, k, poGaveUp))
			}
			if threaded && o.Complete {
				v, why, done, err := proveThreads(ctx, p, q, target, s, name, opts, enc, res)
				if err != nil {
					return nil, err
				}
				if !done {
					continue // some schedule needs a deeper bound
				}
				return finish(v, why)
			}
			if threaded {
				why := fmt.Sprintf("no violation within %d round-robin rounds (every schedule of at most %d context switches), and every execution is complete within unwind %d", res.Contexts, res.Contexts, k)
				switch {
				case poGaveUp != "":
					why += "; the partial-order check gave no proof: " + poGaveUp
				case poRefused != "":
					why += "; the partial-order encoding refuses the program: " + poRefused
				}
				return finish(VerdictIncomplete, why)
			}
			v := VerdictNotSatisfied
			if target.Negated {
				v = VerdictSatisfied
			}
			return finish(v, fmt.Sprintf("no violation, and every execution is complete within unwind %d", k))
		}
		// k-induction at the small bounds (most k-inductive loops need
		// k <= 1) and at the last one: not at every bound of the
		// deepening, whose point is finding bugs fast
		if ki != nil && (k <= 2 || k == bounds[len(bounds)-1]) {
			ki.solverSeconds = res.SolverSeconds
			proved, recs, err := ki.prove(ctx, k, 4*time.Duration(bc.SolverSeconds*float64(time.Second)))
			res.Induction = append(res.Induction, recs...)
			for _, r := range recs {
				res.SolverSeconds += r.SolverSeconds
				res.EncodeSeconds += r.EncodeSeconds
			}
			if err != nil {
				return nil, fmt.Errorf("solver %s, k-induction at unwind %d: %w", name, k, err)
			}
			if proved {
				last := recs[len(recs)-1]
				v := VerdictNotSatisfied
				if target.Negated {
					v = VerdictSatisfied
				}
				return finish(v, fmt.Sprintf("no violation: proved by k-induction on the loop at %s (base case: no violation and no other loop cut within unwind %d; step case: %d iterations from a state with the loop's footprint havocked)", last.Loop, k, last.K))
			}
		}
	}
	if threaded && poUsed && poGaveUp == "" {
		return finish(VerdictIncomplete, fmt.Sprintf("no violation in any interleaving up to unwind %d, but loops or recursion go deeper", res.Bound))
	}
	if threaded {
		why := fmt.Sprintf("no violation up to unwind %d and %d round-robin rounds, but loops or recursion go deeper", res.Bound, res.Contexts)
		if poGaveUp != "" {
			why += "; the partial-order check gave no proof: " + poGaveUp
		}
		return finish(VerdictIncomplete, why)
	}
	return finish(VerdictIncomplete, fmt.Sprintf("no violation up to unwind %d, but loops or recursion go deeper", res.Bound))
}

// deepening is the schedule of bounds up to max: 1, 2, 4, … max; with a
// static bound (the smallest that cuts no execution, tripcount.go; 0:
// none), 1 and 2 for the bugs that small bounds find fast, then the
// static bound at once, skipping the bounds that must cut an execution
// and so cannot prove anything (then, should that bound still cut one,
// the doubling goes on from it). A static bound above max changes
// nothing: max cuts an execution anyway.
func deepening(max, static int) []int {
	var bounds []int
	for k := 1; k < max; k *= 2 {
		if static > 0 && static <= max && k > 2 && k < static {
			continue
		}
		if static > 0 && static <= max && k > static && (len(bounds) == 0 || bounds[len(bounds)-1] < static) {
			bounds = append(bounds, static)
		}
		bounds = append(bounds, k)
	}
	if static > 0 && static < max && bounds[len(bounds)-1] < static {
		bounds = append(bounds, static)
	}
	return append(bounds, max)
}

// withGoal is the encoding's query with goal asserted (and, for a
// violation, the inputs wanted in the model).
func withGoal(enc *Encoding, goal Term, wantInputs bool) *Query {
	q := NewQuery()
	for _, d := range enc.Query.Decls() {
		q.Declare(d.Name, d.Sort)
	}
	for _, a := range enc.Query.Asserts() {
		q.Assert(a)
	}
	q.Assert(goal)
	if wantInputs { // the inputs, and a threaded witness's schedule
		q.Want(enc.Query.wanted()...)
	}
	return q
}

// errNoReplay is returned when the model's run ends without the violation.
var errNoReplay = errors.New("the run ends without the violation")

// witness replays the model concretely: the k-th execution of each
// choosing call returns the model's value, the scheduler is not involved
// (one process). The run must reach the violation (the query's proposition
// for E<>, its negation for A[]); its steps become the witness trace.
func witness(p *ir.Program, q *query.Query, target query.Target, enc *Encoding, model Model, res *Result) error {
	m := vm.NewMachine(p)
	c, err := query.Compile(q, m)
	if err != nil {
		return err
	}
	violated := c.Prop
	if target.Negated {
		prop := c.Prop
		violated = func(st *vm.State) bool { return !prop(st) }
	}
	type site struct {
		fn string
		pc int32
	}
	inputs := map[site]*Input{}
	for i := range enc.Inputs {
		in := &enc.Inputs[i]
		inputs[site{in.Func, in.PC}] = in
	}
	count := map[site]int{}
	// the model's initial heap and stack bytes, for the draws of
	// undefined bytes (encode_undef.go)
	heap := undefBytes(enc, model)
	origins := newCopyOrigins(enc)
	undefDraws, guessed := 0, 0
	st := m.NewState()
	ch := &queueChooser{}
	var sch *scheduler
	if enc.Threads != nil {
		var err error
		if sch, err = newScheduler(m, st, enc, model); err != nil {
			return err
		}
		ch.sched = sch
		res.Schedule = sch.contexts()
	}
	var steps []trace.Step
	var replayErr error
	found := m.Observe(st, maxReplaySteps, ch, func(st *vm.State, t *vm.Thread) bool {
		if violated(st) {
			return true
		}
		if t == nil || replayErr != nil {
			return replayErr != nil
		}
		if sch != nil {
			if err := sch.step(t); err != nil {
				replayErr = err
				return true
			}
		}
		step := trace.Step{Thread: t.ID}
		if heap != nil {
			origins.before(st, t)
		}
		if choice, ok := m.NextChoice(st, t); ok {
			fr := &t.Frames[len(t.Frames)-1]
			s := site{fr.Fn.Name, fr.PC}
			in := inputs[s]
			if in == nil {
				replayErr = fmt.Errorf("the run makes a choice at %s (pc %d) that the encoding has no input for", m.Loc(t), fr.PC)
				return true
			}
			k := count[s]
			count[s]++
			v, ok := model[in.Name]
			if !ok {
				replayErr = fmt.Errorf("the model has no value for input %s (%s)", in.Name, m.Loc(t))
				return true
			}
			var val uint64
			if v.Array != nil {
				val = v.Array.At(uint64(k))
			} else {
				val = v.Uint64()
			}
			draw, ok := choice.DrawFor(val)
			if !ok {
				replayErr = fmt.Errorf("the model's value %d for %s at %s is outside the choice's range", val, in.Name, m.Loc(t))
				return true
			}
			ch.next = append(ch.next, draw)
			step.Choices = []uint64{draw}
			res.Inputs = append(res.Inputs, WitnessInput{Func: s.fn, PC: s.pc, Loc: m.Loc(t).String(), K: k, Value: val})
		} else if c, ok := m.NextDraw(st, t, vm.Behaviours{}); ok {
			// under no behaviours, the only draw but a value choice is
			// that of undefined bytes: the model's bytes where it has
			// them, else 0 (queued either way: a threaded replay's
			// chooser would take an empty queue for the scheduler's)
			draw, exact := undefDraw(m, st, t, c, heap, origins)
			undefDraws++
			if !exact {
				guessed++
			}
			ch.next = append(ch.next, draw)
			step.Choices = []uint64{draw}
		}
		steps = append(steps, step)
		return false
	})
	err = nil
	switch {
	case replayErr != nil:
		err = replayErr
	case sch != nil && sch.err != nil:
		err = sch.err
	case !found:
		err = fmt.Errorf("%w: %s", errNoReplay, st.Describe())
	}
	if err != nil && (undefDraws > 0 || enc.undefMem) {
		// (also without a draw: the vm reads some undefined bytes as
		// zeros, those of a large block, or by a platform reader, where
		// the encoding leaves them free: encode_undef.go)
		return &undefReplayError{draws: undefDraws, guessed: guessed, err: err}
	}
	if err != nil {
		return err
	}
	end := trace.End(st)
	res.Trace = &trace.Trace{Steps: steps, End: end}
	res.Description = fmt.Sprintf("%d steps, %d nondeterministic inputs, ends %s", len(steps), len(res.Inputs), end)
	return nil
}

// queueChooser returns queued draws in order (the witness's inputs); a
// draw that was not queued is the scheduler's (threaded witnesses), or 0
// (none in single-process runs).
type queueChooser struct {
	next  []uint64
	sched *scheduler
}

func (c *queueChooser) Choose(n uint64) uint64 {
	if len(c.next) == 0 {
		if c.sched != nil {
			return c.sched.choose(n)
		}
		return 0
	}
	d := c.next[0]
	c.next = c.next[1:]
	return d
}

// maxReplaySteps bounds a witness replay (the violation's path is bounded
// by the unwinding, so a replay that runs this long does not reproduce it).
const maxReplaySteps = 100_000_000

// scheduler replays a threaded witness's schedule: contexts in round-robin
// order, each running its process until its step count.
type scheduler struct {
	m     *vm.Machine
	st    *vm.State
	ctxs  []WitnessContext
	cur   int
	taken map[int32]uint64 // steps taken, by the encoding's thread id
	buf   []int32
	err   error
	// The encoding numbers threads in the order of their creation, the vm
	// gives a new thread the id of a joined one where there is one
	// (vm.State's spawnThread): vmOf maps the encoding's id to the vm's,
	// kept up to date by sync from free, whether each of the vm's
	// processes was joined when sync last looked.
	vmOf []int32
	free []bool
}

// sync records the process a creation made since the last call (at most
// one: a step creates at most one thread): a process after the others, or
// one in the place of a joined one.
func (s *scheduler) sync() {
	for i, t := range s.st.Threads {
		free := t.Done && t.Wait == vm.WaitJoined
		switch {
		case i >= len(s.free):
			if i > 0 {
				s.vmOf = append(s.vmOf, int32(i))
			}
			s.free = append(s.free, free)
		case s.free[i] && !free:
			s.vmOf = append(s.vmOf, int32(i))
		}
		s.free[i] = free
	}
}

// vmID is the vm's id of the encoding's thread w (-1: not created yet).
func (s *scheduler) vmID(w int32) int32 {
	if w < 0 || int(w) >= len(s.vmOf) {
		return -1
	}
	return s.vmOf[w]
}

func newScheduler(m *vm.Machine, st *vm.State, enc *Encoding, model Model) (*scheduler, error) {
	get := func(name string) (uint64, error) {
		v, ok := model[name]
		if !ok {
			return 0, fmt.Errorf("the model has no value for %s", name)
		}
		return v.Uint64(), nil
	}
	sch := &scheduler{m: m, st: st, taken: map[int32]uint64{}, vmOf: []int32{0}}
	if enc.PO != nil {
		ctxs, err := poContexts(enc, model)
		if err != nil {
			return nil, err
		}
		sch.ctxs = ctxs
		return sch, nil
	}
	for r := 0; r < enc.Rounds; r++ {
		for _, th := range enc.Threads {
			n, err := get(th.Steps[r])
			if err != nil {
				return nil, err
			}
			if n == 0 {
				continue // not created, or nothing done yet
			}
			tid := th.Tid
			if th.TidName != "" {
				if tid, err = get(th.TidName); err != nil {
					return nil, err
				}
			}
			sch.ctxs = append(sch.ctxs, WitnessContext{Round: r, Thread: int32(tid), Steps: n})
		}
	}
	return sch, nil
}

// contexts are the schedule's non-empty contexts.
func (s *scheduler) contexts() []WitnessContext {
	var out []WitnessContext
	last := map[int32]uint64{}
	for _, c := range s.ctxs {
		if c.Steps > last[c.Thread] {
			out = append(out, c)
			last[c.Thread] = c.Steps
		}
	}
	return out
}

// want is the process that must step next (-1: the schedule is over).
func (s *scheduler) want() int32 {
	for s.cur < len(s.ctxs) && s.taken[s.ctxs[s.cur].Thread] >= s.ctxs[s.cur].Steps {
		s.cur++
	}
	if s.cur == len(s.ctxs) {
		return -1
	}
	return s.ctxs[s.cur].Thread
}

// choose is the scheduler's draw among the n enabled processes.
func (s *scheduler) choose(n uint64) uint64 {
	s.sync()
	w := s.want()
	s.buf = s.m.EnabledThreads(s.st, s.buf)
	for i, t := range s.buf {
		if w >= 0 && t == s.vmID(w) {
			return uint64(i)
		}
	}
	if s.err == nil {
		if w < 0 {
			s.err = fmt.Errorf("the schedule ends before the violation")
		} else {
			s.err = fmt.Errorf("the schedule runs process %d, which is not enabled (enabled: %v)", w, s.buf)
		}
	}
	return 0
}

// step checks that t is the process the schedule runs, and counts its step.
func (s *scheduler) step(t *vm.Thread) error {
	if s.err != nil {
		return s.err
	}
	w := s.want()
	if w < 0 {
		return fmt.Errorf("the schedule ends before the violation")
	}
	s.sync()
	if t.ID != s.vmID(w) {
		return fmt.Errorf("the schedule runs process %d (the vm's %d), but only process %d can step", w, s.vmID(w), t.ID)
	}
	s.taken[w]++
	return nil
}
