package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/wyvernmc/wyvern/coordinator"
	"github.com/wyvernmc/wyvern/ir"
	"github.com/wyvernmc/wyvern/query"
)

// TestParseQueryFile: one query a line; blank lines, // and # comment
// lines and trailing // comments are left out; line numbers are kept.
func TestParseQueryFile(t *testing.T) {
	cases := []struct {
		name, text string
		want       []fileQuery
		err        string
	}{
		{"plain", "E<> x > 1\nA[] y == 0\n", []fileQuery{{"E<> x > 1", "f.q", 1}, {"A[] y == 0", "f.q", 2}}, ""},
		{"comments", "// header\n\n# hash comment\n  Pr[<=10](<> x > 1)   // trailing\n\t\n   # indented\nEnumStates",
			[]fileQuery{{"Pr[<=10](<> x > 1)", "f.q", 4}, {"EnumStates", "f.q", 7}}, ""},
		{"crlf", "E<> x\r\nA[] y\r\n", []fileQuery{{"E<> x", "f.q", 1}, {"A[] y", "f.q", 2}}, ""},
		{"empty", "// nothing\n\n# at all\n", nil, "has no query"},
	}
	for _, c := range cases {
		got, err := parseQueryFile("f.q", strings.NewReader(c.text))
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: error %v, want %q", c.name, err, c.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: %+v, %v; want %+v", c.name, got, err, c.want)
		}
	}
}

// TestCheckArgs: help goes to stdout with status 0; wrong arguments say
// what is wrong, with status 2.
func TestCheckArgs(t *testing.T) {
	requireClang(t)
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.q")
	if err := os.WriteFile(bad, []byte("E<> i > 1\n\n// next\nPr[<=10](<> i > )\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	const prog = "../../testdata/smc/fib_4.c"
	for _, c := range []struct {
		args    []string
		rc      int
		stdout  string
		stderr  string
		noError bool
	}{
		{[]string{"check", "-h"}, 0, "wyvern check FILE... -q QUERIES.q", "", true},
		{[]string{"check", "--help"}, 0, "usage: wyvern check", "", true},
		{[]string{"help", "check"}, 0, "usage: wyvern check", "", true},
		{[]string{"run", "-h"}, 0, "usage: wyvern run", "", true},
		{[]string{"--help"}, 0, "commands:", "", true},
		{[]string{"check", prog, "E<> [0.VERIFIER_error]", "A[] !Error"}, exitUsage, "", "two queries given", false},
		{[]string{"check", prog, "E<>", "[0.VERIFIER_error]", "&&", "i"}, exitUsage, "", "4 queries given; use -q", false},
		{[]string{"check", prog}, exitUsage, "", "no query given", false},
		{[]string{"check"}, exitUsage, "", "no program given", false},
		{[]string{"check", prog, "E<> [0.VERIFIER_error]", "-q", bad}, exitUsage, "", "put the query in the file", false},
		{[]string{"check", prog, "-q", filepath.Join(dir, "missing.q")}, exitUsage, "", "-q: open", false},
		{[]string{"check", prog, "-q", bad}, exitUsage, "", "bad.q:4: query column", false},
		{[]string{"check", prog, "-q", bad, "--emit-levels"}, exitUsage, "", "--emit-levels prints one query's levels", false},
	} {
		var out, errb bytes.Buffer
		rc := dispatch(c.args, &out, &errb)
		if rc != c.rc || !strings.Contains(out.String(), c.stdout) || !strings.Contains(errb.String(), c.stderr) {
			t.Errorf("%q: exit %d (want %d)\nstdout: %s\nstderr: %s", c.args, rc, c.rc, out.String(), errb.String())
		}
		if c.noError && errb.Len() > 0 {
			t.Errorf("%q: help wrote to stderr: %s", c.args, errb.String())
		}
	}
}

// TestQueryFile: check -q answers the five queries of five kinds of
// testdata/queries/fib_4.q in turn: one JSON array with a result per query
// (each following docs/json.md), the text with a verdict line per query and
// a summary, and the exit status the worst of the verdicts (the test fails
// and E<> is reachable: 10); the answers are those of the queries checked
// one by one.
func TestQueryFile(t *testing.T) {
	requireClang(t)
	const prog, qfile = "../../testdata/smc/fib_4.c", "../../testdata/queries/fib_4.q"
	var out, errb bytes.Buffer
	if rc := dispatch([]string{"check", "--workers", "2", "--quiet", "--json", prog, "-q", qfile}, &out, &errb); rc != coordinator.ExitViolated {
		t.Fatalf("check -q --json: exit %d, want %d: %s", rc, coordinator.ExitViolated, errb.String())
	}
	var raws []json.RawMessage
	if err := json.Unmarshal(out.Bytes(), &raws); err != nil {
		t.Fatalf("not a JSON array: %v\n%s", err, out.String())
	}
	wantKinds := []string{"probability", "hypothesis", "estimate", "enum-states-smc", "explicit"}
	wantExit := []int{0, 10, 0, 0, 10}
	if len(raws) != len(wantKinds) {
		t.Fatalf("%d results, want %d", len(raws), len(wantKinds))
	}
	for i, raw := range raws {
		if err := checkResultJSON(raw); err != nil {
			t.Errorf("result %d does not follow docs/json.md: %v", i+1, err)
		}
		var r coordinator.Result
		if err := json.Unmarshal(raw, &r); err != nil {
			t.Fatal(err)
		}
		if r.Kind != wantKinds[i] || r.ExitStatus() != wantExit[i] {
			t.Errorf("result %d: kind %s, exit %d; want %s, %d", i+1, r.Kind, r.ExitStatus(), wantKinds[i], wantExit[i])
		}
		if i == 0 {
			// The same query alone gives the same answer.
			var one bytes.Buffer
			if rc := dispatch([]string{"check", "--workers", "1", "--quiet", "--json", prog, r.Query}, &one, &errb); rc != 0 {
				t.Fatalf("check %q: exit %d", r.Query, rc)
			}
			var alone coordinator.Result
			if err := json.Unmarshal(one.Bytes(), &alone); err != nil {
				t.Fatal(err)
			}
			if alone.Estimate != r.Estimate || alone.Runs != r.Runs || alone.Lo != r.Lo {
				t.Errorf("%s: alone %g (%d runs), in the file %g (%d runs)", r.Query, alone.Estimate, alone.Runs, r.Estimate, r.Runs)
			}
		}
	}
	out.Reset()
	if rc := dispatch([]string{"check", "--workers", "2", "--quiet", prog, "-q", qfile}, &out, &errb); rc != coordinator.ExitViolated {
		t.Fatalf("check -q: exit %d: %s", rc, errb.String())
	}
	text := out.String()
	for _, want := range []string{
		"== Query 1 of 5 (../../testdata/queries/fib_4.q:6)",
		"Verdict: FAILS: Pr >= 0.5",
		"Verdict: REACHABLE",
		"== Summary: 5 queries of ../../testdata/queries/fib_4.q (exit status 10)",
		"fib_4.q:10 EnumStatesSMC <=5000 100: ",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
	}
	if n := strings.Count(text, "Verdict: "); n != 5 {
		t.Errorf("%d verdict lines, want 5", n)
	}
}

// TestWorseStatus: the exit status of a query file is the worst of its
// queries'.
func TestWorseStatus(t *testing.T) {
	cases := []struct {
		statuses []int
		want     int
	}{
		{[]int{0, 0, 0}, 0},
		{[]int{0, 11, 0}, 11},
		{[]int{11, 10, 0}, 10},
		{[]int{10, 11}, 10},
		{[]int{0, 1, 10}, 1},
		{[]int{10, 130}, 130},
	}
	for _, c := range cases {
		got := 0
		for _, s := range c.statuses {
			got = worseStatus(got, s)
		}
		if got != c.want {
			t.Errorf("%v: %d, want %d", c.statuses, got, c.want)
		}
	}
}

// TestQueryFileExplicitFlags: in a query file of several kinds, the
// explicit-state flags apply to its explicit-state queries and leave its
// simulation queries alone; a file with no query they fit is a usage error.
func TestQueryFileExplicitFlags(t *testing.T) {
	requireClang(t)
	dir := t.TempDir()
	mixed := filepath.Join(dir, "mixed.q")
	if err := os.WriteFile(mixed, []byte("Pr[<=5000](<> counter < 10)\nE<> DataRace\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	rc := dispatch([]string{"check", "--workers", "1", "--quiet", "--reduction", "global", "-q", mixed, "../../examples/race.c"}, &out, &errb)
	if rc == exitUsage || !strings.Contains(out.String(), "reduction=global") || !strings.Contains(out.String(), "E<> DataRace: satisfied") {
		t.Errorf("mixed file with --reduction global: exit %d\n%s%s", rc, out.String(), errb.String())
	}
	sim := filepath.Join(dir, "sim.q")
	if err := os.WriteFile(sim, []byte("Pr[<=5000](<> counter < 10)\nPr[<=50](<> counter < 10)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	errb.Reset()
	rc = dispatch([]string{"check", "--reduction", "global", "-q", sim, "../../examples/race.c"}, &out, &errb)
	if rc != exitUsage || !strings.Contains(errb.String(), "none of the 2 queries of "+sim+" is one") {
		t.Errorf("simulation-only file with --reduction global: exit %d: %s", rc, errb.String())
	}
}

// TestQueryFileJSONKeepsFailures: with -q --json a query whose experiment
// fails is an entry of the array (object failed-query of docs/json.md)
// with its error, in its place in the file: the array used to skip it
// (1 000 entries for 1 010 queries, positions no longer the file's).
func TestQueryFileJSONKeepsFailures(t *testing.T) {
	texts := []string{"Pr[<=10](<> x > 0)", "Pr[<=20](<> x > 0)", "Pr[<=30](<> x > 0)", "Pr[<=40](<> x > 0)"}
	failing := map[int]bool{1: true, 3: true}
	var ps []*prepared
	for i, text := range texts {
		q, err := query.Parse(text)
		if err != nil {
			t.Fatal(err)
		}
		ps = append(ps, &prepared{q: q, src: &ir.Source{Name: "p.c"}, where: fmt.Sprintf("f.q:%d", i+1)})
	}
	submit := func(p *prepared) (*coordinator.Result, int, error) {
		i := slices.Index(ps, p)
		if failing[i] {
			return nil, 1, fmt.Errorf("experiment failed: query %d refused", i+1)
		}
		return &coordinator.Result{Query: p.q.Text, Kind: "probability", Program: "p.c"}, 0, nil
	}
	var out, errb bytes.Buffer
	ef := &experimentFlags{queries: "f.q", asJSON: true}
	if rc := answerQueries(ps, ef, submit, &out, &errb); rc != 1 {
		t.Errorf("exit status %d, want 1", rc)
	}
	var entries []map[string]any
	if err := json.Unmarshal(out.Bytes(), &entries); err != nil {
		t.Fatalf("not a JSON array: %v\n%s", err, out.String())
	}
	if len(entries) != len(texts) {
		t.Fatalf("%d entries for %d queries:\n%s", len(entries), len(texts), out.String())
	}
	s, err := loadSchema()
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range entries {
		if e["query"] != texts[i] {
			t.Errorf("entry %d answers %v, want %q", i+1, e["query"], texts[i])
		}
		if !failing[i] {
			continue
		}
		want := fmt.Sprintf("experiment failed: query %d refused", i+1)
		if e["kind"] != "failed" || e["error"] != want || e["where"] != fmt.Sprintf("f.q:%d", i+1) {
			t.Errorf("entry %d: %v, want kind failed, error %q", i+1, e, want)
		}
		raw, _ := json.Marshal(e)
		var v map[string]any
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		if err := dec.Decode(&v); err != nil {
			t.Fatal(err)
		}
		if err := checkObject(s, v, s.objects["failed-query"], "failed-query"); err != nil {
			t.Errorf("entry %d does not follow docs/json.md: %v", i+1, err)
		}
	}
}
