package termination

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/wyvernmc/wyvern/coordinator"
	"github.com/wyvernmc/wyvern/jobs"
	"github.com/wyvernmc/wyvern/query"
	"github.com/wyvernmc/wyvern/worker"
)

// OptionsFromWire turns the wire options into the analysis's.
func OptionsFromWire(o *jobs.TerminationOptions) (Options, error) {
	var opts Options
	if o == nil {
		return opts, nil
	}
	if o.MaxStates < 0 || o.MaxTimeS < 0 {
		return opts, fmt.Errorf("termination: max_states %d, max_time_s %g: want >= 0 (0: the defaults)", o.MaxStates, o.MaxTimeS)
	}
	opts.MaxStates, opts.Solver, opts.NoSMT = o.MaxStates, o.Solver, o.NoSMT
	opts.MaxTime = time.Duration(o.MaxTimeS * float64(time.Second))
	return opts, nil
}

// Handler runs KindTermination jobs on a worker: one analysis, whose
// Result is the job's result.
type Handler struct{}

// NewHandler is the worker.Factory of KindTermination.
func NewHandler() worker.Handler { return Handler{} }

// Handle implements worker.Handler.
func (Handler) Handle(ctx context.Context, j *worker.Job) error {
	var job jobs.TerminationJob
	if err := json.Unmarshal(j.Payload, &job); err != nil {
		return j.Fail(ctx, fmt.Errorf("termination job %s: %w", j.ID(), err))
	}
	opts, err := OptionsFromWire(&job.Options)
	if err != nil {
		return j.Fail(ctx, err)
	}
	m, err := j.Machine(ctx)
	if err != nil {
		return j.Fail(ctx, err)
	}
	res, err := Analyze(ctx, m.Prog, opts)
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if err != nil {
		return j.Fail(ctx, fmt.Errorf("%s: %w", j.ProgramName, err))
	}
	return j.Publish(ctx, res)
}

// Runner runs KindTermination experiments on the coordinator: one job,
// whose result it wraps as the experiment's. The experiment's query is not
// read (the question is always "does every run end?"); clients send
// EnumStates.
type Runner struct{}

// Check implements coordinator.Runner.
func (Runner) Check(q *query.Query, exp *jobs.Experiment) error {
	if exp.Termination != nil {
		_, err := OptionsFromWire(exp.Termination)
		return err
	}
	return nil
}

// Run implements coordinator.Runner.
func (Runner) Run(ctx context.Context, s *coordinator.Session) (*coordinator.Result, error) {
	start := time.Now()
	var opts jobs.TerminationOptions
	if s.Exp.Termination != nil {
		opts = *s.Exp.Termination
	}
	r, err := s.OneJob(ctx, "termination", jobs.TerminationJob{Options: opts})
	if err != nil {
		return nil, err
	}
	var x Result
	if err := json.Unmarshal(r.Payload, &x); err != nil {
		return nil, fmt.Errorf("termination result of %s from worker %s: %w", s.Exp.ID, r.Worker, err)
	}
	res := &coordinator.Result{Experiment: s.Exp.ID, Program: s.Exp.ProgramName, Query: s.Query.Text, Kind: jobs.KindTermination,
		Seed: s.Exp.Seed, Detail: &Detail{Termination: &x}, Stats: coordinator.Stats{Seconds: time.Since(start).Seconds(), Workers: []string{r.Worker}}}
	return res, nil
}

// Detail is a termination result's part of a coordinator.Result.
type Detail struct {
	Termination *Result `json:"termination"`
}

// NewDetail makes an empty Detail (for coordinator.RegisterDetail).
func NewDetail() coordinator.Detail { return &Detail{} }

// WriteText implements coordinator.Detail.
func (d *Detail) WriteText(w io.Writer, r *coordinator.Result) {
	if d.Termination != nil {
		fmt.Fprint(w, d.Termination.String())
	}
}

// ExitStatus gives the check's exit status: a non-terminating run found is
// ExitViolated, a proof ExitHolds, no verdict ExitUnknown.
func (d *Detail) ExitStatus() int {
	if d.Termination == nil {
		return coordinator.ExitUnknown
	}
	switch d.Termination.Verdict {
	case NonTerminates:
		return coordinator.ExitViolated
	case Terminates:
		return coordinator.ExitHolds
	}
	return coordinator.ExitUnknown
}
