package symbolic

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/wyvernmc/wyvern/jobs"
	"github.com/wyvernmc/wyvern/kind"
	"github.com/wyvernmc/wyvern/query"
	"github.com/wyvernmc/wyvern/trace"
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
	if main := m.Prog.Funcs[m.Prog.Entry]; len(j.Args) > 0 && len(main.Params) > 0 {
		// the encoder gives main what a run without arguments gets
		// (encode_image.go)
		return j.Fail(ctx, &worker.Refusal{Err: fmt.Errorf("%s: %w", j.ProgramName,
			unsupported{fmt.Errorf("symbolic: encode: %s(argc, ...) with command-line arguments (--arg): not supported by the BMC encoder yet", main.Name)})})
	}
	res, err := Check(ctx, m.Prog, q, job.Options, func(p Progress) {
		j.Progress(jobs.Progress{Unwind: p.Unwind, Terms: p.Terms, SolverS: p.SolverSeconds, Workers: 1, Phase: p.Phase})
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

// Check implements kind.Runner, at submission: the query must be one BMC
// answers and the options valid (as the worker will read them).
func (Runner) Check(q *query.Query, exp *jobs.Experiment) error {
	if _, err := query.BMCTarget(q); err != nil {
		return err
	}
	if exp.BMC != nil {
		return checkOptions(*exp.BMC)
	}
	return nil
}

// checkOptions refuses BMC options no run could use.
func checkOptions(o jobs.BMCOptions) error {
	if o.Unwind < 0 || o.MaxUnwind < 0 {
		return fmt.Errorf("unwinding bounds must be >= 1 (unwind %d, max unwind %d)", o.Unwind, o.MaxUnwind)
	}
	if o.SolverTimeoutS < 0 || o.Contexts < 0 {
		return fmt.Errorf("solver timeout %g s and contexts %d: want >= 0 (0: none, the default)", o.SolverTimeoutS, o.Contexts)
	}
	return nil
}

// ReportOptions implements kind.OptionsReporter: unwind, max-unwind,
// solver, solver-timeout, and any other option given by its JSON name.
func (Runner) ReportOptions(_ *query.Query, exp *jobs.Experiment, o *kind.Options) {
	o.Set("engine", "bmc", false)
	b := exp.BMC
	if b == nil {
		b = &jobs.BMCOptions{}
	}
	o.Set("unwind", kind.OrNone(b.Unwind, b.Unwind == 0), b.Unwind == 0)
	o.Set("max-unwind", kind.OrNone(b.MaxUnwind, b.MaxUnwind == 0 || b.Unwind > 0), b.MaxUnwind == 0 && b.Unwind == 0)
	o.Set("solver", kind.OrDefault(b.Solver, "z3"), b.Solver == "")
	o.Set("solver-timeout", kind.OrNone(b.SolverTimeoutS, b.SolverTimeoutS == 0), b.SolverTimeoutS == 0)
	// Options added to jobs.BMCOptions later appear by their JSON names
	// when given.
	if raw, err := json.Marshal(b); err == nil {
		var m map[string]any
		if json.Unmarshal(raw, &m) == nil {
			for k, v := range m {
				name := strings.ReplaceAll(strings.TrimSuffix(k, "_s"), "_", "-")
				if !o.Has(name) {
					o.Set(name, v, false)
				}
			}
		}
	}
}

// Run implements kind.Runner.
func (Runner) Run(ctx context.Context, s *kind.Session) (*kind.Result, error) {
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
	res := &kind.Result{Experiment: s.Exp.ID, Program: s.Exp.ProgramName, Query: s.Query.Text, Kind: jobs.KindBMC,
		Seed: s.Exp.Seed, Detail: &Detail{BMC: &x}, Stats: kind.Stats{Seconds: el, Workers: []string{r.Worker}}}
	res.Options = map[string]any{} // the defaults in effect (coordinator.Options adds the rest)
	if opts.Unwind == 0 && opts.MaxUnwind == 0 {
		res.Options["max-unwind"] = DefaultMaxUnwind
	}
	if opts.Contexts == 0 {
		res.Options["contexts"] = DefaultContexts
	}
	return res, nil
}

// Detail is a BMC result's part of a kind.Result.
type Detail struct {
	BMC *Result `json:"bmc"`
}

// NewDetail makes an empty Detail (for kind.RegisterDetail).
func NewDetail() kind.Detail { return &Detail{} }

func init() {
	// A BMC result's JSON has the fields of its Detail.
	kind.RegisterDetail(jobs.KindBMC, nil, NewDetail)
	kind.RegisterProgress(jobs.KindBMC, func(pr jobs.Progress) string {
		return progressText(pr)
	})
}

// progressText is the progress line of a BMC job: the bound checked, or
// the one being checked and on what while the solver works.
func progressText(pr jobs.Progress) string {
	if pr.Phase != "" {
		return fmt.Sprintf("bmc: unwind %d, solving (%s), %d terms, solver %.1f s", pr.Unwind, pr.Phase, pr.Terms, pr.SolverS)
	}
	return fmt.Sprintf("bmc: unwind %d checked, %d terms, solver %.1f s", pr.Unwind, pr.Terms, pr.SolverS)
}

// WriteText implements kind.Detail.
func (d *Detail) WriteText(w io.Writer, r *kind.Result) {
	x := d.BMC
	if x == nil {
		return
	}
	fmt.Fprintf(w, "Bounded model checking (%s): %s — %s\n", x.Solver, x.Verdict, x.Reason)
	for _, c := range x.Checks {
		line := fmt.Sprintf("  unwind %3d: %7d terms, encode %.2f s, solver %.2f s, violation %s", c.Unwind, c.Terms, c.EncodeSeconds, c.SolverSeconds, c.Violation)
		if c.Rounds > 0 {
			line = fmt.Sprintf("  unwind %3d, %d rounds (every schedule): %7d terms, encode %.2f s, solver %.2f s, violation %s", c.Unwind, c.Rounds, c.Terms, c.EncodeSeconds, c.SolverSeconds, c.Violation)
		}
		if c.Unwound != "" {
			line += ", bound cuts an execution: " + c.Unwound
		}
		fmt.Fprintln(w, line)
	}
	for _, k := range x.Induction {
		line := fmt.Sprintf("  k-induction at unwind %3d, k %d, loop %s: base %s", k.Unwind, k.K, k.Loop, k.Base)
		if k.Step != "" {
			line += fmt.Sprintf(", step %s (%d terms)", k.Step, k.Terms)
		}
		if len(k.Invariants) > 0 {
			line += fmt.Sprintf(", %d range invariants", len(k.Invariants))
		}
		if k.NotApplicable != "" {
			line += ", not applicable: " + k.NotApplicable
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

// Answer implements kind.Detail: a violation found is Violated, a proof
// Holds, no verdict Unknown.
func (d *Detail) Answer(*kind.Result) kind.Verdict {
	if d.BMC == nil {
		return kind.Unknown
	}
	violation := d.BMC.Trace != nil
	switch {
	case violation:
		return kind.Violated
	case d.BMC.Verdict == VerdictSatisfied || d.BMC.Verdict == VerdictNotSatisfied:
		return kind.Holds
	}
	return kind.Unknown
}

// Summary implements kind.Detail.
func (d *Detail) Summary(r *kind.Result) string {
	if d.BMC == nil {
		return fmt.Sprintf("%s result (exit status %d)", r.Kind, r.ExitStatus())
	}
	return fmt.Sprintf("%s (bmc, unwind %d): %s", strings.ToUpper(d.BMC.Verdict), d.BMC.Bound, d.BMC.Reason)
}

// Counterexamples implements kind.Detail: the witness (nil: none).
func (d *Detail) Counterexamples() []*trace.Trace {
	if d.BMC == nil {
		return nil
	}
	return []*trace.Trace{d.BMC.Trace}
}
