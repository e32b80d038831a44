package kind_test

import (
	"testing"

	_ "github.com/wyvernmc/wyvern/explicit"
	"github.com/wyvernmc/wyvern/jobs"
	"github.com/wyvernmc/wyvern/kind"
	_ "github.com/wyvernmc/wyvern/simulator"
	_ "github.com/wyvernmc/wyvern/splitting"
	_ "github.com/wyvernmc/wyvern/symbolic"
)

// TestProgressText: each built-in kind's package registers its progress
// line; a kind without one gets its runs and workers.
func TestProgressText(t *testing.T) {
	cases := []struct {
		p    jobs.Progress
		want string
	}{
		{jobs.Progress{Kind: jobs.KindTrace, Runs: 50, Satisfied: 5, Lo: 0.05, Hi: 0.2, RunsPerS: 10, Workers: 2, Planned: 100},
			"50 runs, 5 satisfying, [0.0500, 0.2000], 10 runs/s, 2 workers ETA ≤5s"},
		{jobs.Progress{Kind: jobs.KindExplicit, States: 7, StatesPerS: 3, Queue: 2, Depth: 4},
			"explicit state space: 7 states, 3 states/s, queue 2, depth 4"},
		{jobs.Progress{Kind: jobs.KindSplit, Replications: 1, PlannedReplications: 4, Estimate: 0.5, Runs: 9, RunsPerS: 3, Workers: 1},
			"splitting: 1 of 4 replications, estimate 0.5, 9 run segments, 3 segments/s, 1 workers"},
		{jobs.Progress{Kind: jobs.KindBMC, Unwind: 3, Terms: 100, SolverS: 1.25},
			"bmc: unwind 3 checked, 100 terms, solver 1.2 s"},
		{jobs.Progress{Kind: "unregistered", Runs: 3, Workers: 1}, "3 runs, 1 workers"},
	}
	for _, c := range cases {
		if got := kind.ProgressText(c.p); got != c.want {
			t.Errorf("%s: %q, want %q", c.p.Kind, got, c.want)
		}
	}
}
