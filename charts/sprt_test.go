package charts

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

// sprtPoints are a test's checkpoints at 1, 2, 4, ... runs with frequency
// about 0.15 (Pr(...) >= 0.3 rejects after about 70 runs).
func sprtPoints() []SPRTPoint {
	var pts []SPRTPoint
	for n := 1; n <= 64; n *= 2 {
		pts = append(pts, SPRTPoint{Runs: n, Satisfied: n * 15 / 100})
	}
	return append(pts, SPRTPoint{Runs: 71, Satisfied: 10})
}

func init() {
	// TestPNG and TestSVG render these too.
	all["sprt"] = func(path string) error {
		return SPRT(path, "Pr[<=5000](<> [0.VERIFIER_error]) >= 0.3", SPRTTest{Theta: 0.3, Delta: 0.01, Alpha: 0.05, Beta: 0.05}, sprtPoints())
	}
	all["convergence-mean"] = func(path string) error {
		return ConvergenceOf(path, "Estimate[<=1000,500]{max x}", "mean of the runs' values", convPoints())
	}
}

// TestSPRTErrors: bad tests and points are refused, naming the cause.
func TestSPRTErrors(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sprt.png")
	ok := SPRTTest{Theta: 0.3, Delta: 0.01, Alpha: 0.05, Beta: 0.05}
	cases := []struct {
		name string
		t    SPRTTest
		pts  []SPRTPoint
		want string
	}{
		{"no points", ok, nil, "no data"},
		{"region outside (0, 1)", SPRTTest{Theta: 0.995, Delta: 0.01, Alpha: 0.05, Beta: 0.05}, sprtPoints(), "θ+δ < 1"},
		{"alpha + beta", SPRTTest{Theta: 0.3, Delta: 0.01, Alpha: 0.6, Beta: 0.5}, sprtPoints(), "α+β < 1"},
		{"more satisfied than runs", ok, []SPRTPoint{{Runs: 3, Satisfied: 4}}, "0 <= satisfied <= runs"},
		{"no runs", ok, []SPRTPoint{{Runs: 0}}, "runs > 0"},
	}
	for _, c := range cases {
		err := SPRT(path, "t", c.t, c.pts)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
		if c.name == "no points" && !errors.Is(err, ErrNoData) {
			t.Errorf("no points: %v is not ErrNoData", err)
		}
	}
	if err := SPRT(filepath.Join(t.TempDir(), "sprt.gif"), "t", ok, sprtPoints()); err == nil || !strings.Contains(err.Error(), "unknown image format") {
		t.Errorf("gif: %v", err)
	}
}
