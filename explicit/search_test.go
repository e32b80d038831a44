package explicit

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/wyvernmc/wyvern/internal/testutil"
	"github.com/wyvernmc/wyvern/trace"
	"github.com/wyvernmc/wyvern/vm"
)

const (
	peterson    = "../testdata/smc/petersons.c"
	petersonBug = "../testdata/smc/petersonsBug.c"
	fib8        = "../testdata/smc/fib_8.c"
	// mutex is LODIN's mutual exclusion property for the Peterson programs:
	// processes 1 and 2 are never both about to call crit (the critical
	// section is the call of crit() in peterson.h).
	mutex = "A[] !([1.crit] && [2.crit])"
)

var reductions = []Reduction{None, Local, Global}

// TestPetersonMutualExclusion: the correct Peterson program keeps mutual
// exclusion under every reduction, and each reduction visits strictly fewer
// states than the one before.
func TestPetersonMutualExclusion(t *testing.T) {
	var states []int64
	for _, red := range reductions {
		res := search(t, peterson, mutex, Options{Reduction: red})
		if res.Verdict != Satisfied {
			t.Fatalf("%s: verdict %s (%s), want satisfied", red, res.Verdict, res.Reason)
		}
		if res.Trace != nil || res.Errors != 0 || res.Deadlocks != 0 {
			t.Errorf("%s: trace %v, %d errors, %d deadlocks; want none", red, res.Trace, res.Errors, res.Deadlocks)
		}
		if res.Exited == 0 {
			t.Errorf("%s: no state where the program exited", red)
		}
		t.Logf("reduction %-6s %6d states %7d transitions, max depth %d", red, res.States, res.Transitions, res.MaxDepth)
		states = append(states, res.States)
	}
	if !(states[1] < states[0] && states[2] < states[1]) {
		t.Errorf("states none/local/global = %v, want strictly decreasing", states)
	}
}

// TestPetersonBug: the buggy Peterson violates mutual exclusion; the BFS
// counterexample is shortest (its length is the depth at which BFS found
// it, and DFS finds none shorter) and replays to a violating state.
func TestPetersonBug(t *testing.T) {
	m := machine(t, petersonBug)
	c := compile(t, m, mutex)
	for _, red := range reductions {
		var bfsLen int
		for _, order := range []Order{BFS, DFS} {
			res, err := Search(context.Background(), c, Options{Reduction: red, Order: order})
			if err != nil {
				t.Fatal(err)
			}
			if res.Verdict != NotSatisfied || res.Trace == nil {
				t.Fatalf("%s/%s: verdict %s, trace %v; want not-satisfied with a counterexample", red, order, res.Verdict, res.Trace)
			}
			n := len(res.Trace.Steps)
			t.Logf("%s/%s: counterexample of %d steps (%d transitions), %d states", red, order, n, res.TraceTransitions, res.States)
			if red == None && res.TraceTransitions != n {
				t.Errorf("%s/%s: %d transitions but %d steps without reduction", red, order, res.TraceTransitions, n)
			}
			if order == BFS {
				bfsLen = res.TraceTransitions
				if red == None && res.MaxDepth != n {
					t.Errorf("BFS stopped at depth %d, counterexample length %d", res.MaxDepth, n)
				}
			} else if res.TraceTransitions < bfsLen {
				t.Errorf("%s: DFS counterexample has %d transitions, shorter than BFS's %d", red, res.TraceTransitions, bfsLen)
			}
			st, err := trace.ReplayFinal(m, res.Trace.Steps)
			if err != nil {
				t.Fatalf("%s/%s: replay: %v", red, order, err)
			}
			if c.Prop(st) {
				t.Errorf("%s/%s: the replayed counterexample ends in a state satisfying the invariant", red, order)
			}
			states, err := trace.Replay(m, res.Trace.Steps)
			if err != nil || len(states) != n+1 {
				t.Fatalf("Replay: %d states, %v", len(states), err)
			}
			for i, s := range states[:n] {
				if !c.Prop(s) {
					t.Fatalf("%s/%s: state %d of %d already violates the invariant: not the first", red, order, i, n)
				}
			}
		}
	}
}

// TestShortestCounterexample checks BFS minimality independently: a plain
// level-by-level exploration (maps of encodings, no store, no queue) finds
// the shallowest violating state at the depth of the search's
// counterexample.
func TestShortestCounterexample(t *testing.T) {
	m := machine(t, petersonBug)
	c := compile(t, m, mutex)
	res, err := Search(context.Background(), c, Options{})
	if err != nil {
		t.Fatal(err)
	}
	g := newGen(m, None, DefaultMaxBranching, vm.PosixBehaviours)
	type node struct {
		st    *vm.State
		depth int
	}
	s0 := m.NewState()
	seen := map[string]bool{}
	key := func(st *vm.State) string {
		var b []byte
		for _, w := range m.AppendKey(nil, st) {
			b = binary.LittleEndian.AppendUint64(b, w)
		}
		return string(b)
	}
	seen[key(s0)] = true
	frontier := []node{{s0, 0}}
	minViol := -1
	for len(frontier) > 0 && minViol < 0 {
		var next []node
		for _, n := range frontier {
			if !c.Prop(n.st) {
				minViol = n.depth
				break
			}
			if n.st.Status != vm.Running {
				continue
			}
			en := m.EnabledThreads(n.st, nil)
			err := g.expand(n.st, en, true, func(st *vm.State, _ int32, _ []uint64, _ float64) error {
				if k := key(st); !seen[k] {
					seen[k] = true
					next = append(next, node{st.Clone(), n.depth + 1})
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		}
		frontier = next
	}
	if minViol != len(res.Trace.Steps) {
		t.Errorf("shallowest violating state at depth %d, BFS counterexample has %d steps", minViol, len(res.Trace.Steps))
	}
}

var shrinkDefines = regexp.MustCompile(`(?m)^#define (N|NTHREADS|ROUNDS|ITEMS|CAP|TOTAL|MOVES|READS) [0-9]+`)

// shrunk copies a corpus program with its loop bounds set to 1, so that the
// unreduced state space stays small (without reduction the interleavings of
// every instruction, stack allocations included, multiply states).
func shrunk(t *testing.T, dir, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, filepath.Base(path))
	if err := os.WriteFile(p, shrinkDefines.ReplaceAll(b, []byte("#define $1 1")), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestReductionsKeepVerdicts: over the corpus, the three reductions give the
// same verdict for reachability of deadlocks, errors and data races, and
// the reduced searches visit no more states than the unreduced one.
func TestReductionsKeepVerdicts(t *testing.T) {
	testutil.NeedClang(t)
	dir := t.TempDir()
	programs := []string{peterson, petersonBug}
	for _, f := range []string{"atomic.c", "counter_mutex.c", "counter_race.c", "deadlock.c", "join_values.c", "once.c"} {
		programs = append(programs, shrunk(t, dir, filepath.Join("../testdata/mt", f)))
	}
	// (por_race_const.c: its one race is a load from a constant global,
	// invisible to the reductions unless the query reads DataRace)
	// (por_alloca_order.c, por_ptr_order.c: their errors need a later
	// thread's stack block to get the lower id, which the global reduction
	// missed before 2026-11-28; por_memcpy_order.c, in porCorpus, calls
	// memcpy, which the DataRace query here cannot rule out; por_prov_*.c:
	// the same with the address reaching the conversion through a global,
	// a struct field, pthread_create's argument, a returned pointer and a
	// phi, or a heap block's id depending on another thread's alloca: the
	// provenance analysis (seesBlockIDs) must keep their allocas visible;
	// por_reuse_order.c: a comparison address reuse decides meets every
	// step (a wrong not-satisfied of the POR reduction before))
	programs = append(programs, shrunk(t, dir, "../examples/race.c"), "../testdata/mt/spin_local.c", "testdata/por_race_const.c",
		"testdata/por_alloca_order.c", "testdata/por_ptr_order.c", "testdata/por_reuse_order.c")
	programs = append(programs, provPrograms...)
	for _, f := range []string{"div_zero.c", "null_deref.c", "use_after_return.c", "pthread_misuse.c", "unlock_other_thread.c", "assert_fail.c"} {
		programs = append(programs, filepath.Join("../testdata/errors", f))
	}
	queries := []string{"E<> Deadlock", "E<> Error", "E<> DataRace", "EnumStates"}
	sats := map[string]int{}
	for _, p := range programs {
		for _, q := range queries {
			var verdicts []Verdict
			var states []int64
			for _, red := range reductions {
				res := search(t, p, q, Options{Reduction: red, MaxStates: 200_000})
				if res.Verdict == Incomplete {
					t.Fatalf("%s %q %s: incomplete: %s", filepath.Base(p), q, red, res.Reason)
				}
				verdicts = append(verdicts, res.Verdict)
				states = append(states, res.States)
				if res.Verdict == Satisfied && res.Trace != nil {
					st, err := trace.ReplayFinal(machine(t, p), res.Trace.Steps)
					if err != nil {
						t.Fatalf("%s %q %s: replay: %v", filepath.Base(p), q, red, err)
					}
					if !compile(t, machine(t, p), q).Prop(st) {
						t.Errorf("%s %q %s: the witness does not end in a satisfying state", filepath.Base(p), q, red)
					}
				}
			}
			if verdicts[1] != verdicts[0] || verdicts[2] != verdicts[0] {
				t.Errorf("%s %q: verdicts none/local/global = %v", filepath.Base(p), q, verdicts)
			}
			if q == "EnumStates" {
				if states[1] > states[0] || states[2] > states[0] {
					t.Errorf("%s: states none/local/global = %v: a reduction visits more states", filepath.Base(p), states)
				}
				t.Logf("%-22s states none/local/global = %v", filepath.Base(p), states)
			} else if verdicts[0] == Satisfied {
				sats[q]++
			}
		}
	}
	// The corpus must exercise both verdicts of each reachability query.
	for _, q := range queries[:3] {
		if sats[q] == 0 || sats[q] == len(programs) {
			t.Errorf("%q satisfied in %d of %d programs: the corpus does not discriminate", q, sats[q], len(programs))
		}
	}
}

// TestReductionsOnLargerPrograms compares the two reductions on corpus
// programs whose unreduced state space is too large for a unit test.
func TestReductionsOnLargerPrograms(t *testing.T) {
	if testing.Short() {
		t.Skip("skipped in -short mode")
	}
	testutil.NeedClang(t)
	dir := t.TempDir()
	for _, tc := range []struct {
		file  string
		query string
		want  Verdict
	}{
		{"peterson.c", "E<> Error", NotSatisfied},
		{"peterson_broken.c", "E<> Error", Satisfied},
		{"prodcons.c", "E<> Deadlock", NotSatisfied},
	} {
		p := shrunk(t, dir, filepath.Join("../testdata/mt", tc.file))
		for _, red := range []Reduction{Local, Global} {
			// (prodcons local: 326 588 states with POSIX's spurious wake-ups
			// and any waiter signalled, 287 994 under LODIN's platform)
			// (peterson_broken, global: 1 498 states before 2026-11-28's
			// stack-id order fix, 1 423 066 with it while any ptrtoint
			// made the order of stack-block ids visible, 1 498 again since
			// the provenance analysis: its threads convert an integer
			// argument, no address)
			res := search(t, p, tc.query, Options{Reduction: red, MaxStates: 400_000})
			if res.Verdict != tc.want {
				t.Errorf("%s %q %s: %s (%s), want %s", tc.file, tc.query, red, res.Verdict, res.Reason, tc.want)
			}
			t.Logf("%s %q %s: %s, %d states", tc.file, tc.query, red, res.Verdict, res.States)
		}
	}
}

// TestDeadlockAndErrorReports: deadlocks and error states are reported as
// such, with traces that replay to them.
func TestDeadlockAndErrorReports(t *testing.T) {
	m := machine(t, "../testdata/mt/deadlock.c")
	res := search(t, "../testdata/mt/deadlock.c", "E<> Deadlock", Options{})
	if res.Verdict != Satisfied || res.Trace == nil || !strings.Contains(res.Trace.End, "deadlock") {
		t.Fatalf("E<> Deadlock: %s, trace %+v", res.Verdict, res.Trace)
	}
	st, err := trace.ReplayFinal(m, res.Trace.Steps)
	if err != nil || st.Status != vm.Deadlock {
		t.Fatalf("replay: status %v, %v; want deadlock", st.Status, err)
	}
	// An invariant that holds everywhere still reports the deadlocks seen.
	res = search(t, "../testdata/mt/deadlock.c", "A[] done <= 2", Options{})
	if res.Verdict != Satisfied || res.Deadlocks == 0 || res.FirstDeadlock == nil {
		t.Fatalf("A[] done <= 2: %s, %d deadlocks, first %v", res.Verdict, res.Deadlocks, res.FirstDeadlock)
	}
	if !strings.Contains(strings.Join(res.Notes, "\n"), "deadlock") {
		t.Errorf("notes %q do not mention the deadlocks", res.Notes)
	}
	// An error state reached by an invariant search is named.
	res = search(t, "../testdata/errors/div_zero.c", "A[] !Deadlock", Options{})
	if res.Errors == 0 || res.FirstError == nil || !strings.Contains(res.FirstError.Description, "division by zero") {
		t.Fatalf("div_zero: %d errors, first %+v", res.Errors, res.FirstError)
	}
	st, err = trace.ReplayFinal(machine(t, "../testdata/errors/div_zero.c"), res.FirstError.Trace.Steps)
	if err != nil || st.Status != vm.Failed || st.Err.Kind != vm.ErrDivZero {
		t.Fatalf("replay of the error trace: %v, %v", st.Describe(), err)
	}
	res = search(t, "../testdata/errors/div_zero.c", "E<> Error(DivZero)", Options{Reduction: Global})
	if res.Verdict != Satisfied {
		t.Errorf("E<> Error(DivZero): %s", res.Verdict)
	}
}

// TestDataRace: examples/race.c has a reachable data race; the witness
// ends in a state where two processes are about to access counter.
func TestDataRace(t *testing.T) {
	m := machine(t, "../examples/race.c")
	for _, red := range reductions {
		res := search(t, "../examples/race.c", "E<> DataRace", Options{Reduction: red})
		if res.Verdict != Satisfied {
			t.Fatalf("%s: %s", red, res.Verdict)
		}
		st, err := trace.ReplayFinal(m, res.Trace.Steps)
		if err != nil || !m.DataRace(st) {
			t.Fatalf("%s: replayed witness: race %v, %v", red, m.DataRace(st), err)
		}
	}
	res := search(t, peterson, "EnumStates", Options{Reduction: Global})
	if res.Verdict != Complete || res.RaceStates == 0 {
		t.Errorf("Peterson EnumStates: %s, %d race states; Peterson's flag and turn accesses race", res.Verdict, res.RaceStates)
	}
}

// TestHashCompaction: storing only hashes gives the same counts as full
// storage on Peterson, and states a negligible omission probability.
func TestHashCompaction(t *testing.T) {
	for _, red := range reductions {
		full := search(t, peterson, "EnumStates", Options{Reduction: red})
		comp := search(t, peterson, "EnumStates", Options{Reduction: red, Compact: true})
		if full.States != comp.States || full.Transitions != comp.Transitions {
			t.Errorf("%s: full %d/%d, compact %d/%d states/transitions", red, full.States, full.Transitions, comp.States, comp.Transitions)
		}
		if full.OmissionProbability != 0 || comp.OmissionProbability <= 0 || comp.OmissionProbability > 1e-9 {
			t.Errorf("%s: omission probability full %g, compact %g", red, full.OmissionProbability, comp.OmissionProbability)
		}
		// Compact storage is 9-byte slots at load 0.7 to 7/8 and the
		// records, beyond its table's first size and first chunk of
		// records (32 KiB); full storage's tree can be as small (its
		// leaves are shared chunks), so only compact's bound is checked.
		if comp.BytesPerState <= 0 || full.BytesPerState <= 0 ||
			comp.BytesPerState > 16 && comp.Bytes > 32<<10 {
			t.Errorf("%s: compact %g bytes/state (%d bytes, %d states), full %g", red, comp.BytesPerState, comp.Bytes, comp.States, full.BytesPerState)
		}
		if full.HashCollisions != 0 {
			t.Errorf("%s: %d hash collisions", red, full.HashCollisions)
		}
	}
}

// TestLimits: limits end the search with an incomplete verdict that says
// which limit; cancellation returns the context's error.
func TestLimits(t *testing.T) {
	m := machine(t, peterson)
	c := compile(t, m, mutex)
	for _, tc := range []struct {
		opts Options
		want string
	}{
		{Options{MaxStates: 100}, "state limit of 100"},
		{Options{MaxBytes: 50_000}, "memory limit"},
		{Options{MaxTime: time.Nanosecond}, "time limit"},
	} {
		res, err := Search(context.Background(), c, tc.opts)
		if err != nil {
			t.Fatal(err)
		}
		if res.Verdict != Incomplete || !strings.Contains(res.Reason, tc.want) {
			t.Errorf("%+v: %s (%s), want incomplete with %q", tc.opts, res.Verdict, res.Reason, tc.want)
		}
		if tc.opts.MaxStates > 0 && res.States != tc.opts.MaxStates {
			t.Errorf("stopped at %d states, limit %d", res.States, tc.opts.MaxStates)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := Search(ctx, c, Options{})
	if !errors.Is(err, context.Canceled) || res == nil || res.Verdict != Incomplete {
		t.Errorf("cancelled search: %v, %v", res, err)
	}
	var progress []Progress
	_, err = Search(context.Background(), c, Options{ProgressEvery: time.Nanosecond, Progress: func(p Progress) { progress = append(progress, p) }})
	if err != nil || len(progress) == 0 || progress[len(progress)-1].States == 0 {
		t.Errorf("progress: %d reports, %v", len(progress), err)
	}
}

// TestBadInput: non-explicit query kinds and choices too wide to enumerate
// are errors that say what is wrong.
func TestBadInput(t *testing.T) {
	m := machine(t, peterson)
	for _, q := range []string{"Pr[<=100](<> [1.crit])", "EnumStatesSMC <=10 10", "Estimate[<=10,10]{max 1}"} {
		_, err := Search(context.Background(), compile(t, m, q), Options{})
		if err == nil || !strings.Contains(err.Error(), "not explicit-state queries") {
			t.Errorf("Search(%q): %v", q, err)
		}
	}
	for _, q := range []string{"E<> [1.crit]", "EnumStates"} {
		_, err := Exact(context.Background(), compile(t, m, q), Options{})
		if err == nil || !strings.Contains(err.Error(), "Pr[<=N](<> P)") {
			t.Errorf("Exact(%q): %v", q, err)
		}
	}
	nd := machine(t, "testdata/nondet_int.c")
	_, err := Search(context.Background(), compile(t, nd, "E<> x == 7"), Options{})
	var be *BranchError
	if !errors.As(err, &be) || be.Func != "__VERIFIER_nondet_int" || !strings.Contains(be.Loc, "nondet_int.c:7") || be.Outcomes != "2^32" {
		t.Fatalf("nondet int: %v", err)
	}
	// Raising MaxBranching does not make 2^32 values enumerable by mistake.
	if _, err := Exact(context.Background(), compile(t, nd, "Pr[<=100](<> x == 7)"), Options{MaxBranching: 1 << 20}); !errors.As(err, &be) {
		t.Errorf("exact with nondet int: %v", err)
	}
	// A bool nondet is enumerated.
	res := search(t, "testdata/dice.c", "E<> sum == 13", Options{})
	if res.Verdict != Satisfied {
		t.Errorf("dice E<> sum == 13: %s", res.Verdict)
	}
	res = search(t, "testdata/dice.c", "E<> sum == 14", Options{})
	if res.Verdict != NotSatisfied {
		t.Errorf("dice E<> sum == 14: %s", res.Verdict)
	}
}

// TestLocalPropositionDisablesReduction: a proposition over registers or
// local variables cannot be checked on reduced transitions.
func TestLocalPropositionDisablesReduction(t *testing.T) {
	res := search(t, "testdata/dice.c", "E<> main::a == 6", Options{Reduction: Global})
	if res.Reduction != "none" || len(res.Notes) == 0 || res.Verdict != Satisfied {
		t.Errorf("reduction %s, notes %q, verdict %s", res.Reduction, res.Notes, res.Verdict)
	}
	res = search(t, "testdata/dice.c", "E<> sum == 7", Options{Reduction: Global})
	if res.Reduction != "global" || len(res.Notes) != 0 {
		t.Errorf("global proposition: reduction %s, notes %q", res.Reduction, res.Notes)
	}
}

// TestTracePrinting prints a counterexample with source lines, and replay
// rejects a trace that does not fit the program.
func TestTracePrinting(t *testing.T) {
	m := machine(t, petersonBug)
	res := search(t, petersonBug, mutex, Options{Reduction: Global})
	var b strings.Builder
	if err := trace.Write(&b, m, res.Trace.Steps); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if lines := strings.Count(out, "\n"); lines != len(res.Trace.Steps)+1 {
		t.Errorf("%d lines for %d steps", lines, len(res.Trace.Steps))
	}
	for _, want := range []string{"peterson.h:", "petersons1", "petersons2", "pthread_create", "end after"} {
		if !strings.Contains(out, want) {
			t.Errorf("trace lacks %q:\n%s", want, out)
		}
	}
	bad := append([]trace.Step(nil), res.Trace.Steps...)
	bad[0].Thread = 2 // process 2 does not exist yet
	if _, err := trace.Replay(m, bad); err == nil || !strings.Contains(err.Error(), "step 1") {
		t.Errorf("replay of a bad trace: %v", err)
	}
	if _, err := trace.ReplayFinal(m, []trace.Step{{Thread: 0, Choices: []uint64{1}}}); err == nil {
		t.Error("replay accepted a choice the step does not make")
	}
}

// TestResultJSON: results travel as JSON.
func TestResultJSON(t *testing.T) {
	res := search(t, petersonBug, mutex, Options{Reduction: Local, Compact: true})
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	var back Result
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back.Verdict != res.Verdict || back.States != res.States || len(back.Trace.Steps) != len(res.Trace.Steps) ||
		back.Reduction != "local" || back.OmissionProbability != res.OmissionProbability {
		t.Errorf("round trip: %+v", back)
	}
	if _, err := trace.ReplayFinal(machine(t, petersonBug), back.Trace.Steps); err != nil {
		t.Errorf("replay after JSON: %v", err)
	}
}

// TestParseNames covers the option parsers.
func TestParseNames(t *testing.T) {
	for _, r := range reductions {
		if got, err := ParseReduction(r.String()); err != nil || got != r {
			t.Errorf("ParseReduction(%s) = %v, %v", r, got, err)
		}
	}
	for _, o := range []Order{BFS, DFS} {
		if got, err := ParseOrder(o.String()); err != nil || got != o {
			t.Errorf("ParseOrder(%s) = %v, %v", o, got, err)
		}
	}
	if _, err := ParseReduction("partial-order"); err == nil {
		t.Error("ParseReduction accepted an unknown name")
	}
	if _, err := ParseOrder("random"); err == nil {
		t.Error("ParseOrder accepted an unknown name")
	}
}

// TestCompactMatchesFull: hash compaction (parts hashes, updated from the
// parent's where a transition moved one process; each update checked
// against a hash from scratch, see helpers_test.go) finds exactly what
// full storage finds over the corpus, with every reduction and both
// orders: counts, depth and the first error and deadlock witnesses.
func TestCompactMatchesFull(t *testing.T) {
	testutil.NeedClang(t)
	programs := reductionCorpus(t)
	desc := func(w *Witness) string {
		if w == nil {
			return ""
		}
		return fmt.Sprintf("%s in %d steps", w.Description, len(w.Trace.Steps))
	}
	for _, p := range programs {
		for _, red := range reductions {
			for _, order := range []Order{BFS, DFS} {
				opts := Options{Reduction: red, Order: order, MaxStates: 200_000}
				full := search(t, p, "EnumStates", opts)
				opts.Compact = true
				comp := search(t, p, "EnumStates", opts)
				f := fmt.Sprint(full.States, full.Transitions, full.MaxDepth, full.Exited, full.Deadlocks, full.Errors, full.AssumeFailed, full.RaceStates, desc(full.FirstError), desc(full.FirstDeadlock))
				c := fmt.Sprint(comp.States, comp.Transitions, comp.MaxDepth, comp.Exited, comp.Deadlocks, comp.Errors, comp.AssumeFailed, comp.RaceStates, desc(comp.FirstError), desc(comp.FirstDeadlock))
				if f != c {
					t.Errorf("%s, %s, %s: full %s, compact %s", p, red, order, f, c)
				}
			}
		}
	}
}

// TestSoloSuccessorHash: the generator tells the parts hasher which
// successors come from one step that SoloStep allowed (gen.solo,
// vm.PartsHasher.SuccessorStep), so that only the moved process is
// rehashed. Programs whose platform calls change other processes (a
// condition variable's signal and broadcast wake waiters, a barrier
// and a write lock's release may too) must not be told so: every update is checked against a
// hash from scratch here (verifyPartsHash), in every reduction and with
// two workers.
func TestSoloSuccessorHash(t *testing.T) {
	testutil.NeedClang(t)
	for _, p := range []string{"../testdata/mt/cond_order.c", "../testdata/mt/prodcons.c", "../testdata/mt/rwlock.c"} {
		for _, red := range reductions {
			for _, w := range []int{1, 2} {
				res := search(t, p, "EnumStates", Options{Reduction: red, Compact: true, Workers: w, MaxStates: 20_000})
				if res.States < 2 {
					t.Errorf("%s, %s, %d workers: %d states", p, red, w, res.States)
				}
			}
		}
	}
}

// TestStateBytesIgnoresRoom: the queue-memory estimate counts what a
// state's processes hold, not the room their buffers have to spare, so
// that recycling records does not move where a memory limit stops.
func TestStateBytesIgnoresRoom(t *testing.T) {
	m := machine(t, peterson)
	st := m.NewState()
	m.Run(st, 20, vm.NewRand(1, 0))
	want := stateBytes(st, 10)
	for _, th := range st.Threads {
		th.Frames = append(make([]vm.Frame, 0, len(th.Frames)+7), th.Frames...)
		th.Regs = append(make([]uint64, 0, len(th.Regs)+50), th.Regs...)
		th.Allocas = append(make([]uint32, 0, len(th.Allocas)+9), th.Allocas...)
	}
	if got := stateBytes(st, 10); got != want {
		t.Errorf("stateBytes %d with room to spare, %d without", got, want)
	}
}
