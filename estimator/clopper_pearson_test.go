package estimator

import (
	"math"
	"testing"
)

func TestClopperPearsonKnownValues(t *testing.T) {
	// Reference values: bisection on exact binomial tail sums (independent of
	// gonum); the first row is the one quoted in DESIGN.md §8.
	tests := []struct {
		k, n   int
		alpha  float64
		lo, hi float64
	}{
		{5, 100, 0.05, 0.0164318792, 0.1128349111},
		{1, 10, 0.05, 0.0025285785, 0.4450161170},
		{50, 100, 0.05, 0.3983211295, 0.6016788705},
		{0, 10, 0.05, 0, 0.3084971078},
		{10, 10, 0.05, 0.6915028922, 1},
		{3, 10, 0.01, 0.0370072211, 0.7351139853},
		{7, 20, 0.1, 0.1773109176, 0.5580345113},
		{1, 1, 0.05, 0.025, 1},
		{0, 1, 0.05, 0, 0.975},
		{2, 1000, 0.001, 0.0000319765, 0.0119910071},
		{999, 1000, 0.05, 0.9944410757, 0.9999746825},
		{30, 300, 1e-5, 0.0399718637, 0.1957465419},
	}
	for _, tc := range tests {
		lo, hi := ClopperPearson(tc.k, tc.n, tc.alpha)
		if math.Abs(lo-tc.lo) > 1e-6 || math.Abs(hi-tc.hi) > 1e-6 {
			t.Errorf("ClopperPearson(%d, %d, %v) = [%.10f, %.10f], want [%.10f, %.10f]",
				tc.k, tc.n, tc.alpha, lo, hi, tc.lo, tc.hi)
		}
		clo, chi, err := CheckedClopperPearson(tc.k, tc.n, tc.alpha)
		if err != nil || clo != lo || chi != hi {
			t.Errorf("CheckedClopperPearson(%d, %d, %v) = %v, %v, %v; want %v, %v, nil",
				tc.k, tc.n, tc.alpha, clo, chi, err, lo, hi)
		}
	}
}

func TestClopperPearsonEdges(t *testing.T) {
	// k = 0 and k = n are exact at both ends, for small and huge n.
	for _, n := range []int{1, 2, 7, 100, 1_000_000, 1 << 30} {
		lo, hi := ClopperPearson(0, n, 0.05)
		if lo != 0 || !(hi > 0 && hi < 1) {
			t.Errorf("k=0, n=%d: [%v, %v], want lo=0, 0<hi<1", n, lo, hi)
		}
		lo, hi = ClopperPearson(n, n, 0.05)
		if hi != 1 || !(lo > 0 && lo < 1) {
			t.Errorf("k=n=%d: [%v, %v], want hi=1, 0<lo<1", n, lo, hi)
		}
	}
	// The interval always contains k/n and shrinks as alpha grows.
	for _, n := range []int{1, 5, 40} {
		for k := 0; k <= n; k++ {
			lo1, hi1 := ClopperPearson(k, n, 0.01)
			lo2, hi2 := ClopperPearson(k, n, 0.2)
			ph := float64(k) / float64(n)
			if !(lo1 <= lo2 && lo2 <= ph && ph <= hi2 && hi2 <= hi1) {
				t.Errorf("k=%d n=%d: nesting broken: [%v,%v] at 0.01, [%v,%v] at 0.2", k, n, lo1, hi1, lo2, hi2)
			}
		}
	}
}

func TestClopperPearsonInvalid(t *testing.T) {
	tests := []struct {
		name  string
		k, n  int
		alpha float64
	}{
		{"n=0", 0, 0, 0.05},
		{"n<0", 0, -3, 0.05},
		{"k<0", -1, 10, 0.05},
		{"k>n", 11, 10, 0.05},
		{"alpha=0", 1, 10, 0},
		{"alpha=1", 1, 10, 1},
		{"alpha<0", 1, 10, -0.1},
		{"alpha NaN", 1, 10, math.NaN()},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, _, err := CheckedClopperPearson(tc.k, tc.n, tc.alpha); err == nil {
				t.Errorf("CheckedClopperPearson(%d, %d, %v): no error", tc.k, tc.n, tc.alpha)
			}
			lo, hi := ClopperPearson(tc.k, tc.n, tc.alpha)
			if !math.IsNaN(lo) || !math.IsNaN(hi) {
				t.Errorf("ClopperPearson(%d, %d, %v) = [%v, %v], want NaNs", tc.k, tc.n, tc.alpha, lo, hi)
			}
		})
	}
}

func TestOkamotoN(t *testing.T) {
	tests := []struct {
		eps, alpha float64
		want       int
	}{
		{0.01, 0.05, 18445},
		{0.05, 0.01, 1060},
		{0.1, 0.05, 185},
		{0.005, 0.05, 73778},
		{0.5, 0.5, 3},
		{0.001, 0.001, 3800452},
		{1e-300, 0.05, math.MaxInt}, // saturates
	}
	for _, tc := range tests {
		if got := OkamotoN(tc.eps, tc.alpha); got != tc.want {
			t.Errorf("OkamotoN(%v, %v) = %d, want %d", tc.eps, tc.alpha, got, tc.want)
		}
	}
	for _, bad := range [][2]float64{{0, 0.05}, {-0.1, 0.05}, {1, 0.05}, {0.01, 0}, {0.01, 1}, {math.NaN(), 0.05}} {
		if got := OkamotoN(bad[0], bad[1]); got != 0 {
			t.Errorf("OkamotoN(%v, %v) = %d, want 0", bad[0], bad[1], got)
		}
		if _, err := CheckedOkamotoN(bad[0], bad[1]); err == nil {
			t.Errorf("CheckedOkamotoN(%v, %v): no error", bad[0], bad[1])
		}
	}
}

// At the Okamoto sample size the Clopper–Pearson interval lies inside
// p̂ ± epsilon for every k (Hoeffding bounds both binomial tails), which is
// what makes RuleFixed meet epsilon and RuleLodin stop by then.
func TestClopperPearsonWithinOkamoto(t *testing.T) {
	for _, tc := range []struct{ eps, alpha float64 }{{0.1, 0.05}, {0.05, 0.01}, {0.2, 0.001}} {
		n := OkamotoN(tc.eps, tc.alpha)
		for k := 0; k <= n; k++ {
			lo, hi := ClopperPearson(k, n, tc.alpha)
			ph := float64(k) / float64(n)
			if lo < ph-tc.eps-1e-12 || hi > ph+tc.eps+1e-12 {
				t.Fatalf("eps=%v alpha=%v n=%d k=%d: [%v, %v] not within %v ± eps", tc.eps, tc.alpha, n, k, lo, hi, ph)
			}
		}
	}
}

func BenchmarkClopperPearson(b *testing.B) {
	for i := 0; b.Loop(); i++ {
		ClopperPearson(3000+i%7, 10000, 0.05)
	}
}
