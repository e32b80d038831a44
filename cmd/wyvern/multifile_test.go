package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The program of testdata/multi: two source files, linked into one.
var multiFiles = []string{"../../testdata/multi/main.c", "../../testdata/multi/queue.c"}

// TestMultiFileRun checks that run links several files into one program:
// its output and exit status are the natively built program's.
func TestMultiFileRun(t *testing.T) {
	clang := requireClang(t)
	exe := filepath.Join(t.TempDir(), "multi")
	if out, err := exec.Command(clang, append([]string{"-pthread", "-o", exe}, multiFiles...)...).CombinedOutput(); err != nil {
		t.Fatalf("native build: %v\n%s", err, out)
	}
	want, wantRC := runNative(t, exe, nil)
	for _, seed := range []string{"1", "2", "3"} {
		var out, errb bytes.Buffer
		rc := dispatch(append([]string{"run", "--seed", seed}, multiFiles...), &out, &errb)
		if rc != wantRC || out.String() != want.String() {
			t.Errorf("seed %s: wyvern run: exit %d, output %q; native: exit %d, output %q\n%s", seed, rc, out.String(), wantRC, want.String(), errb.String())
		}
	}
}

// TestMultiFileCheck checks a query on a program of two files: the data
// race between the two producers is found in queue.c, and the
// counterexample replays with the same files.
func TestMultiFileCheck(t *testing.T) {
	requireClang(t)
	var out, errb bytes.Buffer
	args := append([]string{"check"}, multiFiles...)
	args = append(args, "E<> DataRace", "--reduction", "global", "--json", "--quiet", "--workers", "1")
	rc := dispatch(args, &out, &errb)
	if rc != 10 {
		t.Fatalf("check: exit %d, want 10 (reachable)\n%s%s", rc, out.String(), errb.String())
	}
	var res struct {
		Program string `json:"program"`
		Detail  struct {
			Verdict string `json:"verdict"`
			Trace   struct {
				Steps []any `json:"steps"`
			} `json:"trace"`
		} `json:"explicit"`
	}
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatalf("check --json: %v\n%s", err, out.String())
	}
	if res.Program != strings.Join(multiFiles, " ") || res.Detail.Verdict != "satisfied" || len(res.Detail.Trace.Steps) == 0 {
		t.Fatalf("program %q, verdict %q, %d counterexample steps; want both files, satisfied, a counterexample\n%s",
			res.Program, res.Detail.Verdict, len(res.Detail.Trace.Steps), out.String())
	}
	saved := filepath.Join(t.TempDir(), "result.json")
	if err := os.WriteFile(saved, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	var view, verr bytes.Buffer
	if rc := dispatch(append(append([]string{"replay"}, multiFiles...), "--counterexample", saved), &view, &verr); rc != 0 {
		t.Fatalf("replay: exit %d\n%s", rc, verr.String())
	}
	if !strings.Contains(view.String(), "Data race:") || !strings.Contains(view.String(), "queue.c:20") || !strings.Contains(view.String(), "q_pushes") {
		t.Errorf("replay's final state does not name the race on q_pushes at queue.c:20:\n%s", view.String())
	}
}

// TestMultiFileErrors checks the errors of programs of several files: a
// function defined twice, a function defined in no file given, a file
// given twice.
func TestMultiFileErrors(t *testing.T) {
	requireClang(t)
	dir := t.TempDir()
	write := func(name, src string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	a := write("a.c", "int f(void) { return 1; }\nint main(void) { return f(); }\n")
	b := write("b.c", "int f(void) { return 2; }\n")
	for _, tc := range []struct {
		name string
		args []string
		want []string
	}{
		{"defined twice", []string{"run", a, b}, []string{"llvm-link failed", "f", b}},
		{"defined nowhere", []string{"run", multiFiles[0]}, []string{"q_push"}},
		{"given twice", []string{"run", a, a}, []string{a, "given twice"}},
		{"check: defined twice", []string{"check", a, b, "E<> Deadlock"}, []string{"llvm-link failed"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			if rc := dispatch(tc.args, &out, &errb); rc != exitUsage {
				t.Fatalf("exit %d, want %d\n%s", rc, exitUsage, errb.String())
			}
			for _, w := range tc.want {
				if !strings.Contains(errb.String(), w) {
					t.Errorf("error %q does not say %q", errb.String(), w)
				}
			}
		})
	}
}

// TestMultiFileVerify verifies an SV-COMP task of two input files and
// replays its witness, which names both files.
func TestMultiFileVerify(t *testing.T) {
	requireClang(t)
	dir := t.TempDir()
	var abs []string
	for _, f := range multiFiles {
		a, err := filepath.Abs(f)
		if err != nil {
			t.Fatal(err)
		}
		abs = append(abs, a)
	}
	prop, err := filepath.Abs("../../svcomp/testdata/properties/no-data-race.prp")
	if err != nil {
		t.Fatal(err)
	}
	task := filepath.Join(dir, "multi.yml")
	yml := "format_version: '2.0'\ninput_files: ['" + abs[0] + "', '" + abs[1] + "']\nproperties:\n  - property_file: " + prop +
		"\n    expected_verdict: false\noptions:\n  language: C\n  data_model: LP64\n"
	if err := os.WriteFile(task, []byte(yml), 0o644); err != nil {
		t.Fatal(err)
	}
	w := filepath.Join(dir, "witness.yml")
	var out, errb bytes.Buffer
	rc := dispatch([]string{"verify", task, "--time-limit", "60s", "--workers", "3", "--witness", w}, &out, &errb)
	if first, _, _ := strings.Cut(out.String(), "\n"); first != "FALSE(no-data-race)" || rc != 10 {
		t.Fatalf("verify: %q, exit %d; want FALSE(no-data-race), 10\n%s%s", first, rc, out.String(), errb.String())
	}
	wit, err := os.ReadFile(w)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"main.c", "queue.c"} {
		if !strings.Contains(string(wit), f) {
			t.Errorf("the witness does not name %s", f)
		}
	}
	var rout, rerr bytes.Buffer
	if rc := dispatch(append(append([]string{"replay"}, abs...), "--witness", w), &rout, &rerr); rc != 0 {
		t.Fatalf("replay --witness: exit %d\n%s%s", rc, rout.String(), rerr.String())
	}
}
