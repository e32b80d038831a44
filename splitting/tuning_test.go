package splitting

import (
	"math"
	"strings"
	"testing"
)

// TestTuning: the balanced conditional probability solves x = 2(1 − e^−x)
// (≈ 0.203); a placement already balanced needs no change and about the
// balanced work; a placement with a far too rare level is told to split
// it and would save work; one with a near-certain level to merge it.
func TestTuning(t *testing.T) {
	if x := balancedX; math.Abs(x-2*(1-math.Exp(-x))) > 1e-12 || math.Abs(math.Exp(-x)-0.2032) > 1e-3 {
		t.Fatalf("balanced x %g (q %g)", x, math.Exp(-x))
	}
	lv := func(ps ...float64) []Level {
		var out []Level
		for i, p := range ps {
			th := "property"
			if i < len(ps)-1 {
				th = string(rune('1' + i))
			}
			out = append(out, Level{Index: i + 1, Threshold: th, Runs: 100000, Crossings: int64(p * 100000), CondProb: p})
		}
		return out
	}
	const n = 1000
	bal := lv(0.2, 0.2, 0.2, 0.2, 0.2)
	tb := tuning(Fixed, n, math.Pow(0.2, 5), bal)
	if tb == nil || tb.BalancedLevels != 5 || len(tb.Advice) != 0 || math.Abs(tb.WorkRatio-1) > 0.02 {
		t.Fatalf("balanced levels: %+v", tb)
	}
	bad := lv(0.9, 0.9, 0.00032*0.9) // p = 0.000233: two useless levels, one far too rare
	tr := tuning(Fixed, n, 0.9*0.9*0.00032*0.9, bad)
	if tr == nil || tr.WorkRatio >= 0.5 {
		t.Fatalf("unbalanced levels: want a balanced placement to save more than half the work: %+v", tr)
	}
	advice := strings.Join(tr.Advice, "\n")
	for _, want := range []string{"level 1 (score >= 1): conditional probability 0.9: merge", "level 3 (the property)", "split it into 5 levels"} {
		if !strings.Contains(advice, want) {
			t.Errorf("advice %q lacks %q", advice, want)
		}
	}
	if tuning(Adaptive, n, 1e-5, bal) != nil || tuning(Fixed, n, 0, bal) != nil {
		t.Error("a report for adaptive levels, or without an estimate")
	}
}

// TestFlatScoreWarning: a score that never moves below the property is
// said to be flat, with what to write instead.
func TestFlatScoreWarning(t *testing.T) {
	r := estimate(t, "../testdata/splitting/chain.c", "Pr[<=1000](<> x >= 3) {Split=adaptive, Score=0, N=100, M=4}", 1)
	if !strings.Contains(strings.Join(r.Warnings, "\n"), "the score is flat") {
		t.Errorf("warnings %q: want one saying the score is flat", r.Warnings)
	}
	r = estimate(t, "../testdata/splitting/chain.c", "Pr[<=1000](<> x >= 3) {Split=adaptive, Score=x, N=100, M=4}", 1)
	if strings.Contains(strings.Join(r.Warnings, "\n"), "the score is flat") {
		t.Errorf("a score that rises is called flat: %q", r.Warnings)
	}
}
