package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/wyvernmc/wyvern/coordinator"
	"github.com/wyvernmc/wyvern/jobs"
	"github.com/wyvernmc/wyvern/query"
)

// TestProcessWarning: a query answered "never" that names a process the
// runs do not have says so after the run (text and JSON); one that names
// existing processes, or that is satisfied, does not.
func TestProcessWarning(t *testing.T) {
	requireClang(t)
	const prog = "../../testdata/smc/petersons.c" // main and two threads
	const warn = "the query names process 3, but none of 20 runs"
	for _, c := range []struct {
		query string
		warns []string // in the warnings; none when empty
		rc    int
	}{
		{"A[] !([1.crit] && [3.crit])", []string{warn}, coordinator.ExitHolds},
		{"E<> [3.crit]", []string{warn}, coordinator.ExitHolds},
		{"Pr[<=5000](<> [3.crit]) {Epsilon=0.05}", []string{"0 of ", "the event may be rare", warn}, coordinator.ExitHolds},
		{"A[] !([1.crit] && [2.crit])", nil, coordinator.ExitHolds},
		{"E<> [2.crit]", nil, coordinator.ExitViolated},
	} {
		var out, errb bytes.Buffer
		if rc := dispatch([]string{"check", "--workers", "2", "--quiet", "--json", prog, c.query}, &out, &errb); rc != c.rc {
			t.Fatalf("%s: exit %d, want %d: %s", c.query, rc, c.rc, errb.String())
		}
		var r coordinator.Result
		if err := json.Unmarshal(out.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		got := strings.Join(r.Warnings, "\n")
		if len(c.warns) == 0 && got != "" {
			t.Errorf("%s: warnings %q, want none", c.query, got)
		}
		for _, w := range c.warns {
			if !strings.Contains(got, w) {
				t.Errorf("%s: warnings %q, want %q", c.query, got, w)
			}
		}
		if len(c.warns) > 0 {
			var text bytes.Buffer
			r.WriteText(&text)
			if !strings.Contains(text.String(), "warning: "+c.warns[0]) {
				t.Errorf("%s: the text does not show the warning:\n%s", c.query, text.String())
			}
		}
	}
}

// TestPartialResult: an interrupted experiment prints what its last
// progress report had, saying that it is not a result.
func TestPartialResult(t *testing.T) {
	parse := func(s string) *query.Query {
		q, err := query.Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		return q
	}
	pr := parse("Pr[<=10](<> x > 1)")
	cases := []struct {
		name string
		q    *query.Query
		p    *jobs.Progress
		want string
	}{
		{"none yet", pr, nil, ""},
		{"runs", pr, &jobs.Progress{Runs: 1000, Satisfied: 250, Lo: 0.22, Hi: 0.28},
			"interrupted after 1000 runs: 250 satisfying (frequency 0.25), interval so far [0.22, 0.28] — partial"},
		{"estimate", parse("Estimate[<=10,500]{max x}"), &jobs.Progress{Runs: 120}, "interrupted after 120 of 500 runs; no estimate"},
		{"splitting", pr, &jobs.Progress{Runs: 9000, Replications: 3, PlannedReplications: 30, Estimate: 1e-6},
			"interrupted after 3 of 30 replications (9000 run segments); estimate so far 1e-06 (no interval)"},
		{"explicit", parse("E<> x > 1"), &jobs.Progress{States: 5000, Queue: 12, Depth: 40}, "the search had found 5000 states (queue 12, depth 40); no verdict"},
		{"bmc", parse("E<> Error"), &jobs.Progress{Unwind: 8}, "bounds up to unwind 8 checked without a violation"},
	}
	for _, c := range cases {
		var b bytes.Buffer
		partialResult(&b, c.q, c.p)
		if c.want == "" && b.Len() > 0 || !strings.Contains(b.String(), c.want) {
			t.Errorf("%s: %q, want %q", c.name, b.String(), c.want)
		}
	}
}
