package svcomp

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/wyvernmc/wyvern/absint"
	"github.com/wyvernmc/wyvern/coordinator"
	"github.com/wyvernmc/wyvern/explicit"
	"github.com/wyvernmc/wyvern/ir"
	"github.com/wyvernmc/wyvern/jobs"
	"github.com/wyvernmc/wyvern/query"
	"github.com/wyvernmc/wyvern/simulator"
	"github.com/wyvernmc/wyvern/symbolic"
	"github.com/wyvernmc/wyvern/trace"
	"github.com/wyvernmc/wyvern/vm"
)

// The engines of the portfolio.
const (
	EngineSimulation = "simulation"
	EngineExplicit   = "explicit"
	EngineBMC        = "bmc"
	EngineAbsint     = "absint"
)

// Engines lists the portfolio's engines in the order they are reported.
var Engines = []string{EngineSimulation, EngineExplicit, EngineBMC, EngineAbsint}

// Engine outcomes.
const (
	OutViolation = "violation" // a violation, replayed in the vm (FALSE)
	OutProof     = "proof"     // a complete search without a violation (TRUE where the property allows it)
	OutNone      = "no-verdict"
	OutRefused   = "refused" // the engine does not accept the program or the property
	OutStopped   = "stopped" // another engine decided first, or the time limit ended it
	OutError     = "error"   // the engine failed
	OutSkipped   = "skipped" // not run (--engines)
)

// The semantics of integer overflow (Outcome.Overflow).
const (
	OverflowWrap  = "wrap"
	OverflowError = "error"
)

// Options configure a portfolio run.
type Options struct {
	TimeLimit time.Duration // the one limit of the whole run
	Seed      uint64        // simulation seed (each round adds its number)
	// Engines run (default all three).
	Engines []string
	// ExplicitMaxBytes bounds the explicit search's memory (0: 1 GiB).
	ExplicitMaxBytes int64
	// Solver of BMC (default z3).
	Solver string
	// Log, if set, receives a line per engine event (progress for -v).
	Log func(format string, args ...any)
}

// EngineOutcome is what one engine of the portfolio did.
type EngineOutcome struct {
	Engine  string  `json:"engine"`
	Outcome string  `json:"outcome"`
	Detail  string  `json:"detail,omitempty"`
	Seconds float64 `json:"seconds"`
	// Query is the last query the engine answered.
	Query string `json:"query,omitempty"`
}

// Outcome is the portfolio's answer.
type Outcome struct {
	Verdict  string          `json:"verdict"` // TRUE, FALSE(sub), UNKNOWN
	Property string          `json:"property"`
	Engine   string          `json:"decided_by,omitempty"`
	Reason   string          `json:"reason"`
	Engines  []EngineOutcome `json:"engines"`
	Seconds  float64         `json:"seconds"`
	Notes    []string        `json:"notes,omitempty"`
	// Overflow is the semantics of integer overflow the engines checked
	// the program with: "wrap" (two's complement, Goal.WrapOverflow) or
	// "error" (an error state Overflow); "" when no engine ran.
	Overflow string `json:"overflow,omitempty"`
	// Steps is the violation's trace (FALSE), replayed in the vm.
	Steps []trace.Step `json:"trace,omitempty"`
	// Witness is the witness file written ("" when none).
	Witness string `json:"witness,omitempty"`
}

// Program is the program a portfolio checks: its assembly (what the
// workers get) and its compiled form (for replays).
type Program struct {
	Src  *ir.Source
	Prog *ir.Program
}

// engineResult is an engine's report to the portfolio.
type engineResult struct {
	EngineOutcome
	steps []trace.Step
	sub   string
}

// Verify runs the portfolio on p for goal g through the coordinator that
// nc reaches, and returns the first sound verdict (or UNKNOWN when the
// engines end, or the time limit does, without one).
func Verify(ctx context.Context, nc *nats.Conn, p *Program, g *Goal, opts Options) *Outcome {
	start := time.Now()
	out := &Outcome{Verdict: Unknown, Property: g.Prop.Kind.String()}
	if g.Note != "" {
		out.Notes = append(out.Notes, g.Note)
	}
	if g.Why != "" {
		out.Reason = g.Why
		for _, e := range Engines {
			out.Engines = append(out.Engines, EngineOutcome{Engine: e, Outcome: OutSkipped, Detail: g.Why})
		}
		return out
	}
	out.Overflow = OverflowError
	if g.WrapOverflow {
		out.Overflow = OverflowWrap
	}
	limit := opts.TimeLimit
	if limit <= 0 {
		limit = 60 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	want := map[string]bool{}
	for _, e := range opts.Engines {
		want[e] = true
	}
	if len(opts.Engines) == 0 {
		for _, e := range Engines {
			want[e] = true
		}
	}
	r := &runner{nc: nc, p: p, g: g, opts: opts, deadline: start.Add(limit), m: g.Machine(p.Prog),
		simUntil: start.Add(time.Duration(float64(limit) * simShare))}
	if g.Prop.Kind == Termination {
		return verifyTermination(ctx, r, out, start, limit)
	}
	results := make(chan engineResult, len(Engines))
	var wg sync.WaitGroup
	got := map[string]EngineOutcome{}
	for _, e := range Engines {
		if !want[e] {
			got[e] = EngineOutcome{Engine: e, Outcome: OutSkipped, Detail: "not selected"}
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			if e == EngineSimulation && (want[EngineExplicit] || want[EngineBMC]) {
				// The engines share the workers' one job queue, served in
				// order: the searches' single jobs go first, so that the
				// simulation's many trace jobs do not hold them back.
				select {
				case <-time.After(searchHeadStart):
				case <-ctx.Done():
				}
			}
			if e != EngineSimulation {
				r.searching.Add(1)
				defer r.searching.Add(-1)
			}
			t0 := time.Now()
			res := r.run(ctx, e)
			res.Engine = e
			res.Seconds = time.Since(t0).Seconds()
			if ctx.Err() != nil && res.Outcome != OutViolation && res.Outcome != OutProof {
				// What the engine had found so far is no verdict.
				res.Outcome, res.Detail = OutStopped, stopReason(ctx)+" ("+res.Detail+")"
			}
			results <- res
		}()
	}
	go func() { wg.Wait(); close(results) }()
	for res := range results {
		r.logf("%s: %s %s (%.1f s)", res.Engine, res.Outcome, res.Detail, res.Seconds)
		got[res.Engine] = res.EngineOutcome
		if out.Engine != "" {
			continue
		}
		switch {
		case res.Outcome == OutViolation:
			out.Verdict, out.Engine, out.Steps = False(res.sub), res.Engine, res.steps
			out.Reason = res.Detail
			cancel()
		case res.Outcome == OutProof && g.Provable:
			out.Verdict, out.Engine = True, res.Engine
			out.Reason = res.Detail
			cancel()
		case res.Outcome == OutProof:
			res.Detail += " (no TRUE: " + g.Note + ")"
			got[res.Engine] = res.EngineOutcome
		}
	}
	for _, e := range Engines {
		out.Engines = append(out.Engines, got[e])
	}
	if out.Engine == "" {
		out.Reason = "no engine reached a sound verdict within " + limit.String()
	}
	out.Seconds = time.Since(start).Seconds()
	return out
}

// searchHeadStart is how long the simulation waits for the searches' jobs
// to reach the queue.
const searchHeadStart = 500 * time.Millisecond

// simShare is the part of the time limit the simulation runs beside the
// searches: on SV-COMP's concurrency tasks it finds what it finds within
// a second or two (7 of 104 tasks at 60 s, none after 1.2 s), and the
// searches need the cores more. While no search runs (they refused the
// program or ended without a verdict) it runs to the time limit.
const simShare = 1.0 / 6

// engineMargin is the time a search's own limit leaves before the
// portfolio's, for its result to come back.
const engineMargin = 2 * time.Second

func stopReason(ctx context.Context) string {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return "time limit"
	}
	return "another engine decided"
}

type runner struct {
	nc       *nats.Conn
	p        *Program
	g        *Goal
	opts     Options
	deadline time.Time
	m        *vm.Machine
	mu       sync.Mutex // m is not safe for concurrent replays
	// searching counts the searches (explicit, bmc) still running; the
	// simulation pauses past simUntil while one does (simShare)
	searching atomic.Int32
	simUntil  time.Time
}

// simPaused reports whether the simulation should wait: its share of the
// time is over and a search still runs.
func (r *runner) simPaused() bool {
	return time.Now().After(r.simUntil) && r.searching.Load() > 0
}

// simContext is ctx, ended also when the simulation pauses.
func (r *runner) simContext(ctx context.Context) (context.Context, context.CancelFunc) {
	sctx, cancel := context.WithCancel(ctx)
	go func() {
		t := time.NewTicker(100 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-sctx.Done():
				return
			case <-t.C:
				if r.simPaused() {
					cancel()
					return
				}
			}
		}
	}()
	return sctx, cancel
}

func (r *runner) logf(format string, args ...any) {
	if r.opts.Log != nil {
		r.opts.Log(format, args...)
	}
}

func (r *runner) run(ctx context.Context, engine string) engineResult {
	switch engine {
	case EngineSimulation:
		return r.simulate(ctx)
	case EngineExplicit:
		return r.search(ctx)
	case EngineBMC:
		return r.bmc(ctx)
	case EngineAbsint:
		return r.absint(ctx)
	}
	return engineResult{EngineOutcome: EngineOutcome{Outcome: OutError, Detail: "unknown engine " + engine}}
}

func (r *runner) submit(ctx context.Context, s coordinator.Submission) (*coordinator.Result, error) {
	s.LL, s.Name, s.WrapOverflow = r.p.Src.LL, r.p.Src.Name, r.g.WrapOverflow
	return coordinator.Submit(ctx, r.nc, s)
}

func (r *runner) remaining() time.Duration { return time.Until(r.deadline) }

// check replays a trace an engine reported and classifies its last
// state: a violation only when the vm reproduces it.
func (r *runner) check(steps []trace.Step) (sub string, ok bool, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	_, final, err := replaySteps(r.m, steps)
	if err != nil {
		return "", false, err
	}
	return r.g.Classify(r.m, final)
}

// maxPrefixSteps bounds the witnesses firstViolation searches (it replays
// every prefix).
const maxPrefixSteps = 4000

// firstViolation replays steps and returns its shortest prefix whose last
// state is the property's violation (Classify), if one is.
func (r *runner) firstViolation(steps []trace.Step) ([]trace.Step, string, bool, error) {
	if len(steps) > maxPrefixSteps {
		return steps, "", false, nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for n := 0; n <= len(steps); n++ {
		_, final, err := replaySteps(r.m, steps[:n])
		if err != nil {
			return steps, "", false, err
		}
		sub, ok, err := r.g.Classify(r.m, final)
		if err != nil || ok {
			return steps[:n], sub, ok, err
		}
	}
	return steps, "", false, nil
}

// simulation rounds: (runs, step bound), the last repeated with new seeds.
// Each is run twice, with uniform inputs and then with Inputs=edges
// (half of the input draws a boundary value: a violation that needs x == 0
// for a 32-bit input is found in a few runs instead of once in 2^32).
var simRounds = []struct {
	runs  int
	bound uint64
}{{256, 5_000}, {1024, 20_000}, {4096, 100_000}}

// simulate runs rounds of random simulation (Pr queries with a fixed
// number of runs) looking for the property's violation, until one is found
// and replayed, or ctx ends. It never proves anything.
func (r *runner) simulate(ctx context.Context) engineResult {
	var res engineResult
	runs, failures := 0, 0
	paused := false
	for round := 0; ctx.Err() == nil; round++ {
		for r.simPaused() && ctx.Err() == nil {
			// the searches have the cores; go on once none runs
			paused = true
			select {
			case <-ctx.Done():
			case <-time.After(100 * time.Millisecond):
			}
		}
		if ctx.Err() != nil {
			break
		}
		sr := simRounds[min(round/2, len(simRounds)-1)]
		inputs := simInputs[round%2]
		q := fmt.Sprintf("Pr[<=%d](<> %s) {Rule=fixed, Epsilon=0.0001, MaxRuns=%d, Inputs=%s}", sr.bound, r.g.Focus, sr.runs, inputs)
		res.Query = q
		seed := r.opts.Seed + uint64(round)
		rctx, cancel := r.simContext(ctx)
		x, err := r.submit(rctx, coordinator.Submission{Query: q, Seed: seed, JobSize: 64})
		stopped := rctx.Err() != nil
		cancel()
		if err != nil {
			if ctx.Err() != nil {
				break
			}
			if stopped {
				round-- // paused: the same round again later
				continue
			}
			// A round that fails (a worker lost) is tried again with the
			// next round's seed, three times at most.
			if failures++; failures == 3 {
				res.Outcome, res.Detail = OutError, err.Error()
				return res
			}
			r.logf("%s: round %d: %v", EngineSimulation, round, err)
			continue
		}
		runs += int(x.Runs)
		td := simulator.DetailOf(x)
		if td == nil || td.FirstSatisfying == nil {
			continue
		}
		ref := td.FirstSatisfying
		steps, err := r.simTrace(ref.Seed, ref.Index, sr.bound, inputs)
		if err != nil {
			res.Outcome, res.Detail = OutError, fmt.Sprintf("replay of trace (seed %d, index %d): %v", ref.Seed, ref.Index, err)
			return res
		}
		sub, ok, err := r.check(steps)
		if err != nil {
			res.Outcome, res.Detail = OutError, fmt.Sprintf("replay of trace (seed %d, index %d): %v", ref.Seed, ref.Index, err)
			return res
		}
		if ok {
			res.Outcome, res.steps, res.sub = OutViolation, steps, sub
			res.Detail = fmt.Sprintf("trace (seed %d, index %d) of %d steps, after %d runs", ref.Seed, ref.Index, len(steps), runs)
			if inputs != "uniform" {
				res.Detail += " (inputs " + inputs + ")"
			}
			return res
		}
	}
	res.Outcome, res.Detail = OutNone, fmt.Sprintf("no violation in %d runs", runs)
	if paused {
		res.Detail += " (paused past its share of the time while a search ran)"
	}
	return res
}

// simInputs are the simulation rounds' input distributions, in turn.
var simInputs = [2]string{"uniform", "edges"}

// simTrace runs trace (seed, index) of a round with the given inputs to
// the first state satisfying the goal's focus (as the simulator observed
// it) and returns its steps with the values they drew.
func (r *runner) simTrace(seed, index, bound uint64, inputs string) ([]trace.Step, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	q, err := query.Parse(fmt.Sprintf("Pr[<=%d](<> %s) {Inputs=%s}", bound, r.g.Focus, inputs))
	if err != nil {
		return nil, err
	}
	c, err := query.Compile(q, r.m)
	if err != nil {
		return nil, err
	}
	st := r.m.NewState()
	ch := &trace.Recorder{R: vm.NewRand(seed, index)}
	beh := q.Behaviours() // the simulation's (simulate's query has no Platform option either)
	ch.R.SetBehaviours(beh)
	var steps []trace.Step
	prevDraws := false // the previous step draws a value: the first draw since
	found := false
	r.m.Observe(st, bound, ch, func(st *vm.State, t *vm.Thread) bool {
		// Draws since the last visit: the previous step's value (drawn
		// after the scheduler picked it), then this step's pick.
		if prevDraws && len(steps) > 0 && len(ch.Draws) > 0 {
			steps[len(steps)-1].Choices = []uint64{ch.Draws[0]}
		}
		ch.Draws = ch.Draws[:0]
		if c.Prop(st) {
			found = true
			return true
		}
		if t != nil {
			steps = append(steps, trace.Step{Thread: t.ID})
			_, prevDraws = r.m.NextDraw(st, t, beh)
		}
		return false
	})
	if !found {
		return nil, fmt.Errorf("the trace does not reach %s within %d steps", r.g.Focus, bound)
	}
	return steps, nil
}

// lossless reports whether an explicit-state result stored every state
// whole: only such a search proves a property (a hash-compacted one may
// have omitted states, with the probability it states).
func lossless(ex *explicit.Result) bool { return !ex.Compact }

// search runs the explicit-state search: E<> Primary (its unreachability
// proves the property), then, when it finds a state that is no violation
// of the property (another error), E<> Focus. Searches take every
// behaviour POSIX allows (query.Query.Behaviours); when one a limit stops
// in a program that uses condition variables, the same query under
// LODIN's platform (a signal wakes the longest waiter, no spurious
// wake-ups: fewer states, and behaviours POSIX allows, so a violation
// found there is one) looks for a violation, never a proof. A search that
// the memory limit stops goes on hash-compacted (a few bytes a state) for
// the time left: it can find a violation, which the vm replays, but it
// never proves (lossless).
func (r *runner) search(ctx context.Context) engineResult {
	var res engineResult
	maxBytes := r.opts.ExplicitMaxBytes
	if maxBytes <= 0 {
		maxBytes = 1 << 30
	}
	type step struct {
		prop                    string
		primary, lodin, compact bool
	}
	steps := []step{{r.g.Primary, true, false, false}, {r.g.Focus, false, false, false}}
	for len(steps) > 0 {
		st := steps[0]
		steps = steps[1:]
		q := "E<> " + st.prop
		if st.lodin {
			q += " {Platform=lodin}"
		}
		res.Query = q
		rem := r.remaining() - engineMargin
		if rem <= 0 {
			break
		}
		// Global reduction keeps what these queries read (calls about to
		// happen, errors, data races; the search turns it off for a query
		// reading registers or locals) and makes many pthread tasks small
		// enough to finish (BENCHMARKS.md, SV-COMP); partial-order
		// reduction on top keeps the verdicts too, no-data-race's
		// DataRace included (explicit/por.go; the search leaves it off
		// where it could not, e.g. for leak checks, and says so in a
		// note).
		x, err := r.submit(ctx, coordinator.Submission{Query: q, Explicit: &jobs.ExplicitOptions{
			Order: "bfs", Reduction: "global", POR: true, Compact: st.compact, MaxBytes: maxBytes, MaxTimeS: rem.Seconds()}})
		if err != nil {
			res.Outcome, res.Detail = OutRefused, err.Error()
			return res
		}
		ex := explicit.ResultOf(x)
		if ex == nil {
			res.Outcome, res.Detail = OutError, fmt.Sprintf("%s: not an explicit-state result", q)
			return res
		}
		switch ex.Verdict {
		case explicit.NotSatisfied:
			switch {
			case st.lodin:
				res.Outcome = OutNone
				res.Detail = fmt.Sprintf("incomplete under POSIX's behaviours; no violation in %d states under LODIN's platform, which is no proof", ex.States)
			case st.primary && !lossless(ex):
				// (a compacted search only looks for violations: a TRUE
				// never rests on a lossy visited set)
				res.Outcome = OutNone
				res.Detail = fmt.Sprintf("no violation in %d states, but the visited set was hash-compacted (omission probability %.3g): no proof", ex.States, ex.OmissionProbability)
			case st.primary:
				res.Outcome = OutProof
				res.Detail = fmt.Sprintf("complete search, %d states, no violation and no error state", ex.States)
			default:
				res.Outcome = OutNone
				res.Detail = fmt.Sprintf("no violation in %d states, but an error of another kind is reachable", ex.States)
			}
			return res
		case explicit.Satisfied:
			if ex.Trace == nil {
				res.Outcome, res.Detail = OutError, q+": satisfied without a trace"
				return res
			}
			sub, ok, err := r.check(ex.Trace.Steps)
			if err != nil {
				res.Outcome, res.Detail = OutError, fmt.Sprintf("replay of the search's trace: %v", err)
				return res
			}
			if ok {
				res.Outcome, res.steps, res.sub = OutViolation, ex.Trace.Steps, sub
				res.Detail = fmt.Sprintf("trace of %d steps, %d states searched", len(ex.Trace.Steps), ex.States)
				if st.lodin {
					res.Detail += " (under LODIN's platform, after the search with every POSIX behaviour reached its limit)"
				}
				return res
			}
			res.Detail = ex.Reason
		case explicit.Incomplete:
			if !st.compact && strings.HasPrefix(ex.Reason, "memory limit") {
				steps = append([]step{{st.prop, st.primary, st.lodin, true}}, steps...)
				res.Detail = fmt.Sprintf("%s: %s; hash-compacted search for a violation", ex.Verdict, ex.Reason)
				continue
			}
			if !st.lodin && usesCondVars(r.p.Prog) {
				steps = append([]step{{st.prop, st.primary, true, false}}, steps...)
				res.Detail = fmt.Sprintf("%s: %s", ex.Verdict, ex.Reason)
				continue
			}
			res.Outcome, res.Detail = OutNone, fmt.Sprintf("%s: %s", ex.Verdict, ex.Reason)
			return res
		default:
			res.Outcome, res.Detail = OutNone, fmt.Sprintf("%s: %s", ex.Verdict, ex.Reason)
			return res
		}
	}
	res.Outcome = OutNone
	return res
}

// usesCondVars reports whether prog calls pthread_cond_wait or
// pthread_cond_signal, whose POSIX behaviours LODIN's platform lacks.
func usesCondVars(prog *ir.Program) bool {
	for _, f := range prog.Funcs {
		if f.External && (f.Name == "pthread_cond_wait" || f.Name == "pthread_cond_signal") {
			return true
		}
	}
	return false
}

// createsThreads reports whether prog can start a thread.
func createsThreads(prog *ir.Program) bool {
	for _, f := range prog.Funcs {
		if f.External && (f.Name == "pthread_create" || f.Name == "thrd_create") {
			return true
		}
	}
	return false
}

// bmc runs bounded model checking of E<> BMCPrimary (a proof when no
// execution is cut by the bound), then of E<> BMCFocus when the first
// violation found is of another kind.
func (r *runner) bmc(ctx context.Context) engineResult {
	var res engineResult
	if r.g.BMCPrimary == "" || (r.g.Prop.Kind == NoDataRace && createsThreads(r.p.Prog)) {
		res.Outcome, res.Detail = OutRefused, "data races are not expressible for bounded model checking"
		if r.g.Prop.Kind != NoDataRace {
			res.Detail = r.g.Prop.Kind.String() + " is not expressible for bounded model checking"
		}
		return res
	}
	solver := r.opts.Solver
	if solver == "" {
		solver = "z3"
	}
	threaded := createsThreads(r.p.Prog)
	_, bounded := symbolic.StaticUnwind(r.p.Prog)
	stages := bmcStages(threaded, threaded && bounded)
	var notes []string // what the stages that gave no verdict said
	for i, prop := range []string{r.g.BMCPrimary, r.g.BMCFocus} {
		if prop == "" {
			break
		}
		q := "E<> " + prop
		res.Query = q
		if i > 0 {
			// a violation of another kind was found: its kind's search
			// takes what is left, as one job
			stages = []bmcStage{{name: "deepening", share: 1}}
		}
	stageLoop:
		for si, st := range stages {
			rem := r.remaining() - engineMargin
			if rem <= 0 {
				break
			}
			slice := rem
			if si < len(stages)-1 {
				slice = time.Duration(float64(rem) * st.share)
			}
			o := st.opts
			o.Solver, o.SolverTimeoutS = solver, slice.Seconds()
			sctx, cancel := context.WithTimeout(ctx, slice+engineMargin/2)
			x, err := r.submit(sctx, coordinator.Submission{Query: q, BMC: &o})
			stopped := sctx.Err() != nil
			cancel()
			switch {
			case err != nil && ctx.Err() != nil:
				res.Outcome, res.Detail = OutNone, err.Error()
				return res
			case err != nil && stopped:
				// the stage's share of the time ended it: the next stage
				notes = append(notes, fmt.Sprintf("%s: no answer within its %.0f s", st.name, slice.Seconds()))
				continue
			case err != nil:
				// the encoder refuses the program (any stage would)
				res.Outcome, res.Detail = OutRefused, err.Error()
				return res
			}
			d, ok := x.Detail.(*symbolic.Detail)
			if !ok || d.BMC == nil {
				res.Outcome, res.Detail = OutError, fmt.Sprintf("%s: not a BMC result", q)
				return res
			}
			b := d.BMC
			switch {
			case b.Trace != nil:
				steps := b.Trace.Steps
				sub, ok, err := r.check(steps)
				if err == nil && !ok {
					// BMC's target is the error state: a reach_error
					// defined as assert(0) ends its witness after the
					// call, where "about to call reach_error" no longer
					// holds; the state before may be the violation
					steps, sub, ok, err = r.firstViolation(steps)
				}
				if err != nil {
					res.Outcome, res.Detail = OutError, fmt.Sprintf("replay of the BMC witness: %v", err)
					return res
				}
				if ok {
					res.Outcome, res.steps, res.sub = OutViolation, steps, sub
					res.Detail = fmt.Sprintf("witness of %d steps (%s): %s", len(steps), st.name, b.Reason)
					return res
				}
				res.Detail = b.Reason
				notes = append(notes, fmt.Sprintf("%s: %s (not the property's violation)", st.name, b.Reason))
				break stageLoop // a violation of another kind: its search next
			case b.Verdict == symbolic.VerdictNotSatisfied && i == 0:
				// E<> V not satisfied: no violation and no error at all,
				// with no execution cut by the bound (for a threaded
				// program only the partial-order check, which covers
				// every interleaving, says so).
				res.Outcome, res.Detail = OutProof, b.Reason
				if r.g.BMCNoProof != "" {
					res.Outcome, res.Detail = OutNone, b.Reason+" (no TRUE: "+r.g.BMCNoProof+")"
				}
				return res
			default:
				notes = append(notes, fmt.Sprintf("%s: %s: %s", st.name, b.Verdict, b.Reason))
			}
		}
		if res.Detail == "" || i > 0 {
			break
		}
	}
	res.Outcome = OutNone
	if len(notes) > 0 {
		res.Detail = strings.Join(notes, "; ")
	}
	return res
}

// absint runs the abstract-interpretation prover (docs/absint.md): a proof
// that no error state but abort()'s and no call of an error function is
// reachable, which is a TRUE of the properties whose primary query asks
// exactly that (unreach-call, no-overflow). It never finds a violation.
func (r *runner) absint(ctx context.Context) engineResult {
	var res engineResult
	var funcs []string
	switch r.g.Prop.Kind {
	case UnreachCall:
		funcs = errorFuncs(r.g.Prop, r.p.Prog)
	case NoOverflow:
	default:
		res.Outcome, res.Detail = OutRefused, r.g.Prop.Kind.String()+" is not checked by abstract interpretation"
		return res
	}
	// (SV-COMP's programs have no bound on their threads: the vm's
	// ResourceLimit is no property violation)
	a := absint.ProveWith(ctx, r.p.Prog, funcs, absint.Options{UnboundedThreads: true})
	res.Outcome, res.Detail = OutNone, a.Reason
	if a.Proved {
		res.Outcome = OutProof
	}
	return res
}

// bmcStage is one BMC job of the portfolio's bmc engine: its options
// (the solver and its time limit are the run's) and its share of the time
// left when it starts (the last stage takes all of it).
type bmcStage struct {
	name  string
	opts  jobs.BMCOptions
	share float64
}

// bmcStages are the BMC jobs verify runs, in order. A program without
// threads: one job, deepening the unwinding bound (with k-induction) for
// the whole time. A threaded program: the small bounds first, each job
// with its share of the time, so that no single hard check takes it all
// (stack-2 has its bug at unwind 2 and 2 rounds, which took minutes inside
// the deepening with 3 rounds):
//
//  1. one round-robin round, deepening, then at each bound the
//     partial-order check of every interleaving (Complete: its verdict is
//     final), the only proof for a threaded program, and a bug finder
//     without a context bound;
//  2. round-robin rounds alone at unwind 2 and 2 rounds;
//  3. the default deepening with 3 rounds, the partial-order check after
//     each bound, for the time left.
//
// When every loop has a static trip count (bounded, symbolic.StaticUnwind),
// the partial-order stage's deepening reaches the bound that cuts no
// execution right after unwinds 1 and 2, and its check there decides
// every execution; the later stages only look again at what it covers
// (the third starts the same deepening over): it gets 0.8 of the time
// instead of half (queue_ok's check at unwind 20 alone takes longer than
// half of 60 s).
func bmcStages(threaded, bounded bool) []bmcStage {
	if !threaded {
		return []bmcStage{{name: "deepening", share: 1}}
	}
	po := 0.5
	if bounded {
		po = 0.8
	}
	return []bmcStage{
		{name: "partial order", opts: jobs.BMCOptions{Contexts: 1, Complete: true}, share: po},
		{name: "2 rounds at unwind 2", opts: jobs.BMCOptions{Unwind: 2, Contexts: 2, RoundsOnly: true}, share: 0.5},
		{name: "deepening with 3 rounds", opts: jobs.BMCOptions{Contexts: 3}, share: 1},
	}
}
