package coordinator_test

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/wyvernmc/wyvern/coordinator"
	"github.com/wyvernmc/wyvern/jobs"
	"github.com/wyvernmc/wyvern/query"
	"github.com/wyvernmc/wyvern/simulator"
)

// TestAlways: Pr[<=N]([] P) is answered from the runs' eventuality of !P
// (an outcome's Sat): its estimate, interval and convergence are the
// complements of Pr[<=N](<> !P)'s on the same runs, its satisfying runs
// those that never reach !P, the first run that does is the first
// violating one; a test Pr([] P) >= θ is the test Pr(<> !P) <= 1-θ.
func TestAlways(t *testing.T) {
	fold := func(text string, trace func(i uint64) jobs.Outcome) *coordinator.Result {
		t.Helper()
		q, err := query.Parse(text)
		if err != nil {
			t.Fatal(err)
		}
		r, err := simulator.Fold(q, 1, trace)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	// Runs 3, 7, 11, ... reach !P: Pr(<> !P) = 1/4.
	trace := func(i uint64) jobs.Outcome { return jobs.Outcome{Index: i, Sat: i%4 == 3, Steps: 10 + i%5} }
	always := fold("Pr[<=100]([] x < 3) {Epsilon=0.02}", trace)
	eventually := fold("Pr[<=100](<> !(x < 3)) {Epsilon=0.02}", trace)
	a, e := simulator.DetailOf(always), simulator.DetailOf(eventually)
	const tol = 1e-12
	if always.Runs != eventually.Runs || math.Abs(always.Estimate+eventually.Estimate-1) > tol ||
		math.Abs(always.Lo-(1-eventually.Hi)) > tol || math.Abs(always.Hi-(1-eventually.Lo)) > tol {
		t.Errorf("[] P: %g in [%g, %g] (%d runs); <> !P: %g in [%g, %g] (%d runs)",
			always.Estimate, always.Lo, always.Hi, always.Runs, eventually.Estimate, eventually.Lo, eventually.Hi, eventually.Runs)
	}
	if !a.Always || a.Satisfied != always.Runs-e.Satisfied || a.FirstSatisfying != nil || a.FirstViolating == nil || a.FirstViolating.Index != 3 {
		t.Errorf("[] P detail: %+v", a)
	}
	for i, c := range a.Convergence {
		if w := e.Convergence[i]; math.Abs(c.Estimate+w.Estimate-1) > tol || math.Abs(c.Lo-(1-w.Hi)) > tol {
			t.Errorf("convergence point %d: %+v against %+v", i, c, w)
		}
	}
	var text bytes.Buffer
	always.WriteText(&text)
	if !strings.Contains(text.String(), "First run that violates the invariant: seed 1 index 3") {
		t.Errorf("text:\n%s", text.String())
	}
	for _, c := range []struct {
		query, verdict string
	}{
		{"Pr[<=100]([] x < 3) >= 0.6", "holds"}, // Pr([] P) = 3/4
		{"Pr[<=100]([] x < 3) >= 0.9", "fails"},
		{"Pr[<=100]([] x < 3) <= 0.9", "holds"},
		{"Pr[<=100]([] x < 3) <= 0.6", "fails"},
	} {
		r := fold(c.query, trace)
		if d := simulator.DetailOf(r); d.Verdict != c.verdict || d.Cmp != c.query[len(c.query)-6:len(c.query)-4] || math.Abs(r.Estimate-0.75) > 0.1 {
			t.Errorf("%s: %s (cmp %s, frequency %g), want %s", c.query, d.Verdict, d.Cmp, r.Estimate, c.verdict)
		}
	}
	// No run violates: the warning speaks of the invariant.
	never := fold("Pr[<=100]([] x < 3)", func(i uint64) jobs.Outcome { return jobs.Outcome{Index: i} })
	if never.Estimate != 1 || !strings.Contains(strings.Join(never.Warnings, "\n"), "no run of 400 violates the invariant") {
		t.Errorf("never violated: %g, warnings %q", never.Estimate, never.Warnings)
	}
}

// TestIndifferenceRegionText: the region θ ± δ is written from the
// query's numbers, not with the floating-point noise of their sum
// ([0.19, 0.21], not 0.21000000000000002), in the text and in the warning
// of an undecided test, which says it is undecided (not "undecideds").
func TestIndifferenceRegionText(t *testing.T) {
	q, err := query.Parse("Pr[<=100](<> x < 3) >= 0.2 {Delta=0.01, MaxRuns=50}")
	if err != nil {
		t.Fatal(err)
	}
	// every fifth run satisfies: the test cannot decide in 50 runs
	r, err := simulator.Fold(q, 1, func(i uint64) jobs.Outcome { return jobs.Outcome{Index: i, Sat: i%5 == 0, Steps: 3} })
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	r.WriteText(&b)
	text := b.String()
	if strings.Count(text, "indifference region [0.19, 0.21]") != 2 || strings.Contains(text, "0000000") ||
		!strings.Contains(text, "SPRT undecided on H0: P >= 0.2,") {
		t.Errorf("text:\n%s", text)
	}
}
