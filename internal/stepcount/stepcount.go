// Package stepcount is a job kind written as a newcomer would add one,
// and the measure of what adding a kind costs: this one package and one
// line registering Kind (internal/kinds, or a test's cluster). It answers
// any query with a step bound by running Runs random runs of the program
// (seed, index 0..Runs-1, as traces are) and reporting how many steps
// they take: the mean and the longest.
package stepcount

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/wyvernmc/wyvern/jobs"
	"github.com/wyvernmc/wyvern/kind"
	"github.com/wyvernmc/wyvern/query"
	"github.com/wyvernmc/wyvern/trace"
	"github.com/wyvernmc/wyvern/vm"
	"github.com/wyvernmc/wyvern/worker"
)

// Name is the kind's name on the wire (jobs.Job.Kind) and its results'
// kind.
const Name = "steps"

// Runs is the number of runs an experiment makes, in jobs of JobRuns.
const (
	Runs    = 64
	JobRuns = 16
)

// Job is the kind's job: runs [First, First+Count).
type Job struct {
	First uint64 `json:"first"`
	Count uint64 `json:"count"`
}

// Outcome is the kind's result: the steps of each run of the job.
type Outcome struct {
	First uint64   `json:"first"`
	Steps []uint64 `json:"steps"`
}

// Kind is what internal/kinds registers: the worker's handler and the
// coordinator's runner.
var Kind = struct {
	Name    string
	Handler worker.Factory
	Runner  kind.Runner
}{Name, NewHandler, Runner{}}

// Steps runs run index of experiment seed on m up to bound steps and
// returns its steps (the reference the distributed runs must agree with).
func Steps(m *vm.Machine, q *query.Query, seed, index uint64) uint64 {
	r := vm.NewRand(seed, index)
	r.SetBehaviours(q.Behaviours())
	st := m.NewState()
	m.Observe(st, q.Bound, r, func(*vm.State, *vm.Thread) bool { return false })
	return st.Steps
}

type handler struct{}

// NewHandler is the kind's worker.Factory.
func NewHandler() worker.Handler { return handler{} }

// Handle implements worker.Handler.
func (handler) Handle(ctx context.Context, j *worker.Job) error {
	var job Job
	if err := json.Unmarshal(j.Payload, &job); err != nil {
		return j.Fail(ctx, fmt.Errorf("steps job %s: %w", j.ID(), err))
	}
	if job.Count > JobRuns {
		return worker.Reject(fmt.Errorf("it asks for %d runs; a steps job holds at most %d", job.Count, JobRuns))
	}
	m, err := j.Machine(ctx)
	if err != nil {
		return j.Fail(ctx, err)
	}
	q, err := query.Parse(j.Query)
	if err != nil {
		return j.Fail(ctx, err)
	}
	out := Outcome{First: job.First}
	var total uint64
	for i := range job.Count {
		s := Steps(m, q, j.Seed, job.First+i)
		out.Steps = append(out.Steps, s)
		total += s
	}
	j.Count(job.Count, total, 0)
	return j.Publish(ctx, &out)
}

// Runner plans the experiment's jobs and folds their outcomes.
type Runner struct{}

// Check implements kind.Runner: the query needs a step bound.
func (Runner) Check(q *query.Query, _ *jobs.Experiment) error {
	if q.Bound == 0 {
		return fmt.Errorf("counting steps needs a query with a step bound (Pr[<=N], Estimate[<=N,R]), not %s", q.Kind)
	}
	return nil
}

// Run implements kind.Runner.
func (Runner) Run(ctx context.Context, s *kind.Session) (*kind.Result, error) {
	s.PurgeJobs(ctx)
	got := make(chan *jobs.Result, Runs/JobRuns)
	stop, errc, err := s.Results(ctx, false, func(r *jobs.Result) bool { got <- r; return true })
	if err != nil {
		return nil, err
	}
	defer stop()
	var planned []kind.PlannedJob
	for first := uint64(0); first < Runs; first += JobRuns {
		planned = append(planned, kind.PlannedJob{Part: strconv.FormatUint(first, 10), Payload: Job{First: first, Count: JobRuns}})
	}
	if err := s.PublishJobs(ctx, planned); err != nil {
		return nil, err
	}
	d := &Detail{}
	res := &kind.Result{Experiment: s.Exp.ID, Program: s.Exp.ProgramName, Query: s.Query.Text, Kind: Name, Seed: s.Exp.Seed, Detail: d}
	done := map[uint64]bool{}
	for len(done) < len(planned) {
		select {
		case r := <-got:
			var o Outcome
			if r.Error != "" {
				return nil, fmt.Errorf("worker %s: %s", r.Worker, r.Error)
			}
			if err := kind.DecodePayload(r, &o); err != nil {
				return nil, err
			}
			if done[o.First] {
				continue // a redelivery
			}
			done[o.First] = true
			for _, n := range o.Steps {
				res.Runs++
				res.Steps += n
				d.Max = max(d.Max, n)
			}
		case err := <-errc:
			return nil, err
		case why := <-s.Failed():
			return nil, errors.New(why)
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	res.Estimate = float64(res.Steps) / float64(res.Runs)
	return res, nil
}

// Detail is the kind's part of a result: the longest run (the mean is the
// result's Estimate, the runs and their steps its Runs and Steps).
type Detail struct {
	Max uint64 `json:"max_steps"`
}

func init() {
	kind.RegisterDetail(Name, []string{"runs", "steps", "estimate", "max_steps"}, func() kind.Detail { return &Detail{} })
}

// WriteText implements kind.Detail.
func (d *Detail) WriteText(w io.Writer, r *kind.Result) {
	fmt.Fprintf(w, "Steps: %d runs, %.6g steps on average, %d at most\n", r.Runs, r.Estimate, d.Max)
}

// Answer implements kind.Detail: a count is computed, so it holds.
func (d *Detail) Answer(*kind.Result) kind.Verdict { return kind.Holds }

// Summary implements kind.Detail.
func (d *Detail) Summary(r *kind.Result) string {
	return fmt.Sprintf("%.6g steps on average, %d at most (%d runs)", r.Estimate, d.Max, r.Runs)
}

// Counterexamples implements kind.Detail: none.
func (d *Detail) Counterexamples() []*trace.Trace { return nil }
