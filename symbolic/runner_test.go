package symbolic

import (
	"strings"
	"testing"

	"github.com/wyvernmc/wyvern/jobs"
	"github.com/wyvernmc/wyvern/query"
)

// TestRunnerChecksOptionsAtSubmission: BMC options no run could use are
// refused when the experiment is submitted.
func TestRunnerChecksOptionsAtSubmission(t *testing.T) {
	q, err := query.Parse("E<> Error")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		opts *jobs.BMCOptions
		want string // "": accepted
	}{
		{nil, ""},
		{&jobs.BMCOptions{Unwind: 4, Solver: "z3", SolverTimeoutS: 2, Contexts: 2}, ""},
		{&jobs.BMCOptions{Unwind: -1}, "unwinding bounds"},
		{&jobs.BMCOptions{MaxUnwind: -3}, "unwinding bounds"},
		{&jobs.BMCOptions{SolverTimeoutS: -1}, "solver timeout"},
		{&jobs.BMCOptions{Contexts: -1}, "contexts -1"},
	}
	for _, c := range cases {
		err := Runner{}.Check(q, &jobs.Experiment{Kind: jobs.KindBMC, BMC: c.opts})
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%+v: refused: %v", c.opts, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%+v: %v, want an error naming %q", c.opts, err, c.want)
		}
	}
}
