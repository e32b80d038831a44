package coordinator_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/wyvernmc/wyvern/coordinator"
	"github.com/wyvernmc/wyvern/jobs"
	"github.com/wyvernmc/wyvern/query"
	"github.com/wyvernmc/wyvern/simulator"
)

// TestResultWarnings: results warn where the numbers could mislead — an
// Estimate sample with no spread or too skewed for its size, an interval
// that MaxRuns stopped before it reached Epsilon, a hypothesis test that
// reached MaxRuns undecided (with no confidence interval reported), no
// satisfying run at all (a rare event: splitting is suggested).
func TestResultWarnings(t *testing.T) {
	fold := func(text string, trace func(i uint64) jobs.Outcome) *coordinator.Result {
		t.Helper()
		q, err := query.Parse(text)
		if err != nil {
			t.Fatal(err)
		}
		r, err := simulator.Fold(q, 1, trace)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	cases := []struct {
		name, query string
		trace       func(i uint64) jobs.Outcome
		want        string // in the warnings ("" = none)
	}{
		{"constant values", "Estimate[<=10,100]{max x}", func(i uint64) jobs.Outcome { return jobs.Outcome{Index: i, Value: 7} }, "all 100 values equal 7"},
		{"rare large value", "Estimate[<=10,100]{max x}", func(i uint64) jobs.Outcome {
			if i == 42 {
				return jobs.Outcome{Index: i, Value: 100}
			}
			return jobs.Outcome{Index: i}
		}, "skewed"},
		{"spread values", "Estimate[<=10,100]{max x}", func(i uint64) jobs.Outcome { return jobs.Outcome{Index: i, Value: float64(i % 10)} }, ""},
		{"maxruns before epsilon", "Pr[<=10](<> x > 1) {Epsilon=0.01, MaxRuns=500}", func(i uint64) jobs.Outcome { return jobs.Outcome{Index: i, Sat: i%2 == 0} }, "above Epsilon = 0.01: MaxRuns = 500"},
		{"no satisfying run", "Pr[<=10](<> x > 1) {Epsilon=0.01}", func(i uint64) jobs.Outcome { return jobs.Outcome{Index: i} },
			"0 of 400 runs satisfy the property: the event may be rare, and the absolute Epsilon = 0.01 says only that p <= 0.016"},
		{"epsilon reached", "Pr[<=10](<> x > 1) {Epsilon=0.05}", func(i uint64) jobs.Outcome { return jobs.Outcome{Index: i, Sat: i%2 == 0} }, ""},
		{"sprt undecided", "Pr[<=10](<> x > 1) >= 0.5 {Delta=0.01, MaxRuns=300}", func(i uint64) jobs.Outcome { return jobs.Outcome{Index: i, Sat: i%2 == 0} }, "MaxRuns = 300 reached without a decision"},
	}
	for _, c := range cases {
		r := fold(c.query, c.trace)
		w := strings.Join(r.Warnings, "\n")
		if c.want == "" && w != "" || !strings.Contains(w, c.want) {
			t.Errorf("%s: warnings %q, want %q", c.name, w, c.want)
		}
		// An Estimate whose t-interval's coverage is not assured (no
		// spread, or too skewed for R) is given with exit status 11.
		if r.Kind == "estimate" {
			want := coordinator.ExitHolds
			if c.want != "" {
				want = coordinator.ExitUnknown
			}
			if got := r.ExitStatus(); got != want {
				t.Errorf("%s: exit status %d, want %d", c.name, got, want)
			}
		}
		var text bytes.Buffer
		r.WriteText(&text)
		if c.want != "" && !strings.Contains(text.String(), "warning: ") {
			t.Errorf("%s: the text result does not show the warning:\n%s", c.name, text.String())
		}
		if r.Kind == "hypothesis" {
			if r.Lo != 0 || r.Hi != 0 || r.Confidence != 0 || !strings.Contains(text.String(), "not a confidence interval") {
				t.Errorf("%s: a hypothesis result reports an interval [%g, %g] at %g:\n%s", c.name, r.Lo, r.Hi, r.Confidence, text.String())
			}
		}
	}
}

// TestJobSizeBounded: a job size beyond jobs.MaxTraceJob is refused at
// submission (a huge job once grew a worker to gigabytes and was never
// redelivered).
func TestJobSizeBounded(t *testing.T) {
	c := startCluster(t, 1)
	nc, err := c.emb.Connect("client")
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	ll := []byte("define i32 @main() {\nentry:\n  ret i32 0\n}\n")
	_, err = coordinator.Submit(c.ctx, nc, coordinator.Submission{LL: ll, Name: "p.ll", Query: "Pr[<=10](<> [0.main])", Seed: 1, JobSize: jobs.MaxTraceJob + 1})
	if err == nil || !strings.Contains(err.Error(), "above the maximum") {
		t.Errorf("oversized jobs: error %v", err)
	}
}
