package splitting

import (
	"fmt"
	"math"
)

// Tuning is the level-tuning report of a fixed-effort splitting result:
// how far its level placement is from a balanced one, and what to change.
//
// With n runs a level and levels of conditional probabilities p_k, the
// relative variance of one replication's estimate is about
// V = Σ (1 − p_k)/(n p_k) (levels treated as independent) and its work
// C = n·(number of levels) run segments; the work-normalised variance C·V
// is what a placement costs for a given relative error. (Counted in run
// segments, not seconds, so that the report is a function of the seed.) For a probability p spread
// over m levels of equal conditional probability q = p^(1/m), C·V ∝
// m² (1 − q)/q, least at q = e^(−x*) with x* = 2(1 − e^(−x*)) ≈ 1.594,
// q ≈ 0.203 (the "balanced" conditional probability; m* = −ln p / x*).
type Tuning struct {
	// BalancedProb is the balanced conditional probability (≈ 0.203),
	// BalancedLevels the number of levels (the property's included) that
	// spreads the estimate over levels of that probability.
	BalancedProb   float64 `json:"balanced_prob"`
	BalancedLevels int     `json:"balanced_levels"`
	// WorkRatio is the work a balanced placement would need for the same
	// relative error, as a fraction of this run's (< 1: it would save
	// 1 − WorkRatio of the work), counting run segments (each level's
	// runs costing alike).
	WorkRatio float64 `json:"work_ratio"`
	// Advice: per level, what to change (split a level whose conditional
	// probability is far below the balanced one, merge one far above it).
	Advice []string `json:"advice"`
}

// balancedX solves x = 2(1 − e^(−x)): −ln of the balanced conditional
// probability.
var balancedX = func() float64 {
	x := 1.5
	for range 50 {
		x = 2 * (1 - math.Exp(-x))
	}
	return x
}()

// tuning reports on the levels of a fixed-effort result with estimate p
// (nil when there is nothing to tune: no estimate, adaptive levels, or
// levels without counts).
func tuning(method Method, n int, p float64, levels []Level) *Tuning {
	if method != Fixed || p <= 0 || p >= 1 || len(levels) == 0 || n <= 0 {
		return nil
	}
	var v float64
	for _, l := range levels {
		if l.Runs == 0 || l.Crossings == 0 {
			return nil
		}
		pk := float64(l.Crossings) / float64(l.Runs)
		v += (1 - pk) / (float64(n) * pk)
	}
	t := &Tuning{BalancedProb: math.Exp(-balancedX)}
	m := max(1, int(math.Round(-math.Log(p)/balancedX)))
	t.BalancedLevels = m
	q := math.Pow(p, 1/float64(m))
	if v > 0 {
		// n runs at each of m levels of q, against n at each of these
		vb := float64(m) * (1 - q) / (float64(n) * q)
		t.WorkRatio = float64(m) * vb / (float64(len(levels)) * v)
	}
	for _, l := range levels {
		pk := l.CondProb
		name := "score >= " + l.Threshold
		if l.Threshold == "property" {
			name = "the property"
		}
		switch {
		case pk < 0.05:
			k := max(2, int(math.Round(math.Log(pk)/-balancedX)))
			t.Advice = append(t.Advice, fmt.Sprintf("level %d (%s): conditional probability %.3g: split it into %d levels (about %.2g each)",
				l.Index, name, pk, k, math.Pow(pk, 1/float64(k))))
		case pk > 0.6 && l.Threshold != "property":
			t.Advice = append(t.Advice, fmt.Sprintf("level %d (%s): conditional probability %.3g: merge it with the next level (it costs runs and gains little)",
				l.Index, name, pk))
		}
	}
	if t.Advice == nil {
		t.Advice = []string{}
	}
	return t
}
