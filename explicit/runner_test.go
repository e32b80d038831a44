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
