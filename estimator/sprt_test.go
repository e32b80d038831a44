package estimator

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestNewSPRTInvalid(t *testing.T) {
	tests := []struct {
		name                      string
		theta, delta, alpha, beta float64
	}{
		{"delta=0", 0.5, 0, 0.05, 0.05},
		{"delta<0", 0.5, -0.01, 0.05, 0.05},
		{"theta-delta=0", 0.05, 0.05, 0.05, 0.05},
		{"theta-delta<0", 0.02, 0.05, 0.05, 0.05},
		{"theta+delta=1", 0.95, 0.05, 0.05, 0.05},
		{"theta>1", 1.2, 0.05, 0.05, 0.05},
		{"theta NaN", math.NaN(), 0.05, 0.05, 0.05},
		{"delta NaN", 0.5, math.NaN(), 0.05, 0.05},
		{"alpha=0", 0.5, 0.05, 0, 0.05},
		{"alpha=1", 0.5, 0.05, 1, 0.05},
		{"beta=0", 0.5, 0.05, 0.05, 0},
		{"beta<0", 0.5, 0.05, 0.05, -0.5},
		{"alpha+beta=1", 0.5, 0.05, 0.5, 0.5},
		{"alpha+beta>1", 0.5, 0.05, 0.7, 0.6},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if s, err := NewSPRT(tc.theta, tc.delta, tc.alpha, tc.beta); err == nil {
				t.Errorf("NewSPRT(%v, %v, %v, %v) = %v, nil; want error", tc.theta, tc.delta, tc.alpha, tc.beta, s)
			}
		})
	}
}

func mustSPRT(t *testing.T, theta, delta, alpha, beta float64) *SPRT {
	t.Helper()
	s, err := NewSPRT(theta, delta, alpha, beta)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestSPRTDeterministic(t *testing.T) {
	step := math.Log(0.55 / 0.45) // |LLR increment| for theta=0.5, delta=0.05
	tests := []struct {
		name                      string
		theta, delta, alpha, beta float64
		sat                       bool
		wantN                     int
		wantDecision              string
		wantLower, wantUpper      float64
	}{
		// Each success adds log(0.45/0.55) ≈ -0.2007; accept H0 at LLR <= log(0.05/0.95) ≈ -2.944: 15 runs.
		{"all sat", 0.5, 0.05, 0.05, 0.05, true, 15, DecisionAccept, math.Log(0.05 / 0.95), math.Log(0.95 / 0.05)},
		{"all unsat", 0.5, 0.05, 0.05, 0.05, false, 15, DecisionReject, math.Log(0.05 / 0.95), math.Log(0.95 / 0.05)},
		// log(0.9/0.01) ≈ 4.50: 23 failures; log(0.1/0.99) ≈ -2.29: 12 successes.
		{"asymmetric unsat", 0.5, 0.05, 0.01, 0.1, false, 23, DecisionReject, math.Log(0.1 / 0.99), math.Log(0.9 / 0.01)},
		{"asymmetric sat", 0.5, 0.05, 0.01, 0.1, true, 12, DecisionAccept, math.Log(0.1 / 0.99), math.Log(0.9 / 0.01)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := mustSPRT(t, tc.theta, tc.delta, tc.alpha, tc.beta)
			if r := s.Result(); r.Decision != DecisionUndecided || r.N != 0 || r.LLR != 0 {
				t.Errorf("fresh result %+v", r)
			}
			n := 0
			for !s.Add(tc.sat) {
				n++
				if n > 1000 {
					t.Fatal("no decision")
				}
			}
			r := s.Result()
			if r.N != tc.wantN || r.Decision != tc.wantDecision {
				t.Errorf("N=%d decision %q, want N=%d %q", r.N, r.Decision, tc.wantN, tc.wantDecision)
			}
			wantLLR := float64(tc.wantN) * step
			wantK := 0
			if tc.sat {
				wantLLR, wantK = -wantLLR, tc.wantN
			}
			if r.K != wantK || math.Abs(r.LLR-wantLLR) > 1e-12 {
				t.Errorf("K=%d LLR=%v, want K=%d LLR=%v", r.K, r.LLR, wantK, wantLLR)
			}
			if math.Abs(r.LowerBound-tc.wantLower) > 1e-12 || math.Abs(r.UpperBound-tc.wantUpper) > 1e-12 {
				t.Errorf("bounds [%v, %v], want [%v, %v]", r.LowerBound, r.UpperBound, tc.wantLower, tc.wantUpper)
			}
			if !s.Add(!tc.sat) || s.Result() != r {
				t.Error("Add after decision changed the result")
			}
		})
	}
}

func TestSPRTMaxRuns(t *testing.T) {
	s := mustSPRT(t, 0.5, 0.05, 0.05, 0.05)
	s.SetMaxRuns(50)
	if p := s.Planned(); p != 50 {
		t.Errorf("Planned() = %d, want 50", p)
	}
	for i := range 49 {
		if s.Add(i%2 == 0) {
			t.Fatalf("stopped early at %d", i+1)
		}
	}
	if !s.Add(true) || !s.Done() {
		t.Fatal("not stopped at MaxRuns")
	}
	if r := s.Result(); r.N != 50 || r.Decision != DecisionUndecided {
		t.Errorf("result %+v, want N=50 undecided", r)
	}
	if s.Add(true); s.Result().N != 50 {
		t.Error("Add after MaxRuns counted")
	}
}

// sprtRun runs one test on Bernoulli(p) outcomes.
func sprtRun(t *testing.T, rng *rand.Rand, p, theta, delta, alpha, beta float64) SPRTResult {
	s := mustSPRT(t, theta, delta, alpha, beta)
	for !s.Add(rng.Float64() < p) {
	}
	return s.Result()
}

// maxWrong is the binomial tolerance reps·rate + 3·sqrt(reps·rate·(1-rate)).
func maxWrong(reps int, rate float64) float64 {
	r := float64(reps)
	return r*rate + 3*math.Sqrt(r*rate*(1-rate))
}

func TestSPRTErrorRates(t *testing.T) {
	const (
		theta, delta = 0.5, 0.05
		reps         = 500
	)
	tests := []struct {
		name        string
		p           float64
		alpha, beta float64
		wrong       string  // the wrong decision at this p
		bound       float64 // its error bound
	}{
		// Well inside H0 (p >= 0.55) and H1 (p <= 0.45): errors <= alpha, beta.
		{"inside H0", 0.65, 0.05, 0.05, DecisionReject, 0.05},
		{"inside H1", 0.35, 0.05, 0.05, DecisionAccept, 0.05},
		{"inside H0 asym", 0.62, 0.01, 0.1, DecisionReject, 0.01},
		{"inside H1 asym", 0.38, 0.01, 0.1, DecisionAccept, 0.1},
		// On the edges of the indifference region Wald's bounds are
		// alpha/(1-beta) and beta/(1-alpha).
		{"edge H0", 0.55, 0.05, 0.05, DecisionReject, 0.05 / 0.95},
		{"edge H1", 0.45, 0.05, 0.05, DecisionAccept, 0.05 / 0.95},
		{"edge H0 asym", 0.55, 0.01, 0.1, DecisionReject, 0.01 / 0.9},
		{"edge H1 asym", 0.45, 0.01, 0.1, DecisionAccept, 0.1 / 0.99},
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			wrong, sumN := 0, 0
			for rep := range reps {
				rng := rand.New(rand.NewPCG(uint64(1000+i), uint64(rep)))
				r := sprtRun(t, rng, tc.p, theta, delta, tc.alpha, tc.beta)
				if r.Decision == DecisionUndecided {
					t.Fatalf("rep %d undecided: %+v", rep, r)
				}
				if r.Decision == tc.wrong {
					wrong++
				}
				sumN += r.N
			}
			limit := maxWrong(reps, tc.bound)
			t.Logf("p=%v alpha=%v beta=%v: wrong %q in %d/%d (%.1f%%, bound %.1f%%, limit %.1f), mean N %.1f",
				tc.p, tc.alpha, tc.beta, tc.wrong, wrong, reps, 100*float64(wrong)/reps, 100*tc.bound, limit, float64(sumN)/reps)
			if float64(wrong) > limit {
				t.Errorf("wrong decisions %d/%d > %.1f", wrong, reps, limit)
			}
		})
	}
}

// At p = theta the LLR has no drift; Planned approximates the mean N there.
func TestSPRTPlanned(t *testing.T) {
	const reps = 500
	s := mustSPRT(t, 0.5, 0.05, 0.05, 0.05)
	planned := s.Planned()
	// -log(19)·log(1/19)/log(0.55/0.45)² ≈ 215.2.
	if planned != 216 {
		t.Errorf("Planned() = %d, want 216", planned)
	}
	sumN := 0
	for rep := range reps {
		rng := rand.New(rand.NewPCG(77, uint64(rep)))
		sumN += sprtRun(t, rng, 0.5, 0.5, 0.05, 0.05, 0.05).N
	}
	mean := float64(sumN) / reps
	t.Logf("p=theta: mean N %.1f, Planned %d", mean, planned)
	if mean < 0.6*float64(planned) || mean > 1.4*float64(planned) {
		t.Errorf("mean N at p=theta %.1f far from Planned %d", mean, planned)
	}
}
