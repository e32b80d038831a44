package splitting

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

// The splitting part of the soundness suite (go test ./... -run Soundness;
// skipped with -short). The models have closed-form answers; the tables
// they print are in docs/statistics.md.

// TestSoundnessSplittingBias: on models where the property can hold below
// a level (below.c) and where the score falls back and forgets its
// progress (nonmarkov.c), the mean of 2000 independent replication
// estimates lies within 4 standard errors of the exact probability for
// fixed-effort, adaptive and proposition-level splitting, and the result
// warns that the score does not lead to the property.
func TestSoundnessSplittingBias(t *testing.T) {
	if testing.Short() {
		t.Skip("soundness suite (long)")
	}
	const reps = 2000
	models := []struct {
		name, path, prop, levels, props string
		exact                           float64
	}{
		{"below", "../testdata/splitting/below.c", "done == 1", "[1,2]", "[x >= 1, x >= 2]", 0.001 + 0.999*0.001},
		{"nonmarkov", "../testdata/splitting/nonmarkov.c", "done == 1", "[1,2,3]", "[x >= 1, x >= 2, x >= 3]", 0.001*0.5 + (1-0.0005)*0.001},
	}
	var sb strings.Builder
	sb.WriteString("| model | method | exact | mean of 2000 | SE | deviation (SE) |\n|---|---|---|---|---|---|\n")
	for _, m := range models {
		for _, method := range []string{"fixed", "adaptive", "props"} {
			t.Run(m.name+"/"+method, func(t *testing.T) {
				opts := map[string]string{
					"fixed":    "Split=fixed, Score=x, Levels=" + m.levels + ", N=100",
					"adaptive": "Split=adaptive, Score=x, N=50, K=5",
					"props":    "Split=fixed, Levels=" + m.props + ", N=100",
				}[method]
				text := "Pr[<=1000](<> " + m.prop + ") {" + opts + ", M=" + strconv.Itoa(reps) + "}"
				r := estimate(t, m.path, text, 20261122)
				dev := (r.Estimate - m.exact) / r.StdErr
				fmt.Fprintf(&sb, "| %s | %s | %.6g | %.6g | %.2g | %+.2f |\n", m.name, method, m.exact, r.Estimate, r.StdErr, dev)
				if math.Abs(dev) > 4 {
					t.Errorf("%s: mean %.6g ± %.2g is %.1f standard errors from the exact %.6g", text, r.Estimate, r.StdErr, dev, m.exact)
				}
				if w := strings.Join(r.Warnings, "\n"); !strings.Contains(w, "reached the property") {
					t.Errorf("%s: no warning that the property held below a level: %q", text, w)
				}
			})
		}
	}
	t.Logf("splitting bias:\n%s", sb.String())
}

// binomLowerTolerance is the smallest count c with P(Bin(n, p) < c) <=
// 0.001: fewer covering intervals than that is evidence (at the 0.1 %
// level) that the coverage is below p.
func binomLowerTolerance(n int, p float64) int {
	b := distuv.Binomial{N: float64(n), P: p}
	c := 0
	for c < n && b.CDF(float64(c)) <= 0.001 {
		c++
	}
	return c
}

// TestSoundnessSplittingCoverage: over 200 independent experiments of M =
// 20 replications each, the default (log-scale) interval covers the exact
// probability at the nominal 95 % within binomial tolerance, for
// fixed-effort, adaptive and proposition-level splitting on models whose
// score leads to the property (a Markov chain, a skewed binomial tail, a
// gambler's ruin). The Student-t interval's coverage is measured beside it.
func TestSoundnessSplittingCoverage(t *testing.T) {
	if testing.Short() {
		t.Skip("soundness suite (long)")
	}
	const groups, m = 200, 20
	cases := []struct {
		name, path, query string
		exact             float64
	}{
		{"chain/fixed", "../testdata/splitting/chain.c", "Pr[<=100000](<> x >= 100) {Split=fixed, Score=x, Levels=[20,40,60,80], N=100", analytic[0].exact},
		{"chain/props", "../testdata/splitting/chain.c", "Pr[<=100000](<> x >= 100) {Split=fixed, Levels=[x >= 20, x >= 40, x >= 60, x >= 80], N=100", analytic[0].exact},
		{"binom/fixed", "../testdata/splitting/binom.c", "Pr[<=100000](<> c >= 8) {Split=fixed, Score=c, Levels=[2,4,6], N=100", analytic[2].exact},
		{"ruin/adaptive", "../testdata/splitting/ruin.c", "Pr[<=1000000](<> x >= 20) {Split=adaptive, Score=x, N=50, K=5", analytic[1].exact},
		{"chain/adaptive", "../testdata/splitting/chain.c", "Pr[<=100000](<> x >= 100) {Split=adaptive, Score=x, N=50, K=5", analytic[0].exact},
	}
	need := binomLowerTolerance(groups, 0.95)
	var sb strings.Builder
	fmt.Fprintf(&sb, "| model/method | exact | log-scale (default) covers | Student-t covers | of |\n|---|---|---|---|---|\n")
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			q, s, ex := setup(t, c.path, c.query+", M="+strconv.Itoa(groups*m)+"}", 77)
			r, err := Estimate(context.Background(), q, s, ex, 77, runtime.GOMAXPROCS(0), nil)
			if err != nil {
				t.Fatal(err)
			}
			var logCov, tCov int
			for g := 0; g < groups; g++ {
				sub := make([]*Replication, m)
				for i := range sub {
					sub[i] = &Replication{Estimate: r.Replications[g*m+i], Extinct: -1}
				}
				gr, err := Summarize(q, s, sub)
				if err != nil {
					t.Fatal(err)
				}
				if gr.Lo <= c.exact && c.exact <= gr.Hi {
					logCov++
				}
				if gr.TLo <= c.exact && c.exact <= gr.THi {
					tCov++
				}
			}
			fmt.Fprintf(&sb, "| %s | %.4g | %d (%.1f %%) | %d (%.1f %%) | %d |\n", c.name, c.exact,
				logCov, 100*float64(logCov)/groups, tCov, 100*float64(tCov)/groups, groups)
			if logCov < need {
				t.Errorf("%s: the default interval covers %d of %d times, below the binomial tolerance %d for 95 %%", c.name, logCov, groups, need)
			}
		})
	}
	t.Logf("splitting interval coverage (M = %d, nominal 95 %%, tolerance >= %d of %d):\n%s", m, need, groups, sb.String())
}
