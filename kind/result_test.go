package kind_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/wyvernmc/wyvern/explicit"
	"github.com/wyvernmc/wyvern/kind"
	"github.com/wyvernmc/wyvern/simulator"
	"github.com/wyvernmc/wyvern/splitting"
	"github.com/wyvernmc/wyvern/trace"
)

// customDetail is a result kind of the test's own, as a new job kind
// would define one.
type customDetail struct {
	Value int `json:"answer"`
}

func (d *customDetail) WriteText(w io.Writer, r *kind.Result) {
	fmt.Fprintf(w, "The answer is %d\n", d.Value)
}

func (d *customDetail) Answer(*kind.Result) kind.Verdict { return kind.Unknown }
func (d *customDetail) Summary(*kind.Result) string      { return fmt.Sprint(d.Value) }
func (d *customDetail) Counterexamples() []*trace.Trace  { return nil }

// TestResultDetailsRoundTrip: every result kind's detail is encoded beside
// the common fields and decoded back into its own type, including a kind
// registered from outside the package; its text follows the common header.
func TestResultDetailsRoundTrip(t *testing.T) {
	kind.RegisterDetail("custom", nil, func() kind.Detail { return &customDetail{} })
	cases := []kind.Result{
		{Kind: "probability", Runs: 10, Estimate: 0.3, Detail: &simulator.Detail{Satisfied: 3, Rule: "checkpoint"}},
		{Kind: "hypothesis", Runs: 50, Detail: &simulator.Detail{Decision: "accept", Verdict: "holds", Cmp: ">=", Theta: 0.2}},
		{Kind: "splitting", Runs: 400, Detail: &splitting.Detail{Split: &splitting.Result{Method: "fixed", N: 100, Estimate: 1e-5}}},
		{Kind: "explicit", Detail: &explicit.Detail{Explicit: &explicit.Result{Kind: "reach", States: 12}}},
		{Kind: "exact", Estimate: 0.5, Detail: &explicit.ExactDetail{Exact: &explicit.ExactResult{Probability: 0.5, Complete: true}}},
		{Kind: "custom", Detail: &customDetail{Value: 42}},
		{Kind: "unregistered"},
	}
	for _, c := range cases {
		b, err := json.Marshal(&c)
		if err != nil {
			t.Fatalf("%s: %v", c.Kind, err)
		}
		var flat map[string]any
		if err := json.Unmarshal(b, &flat); err != nil {
			t.Fatalf("%s: %s is not one JSON object: %v", c.Kind, b, err)
		}
		if flat["kind"] != c.Kind {
			t.Errorf("%s: %s", c.Kind, b)
		}
		var back kind.Result
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatalf("%s: decode %s: %v", c.Kind, b, err)
		}
		// Every field is encoded (nil slices as []), so the decoded result
		// may hold empty slices where c held nil: it must encode the same
		// and have the same kind of detail.
		again, err := json.Marshal(&back)
		if err != nil {
			t.Fatalf("%s: %v", c.Kind, err)
		}
		if !bytes.Equal(again, b) || reflect.TypeOf(back.Detail) != reflect.TypeOf(c.Detail) {
			t.Errorf("%s: round trip gives %s (detail %T), want %s (detail %T)", c.Kind, again, back.Detail, b, c.Detail)
		}
	}
	var text bytes.Buffer
	r := kind.Result{Kind: "custom", Query: "Q", Program: "p.c", Detail: &customDetail{Value: 42}}
	r.WriteText(&text)
	if !strings.HasPrefix(text.String(), "Query: Q\nProgram: p.c") || !strings.Contains(text.String(), "The answer is 42") {
		t.Errorf("text:\n%s", text.String())
	}
	if r.ExitStatus() != kind.ExitUnknown || r.Detail.Summary(&r) != "42" {
		t.Errorf("a custom detail's answer gives exit status %d and summary %q, want %d and \"42\"", r.ExitStatus(), r.Detail.Summary(&r), kind.ExitUnknown)
	}
}
