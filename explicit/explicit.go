// Package explicit is Wyvern's exhaustive explicit-state checker: reachability
// (E<> P), invariants (A[] P) and state enumeration (EnumStates) by
// breadth-first or depth-first search, with LODIN's state-space reductions
// (seed 000 §4.2), hash compaction, limits that end a search with an
// "incomplete" verdict, counterexamples that replay step by step; and exact
// probabilities of Pr[<=N](<> P) by forward propagation over (state, step).
//
// States and steps are the vm's: a step is one instruction of one process
// (vm.Machine.StepOnly); the successors of a state are, for every enabled
// process (respecting atomic sections, as vm.Machine.EnabledThreads does),
// every outcome of the choices that process's step makes (see choose.go for
// the enumeration rule). States are identified by their canonical encoding
// (vm.Machine.AppendKey): the step counter and the captured output are not
// part of a state. Handler is the explicit job kind's worker-side handler.
package explicit

import (
	"fmt"
	"strings"
	"time"

	"github.com/wyvernmc/wyvern/jobs"
	"github.com/wyvernmc/wyvern/query"
	"github.com/wyvernmc/wyvern/trace"
	"github.com/wyvernmc/wyvern/vm"
)

// Order is the search order.
type Order int

// Search orders.
const (
	BFS Order = iota // breadth-first: a FIFO queue, so counterexamples are shortest
	DFS              // depth-first: a stack
)

func (o Order) String() string {
	if o == DFS {
		return "dfs"
	}
	return "bfs"
}

// ParseOrder reads "bfs" or "dfs".
func ParseOrder(s string) (Order, error) {
	switch strings.ToLower(s) {
	case "bfs", "":
		return BFS, nil
	case "dfs":
		return DFS, nil
	}
	return BFS, fmt.Errorf("explicit: unknown search order %q (bfs, dfs)", s)
}

// Reduction is a state-space reduction (seed 000 §4.2, visible.go for what
// is visible).
type Reduction int

// Reductions.
const (
	// None: every step is a transition.
	None Reduction = iota
	// Local (LODIN's first reduction): a transition is one step of a
	// process followed by all the invisible steps that process can take
	// next, so it ends when the process is about to execute a visible
	// instruction (or cannot go on).
	Local
	// Global (LODIN's second reduction, "all processes' invisible steps
	// together"): a Local transition followed by the invisible steps of
	// every enabled process, so in every state but the initial one each
	// process is about to execute a visible instruction, is blocked or has
	// finished.
	Global
)

func (r Reduction) String() string {
	switch r {
	case Local:
		return "local"
	case Global:
		return "global"
	}
	return "none"
}

// ParseReduction reads "none", "local" or "global".
func ParseReduction(s string) (Reduction, error) {
	switch strings.ToLower(s) {
	case "none", "":
		return None, nil
	case "local":
		return Local, nil
	case "global":
		return Global, nil
	}
	return None, fmt.Errorf("explicit: unknown reduction %q (none, local, global)", s)
}

// Defaults of Options.
const (
	DefaultMaxBytes     = jobs.DefaultExplicitMaxBytes // 2 GiB
	DefaultMaxBranching = 1024
)

// Options control a search or an exact computation. The zero value works:
// breadth-first, no reduction, full state storage, 2 GiB, no state or time
// limit.
type Options struct {
	Order     Order
	Reduction Reduction // ignored by Exact, whose steps are single steps
	// POR adds partial-order reduction (por.go) to a Local or Global
	// reduction in E<> and A[] searches: the same verdicts from fewer
	// states. Not applied (with a note) where it could change an answer
	// or with several Workers.
	POR bool
	// Compact stores only a fingerprint of each state (hash compaction;
	// 72 bits in a search, store.go, 128 in Exact): less memory (fib_8:
	// 12.7 bytes a state against full storage's tree-compressed 14.5,
	// tree.go; Exact keeps whole encodings without it), at the price of a
	// tiny probability (stated in the result) of missing states.
	Compact bool
	// MaxStates ends the search as incomplete after that many states
	// (Exact: distinct (state, step) pairs); 0 means no limit.
	MaxStates int64
	// MaxBytes ends the search as incomplete when the estimated memory
	// of the visited set and the queue exceeds it; 0 means
	// DefaultMaxBytes, a negative value no limit.
	MaxBytes int64
	// MaxTime ends the search as incomplete after that long; 0: no limit.
	MaxTime time.Duration
	// MaxBranching is the most outcomes one choice may have
	// (default DefaultMaxBranching); larger choices are an error.
	MaxBranching uint64
	// Behaviours, when set, are the platform behaviours the steps have
	// instead of the query's (query.Query.Behaviours: its Platform
	// option).
	Behaviours *vm.Behaviours
	// Workers is the number of goroutines that expand states in a
	// breadth-first Search (parallel.go), beside the one that merges
	// their successors; 0 or 1: one goroutine does both. The answer, counts
	// and traces are the same whatever the number. The depth-first
	// search and Exact are sequential.
	Workers int
	// Progress, when set, is called about every ProgressEvery (default 1 s)
	// from the searching goroutine.
	Progress      func(Progress)
	ProgressEvery time.Duration
}

// behaviours returns the platform behaviours of q's steps under o.
func (o *Options) behaviours(q *query.Query) vm.Behaviours {
	if o.Behaviours != nil {
		return *o.Behaviours
	}
	return q.Behaviours()
}

func (o *Options) maxBytes() int64 {
	switch {
	case o.MaxBytes == 0:
		return DefaultMaxBytes
	case o.MaxBytes < 0:
		return 1<<63 - 1
	}
	return o.MaxBytes
}

func (o *Options) maxBranching() uint64 {
	if o.MaxBranching == 0 {
		return DefaultMaxBranching
	}
	return o.MaxBranching
}

func (o *Options) progressEvery() time.Duration {
	if o.ProgressEvery <= 0 {
		return time.Second
	}
	return o.ProgressEvery
}

// Progress is a snapshot of a running search.
type Progress struct {
	States       int64   `json:"states"`
	Transitions  int64   `json:"transitions"`
	Queue        int     `json:"queue"` // states waiting to be expanded (Exact: the current layer's size)
	Depth        int     `json:"depth"` // deepest state so far (Exact: the step)
	Bytes        int64   `json:"bytes"` // estimated memory held
	ElapsedSec   float64 `json:"elapsed_s"`
	StatesPerSec float64 `json:"states_per_s"`
}

// Verdict is the answer of a search.
type Verdict string

// Verdicts.
const (
	Satisfied    Verdict = "satisfied"     // E<> P: a reachable state satisfies P; A[] P: every reachable state does
	NotSatisfied Verdict = "not-satisfied" // E<> P: no reachable state satisfies P; A[] P: one violates P
	Complete     Verdict = "complete"      // EnumStates: every reachable state was counted
	Incomplete   Verdict = "incomplete"    // a limit ended the search first (see Reason)
)

// Witness is a state found on the way, with the trace that reaches it.
type Witness struct {
	Description string       `json:"description"`
	Trace       *trace.Trace `json:"trace"`
}

// Result is the outcome of Search. It is JSON-serialisable.
type Result struct {
	Query   string  `json:"query"`
	Kind    string  `json:"kind"` // reach, invariant, enum-states
	Verdict Verdict `json:"verdict"`
	// Reason says in one line why the verdict: the state found, or the
	// limit that was hit.
	Reason string `json:"reason"`
	// Trace is the witness of a satisfied E<> P or the counterexample of
	// a violated A[] P: single steps from the initial state to the state.
	Trace *trace.Trace `json:"trace,omitempty"`
	// TraceTransitions is the trace's length in transitions of the
	// (reduced) state graph: the depth at which the state was found.
	TraceTransitions int `json:"trace_transitions,omitempty"`

	States      int64 `json:"states"`
	Transitions int64 `json:"transitions"`
	MaxDepth    int   `json:"max_depth"`
	MaxQueue    int   `json:"max_queue"`

	// Terminal states by how the run ends there.
	Exited       int64 `json:"exited"`
	Deadlocks    int64 `json:"deadlocks"`
	Errors       int64 `json:"errors"`
	AssumeFailed int64 `json:"assume_failed"`
	// FirstDeadlock and FirstError: the first such states found, with
	// their traces (also when the query does not ask about them).
	FirstDeadlock *Witness `json:"first_deadlock,omitempty"`
	FirstError    *Witness `json:"first_error,omitempty"`
	// RaceStates counts states satisfying DataRace (EnumStates only, as
	// LODIN's Table 4 reports).
	RaceStates int64 `json:"race_states,omitempty"`

	Order     string `json:"order"`
	Reduction string `json:"reduction"`
	// POR says that partial-order reduction was applied (Options.POR;
	// a note says why not when it was asked for and not applied);
	// PORReduced counts the states expanded by one process's transitions.
	POR        bool  `json:"por,omitempty"`
	PORReduced int64 `json:"por_reduced_states,omitempty"`
	Compact    bool  `json:"compact"`
	// OmissionProbability bounds the probability that hash compaction
	// merged two distinct states, n(n-1)/2^73 for n states (0 with full
	// storage, where equal hashes are told apart by comparing states).
	OmissionProbability float64 `json:"omission_probability"`
	// HashCollisions counts the distinct states whose 64-bit hashes
	// matched a stored state's (full storage, where they are told apart).
	HashCollisions int64 `json:"hash_collisions"`
	// Bytes estimates the memory of the visited set, BytesPerState per
	// state; QueuePeakBytes is the most the queue (or stack) of states to
	// expand held, which the memory limit counts too.
	Bytes          int64    `json:"bytes"`
	BytesPerState  float64  `json:"bytes_per_state"`
	QueuePeakBytes int64    `json:"queue_peak_bytes"`
	ElapsedSec     float64  `json:"elapsed_s"`
	StatesPerSec   float64  `json:"states_per_s"`
	Notes          []string `json:"notes,omitempty"`
	// fromRef counts the states of a packed queue rebuilt from the one
	// rebuilt before (searcher.unpack): not part of the answer.
	fromRef int64
}

// String summarises the result in a few lines.
func (r *Result) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s\n", r.Query, r.Verdict)
	if r.Reason != "" {
		fmt.Fprintf(&b, "  %s\n", r.Reason)
	}
	fmt.Fprintf(&b, "  %d states, %d transitions, max depth %d, reduction %s, %s", r.States, r.Transitions, r.MaxDepth, r.Reduction, r.Order)
	if r.POR {
		fmt.Fprintf(&b, ", partial-order reduction (%d states expanded by one process)", r.PORReduced)
	}
	if r.Compact {
		fmt.Fprintf(&b, ", hash compaction (omission probability <= %.3g)", r.OmissionProbability)
	}
	fmt.Fprintf(&b, "\n  %.2f s, %.0f states/s, %.0f bytes/state in the visited set, queue peak %.1f MiB\n", r.ElapsedSec, r.StatesPerSec, r.BytesPerState, float64(r.QueuePeakBytes)/(1<<20))
	if r.Deadlocks+r.Errors > 0 {
		fmt.Fprintf(&b, "  terminal states: %d exited, %d deadlocks, %d errors, %d assume-failed\n", r.Exited, r.Deadlocks, r.Errors, r.AssumeFailed)
	}
	for _, n := range r.Notes {
		fmt.Fprintf(&b, "  note: %s\n", n)
	}
	return b.String()
}
