package estimator

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/gonum/mathext"
	"gonum.org/v1/gonum/stat/distuv"
)

// Rule selects the stopping rule of a sequential proportion estimator.
type Rule int

const (
	// RuleCheckpoint (the default) checks the Clopper–Pearson interval only
	// at the checkpoints n0·2^j, at level alpha_j = alpha·2^-(j+1), and never
	// goes past the Okamoto sample size. It keeps nominal coverage.
	RuleCheckpoint Rule = iota
	// RuleLodin is LODIN's plain sequential rule: after every outcome from
	// n0 on, stop as soon as the Clopper–Pearson interval at alpha is at most
	// 2·epsilon wide. Optional stopping means its coverage is not
	// guaranteed; computed exactly it lies between 0.940 and 0.961 at a
	// nominal 0.95 (rare events included). It is kept for compatibility
	// with LODIN's results.
	RuleLodin
	// RuleFixed runs exactly the Okamoto sample size OkamotoN(epsilon, alpha)
	// and reports the Clopper–Pearson interval at alpha.
	RuleFixed
)

var ruleNames = [...]string{
	RuleCheckpoint: "checkpoint",
	RuleLodin:      "lodin",
	RuleFixed:      "fixed",
}

// String returns the rule's name as accepted by ParseRule.
func (r Rule) String() string {
	if r >= 0 && int(r) < len(ruleNames) {
		return ruleNames[r]
	}
	return fmt.Sprintf("Rule(%d)", int(r))
}

// ParseRule parses a rule name: "checkpoint", "lodin" or "fixed"
// (case-insensitive, surrounding space ignored). The empty string is the
// default rule, RuleCheckpoint.
func ParseRule(s string) (Rule, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	if t == "" {
		return RuleCheckpoint, nil
	}
	for r, name := range ruleNames {
		if t == name {
			return Rule(r), nil
		}
	}
	return 0, fmt.Errorf("estimator: unknown stopping rule %q (want checkpoint, lodin or fixed)", s)
}

// MarshalText implements encoding.TextMarshaler.
func (r Rule) MarshalText() ([]byte, error) {
	if r < 0 || int(r) >= len(ruleNames) {
		return nil, fmt.Errorf("estimator: invalid stopping rule %d", int(r))
	}
	return []byte(ruleNames[r]), nil
}

// UnmarshalText implements encoding.TextUnmarshaler using ParseRule.
func (r *Rule) UnmarshalText(b []byte) error {
	v, err := ParseRule(string(b))
	if err != nil {
		return err
	}
	*r = v
	return nil
}

// DefaultMinRuns is the n0 used when ProportionConfig.MinRuns is 0.
const DefaultMinRuns = 100

// ProportionConfig configures a sequential proportion estimator.
type ProportionConfig struct {
	// Alpha is the error probability: the interval has confidence 1-Alpha.
	// In (0, 1).
	Alpha float64
	// Epsilon is the wanted half-width of the interval. In (0, 1).
	Epsilon float64
	// Rule is the stopping rule; the zero value is RuleCheckpoint.
	Rule Rule
	// MinRuns is n0: the first checkpoint (RuleCheckpoint) or the first run
	// at which the width is checked (RuleLodin). 0 means DefaultMinRuns.
	// Ignored by RuleFixed.
	MinRuns int
	// MaxRuns, when positive, caps the number of runs below the rule's own
	// cap. A rule stopped by MaxRuns reports its interval at that point
	// (Reason "maxruns"); its half-width may exceed Epsilon. 0 means no
	// cap other than the rule's own.
	MaxRuns int
}

// Reasons a Proportion stopped, as reported in ProportionResult.Reason.
const (
	ReasonWidth   = "width"   // the interval's half-width reached Epsilon
	ReasonOkamoto = "okamoto" // the Okamoto sample size was reached
	ReasonMaxRuns = "maxruns" // ProportionConfig.MaxRuns was reached
)

// ProportionResult is a snapshot of a Proportion.
type ProportionResult struct {
	K        int     `json:"k"`        // successes
	N        int     `json:"n"`        // runs
	Estimate float64 `json:"estimate"` // K/N (0 when N = 0)
	// Lo and Hi bound the Clopper–Pearson interval computed at level Alpha.
	Lo float64 `json:"lo"`
	Hi float64 `json:"hi"`
	// Confidence is the coverage the procedure claims: 1 - cfg.Alpha. For
	// RuleCheckpoint it holds overall by the union bound even though the
	// interval itself is computed at a smaller Alpha; for RuleLodin it is
	// nominal only. Before Stopped, Lo and Hi are progress figures with
	// no coverage guarantee.
	Confidence float64 `json:"confidence"`
	// Alpha is the level the reported Clopper–Pearson interval was
	// computed at (for RuleCheckpoint, alpha_j of the last checkpoint; before
	// stopping, the level of the next check).
	Alpha   float64 `json:"alpha"`
	Rule    string  `json:"rule"`
	Stopped bool    `json:"stopped"`
	// Reason is ReasonWidth, ReasonOkamoto or ReasonMaxRuns once Stopped,
	// and "" before.
	Reason string `json:"reason,omitempty"`
	// Epsilon is the half-width asked for; once Stopped, EpsilonReached
	// tells whether the interval's half-width is at most Epsilon (always
	// the case unless MaxRuns stopped the rule first).
	Epsilon        float64 `json:"epsilon"`
	EpsilonReached bool    `json:"epsilon_reached"`
}

// HalfWidth returns (Hi-Lo)/2.
func (r ProportionResult) HalfWidth() float64 { return (r.Hi - r.Lo) / 2 }

// Proportion estimates a probability from Bernoulli outcomes fed strictly
// in order, and decides when to stop according to its Rule.
//
// # Coverage
//
// RuleFixed fixes n = OkamotoN(epsilon, alpha) in advance, so its
// Clopper–Pearson interval at alpha has exact coverage >= 1-alpha; and by the
// Chernoff–Hoeffding bound, at that n the interval lies inside p̂ ± epsilon
// (each Clopper–Pearson bound is where a binomial tail equals alpha/2, and
// Hoeffding bounds that tail by exp(-2n·epsilon²) <= alpha/2 at distance
// epsilon).
//
// RuleCheckpoint looks at the data only at checkpoints fixed in advance,
// c_j = min(n0·2^j, C), where C = OkamotoN(epsilon, alpha/2) (or MaxRuns if
// smaller) is the last one. At checkpoint j < J (the last) it computes the
// Clopper–Pearson interval I_j at alpha_j = alpha·2^-(j+2); the last gets
// the rest of the budget, alpha_J = alpha/2 + alpha·2^-(J+1) >= alpha/2.
// Each I_j, computed at a fixed sample size, misses p with probability
// <= alpha_j, and sum_j alpha_j = alpha. Whatever data-dependent rule picks
// the checkpoint at which to stop, the reported interval is one of the I_j,
// so
//
//	P(reported interval misses p) <= P(some I_j misses p) <= sum_j alpha_j = alpha
//
// by the union bound: coverage >= 1-alpha. The rule stops at the first
// checkpoint whose interval has half-width <= epsilon, and at C in any
// case; since alpha_J >= alpha/2 and C = OkamotoN(epsilon, alpha/2), the
// interval at C lies inside p̂ ± epsilon by the argument above, so the
// rule always ends with half-width <= epsilon (unless MaxRuns cut C short:
// Result.EpsilonReached says so). The price is at most
// ln(4/alpha)/ln(2/alpha) times RuleFixed's runs (1.19 at alpha = 0.05) for
// p near 1/2; for rare events it stops far earlier than C (p = 0.001,
// epsilon = 0.0005: about 10^5 runs instead of 8.8·10^6).
//
// RuleLodin checks the interval at the full alpha after every outcome from
// n0 on. That is optional stopping, so its coverage is not guaranteed;
// computed exactly (estimator's soundness tests, docs/statistics.md) it
// lies between 0.940 and 0.961 at alpha = 0.05 over 12 pairs (p, epsilon)
// with p from 0.0002 to 0.5: close to nominal, sometimes a little below,
// rare events included; no theorem bounds it. It is kept by
// name for comparison with LODIN. It stops by max(n0, OkamotoN) at the
// latest.
type Proportion struct {
	alpha, eps float64
	rule       Rule
	n0         int
	z          float64 // RuleLodin: normal quantile at 1-alpha/2, for cpWiderThan

	cap       int    // the rule stops at n == cap at the latest
	capReason string // ReasonOkamoto or ReasonMaxRuns

	// RuleCheckpoint: the checkpoints c_j and their levels alpha_j.
	marks  []int
	alphas []float64

	k, n int
	j    int // RuleCheckpoint: the index of the next checkpoint

	done   bool
	reason string
	lo, hi float64
	at     float64 // alpha the final interval was computed at
}

// NewProportion validates cfg and returns an estimator that has seen no
// outcomes.
func NewProportion(cfg ProportionConfig) (*Proportion, error) {
	if err := checkAlpha("alpha", cfg.Alpha); err != nil {
		return nil, err
	}
	if err := checkEpsilon(cfg.Epsilon); err != nil {
		return nil, err
	}
	if cfg.Rule < 0 || int(cfg.Rule) >= len(ruleNames) {
		return nil, fmt.Errorf("estimator: invalid stopping rule %d", int(cfg.Rule))
	}
	if cfg.MinRuns < 0 {
		return nil, fmt.Errorf("estimator: MinRuns must be >= 0, got %d", cfg.MinRuns)
	}
	if cfg.MaxRuns < 0 {
		return nil, fmt.Errorf("estimator: MaxRuns must be >= 0, got %d", cfg.MaxRuns)
	}
	n0 := cfg.MinRuns
	if n0 == 0 {
		n0 = DefaultMinRuns
	}
	capAlpha := cfg.Alpha
	if cfg.Rule == RuleCheckpoint {
		capAlpha = cfg.Alpha / 2 // the last checkpoint's share, at least
	}
	ok, err := CheckedOkamotoN(cfg.Epsilon, capAlpha)
	if err != nil {
		return nil, err
	}
	p := &Proportion{
		alpha:     cfg.Alpha,
		eps:       cfg.Epsilon,
		rule:      cfg.Rule,
		n0:        n0,
		cap:       ok,
		capReason: ReasonOkamoto,
	}
	if p.rule == RuleLodin && n0 > p.cap {
		// At n0 >= OkamotoN the interval at alpha is within epsilon, so
		// LODIN's rule stops at its first check.
		p.cap = n0
	}
	if cfg.MaxRuns > 0 && cfg.MaxRuns < p.cap {
		p.cap = cfg.MaxRuns
		p.capReason = ReasonMaxRuns
	}
	switch p.rule {
	case RuleLodin:
		p.z = distuv.UnitNormal.Quantile(1 - p.alpha/2)
	case RuleCheckpoint:
		for j := 0; ; j++ {
			c := p.cap
			if j < 62 && n0 <= p.cap>>j {
				c = min(n0<<j, p.cap)
			}
			if c >= p.cap {
				p.marks = append(p.marks, p.cap)
				p.alphas = append(p.alphas, p.alpha/2+math.Ldexp(p.alpha, -(j+1)))
				break
			}
			p.marks = append(p.marks, c)
			p.alphas = append(p.alphas, math.Ldexp(p.alpha, -(j+2)))
		}
	}
	return p, nil
}

// Add feeds the next outcome (true: the property held on this run). It
// returns true once the rule has stopped; outcomes added after that are
// ignored and Add keeps returning true.
func (p *Proportion) Add(sat bool) (done bool) {
	if p.done {
		return true
	}
	p.n++
	if sat {
		p.k++
	}
	if stop, lo, hi, at, reason := p.decide(p.k, p.n); stop {
		p.done = true
		p.lo, p.hi, p.at, p.reason = lo, hi, at, reason
	} else if p.rule == RuleCheckpoint && p.n == p.marks[p.j] {
		p.j++
	}
	return p.done
}

// decide reports whether the rule stops after k successes in n runs, and
// the interval it reports then. It depends on (k, n) and the configuration
// only, which is what lets tests compute the rule's exact coverage.
func (p *Proportion) decide(k, n int) (stop bool, lo, hi, at float64, reason string) {
	switch p.rule {
	case RuleFixed:
		if n >= p.cap {
			lo, hi := cpBounds(k, n, p.alpha)
			return true, lo, hi, p.alpha, p.capReason
		}
	case RuleLodin:
		if (n >= p.n0 && !cpWiderThan(k, n, p.alpha, p.eps, p.z)) || n >= p.cap {
			lo, hi := cpBounds(k, n, p.alpha)
			switch {
			case (hi-lo)/2 <= p.eps:
				return true, lo, hi, p.alpha, ReasonWidth
			case n >= p.cap:
				return true, lo, hi, p.alpha, p.capReason
			}
		}
	default: // RuleCheckpoint
		j, ok := slices.BinarySearch(p.marks, n)
		if !ok {
			return false, 0, 0, 0, ""
		}
		a := p.alphas[j]
		lo, hi := cpBounds(k, n, a)
		switch {
		case (hi-lo)/2 <= p.eps:
			return true, lo, hi, a, ReasonWidth
		case n >= p.cap:
			return true, lo, hi, a, p.capReason
		}
	}
	return false, 0, 0, 0, ""
}

// cpWiderThan reports that the Clopper–Pearson interval of k in n at alpha
// certainly has half-width > eps, cheaply: RuleLodin calls it after every
// outcome to skip the two Beta quantile inversions (microseconds each,
// growing with n) while the interval is clearly too wide. It is a
// sufficient condition only: false means "compute the interval".
//
// For any centre c, the binomial tails P(X <= k; c+eps) and P(X >= k; c-eps)
// both exceeding alpha/2 put hi above c+eps and lo below c-eps, so
// hi-lo > 2·eps. Any c is sound; the Wilson centre (k + z²/2)/(n + z²), with
// z the normal quantile at 1-alpha/2, tracks the middle of the (for rare
// events asymmetric) Clopper–Pearson interval, so the check keeps succeeding
// until the interval is nearly narrow enough. Each tail is first bounded
// from below by the normal approximation minus the Berry–Esseen bound (a few
// flops), and only if that is inconclusive computed exactly with one
// regularised incomplete beta evaluation. A relative margin on alpha/2 keeps
// rounding from ever skipping an interval that is, exactly, narrow enough,
// so RuleLodin stops at the same run as it would computing every interval.
func cpWiderThan(k, n int, alpha, eps, z float64) bool {
	if eps >= 0.5 {
		return false
	}
	fk, fn := float64(k), float64(n)
	c := (fk + z*z/2) / (fn + z*z)
	c = max(eps, min(c, 1-eps))
	a, b := c-eps, c+eps
	t := alpha / 2 * (1 + 1e-6)
	// Upper tail condition: P(X <= k; b) > t.
	if k < n && !(binomCDFLowerBound(fk, fn, b) > t) {
		// Exactly: P(X <= k; b) = 1 - I_b(k+1, n-k) = I_{1-b}(n-k, k+1).
		if !(mathext.RegIncBeta(fn-fk, fk+1, 1-b) > t) {
			return false
		}
	}
	// Lower tail condition: P(X >= k; a) > t.
	if k > 0 && !(binomSFLowerBound(fk, fn, a) > t) {
		// Exactly: P(X >= k; a) = I_a(k, n-k+1).
		if !(mathext.RegIncBeta(fk, fn-fk+1, a) > t) {
			return false
		}
	}
	return true
}

// berryEsseenC bounds the Berry–Esseen constant (Shevtsova 2010 proves
// 0.56 for independent, not necessarily identically distributed summands;
// 0.4748 for identically distributed ones).
const berryEsseenC = 0.56

// berryEsseen bounds sup_x |P(X <= x) - Φ((x - nq)/σ)| for X ~ Bin(n, q):
// C·ρ/(σ³·sqrt(n)) with ρ = E|B-q|³ = q(1-q)(q²+(1-q)²) for a Bernoulli(q) B.
func berryEsseen(n, q float64) float64 {
	v := n * q * (1 - q)
	if !(v > 0) {
		return math.Inf(1)
	}
	return berryEsseenC * (q*q + (1-q)*(1-q)) / math.Sqrt(v)
}

// binomCDFLowerBound returns a lower bound on P(X <= x) for X ~ Bin(n, q):
// Φ((x - nq)/σ) minus the Berry–Esseen bound (-Inf when q is 0 or 1).
func binomCDFLowerBound(x, n, q float64) float64 {
	be := berryEsseen(n, q)
	if math.IsInf(be, 1) {
		return math.Inf(-1)
	}
	sd := math.Sqrt(n * q * (1 - q))
	return 0.5*math.Erfc(-(x-n*q)/(sd*math.Sqrt2)) - be
}

// binomSFLowerBound returns a lower bound on P(X >= x) for X ~ Bin(n, q)
// and integer x: 1 - P(X <= x-1) >= 1 - Φ((x-1 - nq)/σ) - Berry–Esseen
// (-Inf when q is 0 or 1).
func binomSFLowerBound(x, n, q float64) float64 {
	be := berryEsseen(n, q)
	if math.IsInf(be, 1) {
		return math.Inf(-1)
	}
	sd := math.Sqrt(n * q * (1 - q))
	return 0.5*math.Erfc((x-1-n*q)/(sd*math.Sqrt2)) - be
}

// checkpointAlpha is the level of the next check (RuleCheckpoint).
func (p *Proportion) checkpointAlpha() float64 {
	return p.alphas[min(p.j, len(p.alphas)-1)]
}

// Done reports whether the rule has stopped.
func (p *Proportion) Done() bool { return p.done }

// Result returns the estimate so far. Once Done it is the final result;
// before, Lo and Hi are the Clopper–Pearson interval of the data so far at
// the level of the rule's next check (for progress displays only).
func (p *Proportion) Result() ProportionResult {
	r := ProportionResult{
		K:          p.k,
		N:          p.n,
		Confidence: 1 - p.alpha,
		Rule:       p.rule.String(),
		Epsilon:    p.eps,
		Stopped:    p.done,
		Reason:     p.reason,
	}
	if p.n > 0 {
		r.Estimate = float64(p.k) / float64(p.n)
	}
	switch {
	case p.done:
		r.Lo, r.Hi, r.Alpha = p.lo, p.hi, p.at
		r.EpsilonReached = r.HalfWidth() <= p.eps
	default:
		r.Alpha = p.alpha
		if p.rule == RuleCheckpoint {
			r.Alpha = p.checkpointAlpha()
		}
		r.Lo, r.Hi = 0, 1
		if p.n > 0 {
			r.Lo, r.Hi = cpBounds(p.k, p.n, r.Alpha)
		}
	}
	return r
}

// Planned returns the number of runs after which the rule stops at the
// latest (for progress bars and ETAs): the Okamoto sample size, or MaxRuns
// when smaller (for RuleLodin, at least n0).
func (p *Proportion) Planned() int { return p.cap }
