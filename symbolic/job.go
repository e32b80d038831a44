package symbolic

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/wyvernmc/wyvern/coordinator"
	"github.com/wyvernmc/wyvern/jobs"
	"github.com/wyvernmc/wyvern/query"
	"github.com/wyvernmc/wyvern/worker"
)

// Handler runs KindBMC jobs on a worker: one bounded model-checking run,
// with progress after each bound and the Result as the job's result.
type Handler struct{}

// NewHandler is the worker.Factory of KindBMC.
func NewHandler() worker.Handler { return Handler{} }

// Handle implements worker.Handler.
func (Handler) Handle(ctx context.Context, j *worker.Job) error {
	var job jobs.BMCJob
	if err := json.Unmarshal(j.Payload, &job); err != nil {
		return j.Fail(ctx, fmt.Errorf("bmc job %s: %w", j.ID(), err))
	}
	m, err := j.Machine(ctx)
	if err != nil {
		return j.Fail(ctx, err)
	}
	q, err := query.Parse(j.Query)
	if err != nil {
		return j.Fail(ctx, err)
	}
	res, err := Check(ctx, m.Prog, q, job.Options, func(p Progress) {
		j.Progress(jobs.Progress{Unwind: p.Unwind, Terms: p.Terms, SolverS: p.SolverSeconds, Workers: 1})
	})
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if errors.Is(err, ErrUnsupported) {
		return j.Fail(ctx, &worker.Refusal{Err: fmt.Errorf("%s: %w", j.ProgramName, err)})
	}
	if err != nil {
		return j.Fail(ctx, fmt.Errorf("%s: %w", j.ProgramName, err))
	}
	return j.Publish(ctx, res)
}

// Runner runs KindBMC experiments on the coordinator: one job, whose
// result it wraps as the experiment's.
type Runner struct{}

// Check implements coordinator.Runner: the query must be one BMC answers.
func (Runner) Check(q *query.Query, exp *jobs.Experiment) error {
	_, err := query.BMCTarget(q)
	return err
}

// Run implements coordinator.Runner.
func (Runner) Run(ctx context.Context, s *coordinator.Session) (*coordinator.Result, error) {
	start := time.Now()
	var opts jobs.BMCOptions
	if s.Exp.BMC != nil {
		opts = *s.Exp.BMC
	}
	r, err := s.OneJob(ctx, "check", jobs.BMCJob{Options: opts})
	if err != nil {
		return nil, err
	}
	var x Result
	if err := json.Unmarshal(r.Payload, &x); err != nil {
		return nil, fmt.Errorf("bmc result of %s from worker %s: %w", s.Exp.ID, r.Worker, err)
	}
	el := time.Since(start).Seconds()
	res := &coordinator.Result{Experiment: s.Exp.ID, Program: s.Exp.ProgramName, Query: s.Query.Text, Kind: jobs.KindBMC,
		Seed: s.Exp.Seed, Detail: &Detail{BMC: &x}, Stats: coordinator.Stats{Seconds: el, Workers: []string{r.Worker}}}
	res.Options = map[string]any{} // the defaults in effect (coordinator.Options)
	if opts.Unwind == 0 && opts.MaxUnwind == 0 {
		res.Options["max-unwind"] = DefaultMaxUnwind
	}
	if opts.Contexts == 0 {
		res.Options["contexts"] = DefaultContexts
	}
	return res, nil
}

// Detail is a BMC result's part of a coordinator.Result.
type Detail struct {
	BMC *Result `json:"bmc"`
}

// NewDetail makes an empty Detail (for coordinator.RegisterDetail).
func NewDetail() coordinator.Detail { return &Detail{} }

// WriteText implements coordinator.Detail.
func (d *Detail) WriteText(w io.Writer, r *coordinator.Result) {
	x := d.BMC
	if x == nil {
		return
	}
	fmt.Fprintf(w, "Bounded model checking (%s): %s — %s\n", x.Solver, x.Verdict, x.Reason)
	for _, c := range x.Checks {
		line := fmt.Sprintf("  unwind %3d: %7d terms, encode %.2f s, solver %.2f s, violation %s", c.Unwind, c.Terms, c.EncodeSeconds, c.SolverSeconds, c.Violation)
		if c.Unwound != "" {
			line += ", bound cuts an execution: " + c.Unwound
		}
		fmt.Fprintln(w, line)
	}
	if len(x.Inputs) > 0 {
		fmt.Fprintln(w, "Inputs of the violation:")
		for _, in := range x.Inputs {
			fmt.Fprintf(w, "  %-24s %s (execution %d): %d (%#x, signed %d)\n", in.Loc, in.Func, in.K+1, in.Value, in.Value, int64(in.Value))
		}
	}
	if x.Trace != nil {
		fmt.Fprintf(w, "Witness: %d steps (replay: wyvern replay %s --counterexample RESULT.json, with the --json output of this command)\n",
			len(x.Trace.Steps), r.Program)
	}
	fmt.Fprintf(w, "Time: %.2f s (encoding %.2f s, solver %.2f s)\n", x.ElapsedSec, x.EncodeSeconds, x.SolverSeconds)
}

// ExitStatus gives the check's exit status (coordinator.Exit*): a
// violation found is ExitViolated, a proof ExitHolds, no verdict
// ExitUnknown.
func (d *Detail) ExitStatus() int {
	if d.BMC == nil {
		return coordinator.ExitUnknown
	}
	violation := d.BMC.Trace != nil
	switch {
	case violation:
		return coordinator.ExitViolated
	case d.BMC.Verdict == VerdictSatisfied || d.BMC.Verdict == VerdictNotSatisfied:
		return coordinator.ExitHolds
	}
	return coordinator.ExitUnknown
}
