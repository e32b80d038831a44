package estimator

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// Mean accumulates real-valued samples (one per run, e.g. the max of an
// expression over the run for Estimate[<=N,R]{max EXPR}) with Welford's
// numerically stable update. The zero value is ready to use.
type Mean struct {
	n            int
	mean, m2, m3 float64
	min, max     float64
}

// MeanResult is the estimate of a mean with its Student-t interval.
type MeanResult struct {
	N      int     `json:"n"`
	Mean   float64 `json:"mean"`
	StdDev float64 `json:"stddev"` // sample standard deviation (n-1 denominator)
	// Lo and Hi bound the two-sided Student-t interval
	// Mean ± t_{N-1, 1-alpha/2}·StdDev/sqrt(N).
	Lo         float64 `json:"lo"`
	Hi         float64 `json:"hi"`
	Confidence float64 `json:"confidence"` // 1-alpha
	Min        float64 `json:"min"`
	Max        float64 `json:"max"`
	// Skewness is the sample skewness g1 = m3/m2^1.5 (0 with fewer than
	// three samples or no spread).
	Skewness float64 `json:"skewness"`
}

// Add adds one sample. NaN and ±Inf are rejected with an error and not
// counted.
func (m *Mean) Add(x float64) error {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return fmt.Errorf("estimator: mean sample must be finite, got %v", x)
	}
	m.n++
	if m.n == 1 {
		m.min, m.max = x, x
	} else {
		m.min = math.Min(m.min, x)
		m.max = math.Max(m.max, x)
	}
	n := float64(m.n)
	d := x - m.mean
	dn := d / n
	t1 := d * dn * (n - 1)
	m.m3 += t1*dn*(n-2) - 3*dn*m.m2 // before m2 changes
	m.mean += dn
	m.m2 += d * (x - m.mean) // = t1; written as before the third moment existed, so means stay bit-identical
	return nil
}

// N returns the number of samples added.
func (m *Mean) N() int { return m.n }

// Result returns the sample mean, the sample standard deviation and the
// Student-t interval at confidence 1-alpha (exact for normal samples,
// asymptotically valid otherwise by the central limit theorem).
//
// With no samples it returns ErrNoSamples; an alpha outside (0, 1) is an
// error. With one sample the standard deviation is undefined: StdDev is
// NaN, Lo is -Inf and Hi is +Inf (encoding/json cannot encode these, so
// callers that serialise a one-sample result must special-case it).
func (m *Mean) Result(alpha float64) (MeanResult, error) {
	if err := checkAlpha("alpha", alpha); err != nil {
		return MeanResult{}, err
	}
	if m.n == 0 {
		return MeanResult{}, ErrNoSamples
	}
	r := MeanResult{N: m.n, Mean: m.mean, Confidence: 1 - alpha, Min: m.min, Max: m.max}
	if m.n == 1 {
		r.StdDev, r.Lo, r.Hi = math.NaN(), math.Inf(-1), math.Inf(1)
		return r, nil
	}
	r.StdDev = math.Sqrt(m.m2 / float64(m.n-1))
	if m.n > 2 && m.m2 > 0 {
		r.Skewness = math.Sqrt(float64(m.n)) * m.m3 / math.Pow(m.m2, 1.5)
	}
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(m.n - 1)}.Quantile(1 - alpha/2)
	h := t * r.StdDev / math.Sqrt(float64(m.n))
	r.Lo, r.Hi = m.mean-h, m.mean+h
	return r, nil
}

// CochranFactor is the constant of Cochran's rule for the t-interval of a
// mean: with sample skewness g1 it needs about CochranFactor·g1² samples
// before the central limit theorem makes it trustworthy.
const CochranFactor = 25

// CoverageNeed is the number of samples whose mean is normal enough for a
// 1-alpha interval to keep its confidence when their sample skewness is
// g: 28 + 25·g², Sugden, Smith and Jones's (2000) refinement of Cochran's
// rule 25·g² (the constant term matters for small, skewed samples).
func CoverageNeed(g float64) int {
	return int(math.Ceil(28 + CochranFactor*g*g))
}

// CoverageAssured reports whether the interval's coverage is assured by
// CoverageNeed: at least two samples with some spread, and N >=
// CoverageNeed(Skewness).
func (r MeanResult) CoverageAssured() bool {
	return r.N >= 2 && r.StdDev > 0 && r.N >= CoverageNeed(r.Skewness)
}

// Warnings says when the t-interval should not be trusted: every sample
// had the same value (the interval is a point: a value never seen may
// still have a probability up to about 3/N), or the samples are skewed
// beyond what their number supports (N < CoverageNeed(g1); skewed means
// are biased low in most samples and the interval under-covers). what
// names the samples ("values", "replication estimates").
func (r MeanResult) Warnings(what string) []string {
	var w []string
	switch {
	case r.N < 2:
		w = append(w, fmt.Sprintf("only %d %s: no interval", r.N, what))
	case r.StdDev == 0:
		w = append(w, fmt.Sprintf("all %d %s equal %g: the interval is a single point and says nothing about values not seen (one with probability 3/%d would be missed about 5%% of the time)", r.N, what, r.Mean, r.N))
	case r.N < CoverageNeed(r.Skewness):
		w = append(w, fmt.Sprintf("the %d %s are skewed (skewness %.2g): the interval's coverage is not assured, it may cover less than claimed; about %d are needed (28 + 25·skewness², Cochran's rule as refined by Sugden, Smith and Jones)", r.N, what, r.Skewness, CoverageNeed(r.Skewness)))
	}
	return w
}

// LogInterval returns the log-scale (delta-method) interval of a positive
// mean: Mean·exp(∓t·c) with c = StdDev/(sqrt(N)·Mean) and t the Student-t
// quantile at 1-alpha/2. It is asymmetric, wider above the mean than
// below, as the sampling distribution of a mean of right-skewed positive
// values is; for a mean of 0 it is [0, 0].
func (r MeanResult) LogInterval(alpha float64) (lo, hi float64) {
	if r.Mean <= 0 || r.N < 2 {
		return 0, 0
	}
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(r.N - 1)}.Quantile(1 - alpha/2)
	c := t * r.StdDev / (math.Sqrt(float64(r.N)) * r.Mean)
	return r.Mean * math.Exp(-c), r.Mean * math.Exp(c)
}
