package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wyvernmc/wyvern/coordinator"
	"github.com/wyvernmc/wyvern/explicit"
)

// TestCheckExplicitAndReplay: check answers A[] with a counterexample that
// it prints with source lines and that replay --counterexample prints
// again from the saved JSON; --exact answers a Pr query exactly; bad
// option combinations are usage errors.
func TestCheckExplicitAndReplay(t *testing.T) {
	requireClang(t)
	const file = "../../testdata/smc/petersonsBug.c"
	const q = "A[] !([1.crit] && [2.crit])"
	var out, errb bytes.Buffer
	// A[] violated: exit status 10 (coordinator.ExitViolated).
	if rc := dispatch([]string{"check", "--workers", "1", "--reduction", "local", file, q}, &out, &errb); rc != coordinator.ExitViolated {
		t.Fatalf("check: %d %s", rc, errb.String())
	}
	text := out.String()
	for _, want := range []string{"not-satisfied", "reduction local", "Trace:", "peterson.h:"} {
		if !strings.Contains(text, want) {
			t.Errorf("check output lacks %q:\n%s", want, text)
		}
	}
	out.Reset()
	if rc := dispatch([]string{"check", "--workers", "1", "--json", file, q}, &out, &errb); rc != coordinator.ExitViolated {
		t.Fatalf("check --json: %d %s", rc, errb.String())
	}
	var r coordinator.Result
	if err := json.Unmarshal(out.Bytes(), &r); err != nil || explicit.ResultOf(&r) == nil || explicit.ResultOf(&r).Trace == nil {
		t.Fatalf("no counterexample in %s (%v)", out.String(), err)
	}
	saved := filepath.Join(t.TempDir(), "result.json")
	if err := os.WriteFile(saved, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if rc := dispatch([]string{"replay", file, "--counterexample", saved, "--trace", "ir"}, &out, &errb); rc != 0 {
		t.Fatalf("replay: %d %s", rc, errb.String())
	}
	if n := strings.Count(out.String(), "peterson"); n < len(explicit.ResultOf(&r).Trace.Steps) {
		t.Errorf("replay --trace ir printed %d located steps for a %d-step trace:\n%s", n, len(explicit.ResultOf(&r).Trace.Steps), out.String())
	}
	out.Reset()
	if rc := dispatch([]string{"replay", file, "--counterexample", saved}, &out, &errb); rc != 0 {
		t.Fatalf("replay: %d %s", rc, errb.String())
	}
	if s := out.String(); !strings.Contains(s, "--- process 2 (petersons2) ---") || !strings.Contains(s, "Final state after") {
		t.Errorf("replay's source view:\n%s", s)
	}
	// The JSON's steps say what each step does.
	for i, s := range explicit.ResultOf(&r).Trace.Steps {
		if s.Function == "" || s.Loc == "" || s.Instruction == "" || s.Values == nil {
			t.Fatalf("step %d of the JSON trace is not described: %+v", i+1, s)
		}
	}
	out.Reset()
	if rc := dispatch([]string{"check", "--workers", "1", "--exact", "../../testdata/smc/fib_4.c", "Pr[<=5000](<> [0.VERIFIER_error])"}, &out, &errb); rc != 0 {
		t.Fatalf("check --exact: %d %s", rc, errb.String())
	}
	if !strings.Contains(out.String(), "Exact probability: 0.1324981") {
		t.Errorf("check --exact output:\n%s", out.String())
	}
	plots := t.TempDir()
	if rc := dispatch([]string{"check", "--workers", "1", "--plot", plots, "--reduction", "global", file, "EnumStates"}, &out, &errb); rc != 0 {
		t.Fatalf("check EnumStates --plot: %d %s", rc, errb.String())
	}
	if fi, err := os.Stat(filepath.Join(plots, "exploration.png")); err != nil || fi.Size() < 1000 {
		t.Errorf("no exploration chart: %v", err)
	}
	errb.Reset()
	if rc := dispatch([]string{"check", "--exact", file, q}, &out, &errb); rc != exitUsage || !strings.Contains(errb.String(), "--exact computes") {
		t.Errorf("--exact on A[]: exit %d, %s", rc, errb.String())
	}
	errb.Reset()
	if rc := dispatch([]string{"check", "--reduction", "sideways", file, q}, &out, &errb); rc != exitUsage {
		t.Errorf("bad reduction: exit %d, %s", rc, errb.String())
	}
}
