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
	n        int
	mean, m2 float64
	min, max float64
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
	d := x - m.mean
	m.mean += d / float64(m.n)
	m.m2 += d * (x - m.mean)
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
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(m.n - 1)}.Quantile(1 - alpha/2)
	h := t * r.StdDev / math.Sqrt(float64(m.n))
	r.Lo, r.Hi = m.mean-h, m.mean+h
	return r, nil
}
