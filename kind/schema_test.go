package kind_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/wyvernmc/wyvern/explicit"
	"github.com/wyvernmc/wyvern/jobs"
	"github.com/wyvernmc/wyvern/kind"
	"github.com/wyvernmc/wyvern/simulator"
	"github.com/wyvernmc/wyvern/splitting"
)

// TestResultKeys: a result's JSON has exactly its kind's fields (as each
// job kind registers them), in order,
// whatever their values (zero counts included), and nothing of another
// kind; a field outside the kind's list survives only when it is not zero.
func TestResultKeys(t *testing.T) {
	cases := []struct {
		r      kind.Result
		absent []string // fields of other kinds
	}{
		{kind.Result{Kind: "probability", Query: "Pr[<=5](<> x < 3 && y > 1)", Runs: 10, Ends: map[string]uint64{"exited": 10}, Detail: &simulator.Detail{Rule: "checkpoint"}},
			[]string{"states", "stddev", "verdict", "explicit", "values", "theta"}},
		{kind.Result{Kind: "hypothesis", Runs: 10, Detail: &simulator.Detail{Verdict: "holds", Cmp: ">="}},
			[]string{"lo", "hi", "confidence", "rule", "states", "stddev", "values"}},
		{kind.Result{Kind: "estimate", Runs: 10, Detail: &simulator.Detail{StdDev: 1}},
			[]string{"satisfied", "first_satisfying", "histogram", "rule", "verdict", "states"}},
		{kind.Result{Kind: "enum-states-smc", Runs: 10, Detail: &simulator.Detail{States: 3}},
			[]string{"estimate", "lo", "hi", "satisfied", "histogram", "convergence"}},
		{kind.Result{Kind: "splitting", Detail: &splitting.Detail{Split: &splitting.Result{Method: "fixed"}}},
			[]string{"ends", "satisfied", "rule", "explicit"}},
		{kind.Result{Kind: "explicit", Detail: &explicit.Detail{Explicit: &explicit.Result{Kind: "reach"}}},
			[]string{"runs", "estimate", "lo", "hi", "confidence", "steps", "ends", "satisfied"}},
		{kind.Result{Kind: "exact", Detail: &explicit.ExactDetail{Exact: &explicit.ExactResult{Complete: true}}},
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
		want := kind.ResultKeys(c.r.Kind, nil)
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
	b, err := json.Marshal(kind.Result{Kind: "explicit", Runs: 3, Detail: &explicit.Detail{}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"runs":3`) {
		t.Errorf("non-zero runs of an explicit result dropped: %s", b)
	}
}
