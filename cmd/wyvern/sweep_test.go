package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestSweepValues(t *testing.T) {
	for _, tc := range []struct {
		spec string
		want []string
		err  string
	}{
		{spec: "1:4", want: []string{"1", "2", "3", "4"}},
		{spec: "2:10:4", want: []string{"2", "6", "10"}},
		{spec: "0:1:0.25", want: []string{"0", "0.25", "0.5", "0.75", "1"}},
		{spec: "0.1:0.3:0.1", want: []string{"0.1", "0.2", "0.3"}},
		{spec: "-2:2:2", want: []string{"-2", "0", "2"}},
		{spec: "3:3", want: []string{"3"}},
		{spec: "8, 16,32", want: []string{"8", "16", "32"}},
		{spec: "LOW,HIGH", want: []string{"LOW", "HIGH"}},
		{spec: "4:1", err: "want A <= B"},
		{spec: "1:5:0", err: "step > 0"},
		{spec: "1:5:-1", err: "step > 0"},
		{spec: "x:3", err: "not a number"},
		{spec: "1:2:3:4", err: "want A:B or A:B:STEP"},
		{spec: "1,,2", err: "empty value"},
		{spec: "1:5000", err: "at most 1000"},
	} {
		got, err := sweepValues(tc.spec)
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%q: err %v, want one saying %q", tc.spec, err, tc.err)
		case tc.err == "" && err != nil:
			t.Errorf("%q: %v", tc.spec, err)
		case tc.err == "" && !slices.Equal(got, tc.want):
			t.Errorf("%q: %v, want %v", tc.spec, got, tc.want)
		}
	}
}

// TestSweepErrors checks the errors of --sweep, before anything runs.
func TestSweepErrors(t *testing.T) {
	requireClang(t)
	const prog = "../../testdata/smc/lost_update.c"
	ll := filepath.Join(t.TempDir(), "p.ll")
	if err := os.WriteFile(ll, []byte("define i32 @main() {\n  ret i32 0\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"bad name", []string{prog, "E<> lost == 1", "--sweep", "1N=1:2"}, "C macro name"},
		{"no value", []string{prog, "E<> lost == 1", "--sweep", "N"}, "NAME=A:B"},
		{"two parameters", []string{prog, "E<> lost == 1", "--sweep", "N=1:2", "--sweep", "M=1:2"}, "one parameter a sweep"},
		{"not C", []string{ll, "E<> Deadlock", "--sweep", "N=1:2"}, "is not C source"},
		{"value that does not compile", []string{prog, "E<> lost == 1", "--sweep", "N=1,x"}, "N=x: "},
		{"emit-levels", []string{prog, "Pr[<=1000](<> lost == 1) {Split=adaptive, Score=counter}", "--sweep", "N=1:2", "--emit-levels"}, "--emit-levels"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			if rc := dispatch(append([]string{"check"}, tc.args...), &out, &errb); rc != exitUsage {
				t.Fatalf("exit %d, want %d\n%s%s", rc, exitUsage, out.String(), errb.String())
			}
			if !strings.Contains(errb.String(), tc.want) {
				t.Errorf("error %q does not say %q", errb.String(), tc.want)
			}
			if out.Len() > 0 {
				t.Errorf("something ran: %s", out.String())
			}
		})
	}
}

// TestSweepCheck sweeps the lost-update program over N: the exact
// probability of a lost update grows with N, each value is its own
// compilation, and the chart of the answers is drawn.
func TestSweepCheck(t *testing.T) {
	requireClang(t)
	dir := t.TempDir()
	var out, errb bytes.Buffer
	rc := dispatch([]string{"check", "../../testdata/smc/lost_update.c", "Pr[<=100000](<> lost == 1)", "--exact",
		"--sweep", "N=1:2", "--json", "--quiet", "--workers", "1", "--plot", dir}, &out, &errb)
	if rc != 0 {
		t.Fatalf("exit %d\n%s%s", rc, out.String(), errb.String())
	}
	var rep struct {
		Kind      string   `json:"kind"`
		Parameter string   `json:"parameter"`
		Values    []string `json:"values"`
		Entries   []struct {
			Value    string   `json:"value"`
			Estimate *float64 `json:"estimate"`
			Lo, Hi   *float64
			Result   struct {
				Kind string `json:"kind"`
				Hash string `json:"program_sha256"`
			} `json:"result"`
		} `json:"entries"`
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("--json: %v\n%s", err, out.String())
	}
	if rep.Kind != "sweep" || rep.Parameter != "N" || !slices.Equal(rep.Values, []string{"1", "2"}) || len(rep.Entries) != 2 {
		t.Fatalf("report %+v, want a sweep of N over 1, 2 with two entries", rep)
	}
	e1, e2 := rep.Entries[0], rep.Entries[1]
	if e1.Estimate == nil || e2.Estimate == nil || e1.Result.Kind != "exact" {
		t.Fatalf("entries without an exact answer: %s", out.String())
	}
	// N=1: a lost update needs both threads to read before either writes
	if !(*e1.Estimate > 0.5 && *e1.Estimate < *e2.Estimate && *e2.Estimate < 1) {
		t.Errorf("Pr(lost) %g for N=1 and %g for N=2: want 0.5 < Pr(N=1) < Pr(N=2) < 1", *e1.Estimate, *e2.Estimate)
	}
	if e1.Result.Hash == e2.Result.Hash {
		t.Errorf("both values ran the same program (sha256 %s): -DN=V not applied", e1.Result.Hash)
	}
	for _, f := range []string{"sweep.png", "sweep.svg"} {
		if fi, err := os.Stat(filepath.Join(dir, f)); err != nil || fi.Size() == 0 {
			t.Errorf("--plot: %s not written: %v", f, err)
		}
	}
}

// TestSweepQueryFile sweeps a file of two queries: a table for each, the
// exit status the worst (10: reachable), the verdict-only query without a
// chart and no failure for it.
func TestSweepQueryFile(t *testing.T) {
	requireClang(t)
	dir := t.TempDir()
	qf := filepath.Join(dir, "q.q")
	if err := os.WriteFile(qf, []byte("E<> lost == 1\nPr[<=100000](<> lost == 1)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	rc := dispatch([]string{"check", "../../testdata/smc/lost_update.c", "-q", qf, "--sweep", "N=1,2",
		"--quiet", "--workers", "1", "--plot", dir}, &out, &errb)
	if rc != 10 {
		t.Fatalf("exit %d, want 10 (the worst: reachable)\n%s%s", rc, out.String(), errb.String())
	}
	for _, want := range []string{"== Sweep of N over 1, 2: E<> lost == 1", "== Sweep of N over 1, 2: Pr[<=100000](<> lost == 1)", "N=2  E<> lost == 1: REACHABLE"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output does not say %q:\n%s", want, out.String())
		}
	}
	if !strings.Contains(errb.String(), "no sweep chart for E<> lost == 1") {
		t.Errorf("no word on the query without a chart:\n%s", errb.String())
	}
	if _, err := os.Stat(filepath.Join(dir, "sweep-q2.png")); err != nil {
		t.Errorf("the probability's chart: %v", err)
	}
}
