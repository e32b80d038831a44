package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"math"
	"os"
	"os/signal"
	"runtime"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/wyvernmc/wyvern/charts"
	"github.com/wyvernmc/wyvern/coordinator"
	"github.com/wyvernmc/wyvern/explicit"
	"github.com/wyvernmc/wyvern/internal/kinds"
	"github.com/wyvernmc/wyvern/ir"
	"github.com/wyvernmc/wyvern/jobs"
	"github.com/wyvernmc/wyvern/kind"
	"github.com/wyvernmc/wyvern/query"
	"github.com/wyvernmc/wyvern/splitting"
	"github.com/wyvernmc/wyvern/symbolic"
	"github.com/wyvernmc/wyvern/vm"
	"github.com/wyvernmc/wyvern/worker"
)

// prepared is a program and a query checked against it, before any NATS.
type prepared struct {
	src   *ir.Source
	prog  *ir.Program
	q     *query.Query
	split *splitting.Spec // nil: no importance splitting
	// explicit: the explicit-state options (nil: a statistical query)
	explicit *jobs.ExplicitOptions
	// bmc: bounded model checking (--engine bmc); nil: another engine
	bmc *jobs.BMCOptions
	// args: the program's arguments after argv[0] (--arg)
	args []string
	// wrap: integer overflow wraps around (--overflow wrap), in prog and
	// in the workers' jobs
	wrap bool
	// where: the query's place in a query file (-q), "QUERIES.q:3"
	where string
	// auto: the score Split=auto derived (q is then the adaptive query
	// that uses it); "" otherwise
	auto string
}

// prepare loads the program locally and checks the parsed query against
// it, so that a program rejected at load time or a query that does not fit
// it fails fast with exit status 2.
func prepare(files []string, q *query.Query, lf *loadFlags) (*prepared, error) {
	src, err := ir.FrontendFiles(files, lf.options())
	if err != nil {
		return nil, err
	}
	prog, err := ir.ParseLL(src.Name, src.LL)
	if err != nil {
		return nil, err
	}
	if err := ir.CheckDataModel(prog, lf.model.m); err != nil {
		return nil, err
	}
	return (&prepared{src: src, prog: lf.load(prog), args: lf.args, wrap: lf.overflow.wrap}).withQuery(q)
}

// withQuery checks query q against p's program: p for q.
func (p *prepared) withQuery(q *query.Query) (*prepared, error) {
	if _, err := query.Compile(q, p.machineFor(q)); err != nil {
		return nil, err
	}
	auto := ""
	if q.Enum("Split") == "auto" {
		d, err := splitting.Auto(q, p.src.Name, p.src.LL)
		if err != nil {
			return nil, fmt.Errorf("query %q: %w", q.Text, err)
		}
		if q, err = query.Parse(d.Query); err == nil {
			_, err = query.Compile(q, p.newMachine())
		}
		if err != nil {
			return nil, fmt.Errorf("query %q: Split=auto derived %q, which does not compile: %w", q.Text, d.Query, err)
		}
		auto = d.Score
	}
	spec, err := splitting.FromQuery(q)
	if err != nil {
		return nil, fmt.Errorf("query %q: %w", q.Text, err)
	}
	np := *p
	np.q, np.split, np.auto = q, spec, auto
	return &np, nil
}

// newMachine prepares p's program for execution, with the leak checks
// p's query needs.
func (p *prepared) newMachine() *vm.Machine { return p.machineFor(p.q) }

// machineFor prepares p's program for execution with the leak checks q
// needs (none for nil).
func (p *prepared) machineFor(q *query.Query) *vm.Machine {
	m := vm.NewMachineArgs(p.prog, p.args)
	if q != nil {
		m.Leaks = query.LeakChecksOf(q)
	}
	return m
}

type experimentFlags struct {
	queries string // -q: a file of queries
	// several: the queries are a file's, of kinds that may differ: the
	// explicit-state flags apply to those of them they fit (check)
	several bool
	// inProcess: check's own coordinator and workers answer (not a
	// cluster's), so a silent coordinator cannot be down
	inProcess  bool
	seed       uint64
	jobSize    int
	asJSON     bool
	quiet      bool
	emitLevels bool
	sweep      sweepFlag // --sweep: the program compiled for each value
	plot       string
	metrics    *string
	// explicit-state search and exact probabilities
	exact     bool
	order     string
	reduction string
	compact   bool
	por       bool
	maxStates int64
	maxMemMB  int64
	maxTime   time.Duration
	searchW   int // goroutines of a breadth-first explicit search
	// bounded model checking
	engine        string
	unwind        int
	maxUnwind     int
	solver        string
	solverTimeout time.Duration
	contexts      int
	complete      bool
	roundsOnly    bool
}

// Engines --engine selects (the default picks by query: simulation for
// Pr/Estimate queries, explicit-state search for E<>, A[], EnumStates).
const engineBMC = "bmc"

// bmcFlags are the flags of bounded model checking: errors without
// --engine bmc.
var bmcFlags = []string{"unwind", "max-unwind", "solver", "solver-timeout", "contexts", "complete", "rounds-only"}

// bmcOptions are the BMC options of the flags (check has vetted them).
func (e *experimentFlags) bmcOptions() *jobs.BMCOptions {
	return &jobs.BMCOptions{Unwind: e.unwind, MaxUnwind: e.maxUnwind, Solver: e.solver, SolverTimeoutS: e.solverTimeout.Seconds(), Contexts: e.contexts, Complete: e.complete, RoundsOnly: e.roundsOnly}
}

// explicitFlags are the flags of explicit-state searches and exact
// probabilities: errors on a query answered by simulation.
var explicitFlags = []string{"order", "reduction", "por", "compact", "max-states", "max-memory", "max-time", "search-workers"}

// check rejects flags that do not fit query q, before anything starts:
// explicit-state flags on a query answered by simulation, --order and
// --reduction with --exact (whose steps are single steps), bad --order and
// --reduction values, negative limits, --exact on a query other than Pr,
// and --emit-levels on a query that is not adaptive splitting. Only flags
// given on the command line count (fs.Visit), not their defaults.
func (e *experimentFlags) check(fs *flag.FlagSet, q *query.Query) error {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if e.exact && q.Kind != query.Probability && q.Kind != query.Hypothesis {
		return fmt.Errorf("--exact computes Pr[<=N](<> P) exactly; %s queries are answered by the explicit-state search without it", q.Kind)
	}
	if e.exact && q.Until > 0 {
		return fmt.Errorf("--exact merges runs that reach the same state, which P U Q must tell apart: ask it by simulation (without --exact)")
	}
	if e.exact && q.Always {
		return fmt.Errorf("--exact computes Pr[<=N](<> P); for Pr[<=N]([] P), ask Pr[<=N](<> !P) and take 1 minus it")
	}
	switch e.engine {
	case "":
		for _, name := range bmcFlags {
			if set[name] {
				return fmt.Errorf("--%s applies to bounded model checking: add --engine bmc", name)
			}
		}
	case engineBMC:
		if e.exact {
			return fmt.Errorf("--exact and --engine bmc are two engines: choose one")
		}
		if _, err := query.BMCTarget(q); err != nil {
			return fmt.Errorf("--engine bmc: %w", err)
		}
		for _, name := range explicitFlags {
			if set[name] {
				return fmt.Errorf("--%s applies to explicit-state search, not to --engine bmc", name)
			}
		}
		switch {
		case e.unwind < 0:
			return fmt.Errorf("--unwind %d: want a bound >= 1 (0: deepen 1, 2, 4, ... up to --max-unwind)", e.unwind)
		case e.maxUnwind < 0:
			return fmt.Errorf("--max-unwind %d: want a bound >= 1", e.maxUnwind)
		case e.contexts < 0:
			return fmt.Errorf("--contexts %d: want a bound >= 1 (0: %d)", e.contexts, symbolic.DefaultContexts)
		case e.unwind > 0 && set["max-unwind"]:
			return fmt.Errorf("--max-unwind bounds the deepening, which a fixed --unwind %d turns off", e.unwind)
		case e.solverTimeout < 0:
			return fmt.Errorf("--solver-timeout %v: want a duration >= 0 (0: none)", e.solverTimeout)
		}
		if !symbolic.ValidSolver(e.solver) {
			return fmt.Errorf("--solver %q: want z3, cvc5 or boolector, or portfolio (all three at once)", e.solver)
		}
		return nil
	default:
		return fmt.Errorf("--engine %q: want bmc (or no --engine: simulation or explicit-state search, by query)", e.engine)
	}
	search := q.Kind == query.Reach || q.Kind == query.Invariant || q.Kind == query.EnumStates
	for _, name := range explicitFlags {
		if !set[name] {
			continue
		}
		switch {
		case !search && !e.exact && e.several:
			// a query file's simulation query: the flag is for the
			// file's explicit-state queries (prepareArgs checks that
			// there is one)
		case !search && !e.exact:
			return fmt.Errorf("--%s applies to explicit-state queries (E<> P, A[] P, EnumStates) and to Pr[<=N](<> P) with --exact; "+
				"this %s query is answered by simulation", name, q.Kind)
		case e.exact && (name == "order" || name == "reduction" || name == "por" || name == "search-workers"):
			return fmt.Errorf("--%s does not apply to --exact, which propagates probabilities over single steps in one order", name)
		}
	}
	if _, err := explicit.ParseOrder(e.order); err != nil {
		return fmt.Errorf("--order %q: want bfs or dfs", e.order)
	}
	if _, err := explicit.ParseReduction(e.reduction); err != nil {
		return fmt.Errorf("--reduction %q: want none, local or global", e.reduction)
	}
	if e.maxStates < 0 {
		return fmt.Errorf("--max-states %d: want a number of states >= 0 (0: no limit)", e.maxStates)
	}
	if e.maxMemMB < 0 || e.maxMemMB > math.MaxInt64>>20 {
		return fmt.Errorf("--max-memory %d: want MiB >= 0 (0: %d MiB)", e.maxMemMB, explicit.DefaultMaxBytes>>20)
	}
	if e.maxTime < 0 {
		return fmt.Errorf("--max-time %v: want a duration >= 0 (0: no limit)", e.maxTime)
	}
	if e.searchW < 0 {
		return fmt.Errorf("--search-workers %d: want a number of goroutines >= 0 (0 or 1: one)", e.searchW)
	}
	if set["emit-levels"] && e.emitLevels {
		switch {
		case e.exact:
			return fmt.Errorf("--emit-levels prints the levels an adaptive splitting run found; --exact computes the probability without splitting")
		case q.OptionKind() != query.OptSplitting || (q.Enum("Split") != "adaptive" && q.Enum("Split") != "auto"):
			return fmt.Errorf("--emit-levels needs an adaptive splitting query, Pr[<=N](<> P) {Split=adaptive, Score=expr, ...}; this is %s", describe(q))
		}
	}
	return nil
}

// describe names the kind of q for the flag errors.
func describe(q *query.Query) string {
	if q.OptionKind() == query.OptSplitting {
		return "a " + q.Enum("Split") + " splitting query"
	}
	return "a " + q.Kind.String() + " query"
}

// explicitOptions returns the explicit-state options for query q (nil for
// a statistical query); check has vetted the flags.
func (e *experimentFlags) explicitOptions(q *query.Query) (*jobs.ExplicitOptions, error) {
	search := q.Kind == query.Reach || q.Kind == query.Invariant || q.Kind == query.EnumStates
	if !search && !e.exact {
		return nil, nil
	}
	if _, err := explicit.ParseOrder(e.order); err != nil {
		return nil, err
	}
	if _, err := explicit.ParseReduction(e.reduction); err != nil {
		return nil, err
	}
	return &jobs.ExplicitOptions{Exact: e.exact, Order: e.order, Reduction: e.reduction, POR: e.por, Compact: e.compact,
		MaxStates: e.maxStates, MaxBytes: e.maxMemMB << 20, MaxTimeS: e.maxTime.Seconds(), Workers: e.searchW}, nil
}

func (e *experimentFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&e.queries, "q", "", "answer each query of this file in turn (one a line; // and # comments), instead of QUERY")
	fs.Uint64Var(&e.seed, "seed", 1, "experiment seed: with the program, query and options it fixes the answer")
	fs.IntVar(&e.jobSize, "job-size", 256, "traces per job (does not change the answer)")
	fs.BoolVar(&e.asJSON, "json", false, "print the result as JSON")
	fs.BoolVar(&e.quiet, "quiet", false, "no progress line")
	fs.BoolVar(&e.emitLevels, "emit-levels", false, "adaptive splitting: print only the fixed-levels query built from the levels found")
	fs.StringVar(&e.plot, "plot", "", "write the result's charts (PNG and SVG) into this directory")
	fs.Var(&e.sweep, "sweep", "NAME=A:B[:STEP] or NAME=V1,V2,...: answer the queries for each value, the program compiled with -DNAME=V; a table and (--plot) a chart of the answers against NAME")
	e.metrics = metricsFlag(fs)
	fs.BoolVar(&e.exact, "exact", false, "compute Pr[<=N](<> P) exactly by exploring the state space (finite models)")
	fs.StringVar(&e.order, "order", "bfs", "explicit-state search order: bfs (shortest counterexamples) or dfs")
	fs.StringVar(&e.reduction, "reduction", "none", "explicit-state reduction: none, local or global (LODIN's)")
	fs.BoolVar(&e.por, "por", false, "explicit-state search: partial-order reduction on top of --reduction local or global (E<> and A[]; same verdicts, fewer states)")
	fs.BoolVar(&e.compact, "compact", false, "explicit-state search: store 72-bit state fingerprints only (hash compaction)")
	fs.Int64Var(&e.maxStates, "max-states", 0, "explicit-state limit on states (0: none); reaching it ends with 'incomplete'")
	fs.Int64Var(&e.maxMemMB, "max-memory", 0, "explicit-state limit on memory in MiB (0: 2048)")
	fs.DurationVar(&e.maxTime, "max-time", 0, "explicit-state time limit (0: none)")
	fs.IntVar(&e.searchW, "search-workers", 0, "breadth-first explicit-state search: goroutines expanding states beside the merging one (0 or 1: one goroutine does both); same answer")
	fs.StringVar(&e.engine, "engine", "", "bmc: bounded model checking of E<>/A[] queries with an SMT solver (default: by query)")
	fs.IntVar(&e.unwind, "unwind", 0, "bmc: fixed unwinding bound (0: deepen 1, 2, 4, ... up to --max-unwind)")
	fs.IntVar(&e.maxUnwind, "max-unwind", 0, "bmc: deepening limit (0: 64)")
	fs.StringVar(&e.solver, "solver", symbolic.DefaultSolver, "bmc: SMT solver, z3, cvc5 or boolector, or portfolio (all three in parallel, the first answer wins)")
	fs.DurationVar(&e.solverTimeout, "solver-timeout", 0, "bmc: time limit of each solver check (0: none); reaching it gives the verdict unknown")
	fs.IntVar(&e.contexts, "contexts", 0, "bmc: threaded programs: round-robin rounds, covering every schedule of at most that many context switches (0: 3)")
	fs.BoolVar(&e.roundsOnly, "rounds-only", false, "bmc: threaded programs: the round-robin rounds alone, without the partial-order check of every interleaving that precedes them by default (bug finding under the context bound)")
	fs.BoolVar(&e.complete, "complete", false, "bmc: threaded programs: when nothing is found within --contexts rounds, check again with the rounds that hold every schedule of the bounded program: a proof when nothing is found (slow: the formula grows with the square of the rounds)")
}

func cmdCheck(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var lf loadFlags
	lf.register(fs)
	var ef experimentFlags
	ef.register(fs)
	workers := fs.Int("workers", runtime.NumCPU(), "simulator workers (one per core by default)")
	var lim limitFlags
	lim.register(fs)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: wyvern check FILE... QUERY [--workers N] [--seed S] [--json] [--plot DIR] [--metrics ADDR] [-O 0|1] [--data-model ILP32|LP64] [--overflow error|wrap]")
		fmt.Fprintln(stderr, "       wyvern check FILE... -q QUERIES.q [flags]")
		fmt.Fprintln(stderr, "\nAnswers QUERY (or each query of QUERIES.q in turn) on FILE with an in-process NATS server,")
		fmt.Fprintln(stderr, "a coordinator and N workers. Exit status: 0 holds (or an estimate), 10 violated or reachable,")
		fmt.Fprintln(stderr, "11 no verdict, 2 bad input, 1 failure; with -q the worst over the queries.")
		fs.PrintDefaults()
	}
	ps, ok := prepareArgs(fs, args, &lf, &ef, stderr)
	if !ok {
		return exitUsage
	}
	if err := lim.check(); err != nil {
		fmt.Fprintf(stderr, "wyvern: %v\n", err)
		return exitUsage
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ms, err := serveMetrics(ctx, *ef.metrics, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "wyvern: %v\n", err)
		return 1
	}
	dir, err := os.MkdirTemp("", "wyvern-nats-")
	if err != nil {
		fmt.Fprintf(stderr, "wyvern: %v\n", err)
		return 1
	}
	defer os.RemoveAll(dir)
	emb, err := coordinator.StartEmbedded(dir, "")
	if err != nil {
		fmt.Fprintf(stderr, "wyvern: %v\n", err)
		return 1
	}
	defer emb.Shutdown()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	cnc, err := emb.Connect("wyvern-coordinator")
	if err != nil {
		fmt.Fprintf(stderr, "wyvern: %v\n", err)
		return 1
	}
	defer cnc.Close()
	co := kinds.Coordinator(&coordinator.Coordinator{NC: cnc, Metrics: ms.Coordinator()})
	go func() {
		if err := co.Serve(ctx); err != nil && ctx.Err() == nil {
			fmt.Fprintf(stderr, "wyvern: %v\n", err)
			cancel()
		}
	}()
	var wg sync.WaitGroup // the workers
	for i := 0; i < max(*workers, 1); i++ {
		wnc, err := emb.Connect(fmt.Sprintf("wyvern-worker-%d", i))
		if err != nil {
			fmt.Fprintf(stderr, "wyvern: %v\n", err)
			return 1
		}
		defer wnc.Close()
		w := kinds.Worker(&worker.Worker{NC: wnc, ID: fmt.Sprintf("local-%d", i), Slots: 1, Metrics: ms.Workers(), Limits: lim.limits()})
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := w.Run(ctx); err != nil && ctx.Err() == nil {
				fmt.Fprintf(stderr, "wyvern: %v\n", err)
				cancel()
			}
		}()
	}
	snc, err := emb.Connect("wyvern-submit")
	if err != nil {
		fmt.Fprintf(stderr, "wyvern: %v\n", err)
		return 1
	}
	defer snc.Close()
	ef.inProcess = true
	rc := runQueries(ctx, snc, ps, &ef, stdout, stderr)
	if ms != nil {
		// The workers record a job's traces once its results are stored,
		// which can be after the experiment's end: stop them (each drains
		// its last job) so that the final scrape has their counts.
		cancel()
		stopped := make(chan struct{})
		go func() { wg.Wait(); close(stopped) }()
		select {
		case <-stopped:
		case <-time.After(10 * time.Second):
		}
	}
	// Let Prometheus record the final values before the endpoint goes.
	ms.linger(15*time.Second, stderr)
	return rc
}

// submitOne submits p's experiment and waits for its result; without one
// it says why and gives the exit status (1 failed, 130 interrupted) and
// the error.
func submitOne(ctx context.Context, nc *nats.Conn, p *prepared, ef *experimentFlags, stderr io.Writer) (*coordinator.Result, int, error) {
	if p.auto != "" {
		fmt.Fprintf(stderr, "wyvern: Split=auto: the score is %s; the query runs as %s\n", p.auto, p.q.Text)
	}
	pl := newProgressLine(stderr, ef.quiet)
	var last atomic.Pointer[jobs.Progress] // for a partial result when interrupted
	res, err := coordinator.Submit(ctx, nc, coordinator.Submission{
		LL: p.src.LL, Name: p.src.Name, Query: p.q.Text, Seed: ef.seed, JobSize: ef.jobSize, Explicit: p.explicit, BMC: p.bmc,
		Args: p.args, WrapOverflow: p.wrap,
		Progress: func(pr jobs.Progress) {
			if pr.Phase == "" { // a BMC job's reports while solving check no bound
				last.Store(&pr)
			}
			pl.update(pr)
		},
		NoWorkers: func() {
			pl.clear()
			fmt.Fprintln(stderr, "wyvern: no worker has reported for 5 s; start some with `wyvern worker --nats URL`")
		},
		Silent: func(d time.Duration) {
			pl.clear()
			if ef.inProcess {
				// the coordinator is this process: only a job can be long
				fmt.Fprintf(stderr, "wyvern: no progress for %s: a long job (an explicit-state search reports when it ends; a BMC job reports every few seconds while its solver works); still waiting\n", d)
				return
			}
			fmt.Fprintf(stderr, "wyvern: no progress for %s: the coordinator may be down (is `wyvern coordinator` running?) or a job is long; still waiting\n", d)
		},
	})
	pl.clear()
	if err != nil {
		if errors.Is(err, context.Canceled) {
			partialResult(stderr, p.q, last.Load())
			fmt.Fprintln(stderr, "wyvern: interrupted")
			return nil, 130, fmt.Errorf("interrupted: %w", err)
		}
		fmt.Fprintf(stderr, "wyvern: %v\n", err)
		if errors.Is(err, coordinator.ErrRefused) {
			// an engine does not support the program: bad input for it
			if p.bmc != nil {
				fmt.Fprintln(stderr, "wyvern: leave out --engine bmc to answer the query by explicit-state search or simulation")
			}
			return nil, exitUsage, err
		}
		return nil, 1, err
	}
	return res, 0, nil
}

// printResult prints a result: the levels (--emit-levels), its JSON
// (--json) or its text with the trace of a counterexample; it gives the
// exit status (the result's verdict, or 1 when the trace does not replay).
func printResult(res *coordinator.Result, p *prepared, ef *experimentFlags, stdout, stderr io.Writer) int {
	if ef.emitLevels {
		sp := splitting.ResultOf(res)
		if sp == nil || sp.EmitLevels == "" {
			// no answer to what was asked, and no failure: exit 11
			fmt.Fprintln(stderr, "wyvern: --emit-levels: the adaptive run found no levels to place (every replication went extinct, or the property was reached below the first level); the result:")
			res.WriteText(stderr)
			return coordinator.ExitUnknown
		}
		if ef.asJSON {
			enc := json.NewEncoder(stdout)
			enc.SetIndent("", "  ")
			enc.SetEscapeHTML(false)
			enc.Encode(emittedLevels{Kind: "emit-levels", Query: res.Query, EmitLevels: sp.EmitLevels,
				Estimate: res.Estimate, Lo: res.Lo, Hi: res.Hi, Experiment: res.Experiment})
			return 0
		}
		fmt.Fprintln(stdout, sp.EmitLevels)
		return 0
	}
	if ef.asJSON {
		if err := describeTraces(res, p); err != nil {
			fmt.Fprintf(stderr, "wyvern: %v\n", err)
			return 1
		}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		enc.Encode(res)
	} else {
		res.WriteText(stdout)
		if tr := counterexample(res); tr != nil {
			fmt.Fprintln(stdout, "Trace:")
			if err := writeSteps(stdout, p.newMachine(), tr.Steps, traceSource, ef.quiet); err != nil {
				fmt.Fprintf(stderr, "wyvern: replay the trace: %v\n", err)
				return 1
			}
		}
	}
	return res.ExitStatus()
}

// emittedLevels is --emit-levels --json's output (docs/json.md, object
// emit-levels).
type emittedLevels struct {
	Kind       string  `json:"kind"` // "emit-levels"
	Query      string  `json:"query"`
	EmitLevels string  `json:"emit_levels"`
	Estimate   float64 `json:"estimate"`
	Lo         float64 `json:"lo"`
	Hi         float64 `json:"hi"`
	Experiment string  `json:"experiment"`
}

// plotResult writes a result's charts into dir (--plot); false when it
// cannot. A result with nothing to chart (EnumStatesSMC, a count) is said
// so, and is no failure: the answer stands and keeps its exit status.
func plotResult(res *coordinator.Result, dir string, stderr io.Writer) bool {
	files, err := writeCharts(res, dir)
	if errors.Is(err, charts.ErrNoData) {
		fmt.Fprintf(stderr, "wyvern: --plot: no chart for this result (%v)\n", err)
		return true
	}
	if err != nil {
		fmt.Fprintf(stderr, "wyvern: --plot: %v\n", err)
		return false
	}
	fmt.Fprintf(stderr, "wyvern: %d charts written to %s\n", len(files), dir)
	return true
}

// progressLine shows progress on a terminal.
type progressLine struct {
	w     io.Writer
	on    bool
	start time.Time
	shown bool
}

func newProgressLine(w io.Writer, quiet bool) *progressLine {
	on := false
	if f, ok := w.(*os.File); ok && !quiet {
		if fi, err := f.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
			on = true
		}
	}
	return &progressLine{w: w, on: on, start: time.Now()}
}

func (p *progressLine) update(pr jobs.Progress) {
	if !p.on || pr.Done {
		return
	}
	fmt.Fprintf(p.w, "\r\x1b[K%s", kind.ProgressText(pr))
	p.shown = true
}

func (p *progressLine) clear() {
	if p.shown {
		fmt.Fprint(p.w, "\r\x1b[K")
		p.shown = false
	}
}

func cmdSubmit(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("submit", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var lf loadFlags
	lf.register(fs)
	var ef experimentFlags
	ef.register(fs)
	var nf natsFlags
	nf.register(fs, "")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: wyvern submit --nats URL [NATS auth/TLS flags] FILE QUERY [--seed S] [--json] [--plot DIR] [--metrics ADDR] [--data-model ILP32|LP64] [--overflow error|wrap]")
		fmt.Fprintln(stderr, "       wyvern submit --nats URL FILE -q QUERIES.q [flags]")
		fs.PrintDefaults()
	}
	ps, ok := prepareArgs(fs, args, &lf, &ef, stderr)
	if !ok {
		return exitUsage
	}
	nf.fromEnv(fs)
	nc, err := nf.connect("wyvern-submit", stderr)
	if err != nil {
		fmt.Fprintf(stderr, "wyvern: %v\n", err)
		return 1
	}
	defer nc.Close()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if _, err := serveMetrics(ctx, *ef.metrics, stderr); err != nil { // the process's own (Go runtime) metrics
		fmt.Fprintf(stderr, "wyvern: %v\n", err)
		return 1
	}
	return runQueries(ctx, nc, ps, &ef, stdout, stderr)
}

func cmdCancel(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("cancel", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var nf natsFlags
	nf.register(fs, "")
	reason := fs.String("reason", "wyvern cancel", "why, for the experiment's error")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: wyvern cancel --nats URL [NATS auth/TLS flags] EXPERIMENT-ID...")
		fmt.Fprintln(stderr, "\nStops running experiments: each fails with \"cancelled: REASON\", its queued jobs are dropped")
		fmt.Fprintln(stderr, "and workers abandon its running jobs. The id is in the result's \"experiment\" and the coordinator's log.")
		fs.PrintDefaults()
	}
	ids, err := parseInterspersed(fs, args)
	if err != nil {
		return exitUsage
	}
	if len(ids) == 0 {
		fmt.Fprintln(stderr, "wyvern: cancel: no experiment id given")
		return exitUsage
	}
	nf.fromEnv(fs)
	nc, err := nf.connect("wyvern-cancel", stderr)
	if err != nil {
		fmt.Fprintf(stderr, "wyvern: %v\n", err)
		return 1
	}
	defer nc.Close()
	rc := 0
	for _, id := range ids {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		err := coordinator.Cancel(ctx, nc, id, *reason)
		cancel()
		if err != nil {
			fmt.Fprintf(stderr, "wyvern: %v\n", err)
			rc = 1
			continue
		}
		fmt.Fprintf(stdout, "cancelled %s\n", id)
	}
	return rc
}

func cmdWorker(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("worker", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var nf natsFlags
	nf.register(fs, "")
	slots := fs.Int("slots", 1, "jobs run at once (goroutines)")
	host, _ := os.Hostname()
	id := fs.String("id", fmt.Sprintf("%s-%d", host, os.Getpid()), "worker name")
	maddr := metricsFlag(fs)
	var lim limitFlags
	lim.register(fs)
	progMiB := fs.Uint64("max-program-memory", worker.DefaultMaxProgramBytes>>20, "MiB of loaded programs kept (globals and code); past it the least recently used are dropped")
	if _, err := parseInterspersed(fs, args); err != nil {
		return exitUsage
	}
	if *progMiB == 0 {
		fmt.Fprintln(stderr, "wyvern: --max-program-memory must be at least 1 MiB")
		return exitUsage
	}
	if err := lim.check(); err != nil {
		fmt.Fprintf(stderr, "wyvern: %v\n", err)
		return exitUsage
	}
	nf.fromEnv(fs)
	nc, err := nf.connect("wyvern-worker-"+*id, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "wyvern: %v\n", err)
		return 1
	}
	defer nc.Close()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ms, err := serveMetrics(ctx, *maddr, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "wyvern: %v\n", err)
		return 1
	}
	fmt.Fprintf(stderr, "wyvern worker %s: serving jobs from %s\n", *id, redactURL(nf.url))
	w := kinds.Worker(&worker.Worker{NC: nc, ID: *id, Slots: *slots, Metrics: ms.Workers(), Limits: lim.limits(),
		MaxProgramBytes: *progMiB << 20, Log: log.New(stderr, "wyvern worker: ", log.LstdFlags)})
	if err := w.Run(ctx); err != nil && !errors.Is(err, context.Canceled) {
		fmt.Fprintf(stderr, "wyvern: %v\n", err)
		return 1
	}
	return 0
}

func cmdCoordinator(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("coordinator", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var nf natsFlags
	nf.register(fs, "NATS server URL(s) (with JetStream: nats-server -js), comma-separated")
	ackWait := fs.Duration("ack-wait", 10*time.Second, "time before an unacknowledged job is redelivered")
	maxDeliver := fs.Int("max-deliver", 5, "deliveries of a job before its experiment fails")
	var lim coordinator.Limits
	fs.Uint64Var(&lim.MaxBound, "max-bound", 0, "refuse queries whose step bound is above this (0: no limit)")
	fs.Uint64Var(&lim.MaxRuns, "max-runs", 0, "refuse trace experiments that may need more runs than this (0: no limit)")
	fs.IntVar(&lim.MaxJobSize, "max-job-size", 0, fmt.Sprintf("refuse job sizes above this many traces (0: the protocol's %d)", jobs.MaxTraceJob))
	d := coordinator.DefaultStoreLimits
	var store coordinator.StoreLimits
	resultsMiB := fs.Int64("results-max-bytes", d.ResultsMaxBytes>>20, "MiB of results JetStream keeps (the oldest dropped past it)")
	fs.DurationVar(&store.ResultsMaxAge, "results-max-age", d.ResultsMaxAge, "how long JetStream keeps a result")
	jobsMiB := fs.Int64("jobs-max-bytes", d.JobsMaxBytes>>20, "MiB of queued jobs (a job past it is refused and its experiment fails)")
	expMiB := fs.Int64("experiments-max-bytes", d.ExperimentsMaxBytes>>20, "MiB of the experiments bucket")
	fs.DurationVar(&store.ExperimentsMaxAge, "experiments-max-age", d.ExperimentsMaxAge, "how long an experiment not written since is remembered")
	progMiB := fs.Int64("programs-max-bytes", d.ProgramsMaxBytes>>20, "MiB of the programs bucket")
	fs.DurationVar(&store.ProgramsMaxAge, "programs-max-age", d.ProgramsMaxAge, "how long an uploaded program is kept")
	submitterCheck := fs.Duration("submitter-check", 5*time.Second, "how often a running experiment's submitter is asked whether it still waits; cancelled after two checks without one (0: never)")
	maddr := metricsFlag(fs)
	if _, err := parseInterspersed(fs, args); err != nil {
		return exitUsage
	}
	if *submitterCheck <= 0 {
		*submitterCheck = -1
	}
	store.ResultsMaxBytes, store.JobsMaxBytes = *resultsMiB<<20, *jobsMiB<<20
	store.ExperimentsMaxBytes, store.ProgramsMaxBytes = *expMiB<<20, *progMiB<<20
	nf.fromEnv(fs)
	nc, err := nf.connect("wyvern-coordinator", stderr)
	if err != nil {
		fmt.Fprintf(stderr, "wyvern: %v\n", err)
		return 1
	}
	defer nc.Close()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ms, err := serveMetrics(ctx, *maddr, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "wyvern: %v\n", err)
		return 1
	}
	co := kinds.Coordinator(&coordinator.Coordinator{NC: nc, AckWait: *ackWait, MaxDeliver: *maxDeliver, Metrics: ms.Coordinator(),
		Log: log.New(stderr, "wyvern coordinator: ", log.LstdFlags), Limits: lim, SubmitterCheck: *submitterCheck, Store: store})
	fmt.Fprintf(stderr, "wyvern coordinator: serving %s on %s\n", jobs.SubjectSubmit, redactURL(nf.url))
	if err := co.Serve(ctx); err != nil {
		fmt.Fprintf(stderr, "wyvern: %v\n", err)
		return 1
	}
	return 0
}
