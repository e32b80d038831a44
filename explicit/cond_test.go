package explicit

import (
	"context"
	"strings"
	"testing"

	"github.com/wyvernmc/wyvern/internal/testutil"
	"github.com/wyvernmc/wyvern/ir"
	"github.com/wyvernmc/wyvern/trace"
	"github.com/wyvernmc/wyvern/vm"
)

// TestCondOutcomes checks that exhaustive search finds every outcome of the
// condition variables' functions that the platform's behaviours allow, and
// nothing else (testdata/mt/cond_outcomes.c: two waiters, ranked by
// arrival, one signal or one broadcast once both wait):
//   - LODIN's platform: a signal wakes the longest waiter, never the other;
//   - a signal that may wake any waiter (Behaviours.SignalAny): either one,
//     never both, never before the signal;
//   - POSIX's (also spurious wakeups): either or both, even before the
//     signal; the deadlock of a waiter never woken stays reachable, since
//     a spurious wakeup may never come;
//   - a broadcast wakes both under every platform, and the program never
//     deadlocks.
//
// Each holds with and without reductions, and every Satisfied search's
// counterexample replays to a state that satisfies the query.
func TestCondOutcomes(t *testing.T) {
	testutil.NeedClang(t)
	const path = "../testdata/mt/cond_outcomes.c"
	signal := vm.NewMachine(testutil.Program(t, path))
	bprog, err := ir.Load(path, ir.Options{ClangFlags: []string{"-DBROADCAST"}})
	if err != nil {
		t.Fatal(err)
	}
	broadcast := vm.NewMachine(bprog)
	lodin, any, posix := vm.Behaviours{}, vm.Behaviours{SignalAny: true}, vm.PosixBehaviours
	const (
		sat = Satisfied
		not = NotSatisfied
	)
	type want struct{ lodin, any, posix Verdict }
	for _, tc := range []struct {
		name  string
		m     *vm.Machine
		query string
		want  want
	}{
		{"signal wakes the first", signal, "E<> got1 == 1", want{sat, sat, sat}},
		{"signal wakes the second", signal, "E<> got2 == 1", want{not, sat, sat}},
		{"signal wakes both", signal, "E<> got1 == 1 && got2 == 1", want{not, not, sat}},
		{"woken before the signal", signal, "E<> (got1 == 1 || got2 == 1) && signalled == 0", want{not, not, sat}},
		{"signal leaves one waiting", signal, "E<> Deadlock", want{sat, sat, sat}},
		{"broadcast wakes both", broadcast, "E<> got1 == 1 && got2 == 1", want{sat, sat, sat}},
		{"broadcast never deadlocks", broadcast, "E<> Deadlock", want{not, not, not}},
		{"broadcast woken before", broadcast, "E<> (got1 == 1 || got2 == 1) && signalled == 0", want{not, not, sat}},
	} {
		for _, b := range []struct {
			name string
			beh  vm.Behaviours
			want Verdict
		}{{"lodin", lodin, tc.want.lodin}, {"any", any, tc.want.any}, {"posix", posix, tc.want.posix}} {
			for _, red := range []Reduction{None, Global} {
				c := compile(t, tc.m, tc.query)
				res, err := Search(context.Background(), c, Options{Reduction: red, Behaviours: &b.beh})
				if err != nil {
					t.Fatalf("%s, %s, %s: %v", tc.name, b.name, red, err)
				}
				if res.Verdict != b.want {
					t.Errorf("%s (%s), platform %s, reduction %s: %s (%s), want %s", tc.name, tc.query, b.name, red, res.Verdict, res.Reason, b.want)
					continue
				}
				if res.Verdict != Satisfied {
					continue
				}
				final, err := trace.ReplayFinal(tc.m, res.Trace.Steps)
				if err != nil {
					t.Fatalf("%s, %s, %s: replay: %v", tc.name, b.name, red, err)
				}
				if !c.Prop(final) {
					t.Errorf("%s, %s, %s: the counterexample replays to a state that does not satisfy %s: %s", tc.name, b.name, red, tc.query, final.Describe())
				}
			}
		}
	}
}

// TestLimitHints: a search a limit stops says what would let it finish —
// the global reduction where the query allows it and the search ran
// without, hash compaction where it stored whole states — and reports
// the queue's peak beside the visited set.
func TestLimitHints(t *testing.T) {
	testutil.NeedClang(t)
	const path = "../testdata/mt/cond_outcomes.c"
	for _, tc := range []struct {
		query      string
		opts       Options
		global     bool // the global reduction suggested
		compaction bool
	}{
		{"E<> got1 == 1 && got2 == 1", Options{MaxStates: 50}, true, true},
		{"E<> got1 == 1 && got2 == 1", Options{MaxStates: 20, Reduction: Global, Compact: true}, false, false},
		{"E<> waiter::me == 2", Options{MaxStates: 50}, false, true}, // reads a local: no reduction allowed
	} {
		res := search(t, path, tc.query, tc.opts)
		if res.Verdict != Incomplete {
			t.Fatalf("%s %+v: %s, want incomplete", tc.query, tc.opts, res.Verdict)
		}
		notes := strings.Join(res.Notes, "\n")
		if got := strings.Contains(notes, "--reduction global"); got != tc.global {
			t.Errorf("%s %+v: global reduction suggested %v, want %v:\n%s", tc.query, tc.opts, got, tc.global, notes)
		}
		if got := strings.Contains(notes, "--compact"); got != tc.compaction {
			t.Errorf("%s %+v: compaction suggested %v, want %v:\n%s", tc.query, tc.opts, got, tc.compaction, notes)
		}
		if res.QueuePeakBytes <= 0 {
			t.Errorf("%s %+v: queue peak %d bytes", tc.query, tc.opts, res.QueuePeakBytes)
		}
	}
}
