package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/wyvernmc/wyvern/coordinator"
	"github.com/wyvernmc/wyvern/internal/kinds"
	"github.com/wyvernmc/wyvern/ir"
	"github.com/wyvernmc/wyvern/svcomp"
	"github.com/wyvernmc/wyvern/symbolic"
	"github.com/wyvernmc/wyvern/trace"
	"github.com/wyvernmc/wyvern/worker"
)

// verifyReport is verify's --json output.
type verifyReport struct {
	*svcomp.Outcome
	Task      string `json:"task,omitempty"`
	Program   string `json:"program"`
	PropFile  string `json:"property_file"`
	DataModel string `json:"data_model"`
	// Expected is the task's expected verdict ("true", "false", or ""),
	// ExpectedSub its violated subproperty.
	Expected    string `json:"expected,omitempty"`
	ExpectedSub string `json:"expected_subproperty,omitempty"`
	// files: the program's files (Program names them all)
	files []string
}

func cmdVerify(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("verify", flag.ContinueOnError)
	fs.SetOutput(stderr)
	prop := fs.String("prop", "", "property file (.prp): required with a program, selects one of a task's properties")
	dataModel := fs.String("data-model", "", "data model of a program given without a task: ILP32 or LP64 (default LP64)")
	limit := fs.Duration("time-limit", 60*time.Second, "the one time limit of the whole verification")
	asJSON := fs.Bool("json", false, "print the outcome as JSON (verdict, deciding engine, per-engine outcomes and times)")
	witness := fs.String("witness", "witness.yml", "where a FALSE verdict's violation witness (format 2.0) is written")
	var nf natsFlags // --nats "": an in-process server
	nf.register(fs, "run the engines on the cluster of this NATS server (default: an in-process server, coordinator and workers)")
	nf.url, fs.Lookup("nats").DefValue = "", ""
	workers := fs.Int("workers", max(runtime.NumCPU(), 3), "in-process workers (at least one per engine runs them concurrently)")
	engines := fs.String("engines", strings.Join(svcomp.Engines, ","), "engines of the portfolio, comma-separated")
	seed := fs.Uint64("seed", 1, "simulation seed")
	solver := fs.String("solver", symbolic.DefaultSolver, "BMC's SMT solver: z3, cvc5 or boolector, or portfolio (all three in parallel)")
	maxMem := fs.Int64("max-memory", 1024, "explicit-state search memory limit in MiB")
	verbose := fs.Bool("v", false, "log each engine's outcome on stderr as it comes")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: wyvern verify TASK.yml [--prop FILE.prp] [--time-limit D] [--json] [--witness FILE] [--nats URL]")
		fmt.Fprintln(stderr, "       wyvern verify FILE.c|FILE.i... --prop FILE.prp [--data-model ILP32|LP64] ...")
		fmt.Fprintln(stderr, "\nVerifies an SV-COMP task with a portfolio of engines and prints the verdict (TRUE, FALSE(...), UNKNOWN) on a line of its own.")
		fs.PrintDefaults()
	}
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return exitUsage
	}
	if len(pos) == 0 || isTask(pos[0]) && len(pos) != 1 {
		fs.Usage()
		return exitUsage
	}
	nf.fromEnv(fs)
	fail := func(err error) int {
		fmt.Fprintf(stderr, "wyvern: %v\n", err)
		return exitUsage
	}
	var engs []string
	for _, e := range strings.Split(*engines, ",") {
		e = strings.TrimSpace(e)
		if e == "sim" {
			e = svcomp.EngineSimulation
		}
		switch e {
		case svcomp.EngineSimulation, svcomp.EngineExplicit, svcomp.EngineBMC, svcomp.EngineAbsint:
			engs = append(engs, e)
		default:
			return fail(fmt.Errorf("--engines: unknown engine %q (want %s)", e, strings.Join(svcomp.Engines, ", ")))
		}
	}
	if !symbolic.ValidSolver(*solver) {
		return fail(fmt.Errorf("--solver %q: want z3, cvc5 or boolector, or portfolio (all three at once)", *solver))
	}
	if *limit <= 0 {
		return fail(fmt.Errorf("--time-limit %v: want a positive duration", *limit))
	}
	rep := verifyReport{}
	var tp svcomp.TaskProperty
	if isTask(pos[0]) {
		task, err := svcomp.ReadTask(pos[0])
		if err != nil {
			return fail(err)
		}
		if tp, err = pickProperty(task, *prop); err != nil {
			return fail(fmt.Errorf("task %s: %w", pos[0], err))
		}
		if *dataModel != "" {
			return fail(fmt.Errorf("--data-model: the task %s states its own (%s)", pos[0], task.DataModel))
		}
		rep.Task, rep.files, rep.DataModel = pos[0], task.InputFiles, task.DataModel
		rep.Expected, rep.ExpectedSub = tp.Expected, tp.Subproperty
	} else {
		if *prop == "" {
			return fail(fmt.Errorf("verify %s: give the property with --prop FILE.prp (or verify a task .yml)", pos[0]))
		}
		switch *dataModel {
		case "", "ILP32", "LP64":
		default:
			return fail(fmt.Errorf("--data-model %q: want ILP32 or LP64", *dataModel))
		}
		tp = svcomp.TaskProperty{File: *prop}
		rep.files, rep.DataModel = pos, *dataModel
	}
	if rep.DataModel == "" {
		rep.DataModel = "LP64"
	}
	rep.Program = ir.ProgramName(rep.files)
	rep.PropFile = tp.File
	p, err := svcomp.ReadProperty(tp.File)
	if err != nil {
		return fail(err)
	}
	dm, err := ir.ParseDataModel(rep.DataModel)
	if err != nil {
		return fail(err)
	}
	var notes []string
	emit := func(out *svcomp.Outcome) int {
		out.Notes = append(notes, out.Notes...)
		rep.Outcome = out
		if *asJSON {
			enc := json.NewEncoder(stdout)
			enc.SetIndent("", "  ")
			enc.Encode(rep)
		} else {
			writeVerifyText(stdout, &rep)
		}
		switch {
		case out.Verdict == svcomp.True:
			return coordinator.ExitHolds
		case strings.HasPrefix(out.Verdict, "FALSE"):
			return coordinator.ExitViolated
		}
		return coordinator.ExitUnknown
	}
	src, err := ir.FrontendFiles(rep.files, verifyOptions(ir.Options{DataModel: dm}))
	var prog *ir.Program
	if err == nil {
		prog, err = ir.ParseLL(src.Name, src.LL)
	}
	if err == nil {
		err = ir.CheckDataModel(prog, dm)
	}
	if err != nil {
		// A program Wyvern cannot load has no verdict (an unsupported
		// construct or platform function), said on the verdict line.
		return emit(&svcomp.Outcome{Verdict: svcomp.Unknown, Property: p.Kind.String(), Reason: "the program does not load: " + oneLine(err)})
	}
	g := svcomp.GoalOf(p, prog)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	opts := svcomp.Options{TimeLimit: *limit, Seed: *seed, Engines: engs, ExplicitMaxBytes: *maxMem << 20, Solver: *solver}
	if *verbose {
		opts.Log = func(format string, args ...any) { fmt.Fprintf(stderr, "wyvern verify: "+format+"\n", args...) }
	}
	var nc *nats.Conn
	if nf.url != "" {
		if nc, err = nf.connect("wyvern-verify", stderr); err != nil {
			fmt.Fprintf(stderr, "wyvern: %v\n", err)
			return 1
		}
		defer nc.Close()
	} else {
		cctx, cancel := context.WithCancel(ctx)
		defer cancel()
		var shutdown func()
		if nc, shutdown, err = startLocalCluster(cctx, *workers, stderr); err != nil {
			fmt.Fprintf(stderr, "wyvern: %v\n", err)
			return 1
		}
		defer shutdown()
	}
	out := svcomp.Verify(ctx, nc, &svcomp.Program{Src: src, Prog: prog}, g, opts)
	if ctx.Err() != nil && errors.Is(ctx.Err(), context.Canceled) && out.Engine == "" {
		fmt.Fprintln(stderr, "wyvern: interrupted")
		return 130
	}
	if len(out.Steps) > 0 {
		var buf bytes.Buffer
		err := svcomp.WriteWitness(&buf, g.Machine(prog), out.Steps, g, svcomp.WitnessMeta{
			InputFiles: rep.files, Spec: p.Spec, DataModel: rep.DataModel, Producer: version, Engine: out.Engine})
		if err == nil {
			err = os.WriteFile(*witness, buf.Bytes(), 0o644)
		}
		if err != nil {
			fmt.Fprintf(stderr, "wyvern: witness %s: %v\n", *witness, err)
			return 1
		}
		out.Witness = *witness
	}
	return emit(out)
}

// isTask says whether a verify argument is an SV-COMP task definition.
func isTask(arg string) bool {
	return strings.HasSuffix(arg, ".yml") || strings.HasSuffix(arg, ".yaml")
}

// verifyOptions are the compiler options of verify (and of replay
// --witness, which must compile the program as verify did): SV-COMP's
// programs are written for gcc, whose inline functions without extern
// (GNU89 semantics) still get a definition.
func verifyOptions(o ir.Options) ir.Options {
	o.ClangFlags = append(append([]string{}, o.ClangFlags...), "-fgnu89-inline")
	return o
}

// pickProperty selects the task's property named by prop (a property file
// or its base name; "" when the task has one property).
func pickProperty(t *svcomp.Task, prop string) (svcomp.TaskProperty, error) {
	var names []string
	for _, p := range t.Properties {
		names = append(names, filepath.Base(p.File))
		if prop != "" && (p.File == prop || filepath.Base(p.File) == filepath.Base(prop) ||
			strings.TrimSuffix(filepath.Base(p.File), ".prp") == prop) {
			return p, nil
		}
	}
	switch {
	case prop == "" && len(t.Properties) == 1:
		return t.Properties[0], nil
	case prop == "":
		return svcomp.TaskProperty{}, fmt.Errorf("%d properties (%s): choose one with --prop", len(names), strings.Join(names, ", "))
	}
	return svcomp.TaskProperty{}, fmt.Errorf("no property %q (the task has %s)", prop, strings.Join(names, ", "))
}

// writeVerifyText prints the verdict on a line of its own, then how it was
// reached.
func writeVerifyText(w io.Writer, r *verifyReport) {
	o := r.Outcome
	fmt.Fprintln(w, o.Verdict)
	if o.Engine != "" {
		fmt.Fprintf(w, "Decided by %s: %s\n", o.Engine, o.Reason)
	} else {
		fmt.Fprintf(w, "Reason: %s\n", o.Reason)
	}
	fmt.Fprintf(w, "Property: %s (%s), program %s, data model %s\n", o.Property, r.PropFile, r.Program, r.DataModel)
	if r.Expected != "" {
		fmt.Fprintf(w, "Expected verdict: %s\n", strings.TrimSpace(r.Expected+" "+r.ExpectedSub))
	}
	for _, e := range o.Engines {
		fmt.Fprintf(w, "  %-10s %-10s %6.2f s  %s\n", e.Engine, e.Outcome, e.Seconds, e.Detail)
	}
	for _, n := range o.Notes {
		fmt.Fprintf(w, "Note: %s\n", n)
	}
	if o.Overflow == svcomp.OverflowWrap {
		fmt.Fprintln(w, "Semantics: integer overflow wraps around (two's complement), as SV-COMP's verifiers assume for this property")
	}
	if o.Witness != "" {
		fmt.Fprintf(w, "Witness: %s (%d steps; replay: wyvern replay %s --witness %s)\n", o.Witness, len(o.Steps), strings.Join(r.files, " "), o.Witness)
	}
	fmt.Fprintf(w, "Time: %.2f s\n", o.Seconds)
}

// startLocalCluster starts an in-process NATS server, a coordinator and n
// workers, as check does, and returns a client connection.
func startLocalCluster(ctx context.Context, n int, stderr io.Writer) (*nats.Conn, func(), error) {
	dir, err := os.MkdirTemp("", "wyvern-nats-")
	if err != nil {
		return nil, nil, err
	}
	var closers []func()
	shutdown := func() {
		for i := len(closers) - 1; i >= 0; i-- {
			closers[i]()
		}
	}
	closers = append(closers, func() { os.RemoveAll(dir) })
	emb, err := coordinator.StartEmbedded(dir, "")
	if err != nil {
		shutdown()
		return nil, nil, err
	}
	closers = append(closers, emb.Shutdown)
	ctx, cancel := context.WithCancel(ctx)
	closers = append(closers, cancel)
	cnc, err := emb.Connect("wyvern-coordinator")
	if err != nil {
		shutdown()
		return nil, nil, err
	}
	closers = append(closers, cnc.Close)
	co := kinds.Coordinator(&coordinator.Coordinator{NC: cnc})
	go func() {
		if err := co.Serve(ctx); err != nil && ctx.Err() == nil {
			fmt.Fprintf(stderr, "wyvern: %v\n", err)
			cancel()
		}
	}()
	for i := 0; i < max(n, 1); i++ {
		wnc, err := emb.Connect(fmt.Sprintf("wyvern-worker-%d", i))
		if err != nil {
			shutdown()
			return nil, nil, err
		}
		closers = append(closers, wnc.Close)
		w := kinds.Worker(&worker.Worker{NC: wnc, ID: fmt.Sprintf("local-%d", i), Slots: 1})
		go func() {
			if err := w.Run(ctx); err != nil && ctx.Err() == nil {
				fmt.Fprintf(stderr, "wyvern: %v\n", err)
				cancel()
			}
		}()
	}
	snc, err := emb.Connect("wyvern-verify")
	if err != nil {
		shutdown()
		return nil, nil, err
	}
	closers = append(closers, snc.Close)
	return snc, shutdown, nil
}

// replayWitness replays a violation witness (format 2.0) on program m and
// says whether it reproduces the violation of its specification (exit 0)
// or not (1). The program is compiled for the data model the witness's
// task states unless modelSet (--data-model given).
// maxCycleSteps bounds the steps replay runs past a termination witness's
// end, looking for a state the run was in (svcomp.CycleAfter).
const maxCycleSteps = 1_000_000

func replayWitness(files []string, opts ir.Options, modelSet bool, path string, stdout, stderr io.Writer) int {
	data, err := os.ReadFile(path)
	if err != nil {
		fmt.Fprintf(stderr, "wyvern: %v\n", err)
		return exitUsage
	}
	if !modelSet {
		dm, err := svcomp.WitnessDataModel(data)
		if err == nil {
			opts.DataModel, err = ir.ParseDataModel(dm)
		}
		if err != nil {
			fmt.Fprintf(stderr, "wyvern: %s: %v\n", path, err)
			return exitUsage
		}
	}
	prog, err := ir.LoadFiles(files, verifyOptions(opts))
	if err != nil {
		fmt.Fprintf(stderr, "wyvern: %s\n", oneLine(err))
		return exitUsage
	}
	values, schedule, platform, err := svcomp.ReadWitness(data)
	var spec string
	if err == nil {
		spec, err = svcomp.WitnessSpec(data)
	}
	if err != nil {
		fmt.Fprintf(stderr, "wyvern: %s: %v\n", path, err)
		return exitUsage
	}
	p, err := svcomp.SpecProperty(spec)
	if err != nil {
		fmt.Fprintf(stderr, "wyvern: %s: %v\n", path, err)
		return exitUsage
	}
	g := svcomp.GoalOf(p, prog)
	m := g.Machine(prog) // (the leak checks of valid-memsafety and valid-memcleanup)
	steps, final, err := svcomp.Replay(m, values, schedule, platform, 1_000_000_000)
	if err != nil {
		fmt.Fprintf(stderr, "wyvern: %s: %v\n", path, err)
		return 1
	}
	if err := trace.Write(stdout, m, steps); err != nil {
		fmt.Fprintf(stderr, "wyvern: %s: %v\n", path, err)
		return 1
	}
	if p.Kind == svcomp.Termination {
		closed, err := svcomp.LassoCloses(m, steps)
		switch {
		case err != nil:
			fmt.Fprintf(stderr, "wyvern: %s: %v\n", path, err)
			return 1
		case !closed:
			// a recurrent set's witness ends at the loop's head: a run
			// that goes on by itself from there and returns to a state
			// it was in shows the set's loop never ends
			n, cycles, err := svcomp.CycleAfter(m, steps, maxCycleSteps)
			if err != nil {
				fmt.Fprintf(stderr, "wyvern: %s: %v\n", path, err)
				return 1
			}
			if cycles {
				fmt.Fprintf(stdout, "witness reproduces %s: from its end the run goes on by itself (one process, no input) and returns to a state it was in after %d more steps\n", svcomp.False("termination"), n)
				return 0
			}
			fmt.Fprintf(stderr, "wyvern: %s: the run reaches %s but does not return to a state it was in, nor does it within %d more steps where it goes on by itself: a recurrent set's witness (the loop's head; verify checked the set) or no lasso\n", path, final.Describe(), maxCycleSteps)
			return 1
		}
		fmt.Fprintf(stdout, "witness reproduces %s: the run returns to a state it was in after %d steps\n", svcomp.False("termination"), len(steps))
		return 0
	}
	sub, ok, err := g.Classify(m, final)
	if err != nil {
		fmt.Fprintf(stderr, "wyvern: %s: %v\n", path, err)
		return 1
	}
	if !ok {
		fmt.Fprintf(stderr, "wyvern: %s: the witness does not reproduce a violation of %s: the run ends %s\n", path, spec, final.Describe())
		return 1
	}
	fmt.Fprintf(stdout, "witness reproduces %s after %d steps\n", svcomp.False(sub), len(steps))
	return 0
}
