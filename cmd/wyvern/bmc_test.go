package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wyvernmc/wyvern/coordinator"
	"github.com/wyvernmc/wyvern/symbolic"
)

// TestCheckBMC: check --engine bmc finds the input simulation misses
// (x * 3u == 1u), exits 10 with the inputs and the replayed trace; the
// saved JSON replays with replay --counterexample; a safe program is
// proved (exit 0); BMC flags without --engine bmc, and --engine bmc on a
// query it does not answer, are usage errors.
func TestCheckBMC(t *testing.T) {
	requireClang(t)
	const inv = "../../testdata/bmc/bv_mod_inverse.c"
	var out, errb bytes.Buffer
	rc := dispatch([]string{"check", "--workers", "1", "--quiet", "--engine", "bmc", "--json", inv, "E<> Error"}, &out, &errb)
	if rc != coordinator.ExitViolated {
		t.Fatalf("check --engine bmc: exit %d: %s", rc, errb.String())
	}
	if err := checkResultJSON(out.Bytes()); err != nil {
		t.Errorf("the result does not follow docs/json.md: %v", err)
	}
	var r coordinator.Result
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	d, ok := r.Detail.(*symbolic.Detail)
	if !ok || d.BMC.Verdict != symbolic.VerdictSatisfied || len(d.BMC.Inputs) != 1 || uint32(d.BMC.Inputs[0].Value*3) != 1 || d.BMC.Trace == nil {
		t.Fatalf("result %s", out.String())
	}
	saved := filepath.Join(t.TempDir(), "bmc.json")
	if err := os.WriteFile(saved, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if rc := dispatch([]string{"replay", inv, "--counterexample", saved}, &out, &errb); rc != 0 || !strings.Contains(out.String(), "reach_error() called") {
		t.Fatalf("replay --counterexample: exit %d:\n%s", rc, out.String())
	}
	out.Reset()
	rc = dispatch([]string{"check", "--workers", "1", "--quiet", "--engine", "bmc", "--unwind", "10", "--solver", "cvc5",
		"../../testdata/bmc/safe_sum_const.c", "A[] !Error"}, &out, &errb)
	if rc != coordinator.ExitHolds || !strings.Contains(out.String(), "satisfied") {
		t.Fatalf("safe program: exit %d:\n%s%s", rc, out.String(), errb.String())
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--unwind", "3", inv, "E<> Error"}, "add --engine bmc"},
		{[]string{"--engine", "bmc", inv, "E<> DataRace"}, "DataRace is not supported"},
		{[]string{"--engine", "bmc", "--solver", "yices", inv, "E<> Error"}, "want z3, cvc5 or boolector, or portfolio"},
		{[]string{"--engine", "sat", inv, "E<> Error"}, "want bmc"},
	} {
		errb.Reset()
		if rc := dispatch(append([]string{"check"}, c.args...), &out, &errb); rc != exitUsage || !strings.Contains(errb.String(), c.want) {
			t.Errorf("%v: exit %d, %q (want %q)", c.args, rc, errb.String(), c.want)
		}
	}
}

// TestCheckBMCRefusal: a program the BMC encoder does not support (here
// a call of rand, whose hidden state it does not model) is a refusal, bad input for the engine — exit status 2
// with the construct named and a hint to use another engine — never 1 (a
// failure of the cluster); with -q --json its entry says so.
func TestCheckBMCRefusal(t *testing.T) {
	requireClang(t)
	dir := t.TempDir()
	prog := filepath.Join(dir, "rand.c")
	src := "extern void reach_error(void);\nextern int rand(void);\nint main(void) { if (rand() > 5) reach_error(); return 0; }\n"
	if err := os.WriteFile(prog, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	rc := dispatch([]string{"check", "--workers", "1", "--quiet", "--engine", "bmc", prog, "E<> [0.reach_error]"}, &out, &errb)
	if rc != exitUsage {
		t.Fatalf("exit %d, want %d (a refusal is bad input)\n%s", rc, exitUsage, errb.String())
	}
	for _, want := range []string{"refused", "call of rand", "not supported by the BMC encoder", "leave out --engine bmc"} {
		if !strings.Contains(errb.String(), want) {
			t.Errorf("the message does not say %q:\n%s", want, errb.String())
		}
	}
	// main(argc, argv) gets what a run without arguments gets: --arg is
	// refused
	argv := filepath.Join(dir, "argv.c")
	if err := os.WriteFile(argv, []byte("extern void reach_error(void);\nint main(int argc, char **argv) { if (argc > 1) reach_error(); return 0; }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	errb.Reset()
	if rc := dispatch([]string{"check", "--workers", "1", "--quiet", "--engine", "bmc", "--arg", "x", argv, "E<> [0.reach_error]"}, &out, &errb); rc != exitUsage || !strings.Contains(errb.String(), "--arg") {
		t.Errorf("--arg: exit %d, %q; want %d and --arg refused", rc, errb.String(), exitUsage)
	}
	qf := filepath.Join(dir, "q.q")
	if err := os.WriteFile(qf, []byte("E<> [0.reach_error]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	rc = dispatch([]string{"check", "--workers", "1", "--quiet", "--engine", "bmc", prog, "-q", qf, "--json"}, &out, &errb)
	var entries []struct {
		Kind       string `json:"kind"`
		ExitStatus int    `json:"exit_status"`
		Error      string `json:"error"`
	}
	if err := json.Unmarshal(out.Bytes(), &entries); err != nil || len(entries) != 1 {
		t.Fatalf("-q --json: %v\n%s", err, out.String())
	}
	if rc != exitUsage || entries[0].Kind != "failed" || entries[0].ExitStatus != exitUsage || !strings.Contains(entries[0].Error, "refused") {
		t.Errorf("-q --json: exit %d, entry %+v; want 2, a failed entry with exit status 2 saying refused", rc, entries[0])
	}
}
