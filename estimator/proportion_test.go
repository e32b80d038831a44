package estimator

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

func TestParseRule(t *testing.T) {
	tests := []struct {
		in      string
		want    Rule
		wantErr bool
	}{
		{"checkpoint", RuleCheckpoint, false},
		{"", RuleCheckpoint, false},
		{"lodin", RuleLodin, false},
		{" LODIN ", RuleLodin, false},
		{"fixed", RuleFixed, false},
		{"Fixed", RuleFixed, false},
		{"okamoto", 0, true},
		{"sequential", 0, true},
	}
	for _, tc := range tests {
		got, err := ParseRule(tc.in)
		if (err != nil) != tc.wantErr || (!tc.wantErr && got != tc.want) {
			t.Errorf("ParseRule(%q) = %v, %v; want %v, error %v", tc.in, got, err, tc.want, tc.wantErr)
		}
	}
	for _, r := range []Rule{RuleCheckpoint, RuleLodin, RuleFixed} {
		back, err := ParseRule(r.String())
		if err != nil || back != r {
			t.Errorf("ParseRule(%v.String()) = %v, %v", r, back, err)
		}
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		var u Rule
		if err := json.Unmarshal(b, &u); err != nil || u != r {
			t.Errorf("JSON round trip of %v: %s -> %v, %v", r, b, u, err)
		}
	}
	if s := Rule(7).String(); s != "Rule(7)" {
		t.Errorf("Rule(7).String() = %q", s)
	}
}

func TestNewProportionInvalid(t *testing.T) {
	tests := []struct {
		name string
		cfg  ProportionConfig
	}{
		{"zero config", ProportionConfig{}},
		{"alpha=0", ProportionConfig{Alpha: 0, Epsilon: 0.01}},
		{"alpha=1", ProportionConfig{Alpha: 1, Epsilon: 0.01}},
		{"alpha NaN", ProportionConfig{Alpha: math.NaN(), Epsilon: 0.01}},
		{"epsilon=0", ProportionConfig{Alpha: 0.05, Epsilon: 0}},
		{"epsilon<0", ProportionConfig{Alpha: 0.05, Epsilon: -0.01}},
		{"epsilon=1", ProportionConfig{Alpha: 0.05, Epsilon: 1}},
		{"bad rule", ProportionConfig{Alpha: 0.05, Epsilon: 0.01, Rule: 9}},
		{"negative rule", ProportionConfig{Alpha: 0.05, Epsilon: 0.01, Rule: -1}},
		{"MinRuns<0", ProportionConfig{Alpha: 0.05, Epsilon: 0.01, MinRuns: -1}},
		{"MaxRuns<0", ProportionConfig{Alpha: 0.05, Epsilon: 0.01, MaxRuns: -1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if p, err := NewProportion(tc.cfg); err == nil {
				t.Errorf("NewProportion(%+v) = %v, nil; want error", tc.cfg, p)
			}
		})
	}
}

func mustProportion(t *testing.T, cfg ProportionConfig) *Proportion {
	t.Helper()
	p, err := NewProportion(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// feed adds outcomes from gen until the rule stops or limit outcomes.
func feed(p *Proportion, gen func(i int) bool, limit int) {
	for i := 0; i < limit && !p.Add(gen(i)); i++ {
	}
}

func never(int) bool       { return false }
func always(int) bool      { return true }
func alternate(i int) bool { return i%2 == 0 }

func TestProportionDeterministic(t *testing.T) {
	tests := []struct {
		name       string
		cfg        ProportionConfig
		gen        func(int) bool
		wantN      int
		wantK      int
		wantAlpha  float64
		wantReason string // "" = width or okamoto, consistent with the half-width
		planned    int
	}{
		// k = 0: at n=100, alpha/4, hi = 1-(alpha/8)^(1/100) ≈ 0.050: half-width 0.025 <= 0.05.
		// The cap is OkamotoN(0.05, alpha/2) = 877.
		{"checkpoint k=0 first", ProportionConfig{Alpha: 0.05, Epsilon: 0.05}, never, 100, 0, 0.05 / 4, ReasonWidth, 877},
		// eps 0.01: 100 (hw .027), 200 (.014), 400 (.008) -> stops at the third checkpoint, alpha/16.
		{"checkpoint k=0 third", ProportionConfig{Alpha: 0.05, Epsilon: 0.01}, never, 400, 0, 0.05 / 16, ReasonWidth, 21911},
		{"checkpoint k=n third", ProportionConfig{Alpha: 0.05, Epsilon: 0.01}, always, 400, 400, 0.05 / 16, ReasonWidth, 21911},
		// p̂ = 1/2 never narrows before the cap 877 = OkamotoN(0.05, 0.025):
		// checkpoints 100, 200, 400, 800 at alpha/4, /8, /16, /32, then 877
		// with the rest, alpha/2 + alpha/32; there the half-width is within 0.05.
		{"checkpoint reaches okamoto", ProportionConfig{Alpha: 0.05, Epsilon: 0.05}, alternate, 877, 439, 0.05/2 + math.Ldexp(0.05, -5), ReasonWidth, 877},
		// n0 = 50, k = 0: hi = 1-0.00625^(1/50) ≈ 0.096, half-width 0.048 <= 0.05 at the first checkpoint.
		{"checkpoint n0=50", ProportionConfig{Alpha: 0.05, Epsilon: 0.05, MinRuns: 50}, never, 50, 0, 0.05 / 4, ReasonWidth, 877},
		{"checkpoint n0=50 eps=0.03", ProportionConfig{Alpha: 0.05, Epsilon: 0.03, MinRuns: 50}, never, 100, 0, 0.05 / 8, ReasonWidth, 2435},
		// n0 beyond the cap: one checkpoint, at the cap, with all of alpha.
		{"checkpoint n0 > okamoto", ProportionConfig{Alpha: 0.05, Epsilon: 0.1, MinRuns: 1000}, alternate, 220, 110, 0.05, ReasonWidth, 220},
		{"checkpoint maxruns", ProportionConfig{Alpha: 0.05, Epsilon: 0.01, MaxRuns: 300}, alternate, 300, 150, 0.05/2 + math.Ldexp(0.05, -3), ReasonMaxRuns, 300},
		{"checkpoint maxruns < n0", ProportionConfig{Alpha: 0.05, Epsilon: 0.01, MaxRuns: 30}, alternate, 30, 15, 0.05, ReasonMaxRuns, 30},
		{"fixed", ProportionConfig{Alpha: 0.05, Epsilon: 0.05, Rule: RuleFixed}, never, 738, 0, 0.05, ReasonOkamoto, 738},
		{"fixed maxruns", ProportionConfig{Alpha: 0.05, Epsilon: 0.05, Rule: RuleFixed, MaxRuns: 10}, always, 10, 10, 0.05, ReasonMaxRuns, 10},
		// LODIN: k = 0 from n0 on: hi = 1-0.025^(1/n) <= 0.02 from n = 183.
		{"lodin k=0", ProportionConfig{Alpha: 0.05, Epsilon: 0.01, Rule: RuleLodin}, never, 183, 0, 0.05, ReasonWidth, 18445},
		{"lodin n0", ProportionConfig{Alpha: 0.05, Epsilon: 0.05, Rule: RuleLodin, MinRuns: 500}, never, 500, 0, 0.05, ReasonWidth, 738},
		{"lodin n0 > okamoto", ProportionConfig{Alpha: 0.05, Epsilon: 0.1, Rule: RuleLodin, MinRuns: 1000}, alternate, 1000, 500, 0.05, ReasonWidth, 1000},
		{"lodin maxruns", ProportionConfig{Alpha: 0.05, Epsilon: 0.01, Rule: RuleLodin, MaxRuns: 150}, alternate, 150, 75, 0.05, ReasonMaxRuns, 150},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := mustProportion(t, tc.cfg)
			if got := p.Planned(); got != tc.planned {
				t.Errorf("Planned() = %d, want %d", got, tc.planned)
			}
			feed(p, tc.gen, 1<<30)
			r := p.Result()
			if !p.Done() || !r.Stopped {
				t.Fatalf("not stopped: %+v", r)
			}
			if r.N != tc.wantN || r.K != tc.wantK || r.Alpha != tc.wantAlpha {
				t.Errorf("stopped at N=%d K=%d alpha=%v, want N=%d K=%d alpha=%v", r.N, r.K, r.Alpha, tc.wantN, tc.wantK, tc.wantAlpha)
			}
			wantReason := tc.wantReason
			if wantReason == "" {
				wantReason = ReasonOkamoto
				if r.HalfWidth() <= tc.cfg.Epsilon {
					wantReason = ReasonWidth
				}
			}
			if r.Reason != wantReason {
				t.Errorf("Reason = %q, want %q (half-width %v)", r.Reason, wantReason, r.HalfWidth())
			}
			lo, hi := ClopperPearson(r.K, r.N, r.Alpha)
			if r.Lo != lo || r.Hi != hi {
				t.Errorf("interval [%v, %v], want CP(%d, %d, %v) = [%v, %v]", r.Lo, r.Hi, r.K, r.N, r.Alpha, lo, hi)
			}
			if r.Confidence != 1-tc.cfg.Alpha || r.Rule != tc.cfg.Rule.String() {
				t.Errorf("Confidence %v, Rule %q", r.Confidence, r.Rule)
			}
			if r.Estimate != float64(r.K)/float64(r.N) {
				t.Errorf("Estimate %v, want %v", r.Estimate, float64(r.K)/float64(r.N))
			}
			// Further outcomes are ignored.
			for range 5 {
				if !p.Add(true) {
					t.Fatal("Add after stop returned false")
				}
			}
			if r2 := p.Result(); r2 != r {
				t.Errorf("result changed after stop: %+v -> %+v", r, r2)
			}
		})
	}
}

// The checkpoint schedule is n0·2^j truncated at the cap, and its levels
// add up to exactly alpha (the union bound's budget).
func TestCheckpointSchedule(t *testing.T) {
	for _, tc := range []struct {
		cfg  ProportionConfig
		want []int
	}{
		{ProportionConfig{Alpha: 0.05, Epsilon: 0.01}, []int{100, 200, 400, 800, 1600, 3200, 6400, 12800, 21911}},
		{ProportionConfig{Alpha: 0.01, Epsilon: 0.04, MinRuns: 1000}, []int{1000, 1873}},
		{ProportionConfig{Alpha: 0.2, Epsilon: 0.3, MinRuns: 1}, []int{1, 2, 4, 8, 16, 17}},
		{ProportionConfig{Alpha: 0.05, Epsilon: 0.001, MaxRuns: 5000}, []int{100, 200, 400, 800, 1600, 3200, 5000}},
	} {
		p := mustProportion(t, tc.cfg)
		var got []int
		sum := 0.0
		for !p.Done() {
			got = append(got, p.marks[p.j])
			sum += p.checkpointAlpha()
			if r := p.Result(); r.Alpha != p.checkpointAlpha() || r.Stopped {
				t.Fatalf("interim result %+v, want alpha %v", r, p.checkpointAlpha())
			}
			// Outcomes that never give a narrow interval before the cap.
			for target := p.marks[p.j]; p.n < target; {
				p.Add(p.n%2 == 0)
			}
		}
		if len(got) != len(tc.want) {
			t.Errorf("%+v: checkpoints %v, want %v", tc.cfg, got, tc.want)
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("%+v: checkpoints %v, want %v", tc.cfg, got, tc.want)
				break
			}
		}
		if math.Abs(sum-tc.cfg.Alpha) > 1e-15 {
			t.Errorf("%+v: levels sum to %v, want alpha=%v", tc.cfg, sum, tc.cfg.Alpha)
		}
	}
}

func TestProportionInterim(t *testing.T) {
	p := mustProportion(t, ProportionConfig{Alpha: 0.05, Epsilon: 0.01})
	r := p.Result()
	if r.N != 0 || r.Lo != 0 || r.Hi != 1 || r.Estimate != 0 || r.Stopped || r.Reason != "" {
		t.Errorf("empty result %+v", r)
	}
	if _, err := json.Marshal(r); err != nil {
		t.Errorf("empty result does not encode: %v", err)
	}
	for i := range 50 {
		p.Add(i%5 == 0)
	}
	r = p.Result()
	lo, hi := ClopperPearson(10, 50, 0.0125)
	if r.N != 50 || r.K != 10 || r.Alpha != 0.0125 || r.Lo != lo || r.Hi != hi || r.Stopped {
		t.Errorf("interim result %+v, want CP(10, 50, 0.0125) = [%v, %v]", r, lo, hi)
	}
}

// The pre-check that lets RuleLodin skip the quantiles never changes its
// decision: it agrees with computing the interval after every outcome.
func TestLodinMatchesBruteForce(t *testing.T) {
	for _, tc := range []struct {
		p, eps, alpha float64
		n0            int
	}{
		{0.3, 0.03, 0.05, 100},
		{0.5, 0.05, 0.01, 10},
		{0.05, 0.02, 0.05, 100},
		{0.97, 0.02, 0.1, 1},
		{0.001, 0.005, 0.05, 100},
	} {
		for seed := range uint64(20) {
			rng := rand.New(rand.NewPCG(seed, 7))
			var xs []bool
			p := mustProportion(t, ProportionConfig{Alpha: tc.alpha, Epsilon: tc.eps, Rule: RuleLodin, MinRuns: tc.n0})
			for {
				x := rng.Float64() < tc.p
				xs = append(xs, x)
				if p.Add(x) {
					break
				}
			}
			want, k := 0, 0
			for i, x := range xs {
				if x {
					k++
				}
				if i+1 < tc.n0 {
					continue
				}
				lo, hi := ClopperPearson(k, i+1, tc.alpha)
				if (hi-lo)/2 <= tc.eps {
					want = i + 1
					break
				}
			}
			if got := p.Result().N; got != want {
				t.Errorf("p=%v eps=%v seed=%d: LODIN stopped at %d, brute force at %d", tc.p, tc.eps, seed, got, want)
			}
		}
	}
}

func TestCPWiderThanIsSound(t *testing.T) {
	skipped := 0
	for _, n := range []int{1, 2, 10, 57, 300, 2000, 40_000, 1_000_000} {
		for _, alpha := range []float64{0.2, 0.05, 1e-4} {
			z := distuv.UnitNormal.Quantile(1 - alpha/2)
			for _, eps := range []float64{0.0005, 0.005, 0.02, 0.1, 0.3} {
				for k := 0; k <= n; k += max(1, n/150) {
					if !cpWiderThan(k, n, alpha, eps, z) {
						continue
					}
					skipped++
					lo, hi := ClopperPearson(k, n, alpha)
					if (hi-lo)/2 <= eps {
						t.Errorf("cpWiderThan(%d, %d, %v, %v) but half-width %v", k, n, alpha, eps, (hi-lo)/2)
					}
				}
			}
		}
	}
	if skipped == 0 {
		t.Error("cpWiderThan never certified a wide interval")
	}
	// The bounds are lower bounds of the binomial tails.
	for _, n := range []float64{5, 100, 3000} {
		for _, q := range []float64{0.001, 0.1, 0.5, 0.93} {
			for x := 0.0; x <= n; x += max(1, math.Floor(n/50)) {
				cdf := distuv.Binomial{N: n, P: q}.CDF(x)
				if lb := binomCDFLowerBound(x, n, q); lb > cdf+1e-12 {
					t.Errorf("n=%v q=%v: CDF bound at %v = %v > P(X<=x) = %v", n, q, x, lb, cdf)
				}
				sf := 1.0
				if x > 0 {
					sf = 1 - distuv.Binomial{N: n, P: q}.CDF(x-1)
				}
				if lb := binomSFLowerBound(x, n, q); lb > sf+1e-12 {
					t.Errorf("n=%v q=%v: SF bound at %v = %v > P(X>=x) = %v", n, q, x, lb, sf)
				}
			}
		}
	}
}

type coverageCase struct {
	p, eps float64
	rule   Rule
	reps   int
	assert bool // assert nominal coverage (not for RuleLodin)
	heavy  bool
}

// runCoverage runs reps independent estimations of a Bernoulli(p) and
// returns how many intervals covered p and the mean number of runs.
func runCoverage(t *testing.T, c coverageCase, alpha float64, seed uint64) (covered int, meanN, meanHW float64) {
	t.Helper()
	for rep := range c.reps {
		rng := rand.New(rand.NewPCG(seed, uint64(rep)))
		p := mustProportion(t, ProportionConfig{Alpha: alpha, Epsilon: c.eps, Rule: c.rule})
		for !p.Add(rng.Float64() < c.p) {
		}
		r := p.Result()
		if r.Lo <= c.p && c.p <= r.Hi {
			covered++
		}
		meanN += float64(r.N)
		meanHW += r.HalfWidth()
	}
	return covered, meanN / float64(c.reps), meanHW / float64(c.reps)
}

// minCovered is the binomial tolerance (1-alpha)·reps - 3·sqrt(reps·alpha·(1-alpha)).
func minCovered(reps int, alpha float64) float64 {
	r := float64(reps)
	return (1-alpha)*r - 3*math.Sqrt(r*alpha*(1-alpha))
}

func TestProportionCoverage(t *testing.T) {
	const alpha = 0.05
	cases := []coverageCase{
		{p: 0.3, eps: 0.01, rule: RuleCheckpoint, reps: 200, assert: true},
		{p: 0.01, eps: 0.005, rule: RuleCheckpoint, reps: 200, assert: true},
		{p: 0.001, eps: 0.005, rule: RuleCheckpoint, reps: 200, assert: true},
		// Rare event with a relative precision of 50 %: many checkpoints.
		{p: 0.001, eps: 0.0005, rule: RuleCheckpoint, reps: 200, assert: true},
		{p: 0.3, eps: 0.01, rule: RuleFixed, reps: 200, assert: true, heavy: true},
		{p: 0.01, eps: 0.005, rule: RuleFixed, reps: 200, assert: true, heavy: true},
		// LODIN's rule: measured and logged only; optional stopping costs coverage.
		{p: 0.3, eps: 0.01, rule: RuleLodin, reps: 200, heavy: true},
		{p: 0.01, eps: 0.005, rule: RuleLodin, reps: 200, heavy: true},
		{p: 0.001, eps: 0.005, rule: RuleLodin, reps: 200, heavy: true},
		// (p=0.001, eps=0.0005 under RuleLodin takes ~17k runs a repetition
		// with the quantiles computed at nearly every run: too slow here.)
	}
	for _, c := range cases {
		t.Run(c.rule.String(), func(t *testing.T) {
			t.Parallel()
			if c.heavy && testing.Short() {
				t.Skip("heavy coverage variant")
			}
			covered, meanN, meanHW := runCoverage(t, c, alpha, 20240917)
			need := minCovered(c.reps, alpha)
			t.Logf("rule=%s p=%v eps=%v: covered %d/%d (%.1f%%), mean runs %.0f, mean half-width %.5f (need >= %.1f)",
				c.rule, c.p, c.eps, covered, c.reps, 100*float64(covered)/float64(c.reps), meanN, meanHW, need)
			if c.assert && float64(covered) < need {
				t.Errorf("rule=%s p=%v eps=%v: covered %d/%d, want >= %.1f", c.rule, c.p, c.eps, covered, c.reps, need)
			}
		})
	}
}

func BenchmarkProportionAdd(b *testing.B) {
	for _, rule := range []Rule{RuleCheckpoint, RuleLodin, RuleFixed} {
		b.Run(rule.String(), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(1, 2))
			p, _ := NewProportion(ProportionConfig{Alpha: 0.05, Epsilon: 1e-4, Rule: rule})
			for b.Loop() {
				p.Add(rng.Float64() < 0.3)
			}
		})
	}
}
