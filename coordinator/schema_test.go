package coordinator

import (
	"strings"
	"testing"

	"github.com/wyvernmc/wyvern/explicit"
	"github.com/wyvernmc/wyvern/jobs"
	"github.com/wyvernmc/wyvern/query"
	"github.com/wyvernmc/wyvern/simulator"
	"github.com/wyvernmc/wyvern/splitting"
	"github.com/wyvernmc/wyvern/symbolic"
)

// TestOptions: every option of the query's kind and of the engine (as the
// kind reports them) is reported with its value in effect, and the
// defaults are named; a kind that reports none is named by its kind.
func TestOptions(t *testing.T) {
	cases := []struct {
		query    string
		exp      jobs.Experiment
		want     map[string]any
		defaults []string
	}{
		{"Pr[<=100](<> x > 1) {Epsilon=0.02}", jobs.Experiment{Kind: jobs.KindTrace},
			map[string]any{"Alpha": 0.05, "Epsilon": 0.02, "Rule": "checkpoint", "MinRuns": int64(100), "MaxRuns": nil, "bound": uint64(100), "engine": "simulation",
				"Platform": "posix", "Spurious": 0.0, "Inputs": "uniform"},
			[]string{"Alpha", "Inputs", "MaxRuns", "MinRuns", "Platform", "Rule", "Spurious"}},
		{"Pr[<=100](<> x > 1) >= 0.3 {Alpha=0.01}", jobs.Experiment{Kind: jobs.KindTrace},
			map[string]any{"Alpha": 0.01, "Beta": 0.01, "Delta": 0.01, "MaxRuns": nil, "bound": uint64(100), "engine": "simulation",
				"Platform": "posix", "Spurious": 0.0, "Inputs": "uniform"},
			[]string{"Beta", "Delta", "Inputs", "MaxRuns", "Platform", "Spurious"}},
		{"Pr[<=100](<> x > 9) {Split=adaptive, Score=x, N=200}", jobs.Experiment{Kind: jobs.KindSplit},
			map[string]any{"Alpha": 0.05, "Split": "adaptive", "Score": "x", "Levels": nil, "N": int64(200), "K": int64(20), "M": "auto", "MaxM": int64(480),
				"MaxIter": int64(100000), "Max": nil, "Interval": "log", "bound": uint64(100), "engine": "splitting",
				"Platform": "posix", "Spurious": 0.0, "Inputs": "uniform"},
			[]string{"Alpha", "Inputs", "Interval", "K", "Levels", "M", "Max", "MaxIter", "MaxM", "Platform", "Spurious"}},
		{"E<> x > 1", jobs.Experiment{Kind: jobs.KindExplicit, Explicit: &jobs.ExplicitOptions{Reduction: "local", MaxStates: 10}},
			map[string]any{"engine": "explicit", "order": "bfs", "reduction": "local", "compact": false, "max-states": int64(10),
				"max-memory": int64(jobs.DefaultExplicitMaxBytes >> 20), "max-time": nil, "Platform": "posix"},
			[]string{"Platform", "compact", "max-memory", "max-time", "order"}},
		{"Pr[<=10](<> x > 1) {Spurious=0.25}", jobs.Experiment{Kind: jobs.KindExplicit, Explicit: &jobs.ExplicitOptions{Exact: true}},
			map[string]any{"bound": uint64(10), "engine": "exact", "compact": false, "max-states": nil, "max-memory": int64(jobs.DefaultExplicitMaxBytes >> 20), "max-time": nil,
				"Platform": "posix", "Spurious": 0.25},
			[]string{"Platform", "compact", "max-memory", "max-states", "max-time"}},
		{"E<> Error", jobs.Experiment{Kind: jobs.KindBMC, BMC: &jobs.BMCOptions{Unwind: 8, Solver: "cvc5"}},
			map[string]any{"engine": "bmc", "unwind": 8, "max-unwind": nil, "solver": "cvc5", "solver-timeout": nil, "Platform": "posix"},
			[]string{"Platform", "solver-timeout"}},
		{"E<> Error", jobs.Experiment{Kind: "custom"},
			map[string]any{"engine": "custom", "Platform": "posix"},
			[]string{"Platform"}},
	}
	for _, c := range cases {
		q, err := query.Parse(c.query)
		if err != nil {
			t.Fatal(err)
		}
		runners := map[string]Runner{jobs.KindTrace: simulator.Runner{}, jobs.KindSplit: splitting.SplitRunner{},
			jobs.KindExplicit: explicit.Runner{}, jobs.KindBMC: symbolic.Runner{}}
		got, defaults := Options(q, &c.exp, runners[c.exp.Kind])
		if len(got) != len(c.want) {
			t.Errorf("%s: options %v, want %v", c.query, got, c.want)
		}
		for k, v := range c.want {
			if g, ok := got[k]; !ok || g != v {
				t.Errorf("%s: option %s = %#v (present %v), want %#v", c.query, k, g, ok, v)
			}
		}
		if strings.Join(defaults, ",") != strings.Join(c.defaults, ",") {
			t.Errorf("%s: defaults %v, want %v", c.query, defaults, c.defaults)
		}
	}
}
