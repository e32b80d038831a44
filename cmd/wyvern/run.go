package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/wyvernmc/wyvern/ir"
	"github.com/wyvernmc/wyvern/vm"
)

// Exit statuses of `wyvern run` when the program did not exit by itself.
const (
	exitRunError    = 10 // an error state was reached
	exitRunDeadlock = 11
	exitRunBound    = 12
	exitRunAssume   = 13
)

type loadFlags struct {
	opt   int
	clang multiFlag
	args  multiFlag // the program's arguments after argv[0]
	model dataModelFlag
	// overflow: --overflow, "error" (default) or "wrap"
	overflow overflowFlag
}

// overflowFlag is --overflow: whether integer overflow of add, sub, mul,
// shl and abs under LLVM's nsw/nuw flags is an error state Overflow
// (error) or wraps around (wrap: ir.Program.WrapOverflow).
type overflowFlag struct{ wrap, set bool }

func (o *overflowFlag) String() string {
	if o.wrap {
		return "wrap"
	}
	return "error"
}

func (o *overflowFlag) Set(s string) error {
	switch s {
	case "error":
		o.wrap = false
	case "wrap":
		o.wrap = true
	default:
		return fmt.Errorf("want error or wrap, not %q", s)
	}
	o.set = true
	return nil
}

// load gives prog the semantics the flags ask for (--overflow); call it
// before the program's machines are made.
func (l *loadFlags) load(prog *ir.Program) *ir.Program {
	if l.overflow.wrap {
		prog.WrapOverflow()
	}
	return prog
}

// dataModelFlag is --data-model: ILP32 or LP64.
type dataModelFlag struct {
	m   ir.DataModel
	set bool // given on the command line
}

func (d *dataModelFlag) String() string { return d.m.String() }

func (d *dataModelFlag) Set(s string) error {
	m, err := ir.ParseDataModel(s)
	if err != nil {
		return err
	}
	d.m, d.set = m, true
	return nil
}

func (l *loadFlags) register(fs *flag.FlagSet) {
	fs.IntVar(&l.opt, "O", 0, "clang optimisation level for C input (0 or 1)")
	fs.Var(&l.clang, "clang-flag", "extra flag passed to clang (repeatable)")
	fs.Var(&l.args, "arg", "command-line argument for the program's main(argc, argv), after argv[0] (repeatable)")
	fs.Var(&l.model, "data-model", "data model: LP64 (x86-64) or ILP32 (i386, clang -m32); a .ll or .bc file must be compiled for it")
	fs.Var(&l.overflow, "overflow", "integer overflow of add, sub, mul, shl and abs under nsw/nuw: error (an error state Overflow) or wrap (two's complement, as the program compiled at -O0 runs)")
}

func (l *loadFlags) options() ir.Options {
	return ir.Options{OptLevel: l.opt, ClangFlags: l.clang, DataModel: l.model.m}
}

// platformFlags are a simulated run's platform behaviours (the Platform,
// Spurious and Inputs options of a query, for the commands that run
// without one).
type platformFlags struct {
	platform string
	spurious float64
	inputs   string
}

func (p *platformFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&p.platform, "platform", "posix", "condition variables: posix (a signal wakes a waiter drawn uniformly) or lodin (the longest waiter)")
	fs.Float64Var(&p.spurious, "spurious", 0, "with --platform posix: the probability that a pthread_cond_wait returns without a signal")
	fs.StringVar(&p.inputs, "inputs", "uniform", "__VERIFIER_nondet_* values: uniform, or edges (half of them boundary values), as a query's Inputs")
}

// behaviours returns the run's behaviours, or an error naming the flag.
func (p *platformFlags) behaviours() (vm.Behaviours, error) {
	var in vm.InputDist
	switch p.inputs {
	case "uniform":
	case "edges":
		in = vm.InputsEdges
	default:
		return vm.Behaviours{}, fmt.Errorf("--inputs %q: want uniform or edges", p.inputs)
	}
	switch {
	case !(p.spurious >= 0 && p.spurious <= 1):
		return vm.Behaviours{}, fmt.Errorf("--spurious %v: want a probability in [0, 1]", p.spurious)
	case p.platform == "lodin" && p.spurious > 0:
		return vm.Behaviours{}, fmt.Errorf("--spurious %v needs --platform posix: LODIN's platform has no spurious wakeups", p.spurious)
	case p.platform == "lodin":
		return vm.Behaviours{Inputs: in}, nil
	case p.platform != "posix":
		return vm.Behaviours{}, fmt.Errorf("--platform %q: want posix or lodin", p.platform)
	}
	b := vm.SimBehaviours
	b.Spurious = vm.SpuriousChoice(p.spurious)
	b.Inputs = in
	return b, nil
}

func cmdRun(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var lf loadFlags
	lf.register(fs)
	var lim limitFlags
	lim.register(fs)
	seed := fs.Uint64("seed", 1, "experiment seed")
	index := fs.Uint64("index", 0, "trace index (the trace's random stream is keyed by seed and index)")
	maxSteps := fs.Uint64("max-steps", 1_000_000_000, "step bound")
	trace := fs.Bool("trace", false, "print the interleaving step by step")
	asJSON := fs.Bool("json", false, "print a JSON summary instead of the status line")
	memtrack := fs.Bool("memtrack", false, "check for leaks: end the run in the error MemLeak when a heap block is no longer reachable (SV-COMP's valid-memtrack)")
	memcleanup := fs.Bool("memcleanup", false, "end the run in the error MemCleanup when the program terminates with heap blocks allocated (SV-COMP's valid-memcleanup)")
	var pf platformFlags
	pf.register(fs)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: wyvern run FILE... [--seed S] [--index I] [--max-steps N] [--trace] [--json] [--memtrack] [--memcleanup] [--platform posix|lodin] [--spurious P] [-O 0|1] [--data-model ILP32|LP64] [--overflow error|wrap] [--clang-flag F] [--arg A]...")
		fmt.Fprintln(stderr, "\nRuns one trace of FILE (.c, .ll or .bc; several files are linked into one program). The program's")
		fmt.Fprintln(stderr, "output goes to stdout, the reason the run ended to stderr. The exit status is the program's, or 10 error, 11 deadlock, 12 step bound,")
		fmt.Fprintln(stderr, "13 failed assumption; 2 for bad input.")
		fs.PrintDefaults()
	}
	pos, err := parseInterspersed(fs, args)
	if err != nil {
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
	beh, err := pf.behaviours()
	if err != nil {
		fmt.Fprintf(stderr, "wyvern: %v\n", err)
		return exitUsage
	}
	prog, err := ir.LoadFiles(pos, lf.options())
	if err != nil {
		fmt.Fprintf(stderr, "wyvern: %s\n", oneLine(err))
		return exitUsage
	}
	m := vm.NewMachineArgs(lf.load(prog), lf.args)
	lim.limits().Apply(m)
	if *memtrack {
		m.Leaks |= vm.CheckMemTrack
	}
	if *memcleanup {
		m.Leaks |= vm.CheckMemCleanup
	}
	st := m.NewState()
	rng := vm.NewRand(*seed, *index)
	rng.SetBehaviours(beh)
	if *trace {
		printed := 0
		m.Observe(st, *maxSteps, rng, func(st *vm.State, t *vm.Thread) bool {
			if len(st.Out) > printed {
				writeIndented(stdout, st.Out[printed:])
				printed = len(st.Out)
			}
			if t != nil {
				traceLine(stdout, m, st, t)
			}
			return false
		})
	} else {
		m.Run(st, *maxSteps, rng)
		stdout.Write(st.Out)
	}
	code := exitStatus(st)
	if *asJSON {
		enc := json.NewEncoder(stderr)
		enc.SetIndent("", "  ")
		enc.Encode(runSummary(st, *seed, *index))
	} else {
		fmt.Fprintf(stderr, "wyvern: %s (%d steps, seed %d, index %d)\n", st.Describe(), st.Steps, *seed, *index)
	}
	return code
}

func writeIndented(w io.Writer, b []byte) {
	for _, ln := range strings.SplitAfter(string(b), "\n") {
		if ln != "" {
			fmt.Fprintf(w, "        | %s", ln)
			if !strings.HasSuffix(ln, "\n") {
				fmt.Fprintln(w)
			}
		}
	}
}

func exitStatus(st *vm.State) int {
	switch st.Status {
	case vm.Exited:
		return int(uint8(st.ExitCode))
	case vm.Failed:
		return exitRunError
	case vm.Deadlock:
		return exitRunDeadlock
	case vm.StepBound:
		return exitRunBound
	case vm.AssumeFailed:
		return exitRunAssume
	}
	return exitRunError
}

type runJSON struct {
	Status string `json:"status"`
	Reason string `json:"reason"`
	// ExitCode is the program's exit code, null unless it exited;
	// ExitStatus is wyvern run's own (the program's, or 10-13).
	ExitCode   *int32 `json:"exit_code"`
	ExitStatus int    `json:"exit_status"`
	Steps      uint64 `json:"steps"`
	Seed       uint64 `json:"seed"`
	Index      uint64 `json:"index"`
	Error      *struct {
		Kind    string `json:"kind"`
		Process int32  `json:"process"`
		Func    string `json:"function"`
		Loc     string `json:"location"`
		Detail  string `json:"detail,omitempty"`
	} `json:"error,omitempty"`
}

func runSummary(st *vm.State, seed, index uint64) runJSON {
	j := runJSON{Status: st.Status.String(), Reason: st.Describe(), ExitStatus: exitStatus(st), Steps: st.Steps, Seed: seed, Index: index}
	if st.Status == vm.Exited {
		code := st.ExitCode
		j.ExitCode = &code
	}
	if st.Err != nil {
		j.Error = &struct {
			Kind    string `json:"kind"`
			Process int32  `json:"process"`
			Func    string `json:"function"`
			Loc     string `json:"location"`
			Detail  string `json:"detail,omitempty"`
		}{st.Err.Kind.String(), st.Err.Thread, st.Err.Func, st.Err.Loc.String(), st.Err.Detail}
	}
	return j
}

// traceLine prints the step thread t is about to take: step number,
// process, function, source location and LLVM instruction.
func traceLine(w io.Writer, m *vm.Machine, st *vm.State, t *vm.Thread) {
	fr := &t.Frames[len(t.Frames)-1]
	text := fr.Fn.Text[fr.PC]
	if i := strings.IndexByte(text, '\n'); i >= 0 {
		text = text[:i] + " ..."
	}
	fmt.Fprintf(w, "%6d  p%d  %-16s %-18s %s\n", st.Steps, t.ID, fr.Fn.Name, m.Loc(t), text)
}
