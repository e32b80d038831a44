package symbolic

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wyvernmc/wyvern/internal/testutil"
	"github.com/wyvernmc/wyvern/jobs"
	"github.com/wyvernmc/wyvern/query"
)

// TestProgressWhileSolving: a BMC run reports while its solver works (the
// bound, the formula's size, the solver seconds so far and the phase), not
// only after each bound, so that a client never takes a busy solver for a
// silent coordinator.
func TestProgressWhileSolving(t *testing.T) {
	old := heartbeatEvery
	heartbeatEvery = 5 * time.Millisecond
	defer func() { heartbeatEvery = old }()
	p := testutil.Program(t, filepath.Join("../testdata/bmc", "kind_not_inductive.c"))
	q, err := query.Parse("E<> Error")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var got []Progress
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	r, err := Check(ctx, p, q, jobs.BMCOptions{Unwind: 4, Solver: "z3"}, func(pr Progress) {
		mu.Lock()
		got = append(got, pr)
		mu.Unlock()
	})
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	phases := map[string]int{}
	for _, pr := range got {
		phases[pr.Phase]++
		if pr.Unwind != 4 || pr.Terms <= 0 {
			t.Errorf("report %+v: want unwind 4 and the formula's size", pr)
		}
		if pr.SolverSeconds > r.SolverSeconds+0.5 {
			t.Errorf("report %+v: more solver time than the run's %.2f s", pr, r.SolverSeconds)
		}
	}
	if phases[""] != 1 {
		t.Errorf("%d reports after the bound, want 1 (%v)", phases[""], phases)
	}
	if phases["violation"]+phases["unwinding"]+phases["k-induction"] == 0 {
		t.Errorf("no report while the solver worked: %v", phases)
	}
	for _, c := range []struct {
		pr   jobs.Progress
		want string
	}{
		{jobs.Progress{Kind: jobs.KindBMC, Unwind: 8, Terms: 120, SolverS: 3.5, Phase: "k-induction"}, "bmc: unwind 8, solving (k-induction), 120 terms, solver 3.5 s"},
		{jobs.Progress{Kind: jobs.KindBMC, Unwind: 8, Terms: 120, SolverS: 3.5}, "bmc: unwind 8 checked, 120 terms, solver 3.5 s"},
	} {
		if got := progressText(c.pr); !strings.EqualFold(got, c.want) {
			t.Errorf("progress line %q, want %q", got, c.want)
		}
	}
}
