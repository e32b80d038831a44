package estimator

import (
	"fmt"
	"math"
)

// SPRT decisions, as reported in SPRTResult.Decision.
const (
	DecisionAccept    = "accept"    // H0 accepted: p >= theta (p >= theta+delta with error <= beta)
	DecisionReject    = "reject"    // H0 rejected: p < theta (p <= theta-delta with error <= alpha)
	DecisionUndecided = "undecided" // no decision yet (or MaxRuns reached first)
)

// SPRT is Wald's sequential probability ratio test for a Bernoulli
// parameter p with indifference region [theta-delta, theta+delta]:
//
//	H0: p >= p0 = theta+delta    vs    H1: p <= p1 = theta-delta
//
// It answers the query Pr[<=N](<> prop) >= theta. After each outcome it
// adds to the log-likelihood ratio
//
//	LLR = sum log(P(x | p1) / P(x | p0))
//	    = K·log(p1/p0) + (N-K)·log((1-p1)/(1-p0))
//
// and rejects H0 when LLR >= log((1-beta)/alpha) (UpperBound), accepts H0
// when LLR <= log(beta/(1-alpha)) (LowerBound). By Wald's inequalities the
// probability of rejecting H0 when it holds is at most about alpha, and of
// accepting it when H1 holds at most about beta (precisely alpha' <=
// alpha/(1-beta), beta' <= beta/(1-alpha), alpha'+beta' <= alpha+beta);
// inside the indifference region either answer is acceptable. The test
// stops with probability 1.
type SPRT struct {
	theta, delta, alpha, beta float64

	stepSat, stepUnsat float64 // LLR increments
	lower, upper       float64 // log(beta/(1-alpha)), log((1-beta)/alpha)
	maxRuns            int

	n, k     int
	llr      float64
	decision string
}

// SPRTResult is a snapshot of an SPRT.
type SPRTResult struct {
	// Decision is DecisionAccept (H0: p >= theta), DecisionReject
	// (p < theta) or DecisionUndecided.
	Decision string `json:"decision"`
	N        int    `json:"n"` // runs used
	K        int    `json:"k"` // successes among them
	// LLR is the log-likelihood ratio log(L(p1)/L(p0)) after N runs.
	LLR float64 `json:"llr"`
	// LowerBound = log(beta/(1-alpha)) and UpperBound = log((1-beta)/alpha)
	// are the thresholds for accepting and rejecting H0.
	LowerBound float64 `json:"lower_bound"`
	UpperBound float64 `json:"upper_bound"`
}

// NewSPRT returns a test of H0: p >= theta+delta against H1:
// p <= theta-delta with type I error alpha (P(reject H0 | H0)) and type II
// error beta (P(accept H0 | H1)). It needs 0 < delta, 0 < theta-delta,
// theta+delta < 1, alpha and beta in (0, 1) and alpha+beta < 1.
func NewSPRT(theta, delta, alpha, beta float64) (*SPRT, error) {
	if !(delta > 0) {
		return nil, fmt.Errorf("estimator: SPRT indifference half-width delta must be > 0, got %v", delta)
	}
	if !(theta-delta > 0 && theta+delta < 1) {
		return nil, fmt.Errorf("estimator: SPRT needs 0 < theta-delta and theta+delta < 1, got theta=%v, delta=%v", theta, delta)
	}
	if err := checkAlpha("alpha", alpha); err != nil {
		return nil, err
	}
	if err := checkAlpha("beta", beta); err != nil {
		return nil, err
	}
	if !(alpha+beta < 1) {
		return nil, fmt.Errorf("estimator: SPRT needs alpha+beta < 1, got alpha=%v, beta=%v", alpha, beta)
	}
	p0, p1 := theta+delta, theta-delta
	return &SPRT{
		theta: theta, delta: delta, alpha: alpha, beta: beta,
		stepSat:   math.Log(p1 / p0),
		stepUnsat: math.Log1p(-p1) - math.Log1p(-p0),
		lower:     math.Log(beta / (1 - alpha)),
		upper:     math.Log((1 - beta) / alpha),
		decision:  DecisionUndecided,
	}, nil
}

// SetMaxRuns makes the test give up, undecided, after n runs (n <= 0: no
// limit). Use it to bound the cost when p may lie in the indifference
// region, where the expected sample size is largest. Callers that run
// the test to the end should always set one (DefaultSPRTMaxRuns).
func (s *SPRT) SetMaxRuns(n int) { s.maxRuns = max(n, 0) }

// MaxRuns returns the cap set by SetMaxRuns (0: none).
func (s *SPRT) MaxRuns() int { return s.maxRuns }

// DefaultSPRTMaxRunsFactor times Planned (Wald's expected sample size at
// the worst p) is the default cap on an SPRT's runs. The SPRT stops with
// probability 1 but its sample size has a long tail inside the
// indifference region; at 10 times the worst-case expected size the tail
// is negligible (computed exactly in the soundness suite: the cap is
// reached with probability 7e-6 to 5e-5 at p = theta, below 1e-9 at
// theta ± delta), and a test that reaches the cap ends undecided instead
// of running on.
const DefaultSPRTMaxRunsFactor = 10

// DefaultSPRTMaxRuns is the cap used when the query sets no MaxRuns:
// DefaultSPRTMaxRunsFactor times Planned.
func (s *SPRT) DefaultSPRTMaxRuns() int {
	p := s.plannedUncapped()
	if p > math.MaxInt/DefaultSPRTMaxRunsFactor {
		return math.MaxInt
	}
	return p * DefaultSPRTMaxRunsFactor
}

// Add feeds the next outcome. It returns true once the test has stopped
// (decided, or reached MaxRuns); later outcomes are ignored.
func (s *SPRT) Add(sat bool) (done bool) {
	if s.Done() {
		return true
	}
	s.n++
	if sat {
		s.k++
	}
	// Recomputed from the counts rather than accumulated, so rounding does
	// not drift over long runs.
	s.llr = float64(s.k)*s.stepSat + float64(s.n-s.k)*s.stepUnsat
	switch {
	case s.llr >= s.upper:
		s.decision = DecisionReject
	case s.llr <= s.lower:
		s.decision = DecisionAccept
	}
	return s.Done()
}

// Done reports whether the test has decided or reached its MaxRuns.
func (s *SPRT) Done() bool {
	return s.decision != DecisionUndecided || (s.maxRuns > 0 && s.n >= s.maxRuns)
}

// Result returns the state of the test.
func (s *SPRT) Result() SPRTResult {
	return SPRTResult{
		Decision:   s.decision,
		N:          s.n,
		K:          s.k,
		LLR:        s.llr,
		LowerBound: s.lower,
		UpperBound: s.upper,
	}
}

// Planned returns Wald's approximation of the expected number of runs at
// the worst p (inside the indifference region, where the LLR has no drift):
// -log(A)·log(B)/E[z²], rounded up. It is an estimate for progress displays,
// not a bound (or MaxRuns when that is smaller).
func (s *SPRT) Planned() int {
	planned := s.plannedUncapped()
	if s.maxRuns > 0 {
		planned = min(planned, s.maxRuns)
	}
	return planned
}

func (s *SPRT) plannedUncapped() int {
	// At the zero-drift p*, p*·a + (1-p*)·b = 0 with a = stepSat < 0 < b = stepUnsat.
	a, b := s.stepSat, s.stepUnsat
	ps := b / (b - a)
	ez2 := ps*a*a + (1-ps)*b*b
	n := math.Ceil(-s.lower * s.upper / ez2)
	if n < math.MaxInt {
		return int(n)
	}
	return math.MaxInt
}
