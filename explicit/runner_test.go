package explicit

import (
	"strings"
	"testing"

	"github.com/wyvernmc/wyvern/jobs"
	"github.com/wyvernmc/wyvern/query"
)

// TestRunnerChecksOptionsAtSubmission: options a worker would refuse are
// refused when the experiment is submitted, naming the option.
func TestRunnerChecksOptionsAtSubmission(t *testing.T) {
	q, err := query.Parse("E<> x > 1")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		opts *jobs.ExplicitOptions
		want string // "": accepted
	}{
		{nil, ""},
		{&jobs.ExplicitOptions{Order: "dfs", Reduction: "local", MaxBytes: 1 << 20}, ""},
		{&jobs.ExplicitOptions{Order: "sideways"}, "sideways"},
		{&jobs.ExplicitOptions{Reduction: "some"}, "some"},
		{&jobs.ExplicitOptions{MaxBytes: -1}, "max_bytes -1"},
		{&jobs.ExplicitOptions{Workers: -2}, "workers -2"},
	}
	for _, c := range cases {
		err := Runner{}.Check(q, &jobs.Experiment{Kind: jobs.KindExplicit, Explicit: c.opts})
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%+v: refused: %v", c.opts, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%+v: %v, want an error naming %q", c.opts, err, c.want)
		}
	}
}

// TestExactRefusesEdgeInputs: exact probabilities are those of uniform
// inputs, so a query asking simulation's edge inputs is refused at
// submission, not answered for another distribution.
func TestExactRefusesEdgeInputs(t *testing.T) {
	for _, tc := range []struct{ q, want string }{
		{"Pr[<=10](<> x > 1)", ""},
		{"Pr[<=10](<> x > 1) {Inputs=uniform}", ""},
		{"Pr[<=10](<> x > 1) {Inputs=edges}", "Inputs=edges"},
	} {
		q, err := query.Parse(tc.q)
		if err != nil {
			t.Fatal(err)
		}
		err = Runner{}.Check(q, &jobs.Experiment{Kind: jobs.KindExplicit, Explicit: &jobs.ExplicitOptions{Exact: true}})
		if (tc.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%s: %v, want %q", tc.q, err, tc.want)
		}
	}
}
