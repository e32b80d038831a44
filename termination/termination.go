// Package termination decides whether every run of a program ends (SV-COMP's
// termination property, CHECK( init(main()), LTL(F end) )): the termination
// job kind.
//
// Non-termination (FALSE) is shown by a lasso that replays in the vm:
//   - a cycle of states: a depth-first search over the vm's states finds a
//     state of its current path again (lasso.go), with the canonical state
//     identity package explicit uses (vm.Machine.AppendKey);
//   - a recurrent set of a loop (recur.go): a set of states at the loop's
//     head that the loop's guard never leaves and that every iteration of its
//     body maps into itself (checked by an SMT solver over bit-vectors),
//     reached by a concrete run of the vm.
//
// Termination (TRUE) is shown by
//   - a complete search whose state graph has no cycle (programs whose
//     choices are narrow enough to enumerate), or
//   - ranking functions (rank.go): every loop of every function reachable
//     from main decreases a linear or lexicographic ranking function over its
//     variables, checked by an SMT solver over bit-vectors with wrap-around
//     and signedness as the machine has them (any strict order of
//     bit-vectors is well-founded), inner loops and calls over-approximated;
//     a function that calls itself has a ranking function over its
//     parameters that its recursive calls decrease (recursion.go); no
//     cycle in the call graph through several functions.
//
// What it does not decide is the checked list Unsupported (docs/termination.md
// says what happens instead): threads get no TRUE; mutual recursion and
// recursive calls inside loops are left to the search; function pointers,
// irreducible control flow and floating point give no ranking function.
package termination

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/wyvernmc/wyvern/ir"
	"github.com/wyvernmc/wyvern/trace"
	"github.com/wyvernmc/wyvern/vm"
)

// Verdict is the answer to "does every run end?".
type Verdict string

// Verdicts.
const (
	Terminates    Verdict = "true"    // every run ends
	NonTerminates Verdict = "false"   // a run does not end: Result.Lasso
	Unknown       Verdict = "unknown" // neither shown
)

// Methods that decide.
const (
	MethodLasso     = "lasso"          // a cycle of states
	MethodRecurrent = "recurrent-set"  // a loop's recurrent set, reached
	MethodAcyclic   = "acyclic-search" // a complete search without a cycle
	MethodRanking   = "ranking"        // ranking functions for every loop
)

// Lasso kinds.
const (
	LassoCycle     = "state-cycle"   // Stem reaches a state that Cycle returns to
	LassoRecurrent = "recurrent-set" // Stem reaches a state of Recurrent at the loop head Head
)

// Lasso is a non-terminating run: Stem from the initial state, then Cycle
// forever (a state cycle), or, for a recurrent set, Stem reaches a state of
// the set Recurrent at the loop head Head, from which every iteration stays
// in the set (Cycle is then one iteration, as an illustration).
type Lasso struct {
	Kind  string       `json:"kind"`
	Stem  []trace.Step `json:"stem"`
	Cycle []trace.Step `json:"cycle"`
	// Head is the cycle's first state's location (function and source line).
	Head      string `json:"head,omitempty"`
	HeadFunc  string `json:"head_func,omitempty"`
	HeadLine  int    `json:"head_line,omitempty"`
	Recurrent string `json:"recurrent,omitempty"`
}

// LoopReport is what the ranking analysis found for one loop.
type LoopReport struct {
	Func string `json:"func"`
	Loc  string `json:"loc"`
	// Ranking is the ranking function found ("" when none), e.g.
	// "(-j) unsigned" or "[x - y signed, i unsigned]" (lexicographic).
	Ranking string `json:"ranking,omitempty"`
	// Recurrent is a recurrent set found for it ("" when none).
	Recurrent string `json:"recurrent,omitempty"`
	Why       string `json:"why,omitempty"` // why neither
}

// Result is the outcome of Analyze. It is JSON-serialisable.
type Result struct {
	Verdict Verdict      `json:"verdict"`
	Method  string       `json:"method,omitempty"`
	Reason  string       `json:"reason"`
	Lasso   *Lasso       `json:"lasso,omitempty"`
	Loops   []LoopReport `json:"loops,omitempty"`
	// States is the number of states the lasso search visited.
	States     int64    `json:"states"`
	MaxDepth   int      `json:"max_depth"`
	Complete   bool     `json:"complete"` // the search enumerated every choice and hit no limit
	ElapsedSec float64  `json:"elapsed_s"`
	Notes      []string `json:"notes,omitempty"`
}

// Defaults of Options.
const (
	DefaultMaxStates    = 300_000
	DefaultMaxDepth     = 100_000
	DefaultMaxBranching = 256
	DefaultMaxTime      = 30 * time.Second
)

// Options control an analysis. The zero value works.
type Options struct {
	// MaxStates, MaxDepth and MaxTime bound the lasso search (defaults
	// above; MaxTime bounds the whole analysis).
	MaxStates int64
	MaxDepth  int
	MaxTime   time.Duration
	// MaxBranching is the most outcomes a choice may have to be
	// enumerated; wider ones are sampled (no proof by search).
	MaxBranching uint64
	// Solver is the SMT solver of ranking functions and recurrent sets
	// (z3, cvc5, boolector; default z3); NoSMT turns them off.
	Solver string
	NoSMT  bool
}

func (o *Options) maxBranching() uint64 {
	if o.MaxBranching == 0 {
		return DefaultMaxBranching
	}
	return o.MaxBranching
}

func (o *Options) withDefaults() Options {
	x := *o
	if x.MaxStates == 0 {
		x.MaxStates = DefaultMaxStates
	}
	if x.MaxDepth == 0 {
		x.MaxDepth = DefaultMaxDepth
	}
	if x.MaxTime == 0 {
		x.MaxTime = DefaultMaxTime
	}
	if x.Solver == "" {
		x.Solver = "z3"
	}
	return x
}

// Analyze decides whether every run of prog ends.
func Analyze(ctx context.Context, prog *ir.Program, o Options) (*Result, error) {
	start := time.Now()
	opts := o.withDefaults()
	ctx, cancel := context.WithTimeout(ctx, opts.MaxTime)
	defer cancel()
	m := vm.NewMachine(prog)
	res := &Result{Verdict: Unknown}
	defer func() { res.ElapsedSec = time.Since(start).Seconds() }()
	threads := createsThreads(prog)

	// The ranking analysis first: it is quick, and its recurrent sets
	// give the search the values to try.
	var loops *loopAnalysis
	if !opts.NoSMT {
		var err error
		lctx, lcancel := context.WithTimeout(ctx, opts.MaxTime/3)
		loops, err = analyzeLoops(lctx, prog, &opts)
		lcancel()
		if err != nil {
			return nil, err
		}
		res.Loops = loops.reports
	}
	if loops != nil && loops.proved && !threads {
		res.Verdict, res.Method = Terminates, MethodRanking
		res.Reason = fmt.Sprintf("every loop and every recursion of the %d reachable functions has a ranking function (%d in all) and no two functions call each other in a cycle", loops.funcs, len(loops.reports))
		return res, nil
	}
	var extra []uint64
	if loops != nil {
		extra = loops.sampleValues()
	}
	searchOpts := opts
	searchOpts.MaxTime = max(opts.MaxTime-time.Since(start), time.Second) / 2
	if loops != nil && len(loops.recurrent) > 0 {
		searchOpts.MaxTime = max(opts.MaxTime-time.Since(start), time.Second) * 3 / 4
	}
	samples := newSampleSet(prog, extra)
	var watch *recurWatch
	if loops != nil && len(loops.recurrent) > 0 && !threads {
		// (A loop's recurrent set is checked over the loop alone: other
		// threads may write what it reads, and under fair scheduling
		// they do step, so it proves nothing in a threaded program.)
		watch = newRecurWatch(m, loops.recurrent)
	}
	sr, err := lassoSearchWatch(ctx, m, &searchOpts, samples, watch)
	if err != nil && ctx.Err() == nil {
		return nil, err
	}
	res.States, res.MaxDepth = sr.states, sr.maxDepth
	res.Complete = sr.limit == "" && !sr.sampled && err == nil && sr.undefined == "" && sr.unfair == 0
	switch {
	case sr.lasso != nil:
		if err := checkLasso(m, sr.lasso); err != nil {
			return nil, fmt.Errorf("termination: internal error: the lasso found does not replay: %w", err)
		}
		describeHead(m, sr.lasso)
		res.Verdict, res.Method, res.Lasso = NonTerminates, MethodLasso, sr.lasso
		res.Reason = fmt.Sprintf("a run reaches a state again after %d steps (stem %d steps, cycle %d steps at %s)", len(sr.lasso.Stem)+len(sr.lasso.Cycle), len(sr.lasso.Stem), len(sr.lasso.Cycle), sr.lasso.Head)
		return res, nil
	case sr.recur != nil:
		if st, err := trace.ReplayFinal(m, sr.recur.Stem); err != nil || watch.check(ctx, st) == nil {
			return nil, fmt.Errorf("termination: internal error: the stem to the recurrent set does not replay (%v)", err)
		}
		res.Verdict, res.Method, res.Lasso = NonTerminates, MethodRecurrent, sr.recur
		res.Reason = fmt.Sprintf("a run reaches the loop at %s in its recurrent set %s after %d steps: the loop never ends from there", sr.recur.Head, sr.recur.Recurrent, len(sr.recur.Stem))
		return res, nil
	case threads:
		res.Reason = "the program creates threads: termination is not proved for threads (only a lasso would decide)"
		if sr.unfair > 0 {
			res.Reason += fmt.Sprintf("; %d cycles passed over: each starves a process enabled on it (a run only an unfair scheduler takes)", sr.unfair)
		}
		if sr.limit != "" {
			res.Reason += "; " + sr.limit
		}
		return res, nil
	case res.Complete:
		res.Verdict, res.Method = Terminates, MethodAcyclic
		res.Reason = fmt.Sprintf("complete search: %d states, every choice enumerated, no state repeats on a path", sr.states)
		return res, nil
	case loops != nil && loops.proved:
		res.Verdict, res.Method = Terminates, MethodRanking
		res.Reason = fmt.Sprintf("every loop and every recursion of the %d reachable functions has a ranking function (%d in all) and no two functions call each other in a cycle", loops.funcs, len(loops.reports))
		return res, nil
	}
	var why []string
	switch {
	case sr.limit != "":
		why = append(why, "search: "+sr.limit)
	case sr.undefined != "":
		why = append(why, fmt.Sprintf("search: a run ends in undefined behaviour (%s), after which C says nothing", sr.undefined))
	case sr.sampled:
		why = append(why, fmt.Sprintf("search: no cycle among %d states, but wide inputs were only sampled", sr.states))
	}
	if ctx.Err() != nil {
		why = append(why, "time limit of "+opts.MaxTime.String()+" reached")
	}
	if loops != nil && loops.why != "" {
		why = append(why, "ranking: "+loops.why)
	}
	res.Reason = strings.Join(why, "; ")
	return res, nil
}

// describeHead fills the lasso's head from the state its stem reaches.
func describeHead(m *vm.Machine, l *Lasso) {
	st, err := trace.ReplayFinal(m, l.Stem)
	if err != nil || len(l.Cycle) == 0 {
		return
	}
	t := st.Thread(l.Cycle[0].Thread)
	if t == nil || len(t.Frames) == 0 {
		return
	}
	loc := m.Loc(t)
	l.HeadFunc, l.HeadLine = t.Frames[len(t.Frames)-1].Fn.Name, int(loc.Line)
	l.Head = fmt.Sprintf("%s (%s)", loc, l.HeadFunc)
}

// createsThreads reports whether prog can start a thread.
func createsThreads(prog *ir.Program) bool {
	for _, f := range prog.Funcs {
		if f.External && (f.Name == "pthread_create" || f.Name == "thrd_create") {
			return true
		}
	}
	return false
}

// String summarises the result.
func (r *Result) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "termination: %s", r.Verdict)
	if r.Method != "" {
		fmt.Fprintf(&b, " (%s)", r.Method)
	}
	fmt.Fprintf(&b, " — %s\n", r.Reason)
	for _, l := range r.Loops {
		switch {
		case l.Ranking != "":
			fmt.Fprintf(&b, "  loop %s in %s: ranking function %s\n", l.Loc, l.Func, l.Ranking)
		case l.Recurrent != "":
			fmt.Fprintf(&b, "  loop %s in %s: recurrent set %s\n", l.Loc, l.Func, l.Recurrent)
		default:
			fmt.Fprintf(&b, "  loop %s in %s: %s\n", l.Loc, l.Func, l.Why)
		}
	}
	fmt.Fprintf(&b, "  search: %d states, depth %d, complete %v; %.2f s\n", r.States, r.MaxDepth, r.Complete, r.ElapsedSec)
	return b.String()
}
