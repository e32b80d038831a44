package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/wyvernmc/wyvern/internal/testutil"
)

// requireClang skips when clang-14 is missing on a developer machine; in CI
// (CI=true) a missing clang is a failure, never a silent skip.
func requireClang(t testing.TB) string { t.Helper(); return testutil.NeedClang(t) }

// diffHeader is a differential program's optional first-line header,
// `// wyvern-diff: args=A,B,C seeds=1,2,3 opts=0`: the command-line
// arguments (passed natively and with --arg), the seeds `wyvern run` is
// compared under (default: 1) and the optimisation levels (default: 0,1).
type diffHeader struct {
	args  []string
	seeds []string
	opts  []string
}

func readDiffHeader(t *testing.T, file string) diffHeader {
	t.Helper()
	h := diffHeader{seeds: []string{"1"}, opts: []string{"0", "1"}}
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	first, _, _ := strings.Cut(string(src), "\n")
	rest, ok := strings.CutPrefix(first, "// wyvern-diff:")
	if !ok {
		return h
	}
	for _, f := range strings.Fields(rest) {
		k, v, _ := strings.Cut(f, "=")
		switch k {
		case "args":
			h.args = strings.Split(v, ",")
		case "seeds":
			h.seeds = strings.Split(v, ",")
		case "opts":
			h.opts = strings.Split(v, ",")
		default:
			t.Fatalf("%s: unknown wyvern-diff key %q", file, k)
		}
	}
	return h
}

// TestDifferential compiles every program of testdata/diff natively with
// clang-14 and runs it with `wyvern run` at -O0 and -O1 (under each seed
// of its header): stdout and exit status must be identical.
func TestDifferential(t *testing.T) {
	clang := requireClang(t)
	files, err := filepath.Glob("../../testdata/diff/*.c")
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(files)
	if len(files) < 40 {
		t.Fatalf("want at least 40 differential programs, found %d", len(files))
	}
	dir := t.TempDir()
	for _, f := range files {
		h := readDiffHeader(t, f)
		for _, opt := range h.opts {
			name := fmt.Sprintf("%s/O%s", filepath.Base(f), opt)
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				exe := filepath.Join(dir, filepath.Base(f)+".O"+opt)
				if out, err := exec.Command(clang, "-w", "-O"+opt, "-pthread", "-o", exe, f, "-lm").CombinedOutput(); err != nil {
					t.Fatalf("native compile: %v\n%s", err, out)
				}
				nout, nrc := runNative(t, exe, h.args)
				for _, seed := range h.seeds {
					args := []string{"run", "-O", opt, "--seed", seed, f}
					for _, a := range h.args {
						args = append(args, "--arg", a)
					}
					var wout, werr bytes.Buffer
					wrc := dispatch(args, &wout, &werr)
					if wrc != nrc {
						t.Errorf("seed %s: exit status: native %d, wyvern %d (%s)", seed, nrc, wrc, bytes.TrimSpace(werr.Bytes()))
					}
					if !bytes.Equal(nout.Bytes(), wout.Bytes()) {
						t.Errorf("seed %s: stdout differs:\n%s", seed, firstDiff(nout.Bytes(), wout.Bytes()))
					}
				}
			})
		}
	}
}

func firstDiff(a, b []byte) string {
	al, bl := bytes.Split(a, []byte("\n")), bytes.Split(b, []byte("\n"))
	for i := 0; i < len(al) || i < len(bl); i++ {
		var x, y []byte
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if !bytes.Equal(x, y) {
			return fmt.Sprintf("line %d:\n  native: %q\n  wyvern: %q", i+1, x, y)
		}
	}
	return "(same lines, different lengths)"
}

// TestRunBadInput checks the one-line errors and exit status 2 for bad input.
func TestRunBadInput(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	unknown := write("unknown.ll", `declare i32 @frobnicate(i32)
declare i32 @zap()
define i32 @main() {
entry:
  %r = call i32 @frobnicate(i32 1)
  ret i32 %r
}
`)
	malformed := write("malformed.ll", "define i32 @main() {\nentry:\n  %x = add i32 1\n  ret i32 %x\n}\n")
	vector := write("vector.ll", `define i32 @main() {
entry:
  %v = insertelement <4 x i32> undef, i32 1, i32 0
  ret i32 0
}
`)
	nomain := write("nomain.ll", "define i32 @f() {\nentry:\n  ret i32 0\n}\n")
	badext := write("prog.txt", "hello")
	cases := []struct {
		name string
		args []string
		want []string
	}{
		{"unknown external", []string{"run", unknown}, []string{"unknown external function", "frobnicate", "zap"}},
		{"malformed", []string{"run", malformed}, []string{"malformed.ll", "malformed LLVM assembly"}},
		{"vector", []string{"run", vector}, []string{"@main", "%entry", "insertelement", "vector", "not supported"}},
		{"no main", []string{"run", nomain}, []string{"no definition of main"}},
		{"missing file", []string{"run", filepath.Join(dir, "nope.c")}, []string{"nope.c", "no such file"}},
		{"bad extension", []string{"run", badext}, []string{"unknown file type"}},
		{"no file", []string{"run"}, []string{"usage"}},
		{"unknown command", []string{"frob"}, []string{"unknown command"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			rc := dispatch(c.args, &out, &errb)
			if rc != exitUsage {
				t.Fatalf("exit status %d, want %d; stderr: %s", rc, exitUsage, errb.String())
			}
			msg := errb.String()
			for _, w := range c.want {
				if !bytes.Contains([]byte(msg), []byte(w)) {
					t.Errorf("stderr %q does not mention %q", msg, w)
				}
			}
			if c.name != "no file" && c.name != "unknown command" && bytes.Count(bytes.TrimSpace(errb.Bytes()), []byte("\n")) != 0 {
				t.Errorf("want a one-line error, got %q", msg)
			}
		})
	}
}

// TestRunTrace checks --trace prints steps with process, function, source
// line and instruction, and the program output.
func TestRunTrace(t *testing.T) {
	requireClang(t)
	dir := t.TempDir()
	src := filepath.Join(dir, "tr.c")
	os.WriteFile(src, []byte("#include <stdio.h>\nint main(void) {\n  int x = 2;\n  printf(\"x=%d\\n\", x * 3);\n  return x;\n}\n"), 0o644)
	var out, errb bytes.Buffer
	rc := dispatch([]string{"run", "--trace", src}, &out, &errb)
	if rc != 2 {
		t.Fatalf("exit status %d, want 2 (the program's); stderr %s", rc, errb.String())
	}
	s := out.String()
	for _, w := range []string{"p0", "main", "tr.c:3", "store i32 2", "| x=6", "tr.c:5"} {
		if !bytes.Contains([]byte(s), []byte(w)) {
			t.Errorf("trace lacks %q:\n%s", w, s)
		}
	}
}

// TestRunBitcodeAndJSON runs a .bc file (through llvm-dis-14) and checks the
// --json summary of an error state.
func TestRunBitcodeAndJSON(t *testing.T) {
	clang := requireClang(t)
	dir := t.TempDir()
	src := filepath.Join(dir, "e.c")
	os.WriteFile(src, []byte("#include <stdio.h>\nint main(void) {\n  int a[4] = {0};\n  int i = 4;\n  puts(\"before\");\n  return a[i];\n}\n"), 0o644)
	bc := filepath.Join(dir, "e.bc")
	if out, err := exec.Command(clang, "-c", "-emit-llvm", "-g", "-O0", "-o", bc, src).CombinedOutput(); err != nil {
		t.Fatalf("clang: %v\n%s", err, out)
	}
	var out, errb bytes.Buffer
	rc := dispatch([]string{"run", bc, "--json", "--seed", "5", "--index", "7"}, &out, &errb)
	if rc != exitRunError {
		t.Fatalf("exit status %d, want %d; stderr %s", rc, exitRunError, errb.String())
	}
	if out.String() != "before\n" {
		t.Errorf("stdout %q", out.String())
	}
	var j runJSON
	if err := json.Unmarshal(errb.Bytes(), &j); err != nil {
		t.Fatalf("bad JSON %q: %v", errb.String(), err)
	}
	if j.Status != "error" || j.Seed != 5 || j.Index != 7 || j.ExitCode != nil || j.ExitStatus != exitRunError || j.Error == nil || j.Error.Kind != "OutOfBounds" ||
		!strings.HasSuffix(j.Error.Loc, "e.c:6:10") || j.Error.Process != 0 || j.Error.Func != "main" {
		t.Errorf("unexpected summary %+v (error %+v)", j, j.Error)
	}
}

// TestRunJSONExit: run --json gives the program's exit code only when it
// exited (a deadlocked run has none, not 0) and wyvern run's exit status.
func TestRunJSONExit(t *testing.T) {
	requireClang(t)
	dead := filepath.Join(t.TempDir(), "dead.c")
	os.WriteFile(dead, []byte("#include <pthread.h>\npthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;\nint main(void) {\n  pthread_mutex_lock(&m);\n  pthread_mutex_lock(&m);\n  return 0;\n}\n"), 0o644)
	for _, tc := range []struct {
		file   string
		status int
	}{
		{dead, exitRunDeadlock},
		{"../../examples/race.c", -1}, // exits with the program's status
	} {
		var out, errb bytes.Buffer
		rc := dispatch([]string{"run", tc.file, "--json", "--seed", "3"}, &out, &errb)
		var j runJSON
		if err := json.Unmarshal(errb.Bytes(), &j); err != nil {
			t.Fatalf("%s: bad JSON %q: %v", tc.file, errb.String(), err)
		}
		if j.ExitStatus != rc {
			t.Errorf("%s: exit_status %d, exit %d", tc.file, j.ExitStatus, rc)
		}
		switch {
		case tc.status >= 0 && (rc != tc.status || j.ExitCode != nil):
			t.Errorf("%s: exit %d, exit_code %v; want %d, null", tc.file, rc, j.ExitCode, tc.status)
		case tc.status < 0 && (j.Status != "exited" || j.ExitCode == nil || int(uint8(*j.ExitCode)) != rc):
			t.Errorf("%s: status %s, exit_code %v, exit %d", tc.file, j.Status, j.ExitCode, rc)
		}
	}
}

// runNative runs a natively compiled program and returns its stdout and
// exit status (failing the test when it cannot run at all).
func runNative(t *testing.T, exe string, args []string) (bytes.Buffer, int) {
	t.Helper()
	var out bytes.Buffer
	cmd := exec.Command(exe, args...)
	cmd.Stdout = &out
	if err := cmd.Run(); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			t.Fatalf("native run: %v", err)
		}
		return out, ee.ExitCode()
	}
	return out, 0
}
