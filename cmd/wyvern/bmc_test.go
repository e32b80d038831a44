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
