package explicit

import (
	"fmt"
	"strings"
	"testing"

	"github.com/wyvernmc/wyvern/internal/testutil"
	"github.com/wyvernmc/wyvern/trace"
)

// TestDeadRegsKeepVerdicts: clearing dead registers (dead.go) gives every
// reduced search the verdict it has without, with fewer states where
// registers kept stale values, and traces that replay to a state that
// decides the query.
func TestDeadRegsKeepVerdicts(t *testing.T) {
	testutil.NeedClang(t)
	defer func() { clearDeadRegs = true }()
	cases := []struct {
		prog, query string
		want        Verdict
	}{
		{"testdata/dead_fib.c", "E<> Error", NotSatisfied},
		{"testdata/dead_fib_bug.c", "E<> Error", Satisfied},
		{"testdata/dead_fib.c", "E<> DataRace || Error", NotSatisfied},
		{"testdata/dead_fib.c", "A[] !Deadlock", Satisfied},
		{peterson, mutex, Satisfied},
		{petersonBug, mutex, NotSatisfied},
	}
	opts := []Options{
		{Reduction: Local},
		{Reduction: Global},
		{Reduction: Global, POR: true},
		{Reduction: Global, POR: true, Order: DFS},
		{Reduction: Global, POR: true, Compact: true},
	}
	for _, c := range cases {
		for _, o := range opts {
			name := fmt.Sprintf("%s %q %s por=%v %s compact=%v", c.prog, c.query, o.Reduction, o.POR, o.Order, o.Compact)
			o.MaxStates = 500_000
			clearDeadRegs = false
			before := search(t, c.prog, c.query, o)
			clearDeadRegs = true
			after := search(t, c.prog, c.query, o)
			if before.Verdict != c.want || after.Verdict != c.want {
				t.Fatalf("%s: verdict %s without clearing, %s with, want %s", name, before.Verdict, after.Verdict, c.want)
			}
			if after.States > before.States {
				t.Errorf("%s: %d states with clearing, %d without", name, after.States, before.States)
			}
			if c.prog == "testdata/dead_fib.c" && c.query == "E<> Error" && after.States >= before.States {
				t.Errorf("%s: clearing merged no state (%d states)", name, after.States)
			}
			if after.Trace != nil {
				st, err := trace.ReplayFinal(machine(t, c.prog), after.Trace.Steps)
				if err != nil {
					t.Fatalf("%s: replay: %v", name, err)
				}
				// (a witness of E<> P ends where P holds, a counterexample of A[] P where it does not)
				if compile(t, machine(t, c.prog), c.query).Prop(st) != strings.HasPrefix(c.query, "E<>") {
					t.Errorf("%s: the trace does not end in a state that decides the query", name)
				}
			}
			t.Logf("%s: states %d -> %d", name, before.States, after.States)
		}
	}
}
