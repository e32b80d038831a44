package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/wyvernmc/wyvern/coordinator"
)

// TestSourceTraces pins the source-level view of a lost update (a run of
// examples/race.c), of a deadlock (the counterexample of E<> Deadlock on
// testdata/mt/deadlock.c) and of a run changing globals of several C types
// (testdata/srctrace/ctypes.c) in testdata/srctrace (-update-golden rewrites
// them): one line per statement and process with the values, the switches
// marked, the program's output, and the final state with what each
// process waits for, the mutexes' holders and the globals that changed.
// --trace=ir keeps the instruction view; check --quiet leaves the steps
// out but keeps the final state.
func TestSourceTraces(t *testing.T) {
	requireClang(t)
	dir := t.TempDir()
	saved := filepath.Join(dir, "deadlock.json")
	var out, errb bytes.Buffer
	if rc := dispatch([]string{"check", "--workers", "1", "--quiet", "--json", "../../testdata/mt/deadlock.c", "E<> Deadlock"}, &out, &errb); rc != coordinator.ExitViolated {
		t.Fatalf("check: exit %d: %s", rc, errb.String())
	}
	if err := os.WriteFile(saved, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		args []string
		want []string // in the output
	}{
		{"lost_update", []string{"replay", "../../examples/race.c", "--seed", "1", "--index", "0"},
			[]string{"load counter = 1", "| counter = 6 (expected 10)", "counter = 6 (was 0)", "--- process 2 (worker) ---"}},
		{"deadlock", []string{"replay", "../../testdata/mt/deadlock.c", "--counterexample", saved},
			[]string{"waits for mutex mb held by p2", "waits for mutex ma held by p1", "ma: held by p1", "waits for p1 to finish (pthread_join)"}},
		// values in C terms: members, elements and pthread objects by
		// their C paths, each scalar by its type, nothing cut unsaid
		{"ctypes", []string{"replay", "../../testdata/srctrace/ctypes.c", "--seed", "1", "--index", "0"},
			[]string{"pthread_mutex_lock(&acc[1].m)", "store pt.x = 5", "store arr[0] = 1", "acc[1].m: free",
				"acc[1].balance = 25 (was 20)", "big[1] = -3 (was 0)", "pt.y = 7 (was 0)", "u = 4000000000 (was 0)", "d = 2.5 (was 0)",
				"arr[15] = 16 (was 0)", "... and 4 more changed in arr", "ptr = &arr[3] (was NULL)"}},
	} {
		out.Reset()
		errb.Reset()
		if rc := dispatch(c.args, &out, &errb); rc != 0 {
			t.Fatalf("%s: exit %d: %s", c.name, rc, errb.String())
		}
		for _, w := range c.want {
			if !strings.Contains(out.String(), w) {
				t.Errorf("%s: no %q in\n%s", c.name, w, out.String())
			}
		}
		path := filepath.Join("../../testdata/srctrace", c.name+".txt")
		if *updateGolden {
			if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (record it with -update-golden)", err)
		}
		if got := out.String(); got != string(want) {
			t.Errorf("%s: the view differs from %s:\n%s", c.name, path, lineDiff(string(want), got))
		}
	}
	// The instruction view.
	out.Reset()
	if rc := dispatch([]string{"replay", "../../testdata/mt/deadlock.c", "--counterexample", saved, "--trace", "ir"}, &out, &errb); rc != 0 ||
		!strings.Contains(out.String(), "call i32 @pthread_mutex_lock") || !strings.Contains(out.String(), "end after 13 steps: deadlock") {
		t.Errorf("--trace ir: exit %d:\n%s", rc, out.String())
	}
	if rc := dispatch([]string{"replay", "../../examples/race.c", "--trace", "asm"}, &out, &errb); rc != exitUsage {
		t.Errorf("--trace asm: exit %d, want %d", rc, exitUsage)
	}
	// check --quiet: the final state without the steps.
	out.Reset()
	if rc := dispatch([]string{"check", "--workers", "1", "--quiet", "../../testdata/mt/deadlock.c", "E<> Deadlock"}, &out, &errb); rc != coordinator.ExitViolated {
		t.Fatalf("check --quiet: exit %d", rc)
	}
	if s := out.String(); strings.Contains(s, "deadlock.c:12    pthread_mutex_lock") || !strings.Contains(s, "left out by --quiet") ||
		!strings.Contains(s, "waits for mutex ma held by p1") {
		t.Errorf("check --quiet:\n%s", s)
	}
	// A data race's final state names the two racing accesses.
	out.Reset()
	if rc := dispatch([]string{"check", "--workers", "1", "--quiet", "../../examples/race.c", "E<> DataRace"}, &out, &errb); rc != coordinator.ExitViolated {
		t.Fatalf("check E<> DataRace: exit %d", rc)
	}
	if s := out.String(); !regexp.MustCompile(`Data race: p1 (writes|reads) counter \(4 bytes\) at \S*race.c:15:\d+, p2 (writes|reads) counter \(4 bytes\) at \S*race.c:15:`).MatchString(s) ||
		!strings.Contains(s, "writes counter") {
		t.Errorf("check E<> DataRace: no racing pair named:\n%s", s)
	}
}
