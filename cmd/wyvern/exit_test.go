package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wyvernmc/wyvern/coordinator"
	"github.com/wyvernmc/wyvern/jobs"
	"github.com/wyvernmc/wyvern/query"
)

// TestExitStatuses: check exits 0 when the property holds (or for an
// estimate), 10 when it is violated or the target reached, 11 when there is
// no verdict — CBMC's conventions, documented in the README.
func TestExitStatuses(t *testing.T) {
	requireClang(t)
	const fib, pet = "../../testdata/smc/fib_4.c", "../../testdata/smc/petersons.c"
	for _, c := range []struct {
		name string
		args []string
		want int
	}{
		{"test holds", []string{fib, "Pr[<=5000](<> [0.VERIFIER_error]) <= 0.5 {Delta=0.05}"}, coordinator.ExitHolds},
		{"test fails", []string{fib, "Pr[<=5000](<> [0.VERIFIER_error]) >= 0.5 {Delta=0.05}"}, coordinator.ExitViolated},
		{"test undecided", []string{fib, "Pr[<=5000](<> [0.VERIFIER_error]) >= 0.13 {Delta=0.001, MaxRuns=200}"}, coordinator.ExitUnknown},
		{"estimate", []string{fib, "Pr[<=5000](<> [0.VERIFIER_error]) {Epsilon=0.1}"}, coordinator.ExitHolds},
		{"unreachable", []string{pet, "E<> ([1.crit] && [2.crit])"}, coordinator.ExitHolds},
		{"invariant holds", []string{pet, "A[] !([1.crit] && [2.crit])"}, coordinator.ExitHolds},
		{"search incomplete", []string{"--max-states", "50", pet, "A[] !([1.crit] && [2.crit])"}, coordinator.ExitUnknown},
		{"exact holds", []string{"--exact", fib, "Pr[<=5000](<> [0.VERIFIER_error]) <= 0.2"}, coordinator.ExitHolds},
		// A splitting estimate whose interval's coverage is not assured
		// (M = 3 given, far below what the skewness of ruin.c's
		// replication estimates needs) is given with no verdict.
		{"splitting, coverage not assured", []string{"../../testdata/splitting/ruin.c", "Pr[<=1000000](<> x >= 20) {Split=adaptive, Score=x, N=50, M=3}"}, coordinator.ExitUnknown},
		{"splitting, M=auto", []string{"../../testdata/splitting/below.c", "Pr[<=1000](<> done == 1) {Split=fixed, Score=x, Levels=[1,2], N=200}"}, coordinator.ExitHolds},
	} {
		var out, errb bytes.Buffer
		args := append([]string{"check", "--workers", "1", "--quiet"}, c.args...)
		if rc := dispatch(args, &out, &errb); rc != c.want {
			t.Errorf("%s: exit %d, want %d\n%s%s", c.name, rc, c.want, out.String(), errb.String())
		}
	}
}

// TestVersion: --version names the build and the protocol, on stdout.
func TestVersion(t *testing.T) {
	var out, errb bytes.Buffer
	if rc := dispatch([]string{"--version"}, &out, &errb); rc != 0 || !strings.HasPrefix(out.String(), "wyvern ") || !strings.Contains(out.String(), fmt.Sprintf("protocol %d", jobs.Version)) {
		t.Errorf("--version: exit %d, %q %q", rc, out.String(), errb.String())
	}
}

// TestEmitLevelsJSON: --emit-levels honours --json (an emit-levels object
// whose query parses), and places no level past the score's maximum.
func TestEmitLevelsJSON(t *testing.T) {
	requireClang(t)
	var out, errb bytes.Buffer
	rc := dispatch([]string{"check", "--workers", "1", "--quiet", "--emit-levels", "--json",
		"../../testdata/splitting/capped.c", "Pr[<=100000](<> done == 1) {Split=adaptive, Score=x}"}, &out, &errb)
	if rc != 0 {
		t.Fatalf("exit %d\n%s%s", rc, out.String(), errb.String())
	}
	var e struct {
		Kind       string  `json:"kind"`
		EmitLevels string  `json:"emit_levels"`
		Estimate   float64 `json:"estimate"`
	}
	if err := json.Unmarshal(out.Bytes(), &e); err != nil || e.Kind != "emit-levels" {
		t.Fatalf("--json: %v, kind %q\n%s", err, e.Kind, out.String())
	}
	q, err := query.Parse(e.EmitLevels)
	if err != nil || q.Enum("Split") != "fixed" || len(q.Levels) == 0 {
		t.Fatalf("emitted %q: %v", e.EmitLevels, err)
	}
	if q.Levels[len(q.Levels)-1] > 8 {
		t.Errorf("emitted %q: a level past the score's maximum 8", e.EmitLevels)
	}
}

// TestAllAssumeFailed: when every run ends in a failed assumption, the
// warning says so instead of calling the event rare.
func TestAllAssumeFailed(t *testing.T) {
	requireClang(t)
	prog := filepath.Join(t.TempDir(), "assume.c")
	src := "int main(void) { int x = __VERIFIER_nondet_int(); __VERIFIER_assume(x == 42); return x == 42; }\n"
	if err := os.WriteFile(prog, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if rc := dispatch([]string{"check", "--workers", "1", "--quiet", prog, "Pr[<=100](<> Error)"}, &out, &errb); rc != 0 {
		t.Fatalf("exit %d\n%s", rc, errb.String())
	}
	if s := out.String(); !strings.Contains(s, "every one of the") || !strings.Contains(s, "failed assumption") || strings.Contains(s, "may be rare") {
		t.Errorf("warnings: want one saying every run ended in a failed assumption, and no rare-event one:\n%s", s)
	}
}

// TestSplitAuto: check derives Split=auto's score, says it, and runs the
// adaptive query that uses it (the result's query).
func TestSplitAuto(t *testing.T) {
	requireClang(t)
	var out, errb bytes.Buffer
	rc := dispatch([]string{"check", "--workers", "1", "--quiet", "--json",
		"../../testdata/splitting/chain.c", "Pr[<=100000](<> x >= 100) {Split=auto, N=200, M=8}"}, &out, &errb)
	if rc != 0 && rc != coordinator.ExitUnknown { // M=8 may leave coverage not assured
		t.Fatalf("exit %d\n%s", rc, errb.String())
	}
	if !strings.Contains(errb.String(), "Split=auto: the score is min(x, 100)") {
		t.Errorf("stderr does not give the derived score:\n%s", errb.String())
	}
	var r struct {
		Query    string  `json:"query"`
		Estimate float64 `json:"estimate"`
	}
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	if r.Query != "Pr[<=100000](<> x >= 100) {Split=adaptive, Score=min(x, 100), N=200, M=8}" || r.Estimate <= 0 {
		t.Errorf("query %q, estimate %g", r.Query, r.Estimate)
	}
	errb.Reset()
	if rc := dispatch([]string{"check", "../../testdata/splitting/chain.c", "Pr[<=100000](<> DataRace) {Split=auto}"}, &out, &errb); rc != exitUsage ||
		!strings.Contains(errb.String(), "no distance") {
		t.Errorf("Split=auto on DataRace: exit %d, %q", rc, errb.String())
	}
}
