package coordinator

import (
	"context"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/wyvernmc/wyvern/explicit"
	"github.com/wyvernmc/wyvern/jobs"
	"github.com/wyvernmc/wyvern/query"
)

// ExplicitRunner runs KindExplicit experiments: an explicit-state search
// (E<>, A[], EnumStates) or an exact probability, as one job on one worker,
// which reports its progress itself.
type ExplicitRunner struct{}

// Check implements Runner: exact probabilities answer Pr queries only.
func (ExplicitRunner) Check(q *query.Query, exp *jobs.Experiment) error {
	if exp.Explicit != nil && exp.Explicit.Exact && q.Kind != query.Probability && q.Kind != query.Hypothesis {
		return fmt.Errorf("exact probabilities answer Pr[<=N](<> P) queries, not %s", q.Kind)
	}
	if exp.Explicit != nil && exp.Explicit.Exact && q.Until > 0 {
		return fmt.Errorf("exact probabilities merge runs that reach the same state, which P U Q must tell apart: ask it by simulation")
	}
	if exp.Explicit != nil && exp.Explicit.Exact && q.Always {
		return fmt.Errorf("exact probabilities answer Pr[<=N](<> P); for Pr[<=N]([] P), ask Pr[<=N](<> !P) and take 1 minus it")
	}
	return nil
}

// Run implements Runner.
func (ExplicitRunner) Run(ctx context.Context, s *Session) (*Result, error) {
	exp, q := s.Exp, s.Query
	start := time.Now()
	em := s.Metrics()
	var mu sync.Mutex
	curve := []ExplorePoint{{}}
	sub, err := s.c.NC.Subscribe(jobs.ProgressSubject(exp.ID), func(m *nats.Msg) {
		var p jobs.Progress
		if jobs.Decode(m.Data, &p) != nil || p.Done {
			return
		}
		if em != nil {
			em.Explicit(uint64(p.States), uint64(p.Queue), p.Depth)
		}
		mu.Lock()
		if len(curve) < 10000 {
			curve = append(curve, ExplorePoint{Seconds: time.Since(start).Seconds(), States: p.States, Queue: p.Queue})
		}
		mu.Unlock()
	})
	if err != nil {
		return nil, fmt.Errorf("progress subscription: %w", err)
	}
	defer sub.Unsubscribe()
	opts := exp.Explicit
	if opts == nil {
		opts = &jobs.ExplicitOptions{}
	}
	r, err := s.OneJob(ctx, "search", jobs.ExplicitJob{Options: *opts})
	if err != nil {
		return nil, err
	}
	res := &Result{Experiment: exp.ID, Program: exp.ProgramName, Query: q.Text, Seed: exp.Seed}
	if opts.Exact {
		var x explicit.ExactResult
		if err := decodePayload(r, &x); err != nil {
			return nil, err
		}
		res.Kind, res.Detail = "exact", &ExactDetail{Exact: &x}
		res.Estimate, res.Lo, res.Hi = x.Probability, x.Lower, x.Upper
	} else {
		var x explicit.Result
		if err := decodePayload(r, &x); err != nil {
			return nil, err
		}
		res.Kind, res.Detail = "explicit", &ExplicitDetail{Explicit: &x}
	}
	el := time.Since(start).Seconds()
	res.Stats = Stats{Seconds: el, Workers: []string{r.Worker}}
	if x := res.Explicit(); x != nil {
		mu.Lock()
		res.Stats.Exploration = append(curve, ExplorePoint{Seconds: el, States: x.States})
		mu.Unlock()
		if em != nil {
			em.Explicit(uint64(x.States), 0, x.MaxDepth)
		}
	}
	return res, nil
}

// WriteText implements Detail.
func (d *ExactDetail) WriteText(w io.Writer, r *Result) {
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

// WriteText implements Detail.
func (d *ExplicitDetail) WriteText(w io.Writer, r *Result) {
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
