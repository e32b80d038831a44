package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/wyvernmc/wyvern/coordinator"
	"github.com/wyvernmc/wyvern/explicit"
	"github.com/wyvernmc/wyvern/ir"
	"github.com/wyvernmc/wyvern/query"
	"github.com/wyvernmc/wyvern/srctrace"
	"github.com/wyvernmc/wyvern/trace"
	"github.com/wyvernmc/wyvern/vm"
)

// cmdReplay prints trace (seed, index) step by step; with --query it stops
// at the first state satisfying the query's proposition and says so.
func cmdReplay(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("replay", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var lf loadFlags
	lf.register(fs)
	var lim limitFlags
	lim.register(fs)
	seed := fs.Uint64("seed", 1, "experiment seed")
	index := fs.Uint64("index", 0, "trace index")
	qtext := fs.String("query", "", "Pr query whose proposition ends the replay when it holds")
	maxSteps := fs.Uint64("max-steps", 0, "step bound (default: the query's bound, else 10^9)")
	cex := fs.String("counterexample", "", "print the counterexample (or witness) of an explicit-state result saved with check --json")
	witness := fs.String("witness", "", "replay an SV-COMP violation witness (format 2.0, as verify writes it) and check that it reproduces the violation")
	var pf platformFlags
	pf.register(fs)
	mode := fs.String("trace", traceSource, "the view: source (a line per C statement and process, with the values loaded and stored, and the final state) or ir (a line per LLVM instruction)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: wyvern replay FILE... --seed S --index I [--query Q] [--trace source|ir]")
		fmt.Fprintln(stderr, "       wyvern replay FILE... --counterexample RESULT.json [--trace source|ir]")
		fs.PrintDefaults()
	}
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return exitUsage
	}
	if *mode != traceSource && *mode != traceIR {
		fmt.Fprintf(stderr, "wyvern: --trace %q: want source or ir\n", *mode)
		return exitUsage
	}
	if len(pos) == 0 {
		fs.Usage()
		return exitUsage
	}
	if err := lim.check(); err != nil {
		fmt.Fprintf(stderr, "wyvern: %v\n", err)
		return exitUsage
	}
	if *witness != "" {
		if lf.overflow.set {
			// (the witness's property decides, as it did for verify)
			fmt.Fprintln(stderr, "wyvern: --overflow: a witness is replayed with the semantics verify gives its property")
			return exitUsage
		}
		return replayWitness(pos, lf.options(), lf.model.set, *witness, stdout, stderr)
	}
	prog, err := ir.LoadFiles(pos, lf.options())
	if err != nil {
		fmt.Fprintf(stderr, "wyvern: %s\n", oneLine(err))
		return exitUsage
	}
	m := vm.NewMachineArgs(lf.load(prog), lf.args)
	lim.limits().Apply(m)
	if *cex != "" {
		steps, err := readCounterexample(*cex)
		if err != nil {
			fmt.Fprintf(stderr, "wyvern: %v\n", err)
			return exitUsage
		}
		if err := writeSteps(stdout, m, steps, *mode, false); err != nil {
			fmt.Fprintf(stderr, "wyvern: %s: %v\n", *cex, err)
			return 1
		}
		return 0
	}
	bound := *maxSteps
	var prop func(*vm.State) bool
	rng := vm.NewRand(*seed, *index)
	beh, err := pf.behaviours() // without a query, as run has them
	if err != nil {
		fmt.Fprintf(stderr, "wyvern: %v\n", err)
		return exitUsage
	}
	rng.SetBehaviours(beh)
	if *qtext != "" {
		q, err := query.Parse(*qtext)
		if err != nil {
			fmt.Fprintf(stderr, "wyvern: %v\n", err)
			return exitUsage
		}
		m.Leaks = query.LeakChecksOf(q)
		c, err := query.Compile(q, m)
		if err != nil {
			fmt.Fprintf(stderr, "wyvern: %v\n", err)
			return exitUsage
		}
		prop = c.Prop
		rng.SetBehaviours(q.Behaviours()) // the query's options, not the flags
		if bound == 0 {
			bound = q.Bound
		}
	}
	if bound == 0 {
		bound = 1_000_000_000
	}
	st := m.NewState()
	printed := 0
	sat := false
	flush := func() {
		if len(st.Out) > printed {
			writeIndented(stdout, st.Out[printed:])
			printed = len(st.Out)
		}
	}
	rec := srctrace.NewRecorder(m)
	m.Observe(st, bound, rng, func(st *vm.State, t *vm.Thread) bool {
		if *mode == traceIR {
			flush()
		}
		if prop != nil && prop(st) {
			sat = true
			return true
		}
		switch {
		case t == nil:
		case *mode == traceIR:
			traceLine(stdout, m, st, t)
		default:
			rec.Step(st, t)
		}
		return false
	})
	if *mode == traceIR {
		flush()
	} else {
		rec.Step(st, nil)
		rec.Write(stdout, st)
	}
	if sat {
		fmt.Fprintf(stdout, "property satisfied after %d steps\n", st.Steps)
	} else if prop != nil {
		fmt.Fprintf(stdout, "property not satisfied: %s\n", st.Describe())
	}
	fmt.Fprintf(stderr, "wyvern: %s (%d steps, seed %d, index %d)\n", st.Describe(), st.Steps, *seed, *index)
	return 0
}

// readCounterexample reads the trace of an explicit-state or bounded
// model-checking result saved by `check --json` (or of a bare
// explicit.Result).
func readCounterexample(path string) ([]trace.Step, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var r coordinator.Result
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("%s: not a result: %w", path, err)
	}
	if r.Detail != nil && len(r.Detail.Counterexamples()) > 0 {
		if tr := counterexample(&r); tr != nil {
			return tr.Steps, nil
		}
		return nil, fmt.Errorf("%s: the result has no counterexample or witness (%s)", path, r.Detail.Summary(&r))
	}
	var bare explicit.Result
	if json.Unmarshal(data, &bare) != nil || bare.Verdict == "" {
		return nil, fmt.Errorf("%s: not an explicit-state or BMC result (run check --json on an E<>, A[] or EnumStates query)", path)
	}
	if bare.Trace == nil {
		return nil, fmt.Errorf("%s: the result has no counterexample or witness (verdict %s)", path, bare.Verdict)
	}
	return bare.Trace.Steps, nil
}
