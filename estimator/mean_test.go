package estimator

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

func TestMeanKnownValues(t *testing.T) {
	tests := []struct {
		name      string
		xs        []float64
		alpha     float64
		mean, sd  float64
		lo, hi    float64
		min, max_ float64
	}{
		// t_{3, 0.975} = 3.18244630528; half-width 3.18244630528·1.29099444874/2.
		{"1..4", []float64{1, 2, 3, 4}, 0.05, 2.5, 1.2909944487, 0.4457397, 4.5542603, 1, 4},
		// t_{1, 0.95} = 6.31375151; sd = sqrt(2); half-width 6.31375151·1.
		{"two points 90%", []float64{-1, 1}, 0.1, 0, math.Sqrt2, -6.3137515, 6.3137515, -1, 1},
		{"constant", []float64{7, 7, 7}, 0.05, 7, 0, 7, 7, 7, 7},
		// Welford keeps the variance of large offset data (naive sum of squares loses it).
		{"offset", []float64{1e9 + 4, 1e9 + 7, 1e9 + 13, 1e9 + 16}, 0.05, 1e9 + 10, math.Sqrt(30), 1e9 + 10 - 3.18244630528*math.Sqrt(30)/2, 1e9 + 10 + 3.18244630528*math.Sqrt(30)/2, 1e9 + 4, 1e9 + 16},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var m Mean
			for _, x := range tc.xs {
				if err := m.Add(x); err != nil {
					t.Fatal(err)
				}
			}
			r, err := m.Result(tc.alpha)
			if err != nil {
				t.Fatal(err)
			}
			tol := 1e-6 * math.Max(1, math.Abs(tc.mean))
			if r.N != len(tc.xs) || math.Abs(r.Mean-tc.mean) > tol || math.Abs(r.StdDev-tc.sd) > 1e-6 ||
				math.Abs(r.Lo-tc.lo) > tol || math.Abs(r.Hi-tc.hi) > tol || r.Min != tc.min || r.Max != tc.max_ {
				t.Errorf("got %+v, want N=%d mean=%v sd=%v [%v, %v] min=%v max=%v",
					r, len(tc.xs), tc.mean, tc.sd, tc.lo, tc.hi, tc.min, tc.max_)
			}
			if r.Confidence != 1-tc.alpha || m.N() != len(tc.xs) {
				t.Errorf("Confidence %v, N() %d", r.Confidence, m.N())
			}
		})
	}
}

func TestMeanEdges(t *testing.T) {
	var m Mean
	if _, err := m.Result(0.05); !errors.Is(err, ErrNoSamples) {
		t.Errorf("N=0: err %v, want ErrNoSamples", err)
	}
	for _, bad := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		if err := m.Add(bad); err == nil {
			t.Errorf("Add(%v): no error", bad)
		}
	}
	if m.N() != 0 {
		t.Errorf("rejected samples counted: N=%d", m.N())
	}
	if err := m.Add(3.5); err != nil {
		t.Fatal(err)
	}
	r, err := m.Result(0.05)
	if err != nil {
		t.Fatal(err)
	}
	if r.N != 1 || r.Mean != 3.5 || !math.IsNaN(r.StdDev) || !math.IsInf(r.Lo, -1) || !math.IsInf(r.Hi, 1) {
		t.Errorf("N=1: %+v, want mean 3.5, NaN sd, infinite interval", r)
	}
	for _, alpha := range []float64{0, 1, -0.5, math.NaN()} {
		if _, err := m.Result(alpha); err == nil {
			t.Errorf("Result(%v): no error", alpha)
		}
	}
}

// The t-interval is exact for normal samples: coverage 1-alpha whatever n.
func TestMeanCoverage(t *testing.T) {
	const (
		reps         = 2000
		alpha        = 0.05
		mu, sigma    = 3.0, 2.0
		coverageSeed = 99
	)
	for _, n := range []int{2, 5, 30} {
		rng := rand.New(rand.NewPCG(coverageSeed, uint64(n)))
		covered := 0
		for range reps {
			var m Mean
			for range n {
				if err := m.Add(mu + sigma*rng.NormFloat64()); err != nil {
					t.Fatal(err)
				}
			}
			r, err := m.Result(alpha)
			if err != nil {
				t.Fatal(err)
			}
			if r.Lo <= mu && mu <= r.Hi {
				covered++
			}
		}
		sd := 3 * math.Sqrt(reps*alpha*(1-alpha))
		lo, hi := (1-alpha)*reps-sd, (1-alpha)*reps+sd
		t.Logf("n=%d: covered %d/%d (%.2f%%), accept [%.1f, %.1f]", n, covered, reps, 100*float64(covered)/reps, lo, hi)
		if float64(covered) < lo || float64(covered) > hi {
			t.Errorf("n=%d: covered %d/%d, want within [%.1f, %.1f]", n, covered, reps, lo, hi)
		}
	}
}
