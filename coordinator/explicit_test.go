package coordinator_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/wyvernmc/wyvern/coordinator"
	"github.com/wyvernmc/wyvern/explicit"
	"github.com/wyvernmc/wyvern/ir"
	"github.com/wyvernmc/wyvern/jobs"
	"github.com/wyvernmc/wyvern/query"
	"github.com/wyvernmc/wyvern/trace"
	"github.com/wyvernmc/wyvern/vm"
)

func (c *cluster) submitExplicit(t *testing.T, ll []byte, name, q string, o *jobs.ExplicitOptions) (*coordinator.Result, error) {
	t.Helper()
	nc, err := c.emb.Connect("client")
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	ctx, cancel := context.WithTimeout(c.ctx, 3*time.Minute)
	defer cancel()
	return coordinator.Submit(ctx, nc, coordinator.Submission{LL: ll, Name: name, Query: q, Seed: 1, Explicit: o})
}

// TestExplicitJobs: explicit-state searches run as worker jobs through the
// coordinator. Peterson's mutual exclusion holds under every reduction
// (reduced searches visit fewer states); the buggy version violates it and
// the breadth-first counterexample replays to a violating state.
func TestExplicitJobs(t *testing.T) {
	needClang(t)
	c := startCluster(t, 2)
	const inv = "A[] !([1.crit] && [2.crit])"
	ok := frontend(t, "../testdata/smc/petersons.c")
	prev := int64(0)
	for _, red := range []string{"none", "local", "global"} {
		r, err := c.submitExplicit(t, ok, "petersons.c", inv, &jobs.ExplicitOptions{Reduction: red})
		if err != nil {
			t.Fatalf("%s: %v", red, err)
		}
		x := explicit.ResultOf(r)
		if r.Kind != "explicit" || x == nil || x.Verdict != explicit.Satisfied {
			t.Fatalf("%s: result %+v", red, r)
		}
		t.Logf("reduction %s: %d states, %d transitions", red, x.States, x.Transitions)
		if prev > 0 && x.States >= prev {
			t.Errorf("reduction %s visits %d states, not fewer than the previous %d", red, x.States, prev)
		}
		prev = x.States
	}
	bug := frontend(t, "../testdata/smc/petersonsBug.c")
	r, err := c.submitExplicit(t, bug, "petersonsBug.c", inv, nil)
	if err != nil {
		t.Fatal(err)
	}
	x := explicit.ResultOf(r)
	if x == nil || x.Verdict != explicit.NotSatisfied || x.Trace == nil {
		t.Fatalf("buggy Peterson: %+v", r)
	}
	prog, err := ir.ParseLL("petersonsBug.c", bug)
	if err != nil {
		t.Fatal(err)
	}
	m := vm.NewMachine(prog)
	st, err := trace.ReplayFinal(m, x.Trace.Steps)
	if err != nil {
		t.Fatal(err)
	}
	q, _ := query.Parse("E<> [1.crit] && [2.crit]")
	cq, err := query.Compile(q, m)
	if err != nil {
		t.Fatal(err)
	}
	if !cq.Prop(st) {
		t.Error("the counterexample does not end in a state with both processes entering crit")
	}
	if x.MaxDepth < len(x.Trace.Steps)-1 && x.Order == "bfs" {
		t.Errorf("bfs counterexample of %d steps but the search reached depth %d only", len(x.Trace.Steps), x.MaxDepth)
	}
	// Exact needs a Pr query.
	if _, err := c.submitExplicit(t, ok, "petersons.c", inv, &jobs.ExplicitOptions{Exact: true}); err == nil || !strings.Contains(err.Error(), "exact probabilities answer Pr") {
		t.Errorf("exact on A[]: %v", err)
	}
}

// TestExactAgreesWithSMC: for small models the exact probability (a job on
// a worker) lies inside the statistical interval of the same query.
func TestExactAgreesWithSMC(t *testing.T) {
	needClang(t)
	c := startCluster(t, 2)
	for _, m := range []struct{ path, q string }{
		{"../testdata/smc/fib_4.c", "Pr[<=5000](<> [0.VERIFIER_error])"},
		{"../explicit/testdata/dice.c", "Pr[<=1000](<> sum == 7)"},
		{"../explicit/testdata/chain.c", "Pr[<=1000](<> x >= 5)"},
	} {
		ll := frontend(t, m.path)
		name := m.path[strings.LastIndex(m.path, "/")+1:]
		ex, err := c.submitExplicit(t, ll, name, m.q, &jobs.ExplicitOptions{Exact: true, MaxTimeS: 60})
		if err != nil {
			t.Fatalf("%s exact: %v", name, err)
		}
		if explicit.ExactOf(ex) == nil || !explicit.ExactOf(ex).Complete {
			t.Fatalf("%s: exact result %+v", name, explicit.ExactOf(ex))
		}
		smc, err := c.submit(t, ll, name, m.q+" {Alpha=0.01, Epsilon=0.01}", 5)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: exact %.6f, SMC [%.6f, %.6f] (%d runs)", name, ex.Estimate, smc.Lo, smc.Hi, smc.Runs)
		if ex.Estimate < smc.Lo || ex.Estimate > smc.Hi {
			t.Errorf("%s: exact %.6f outside the 99%% interval [%.6f, %.6f]", name, ex.Estimate, smc.Lo, smc.Hi)
		}
	}
}
