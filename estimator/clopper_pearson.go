package estimator

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// ClopperPearson returns the exact two-sided Clopper–Pearson interval for a
// binomial proportion after k successes in n trials, at confidence 1-alpha:
//
//	lo = Beta(k, n-k+1) quantile at alpha/2     (0 when k = 0)
//	hi = Beta(k+1, n-k) quantile at 1-alpha/2   (1 when k = n)
//
// The edge cases use their closed forms (lo = (alpha/2)^(1/n) when k = n,
// hi = 1-(alpha/2)^(1/n) when k = 0) because distuv.Beta with a zero shape
// parameter panics.
//
// Invalid arguments (n < 1, k outside [0, n], alpha outside (0, 1)) give
// NaN, NaN; use CheckedClopperPearson to get the reason as an error.
func ClopperPearson(k, n int, alpha float64) (lo, hi float64) {
	lo, hi, err := CheckedClopperPearson(k, n, alpha)
	if err != nil {
		return math.NaN(), math.NaN()
	}
	return lo, hi
}

// CheckedClopperPearson is ClopperPearson returning an error for invalid
// arguments instead of NaNs.
func CheckedClopperPearson(k, n int, alpha float64) (lo, hi float64, err error) {
	if err := checkAlpha("alpha", alpha); err != nil {
		return 0, 0, err
	}
	if n < 1 {
		return 0, 0, fmt.Errorf("estimator: Clopper–Pearson needs n >= 1 trials, got n=%d", n)
	}
	if k < 0 || k > n {
		return 0, 0, fmt.Errorf("estimator: Clopper–Pearson needs 0 <= k <= n, got k=%d, n=%d", k, n)
	}
	lo, hi = cpBounds(k, n, alpha)
	return lo, hi, nil
}

// cpBounds computes the interval for already validated arguments.
func cpBounds(k, n int, alpha float64) (lo, hi float64) {
	fk, fn := float64(k), float64(n)
	tail := alpha / 2
	switch {
	case k == 0:
		lo = 0
		hi = -math.Expm1(math.Log(tail) / fn) // 1 - tail^(1/n), accurate for large n
	case k == n:
		lo = math.Exp(math.Log(tail) / fn)
		hi = 1
	default:
		lo = distuv.Beta{Alpha: fk, Beta: fn - fk + 1}.Quantile(tail)
		hi = distuv.Beta{Alpha: fk + 1, Beta: fn - fk}.Quantile(1 - tail)
	}
	return lo, hi
}

// OkamotoN returns the number of Bernoulli trials after which, by the
// Chernoff–Hoeffding (Okamoto) bound P(|p̂ - p| >= epsilon) <= 2·exp(-2n·epsilon²),
// the interval p̂ ± epsilon has confidence at least 1-alpha:
//
//	n = ceil(ln(2/alpha) / (2·epsilon²))
//
// It returns 0 for invalid arguments (alpha or epsilon outside (0, 1)) and
// saturates at math.MaxInt for very small epsilon. See CheckedOkamotoN.
func OkamotoN(epsilon, alpha float64) int {
	n, err := CheckedOkamotoN(epsilon, alpha)
	if err != nil {
		return 0
	}
	return n
}

// CheckedOkamotoN is OkamotoN returning an error for invalid arguments.
func CheckedOkamotoN(epsilon, alpha float64) (int, error) {
	if err := checkAlpha("alpha", alpha); err != nil {
		return 0, err
	}
	if err := checkEpsilon(epsilon); err != nil {
		return 0, err
	}
	n := math.Ceil(math.Log(2/alpha) / (2 * epsilon * epsilon))
	if n >= math.MaxInt {
		return math.MaxInt, nil
	}
	return int(n), nil
}

func checkAlpha(name string, a float64) error {
	if !(a > 0 && a < 1) { // also rejects NaN
		return fmt.Errorf("estimator: %s must be in (0, 1), got %v", name, a)
	}
	return nil
}

func checkEpsilon(eps float64) error {
	if !(eps > 0 && eps < 1) {
		return fmt.Errorf("estimator: epsilon must be in (0, 1), got %v", eps)
	}
	return nil
}

// ErrNoSamples is returned when a result is asked of an estimator that has
// seen no samples.
var ErrNoSamples = errors.New("estimator: no samples")
