package coordinator

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/wyvernmc/wyvern/explicit"
	"github.com/wyvernmc/wyvern/jobs"
	"github.com/wyvernmc/wyvern/query"
)

// isExplicit says whether an experiment is an explicit-state job: an
// E<>, A[] or EnumStates query, or an exact probability.
func isExplicit(q *query.Query, exp *jobs.Experiment) bool {
	switch q.Kind {
	case query.Reach, query.Invariant, query.EnumStates:
		return true
	}
	return exp.Explicit != nil && exp.Explicit.Exact
}

// checkExplicit refuses explicit-state experiments that cannot run.
func checkExplicit(q *query.Query, exp *jobs.Experiment) error {
	if exp.Explicit != nil && exp.Explicit.Exact && q.Kind != query.Probability && q.Kind != query.Hypothesis {
		return fmt.Errorf("exact probabilities answer Pr[<=N](<> P) queries, not %s", q.Kind)
	}
	return nil
}

// runExplicit runs an explicit-state experiment as one job on a worker and
// waits for its result; the worker reports progress itself.
func (c *Coordinator) runExplicit(ctx context.Context, e *experiment, q *query.Query) (*Result, error) {
	exp := e.spec
	if err := checkExplicit(q, &exp); err != nil {
		return nil, err
	}
	start := time.Now()
	c.purge(ctx, jobs.StreamJobs, jobs.JobSubject(exp.ID))
	// A result already in the stream (the job finished before a restart)
	// is used as it is.
	iter, err := c.resultMessages(ctx, exp.ID, false)
	if err != nil {
		return nil, err
	}
	defer iter.Stop()
	results := make(chan jobs.TraceResult, 1)
	intake := decodeResults(ctx, iter, exp.ID, func(r *jobs.TraceResult) bool {
		if r.Kind != jobs.KindExplicit {
			return true
		}
		results <- *r
		return false
	})
	em := c.expMetrics(exp.ID)
	var mu sync.Mutex
	curve := []ExplorePoint{{}}
	sub, err := c.NC.Subscribe(jobs.ProgressSubject(exp.ID), func(m *nats.Msg) {
		var p jobs.Progress
		if jobs.Decode(m.Data, &p) != nil || p.Done || p.PlannedReplications > 0 {
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
	job := jobs.TraceJob{Version: jobs.Version, Kind: jobs.KindExplicit, Experiment: exp.ID, Program: exp.Program,
		ProgramName: exp.ProgramName, Query: exp.Query, Seed: exp.Seed, Count: 1, Explicit: opts}
	b, _ := json.Marshal(job)
	if _, err := c.js.Publish(ctx, jobs.JobSubject(exp.ID), b); err != nil {
		return nil, fmt.Errorf("publish job %s: %w", job.ID(), err)
	}
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case why := <-e.fail:
		return nil, errors.New(why)
	case err := <-intake:
		return nil, err
	case r := <-results:
		if r.Error != "" {
			return nil, fmt.Errorf("worker %s: %s", r.Worker, r.Error)
		}
		res := &Result{Experiment: exp.ID, Program: exp.ProgramName, Query: q.Text, Seed: exp.Seed}
		if opts.Exact {
			var x explicit.ExactResult
			if err := json.Unmarshal(r.Explicit, &x); err != nil {
				return nil, fmt.Errorf("exact result: %w", err)
			}
			res.Kind, res.Exact = "exact", &x
			res.Estimate, res.Lo, res.Hi = x.Probability, x.Lower, x.Upper
		} else {
			var x explicit.Result
			if err := json.Unmarshal(r.Explicit, &x); err != nil {
				return nil, fmt.Errorf("explicit-state result: %w", err)
			}
			res.Kind, res.Explicit = "explicit", &x
		}
		el := time.Since(start).Seconds()
		res.Stats = Stats{Seconds: el, Workers: []string{r.Worker}}
		if res.Explicit != nil {
			mu.Lock()
			res.Stats.Exploration = append(curve, ExplorePoint{Seconds: el, States: res.Explicit.States})
			mu.Unlock()
			if em != nil {
				em.Explicit(uint64(res.Explicit.States), 0, res.Explicit.MaxDepth)
			}
		}
		return res, nil
	}
}

// writeExplicit prints an explicit-state or exact result.
func (r *Result) writeExplicit(w io.Writer) {
	if x := r.Exact; x != nil {
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
		return
	}
	x := r.Explicit
	if x == nil {
		return
	}
	fmt.Fprint(w, x.String())
	if x.Trace != nil {
		fmt.Fprintf(w, "Counterexample/witness: %d steps (replay: wyvern replay %s --counterexample RESULT.json, with the --json output of this command)\n",
			len(x.Trace.Steps), r.Program)
	}
}
