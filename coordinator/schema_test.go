package coordinator

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/wyvernmc/wyvern/explicit"
	"github.com/wyvernmc/wyvern/jobs"
	"github.com/wyvernmc/wyvern/query"
	"github.com/wyvernmc/wyvern/splitting"
)

// TestResultKeys: a result's JSON has exactly its kind's fields, in order,
// whatever their values (zero counts included), and nothing of another
// kind; a field outside the kind's list survives only when it is not zero.
func TestResultKeys(t *testing.T) {
	cases := []struct {
		r      Result
		absent []string // fields of other kinds
	}{
		{Result{Kind: "probability", Query: "Pr[<=5](<> x < 3 && y > 1)", Runs: 10, Ends: map[string]uint64{"exited": 10}, Detail: &TraceDetail{Rule: "checkpoint"}},
			[]string{"states", "stddev", "verdict", "explicit", "values", "theta"}},
		{Result{Kind: "hypothesis", Runs: 10, Detail: &TraceDetail{Verdict: "holds", Cmp: ">="}},
			[]string{"lo", "hi", "confidence", "rule", "states", "stddev", "values"}},
		{Result{Kind: "estimate", Runs: 10, Detail: &TraceDetail{StdDev: 1}},
			[]string{"satisfied", "first_satisfying", "histogram", "rule", "verdict", "states"}},
		{Result{Kind: "enum-states-smc", Runs: 10, Detail: &TraceDetail{States: 3}},
			[]string{"estimate", "lo", "hi", "satisfied", "histogram", "convergence"}},
		{Result{Kind: "splitting", Detail: &SplitDetail{Split: &splitting.Result{Method: "fixed"}}},
			[]string{"ends", "satisfied", "rule", "explicit"}},
		{Result{Kind: "explicit", Detail: &ExplicitDetail{Explicit: &explicit.Result{Kind: "reach"}}},
			[]string{"runs", "estimate", "lo", "hi", "confidence", "steps", "ends", "satisfied"}},
		{Result{Kind: "exact", Detail: &ExactDetail{Exact: &explicit.ExactResult{Complete: true}}},
			[]string{"runs", "confidence", "steps", "ends", "satisfied"}},
	}
	for _, c := range cases {
		b, err := json.Marshal(c.r)
		if err != nil {
			t.Fatalf("%s: %v", c.r.Kind, err)
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatalf("%s: %v", c.r.Kind, err)
		}
		want := ResultKeys(c.r.Kind, nil)
		if len(m) != len(want) {
			t.Errorf("%s: %d fields, want %d (%v): %s", c.r.Kind, len(m), len(want), want, b)
		}
		for _, k := range want {
			if _, ok := m[k]; !ok {
				t.Errorf("%s: no field %q: %s", c.r.Kind, k, b)
			}
		}
		for _, k := range c.absent {
			if _, ok := m[k]; ok {
				t.Errorf("%s: field %q of another kind: %s", c.r.Kind, k, b)
			}
		}
		if e, ok := m["ends"]; ok {
			var ends map[string]uint64
			if err := json.Unmarshal(e, &ends); err != nil || len(ends) != len(jobs.Ends) {
				t.Errorf("%s: ends %s, want every end (%d), zero counts included", c.r.Kind, e, len(jobs.Ends))
			}
		}
		// Fields come in the documented order.
		last := -1
		for _, k := range want {
			i := strings.Index(string(b), `"`+k+`":`)
			if i < last {
				t.Errorf("%s: field %q out of order: %s", c.r.Kind, k, b)
			}
			last = i
		}
	}
	// A non-zero value outside the kind's fields is kept, not lost.
	b, err := json.Marshal(Result{Kind: "explicit", Runs: 3, Detail: &ExplicitDetail{}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"runs":3`) {
		t.Errorf("non-zero runs of an explicit result dropped: %s", b)
	}
}

// TestEncodeAll: omitempty is ignored, nil slices and maps are empty, nil
// pointers null, non-finite floats null, HTML characters unescaped and
// other escapes kept.
func TestEncodeAll(t *testing.T) {
	type inner struct {
		N int `json:"n,omitempty"`
	}
	type embedded struct {
		E string `json:"e"`
	}
	type outer struct {
		embedded
		S     string         `json:"s,omitempty"`
		L     []int          `json:"l,omitempty"`
		M     map[string]int `json:"m,omitempty"`
		P     *inner         `json:"p,omitempty"`
		I     inner          `json:"i"`
		F     float64        `json:"f"`
		Skip  int            `json:"-"`
		Plain int
	}
	cases := []struct {
		in   any
		want string
	}{
		{outer{}, `{"e":"","s":"","l":[],"m":{},"p":null,"i":{"n":0},"f":0,"Plain":0}`},
		{outer{S: "a<b && c>d", F: math.Inf(1), L: []int{1}, M: map[string]int{"z": 1, "a": 2}, P: &inner{}},
			`{"e":"","s":"a<b && c>d","l":[1],"m":{"a":2,"z":1},"p":{"n":0},"i":{"n":0},"f":null,"Plain":0}`},
		{`back\slash "\u003c" <`, `"back\\slash \"\\u003c\" <"`},
		{json.RawMessage(`{"q":"\u003c\u0026\\u003e"}`), `{"q":"<&\\u003e"}`},
	}
	for _, c := range cases {
		got, err := encodeAll(c.in)
		if err != nil {
			t.Fatalf("%#v: %v", c.in, err)
		}
		if string(got) != c.want {
			t.Errorf("%#v:\n got %s\nwant %s", c.in, got, c.want)
		}
		if !json.Valid(got) {
			t.Errorf("%s is not JSON", got)
		}
	}
}

// TestOptions: every option of the query's kind is reported with its value
// in effect, and the defaults are named.
func TestOptions(t *testing.T) {
	cases := []struct {
		query    string
		exp      jobs.Experiment
		want     map[string]any
		defaults []string
	}{
		{"Pr[<=100](<> x > 1) {Epsilon=0.02}", jobs.Experiment{Kind: jobs.KindTrace},
			map[string]any{"Alpha": 0.05, "Epsilon": 0.02, "Rule": "checkpoint", "MinRuns": int64(100), "MaxRuns": nil, "bound": uint64(100), "engine": "simulation",
				"Platform": "posix", "Spurious": 0.0},
			[]string{"Alpha", "MaxRuns", "MinRuns", "Platform", "Rule", "Spurious"}},
		{"Pr[<=100](<> x > 1) >= 0.3 {Alpha=0.01}", jobs.Experiment{Kind: jobs.KindTrace},
			map[string]any{"Alpha": 0.01, "Beta": 0.01, "Delta": 0.01, "MaxRuns": nil, "bound": uint64(100), "engine": "simulation",
				"Platform": "posix", "Spurious": 0.0},
			[]string{"Beta", "Delta", "MaxRuns", "Platform", "Spurious"}},
		{"Pr[<=100](<> x > 9) {Split=adaptive, Score=x, N=200}", jobs.Experiment{Kind: jobs.KindSplit},
			map[string]any{"Alpha": 0.05, "Split": "adaptive", "Score": "x", "Levels": nil, "N": int64(200), "K": int64(20), "M": "auto", "MaxM": int64(480),
				"MaxIter": int64(100000), "Max": nil, "Interval": "log", "bound": uint64(100), "engine": "splitting",
				"Platform": "posix", "Spurious": 0.0},
			[]string{"Alpha", "Interval", "K", "Levels", "M", "Max", "MaxIter", "MaxM", "Platform", "Spurious"}},
		{"E<> x > 1", jobs.Experiment{Kind: jobs.KindExplicit, Explicit: &jobs.ExplicitOptions{Reduction: "local", MaxStates: 10}},
			map[string]any{"engine": "explicit", "order": "bfs", "reduction": "local", "compact": false, "max-states": int64(10),
				"max-memory": int64(explicit.DefaultMaxBytes >> 20), "max-time": nil, "Platform": "posix"},
			[]string{"Platform", "compact", "max-memory", "max-time", "order"}},
		{"Pr[<=10](<> x > 1) {Spurious=0.25}", jobs.Experiment{Kind: jobs.KindExplicit, Explicit: &jobs.ExplicitOptions{Exact: true}},
			map[string]any{"bound": uint64(10), "engine": "exact", "compact": false, "max-states": nil, "max-memory": int64(explicit.DefaultMaxBytes >> 20), "max-time": nil,
				"Platform": "posix", "Spurious": 0.25},
			[]string{"Platform", "compact", "max-memory", "max-states", "max-time"}},
		{"E<> Error", jobs.Experiment{Kind: jobs.KindBMC, BMC: &jobs.BMCOptions{Unwind: 8, Solver: "cvc5"}},
			map[string]any{"engine": "bmc", "unwind": 8, "max-unwind": nil, "solver": "cvc5", "solver-timeout": nil, "Platform": "posix"},
			[]string{"Platform", "solver-timeout"}},
	}
	for _, c := range cases {
		q, err := query.Parse(c.query)
		if err != nil {
			t.Fatal(err)
		}
		got, defaults := Options(q, &c.exp)
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
