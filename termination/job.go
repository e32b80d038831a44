package termination

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/wyvernmc/wyvern/jobs"
	"github.com/wyvernmc/wyvern/kind"
	"github.com/wyvernmc/wyvern/query"
	"github.com/wyvernmc/wyvern/trace"
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

// Check implements kind.Runner, at submission: the options as the worker
// will read them.
func (Runner) Check(q *query.Query, exp *jobs.Experiment) error {
	if exp.Termination != nil {
		_, err := OptionsFromWire(exp.Termination)
		return err
	}
	return nil
}

// Run implements kind.Runner.
func (Runner) Run(ctx context.Context, s *kind.Session) (*kind.Result, error) {
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
	res := &kind.Result{Experiment: s.Exp.ID, Program: s.Exp.ProgramName, Query: s.Query.Text, Kind: jobs.KindTermination,
		Seed: s.Exp.Seed, Detail: &Detail{Termination: &x}, Stats: kind.Stats{Seconds: time.Since(start).Seconds(), Workers: []string{r.Worker}}}
	return res, nil
}

// Detail is a termination result's part of a kind.Result.
type Detail struct {
	Termination *Result `json:"termination"`
}

// NewDetail makes an empty Detail (for kind.RegisterDetail).
func NewDetail() kind.Detail { return &Detail{} }

func init() {
	// A termination result's JSON has the fields of its Detail.
	kind.RegisterDetail(jobs.KindTermination, nil, NewDetail)
	kind.RegisterProgress(jobs.KindTermination, func(pr jobs.Progress) string {
		return fmt.Sprintf("termination: %d states", pr.States)
	})
}

// WriteText implements kind.Detail.
func (d *Detail) WriteText(w io.Writer, r *kind.Result) {
	if d.Termination != nil {
		fmt.Fprint(w, d.Termination.String())
	}
}

// Answer implements kind.Detail: a run that never ends is Violated, a
// proof that every run ends Holds, no verdict Unknown.
func (d *Detail) Answer(*kind.Result) kind.Verdict {
	if d.Termination == nil {
		return kind.Unknown
	}
	switch d.Termination.Verdict {
	case NonTerminates:
		return kind.Violated
	case Terminates:
		return kind.Holds
	}
	return kind.Unknown
}

// Summary implements kind.Detail.
func (d *Detail) Summary(r *kind.Result) string {
	if d.Termination == nil {
		return fmt.Sprintf("%s result (exit status %d)", r.Kind, r.ExitStatus())
	}
	return fmt.Sprintf("%s: %s", d.Termination.Verdict, d.Termination.Reason)
}

// Counterexamples implements kind.Detail: the lasso's stem and cycle as
// one run (nil: none).
func (d *Detail) Counterexamples() []*trace.Trace {
	if d.Termination == nil || d.Termination.Lasso == nil {
		return nil
	}
	l := d.Termination.Lasso
	return []*trace.Trace{{Steps: append(append([]trace.Step{}, l.Stem...), l.Cycle...)}}
}

// ResultOf is r's termination result (nil for another kind).
func ResultOf(r *kind.Result) *Result {
	if d, ok := r.Detail.(*Detail); ok {
		return d.Termination
	}
	return nil
}
