package explicit

import (
	"context"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/wyvernmc/wyvern/jobs"
	"github.com/wyvernmc/wyvern/kind"
	"github.com/wyvernmc/wyvern/query"
	"github.com/wyvernmc/wyvern/trace"
)

// Runner runs KindExplicit experiments: an explicit-state search (E<>,
// A[], EnumStates) or an exact probability, as one job on one worker,
// which reports its progress itself.
type Runner struct{}

// Check implements kind.Runner, at submission: the options must be valid
// (as the worker will read them), and exact probabilities answer Pr
// queries only.
func (Runner) Check(q *query.Query, exp *jobs.Experiment) error {
	if _, err := OptionsFromWire(exp.Explicit); err != nil {
		return fmt.Errorf("explicit-state options: %w", err)
	}
	if exp.Explicit != nil && exp.Explicit.Exact && q.Kind != query.Probability && q.Kind != query.Hypothesis {
		return fmt.Errorf("exact probabilities answer Pr[<=N](<> P) queries, not %s", q.Kind)
	}
	if exp.Explicit != nil && exp.Explicit.Exact && q.Until > 0 {
		return fmt.Errorf("exact probabilities merge runs that reach the same state, which P U Q must tell apart: ask it by simulation")
	}
	if exp.Explicit != nil && exp.Explicit.Exact && q.Enum("Inputs") != "uniform" {
		return fmt.Errorf("exact probabilities are those of uniform inputs; Inputs=%s is a distribution for simulation", q.Enum("Inputs"))
	}
	if exp.Explicit != nil && exp.Explicit.Exact && q.Always {
		return fmt.Errorf("exact probabilities answer Pr[<=N](<> P); for Pr[<=N]([] P), ask Pr[<=N](<> !P) and take 1 minus it")
	}
	return nil
}

// ReportOptions implements kind.OptionsReporter: the search's options by
// their flag names (order, reduction, compact, max-states, max-memory in
// MiB, max-time in seconds, search-workers when given); an exact
// computation has no statistical options, but its runs have the query's
// platform behaviours.
func (Runner) ReportOptions(q *query.Query, exp *jobs.Experiment, o *kind.Options) {
	x := exp.Explicit
	if x == nil {
		x = &jobs.ExplicitOptions{}
	}
	if x.Exact {
		for _, s := range q.Settings() {
			if s.Name != "Platform" && s.Name != "Spurious" {
				o.Delete(s.Name)
			}
		}
		o.Set("engine", "exact", false)
	} else {
		o.Set("engine", "explicit", false)
		o.Set("order", kind.OrDefault(x.Order, "bfs"), x.Order == "")
		o.Set("reduction", kind.OrDefault(x.Reduction, "none"), x.Reduction == "")
		if x.POR {
			o.Set("por", true, false) // given only
		}
	}
	o.Set("compact", x.Compact, !x.Compact)
	o.Set("max-states", kind.OrNone(x.MaxStates, x.MaxStates == 0), x.MaxStates == 0)
	mib := x.MaxBytes >> 20
	if x.MaxBytes == 0 {
		mib = DefaultMaxBytes >> 20
	}
	o.Set("max-memory", mib, x.MaxBytes == 0)
	o.Set("max-time", kind.OrNone(x.MaxTimeS, x.MaxTimeS == 0), x.MaxTimeS == 0)
	if x.Workers > 1 && !x.Exact {
		// given only: goroutines of a breadth-first search, which do not
		// change the answer
		o.Set("search-workers", x.Workers, false)
	}
}

// Run implements kind.Runner.
func (Runner) Run(ctx context.Context, s *kind.Session) (*kind.Result, error) {
	exp, q := s.Exp, s.Query
	start := time.Now()
	em := s.Metrics()
	var mu sync.Mutex
	curve := []kind.ExplorePoint{{}}
	stop, err := s.WatchProgress(func(p jobs.Progress) {
		if p.Done {
			return
		}
		if em != nil {
			em.Explicit(uint64(p.States), uint64(p.Queue), p.Depth)
		}
		mu.Lock()
		if len(curve) < 10000 {
			curve = append(curve, kind.ExplorePoint{Seconds: time.Since(start).Seconds(), States: p.States, Queue: p.Queue})
		}
		mu.Unlock()
	})
	if err != nil {
		return nil, err
	}
	defer stop()
	opts := exp.Explicit
	if opts == nil {
		opts = &jobs.ExplicitOptions{}
	}
	r, err := s.OneJob(ctx, "search", jobs.ExplicitJob{Options: *opts})
	if err != nil {
		return nil, err
	}
	res := &kind.Result{Experiment: exp.ID, Program: exp.ProgramName, Query: q.Text, Seed: exp.Seed}
	if opts.Exact {
		var x ExactResult
		if err := kind.DecodePayload(r, &x); err != nil {
			return nil, err
		}
		res.Kind, res.Detail = "exact", &ExactDetail{Exact: &x}
		res.Estimate, res.Lo, res.Hi = x.Probability, x.Lower, x.Upper
	} else {
		var x Result
		if err := kind.DecodePayload(r, &x); err != nil {
			return nil, err
		}
		res.Kind, res.Detail = "explicit", &Detail{Explicit: &x}
	}
	el := time.Since(start).Seconds()
	res.Stats = kind.Stats{Seconds: el, Workers: []string{r.Worker}}
	if x := ResultOf(res); x != nil {
		mu.Lock()
		res.Stats.Exploration = append(curve, kind.ExplorePoint{Seconds: el, States: x.States})
		mu.Unlock()
		if em != nil {
			em.Explicit(uint64(x.States), 0, x.MaxDepth)
		}
	}
	return res, nil
}

// Detail is an explicit-state search's result (E<>, A[], EnumStates).
type Detail struct {
	Explicit *Result `json:"explicit"`
}

// ExactDetail is an exact probability's result.
type ExactDetail struct {
	Exact *ExactResult `json:"exact"`
}

func init() {
	kind.RegisterDetail("explicit", []string{"explicit"}, func() kind.Detail { return &Detail{} })
	kind.RegisterDetail("exact", []string{"estimate", "lo", "hi", "exact"}, func() kind.Detail { return &ExactDetail{} })
	kind.RegisterProgress(jobs.KindExplicit, func(pr jobs.Progress) string {
		return fmt.Sprintf("explicit state space: %d states, %.0f states/s, queue %d, depth %d", pr.States, pr.StatesPerS, pr.Queue, pr.Depth)
	})
}

// ResultOf returns an explicit-state search's result (nil for other kinds).
func ResultOf(r *kind.Result) *Result {
	if d, ok := r.Detail.(*Detail); ok {
		return d.Explicit
	}
	return nil
}

// ExactOf returns an exact probability's result (nil for other kinds).
func ExactOf(r *kind.Result) *ExactResult {
	if d, ok := r.Detail.(*ExactDetail); ok {
		return d.Exact
	}
	return nil
}

// WriteText implements kind.Detail.
func (d *ExactDetail) WriteText(w io.Writer, r *kind.Result) {
	if x := d.Exact; x != nil {
		if x.Complete {
			fmt.Fprintf(w, "Exact probability: %.12g\n", x.Probability)
		} else {
			fmt.Fprintf(w, "Exact probability: incomplete (%s): between %.12g and %.12g\n", x.Reason, x.Lower, x.Upper)
		}
		if x.Holds != nil {
			fmt.Fprintf(w, "Hypothesis: %v\n", *x.Holds)
		}
		fmt.Fprintf(w, "States (state, step): %d, transitions: %d, largest layer: %d, steps: %d, %.2f s\n",
			x.States, x.Transitions, x.MaxLayer, x.Steps, x.ElapsedSec)
	}
}

// Answer implements kind.Detail: an incomplete computation is Unknown; a
// hypothesis holds or fails.
func (d *ExactDetail) Answer(*kind.Result) kind.Verdict {
	x := d.Exact
	switch {
	case x == nil || !x.Complete:
		return kind.Unknown
	case x.Holds != nil:
		return kind.VerdictOf(*x.Holds, !*x.Holds)
	}
	return kind.Holds
}

// Number implements kind.Numeric: the probability (the bounds of an
// incomplete computation, and their middle).
func (d *ExactDetail) Number(*kind.Result) (est, lo, hi float64, ok bool) {
	x := d.Exact
	switch {
	case x == nil:
		return 0, 0, 0, false
	case x.Complete:
		return x.Probability, x.Probability, x.Probability, true
	}
	return (x.Lower + x.Upper) / 2, x.Lower, x.Upper, true
}

// Summary implements kind.Detail.
func (d *ExactDetail) Summary(r *kind.Result) string {
	x := d.Exact
	switch {
	case x == nil:
		return fmt.Sprintf("%s result (exit status %d)", r.Kind, r.ExitStatus())
	case !x.Complete:
		return fmt.Sprintf("INCOMPLETE: Pr in [%.12g, %.12g] (%s)", x.Lower, x.Upper, x.Reason)
	case x.Holds != nil && *x.Holds:
		return fmt.Sprintf("HOLDS: Pr = %.12g (exact)", x.Probability)
	case x.Holds != nil:
		return fmt.Sprintf("FAILS: Pr = %.12g (exact)", x.Probability)
	}
	return fmt.Sprintf("Pr = %.12g (exact)", x.Probability)
}

// Counterexamples implements kind.Detail: none.
func (d *ExactDetail) Counterexamples() []*trace.Trace { return nil }

// Negative implements kind.Negative: probability 0.
func (d *ExactDetail) Negative(*kind.Result) bool {
	return d.Exact != nil && d.Exact.Complete && d.Exact.Probability == 0
}

// WriteText implements kind.Detail.
func (d *Detail) WriteText(w io.Writer, r *kind.Result) {
	x := d.Explicit
	if x == nil {
		return
	}
	fmt.Fprint(w, x.String())
	if x.Trace != nil {
		fmt.Fprintf(w, "Counterexample/witness: %d steps (replay: wyvern replay %s --counterexample RESULT.json, with the --json output of this command)\n",
			len(x.Trace.Steps), r.Program)
	}
}

// Answer implements kind.Detail: a reachable target or a violated
// invariant is Violated, an incomplete search Unknown.
func (d *Detail) Answer(*kind.Result) kind.Verdict {
	x := d.Explicit
	if x == nil {
		return kind.Unknown
	}
	switch x.Verdict {
	case Incomplete:
		return kind.Unknown
	case Satisfied:
		if x.Kind == "reach" {
			return kind.Violated
		}
	case NotSatisfied:
		if x.Kind != "reach" {
			return kind.Violated
		}
	}
	return kind.Holds
}

// Summary implements kind.Detail.
func (d *Detail) Summary(r *kind.Result) string {
	x := d.Explicit
	switch {
	case x == nil:
		return fmt.Sprintf("%s result (exit status %d)", r.Kind, r.ExitStatus())
	case x.Verdict == Incomplete:
		return "INCOMPLETE: " + x.Reason
	case x.Kind == "reach" && x.Verdict == Satisfied:
		return fmt.Sprintf("REACHABLE (%d states explored)", x.States)
	case x.Kind == "reach":
		return fmt.Sprintf("UNREACHABLE (%d states)", x.States)
	case x.Kind == "invariant" && x.Verdict == Satisfied:
		return fmt.Sprintf("HOLDS (%d states)", x.States)
	case x.Kind == "invariant":
		return fmt.Sprintf("VIOLATED (%d states explored)", x.States)
	}
	return fmt.Sprintf("%d states (%s)", x.States, x.Verdict)
}

// Counterexamples implements kind.Detail: the counterexample or witness,
// then the first deadlock's and the first error's runs (nil: none).
func (d *Detail) Counterexamples() []*trace.Trace {
	x := d.Explicit
	if x == nil {
		return nil
	}
	out := []*trace.Trace{x.Trace}
	if x.FirstDeadlock != nil {
		out = append(out, x.FirstDeadlock.Trace)
	}
	if x.FirstError != nil {
		out = append(out, x.FirstError.Trace)
	}
	return out
}

// Negative implements kind.Negative: an unreachable target, or an
// invariant that holds.
func (d *Detail) Negative(*kind.Result) bool {
	x := d.Explicit
	return x != nil && (x.Kind == "reach" && x.Verdict == NotSatisfied || x.Kind == "invariant" && x.Verdict == Satisfied)
}
