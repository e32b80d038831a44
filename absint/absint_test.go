package absint

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wyvernmc/wyvern/explicit"
	"github.com/wyvernmc/wyvern/internal/testutil"
	"github.com/wyvernmc/wyvern/ir"
	"github.com/wyvernmc/wyvern/query"
	"github.com/wyvernmc/wyvern/vm"
)

// errorQuery is what a TRUE of unreach-call rules out: any error state but
// abort()'s (the programs' reach_error is undefined: the vm's ReachError).
const errorQuery = "E<> (Error && !Error(Abort))"

// TestPrograms runs the prover on the programs of testdata/absint, whose
// first line says what it must answer: "proved", "refused" (a safe
// program beyond the analysis) or "unsafe" (an error is reachable: no
// proof). Each answer is checked against explicit search of the same
// program (the differential check): a proof for a program whose error
// state the search reaches is a bug, and so is a test program whose
// "proved" or "unsafe" the search does not confirm.
func TestPrograms(t *testing.T) {
	files, err := filepath.Glob("../testdata/absint/*.c")
	if err != nil || len(files) == 0 {
		t.Fatalf("no test programs: %v", err)
	}
	for _, path := range files {
		name := strings.TrimSuffix(filepath.Base(path), ".c")
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			first, _, _ := strings.Cut(string(src), "\n")
			want, ok := strings.CutPrefix(first, "// expect: ")
			if !ok || (want != "proved" && want != "refused" && want != "unsafe") {
				t.Fatalf("%s: first line must be // expect: proved|refused|unsafe", path)
			}
			for _, dm := range []ir.DataModel{ir.LP64, ir.ILP32} {
				t.Run(dm.String(), func(t *testing.T) { checkProgram(t, path, name, want, dm) })
			}
		})
	}
}

func checkProgram(t *testing.T, path, name, want string, dm ir.DataModel) {
	prog := testutil.Program(t, path)
	if dm != ir.LP64 {
		var err error
		if prog, err = ir.Load(path, ir.Options{DataModel: dm}); err != nil {
			t.Fatal(err)
		}
	}
	res := Prove(context.Background(), prog, []string{"reach_error"})
	got := "refused"
	if res.Proved {
		got = "proved"
	}
	if got != want && (want != "unsafe" || got != "refused") {
		t.Errorf("%s: %s (%s), want %s\nreproduce: go test ./absint -run 'TestPrograms/%s$/%s' -v", path, got, res.Reason, want, name, dm)
	}
	t.Logf("%s: %s", got, res.Reason)
	// the differential check: explicit search of the same program
	ex := searchErrors(t, prog)
	if res.Proved && ex.Verdict == explicit.Satisfied {
		t.Errorf("%s: proved, but explicit search reaches an error: %s", path, ex.Reason)
	}
	if want == "proved" && ex.Verdict != explicit.NotSatisfied {
		t.Errorf("%s: a program meant to be safe, but explicit search says %s: %s", path, ex.Verdict, ex.Reason)
	}
	if want == "unsafe" && ex.Verdict != explicit.Satisfied {
		t.Errorf("%s: a program meant to be unsafe, but explicit search says %s: %s", path, ex.Verdict, ex.Reason)
	}
}

// TestStopped: an ended context stops the analysis with a refusal, never
// a proof (verify's time limit).
// searchErrors is the differential side: explicit search (global
// reduction, at most 2 M states) of errorQuery on prog.
func searchErrors(t *testing.T, prog *ir.Program) *explicit.Result {
	t.Helper()
	q, err := query.Parse(errorQuery)
	if err != nil {
		t.Fatal(err)
	}
	c, err := query.Compile(q, vm.NewMachine(prog))
	if err != nil {
		t.Fatal(err)
	}
	ex, err := explicit.Search(context.Background(), c, explicit.Options{Reduction: explicit.Global, MaxStates: 2_000_000})
	if err != nil {
		t.Fatal(err)
	}
	return ex
}

func TestStopped(t *testing.T) {
	prog := testutil.Program(t, "../testdata/absint/loop_safe.c")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res := Prove(ctx, prog, []string{"reach_error"})
	if res.Proved || !strings.Contains(res.Reason, "stopped") {
		t.Errorf("cancelled: %+v", res)
	}
	if res := Prove(context.Background(), prog, []string{"reach_error"}); !res.Proved {
		t.Errorf("not cancelled: %+v", res)
	}
}

// TestUnboundedThreads checks Options.UnboundedThreads (SV-COMP's
// semantics: no bound on the threads, ResourceLimit no error) on the
// programs of testdata/absint/unbounded, which create threads in a loop
// of N iterations (100000, or forever, unless compiled with -DN=): Prove
// (the vm's semantics, its process limit) must refuse each, ProveWith
// proves the safe ones, and explicit search of the same program with
// N = 3 threads must find no error where ProveWith proved and the error
// of each unsafe one (the differential check).
func TestUnboundedThreads(t *testing.T) {
	tests := []struct {
		file  string
		proof bool // ProveWith proves it
	}{
		{"counted_safe.c", true},
		{"counted_bad.c", false},
		{"forever_safe.c", true},
		{"forever_bad.c", false},
		{"alternating_bad.c", false},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			path := filepath.Join("../testdata/absint/unbounded", tc.file)
			for _, dm := range []ir.DataModel{ir.LP64, ir.ILP32} {
				prog, err := ir.Load(path, ir.Options{DataModel: dm})
				if err != nil {
					t.Fatal(err)
				}
				if res := Prove(context.Background(), prog, []string{"reach_error"}); res.Proved {
					t.Errorf("%s %s: proved under the vm's process limit: %s", tc.file, dm, res.Reason)
				}
				res := ProveWith(context.Background(), prog, []string{"reach_error"}, Options{UnboundedThreads: true})
				if res.Proved != tc.proof {
					t.Errorf("%s %s: proved %v (%s), want %v", tc.file, dm, res.Proved, res.Reason, tc.proof)
				}
				small, err := ir.Load(path, ir.Options{DataModel: dm, ClangFlags: []string{"-DN=3"}})
				if err != nil {
					t.Fatal(err)
				}
				ex := searchErrors(t, small)
				want := explicit.Satisfied
				if tc.proof {
					want = explicit.NotSatisfied
				}
				if ex.Verdict != want {
					t.Errorf("%s %s with 3 threads: explicit search says %s (%s), want %s", tc.file, dm, ex.Verdict, ex.Reason, want)
				}
			}
		})
	}
}

// TestProgramsWrapOverflow: every program of testdata/absint meant to be
// proved is proved too where overflow wraps around (ir.Program.WrapOverflow,
// verify's semantics for unreach-call): under the error semantics its
// proof already rules out every overflow, so its runs are the same, and
// the counted loops whose increments lost their nsw are still seen not to
// wrap. The differential check runs on the wrapped program.
func TestProgramsWrapOverflow(t *testing.T) {
	files, err := filepath.Glob("../testdata/absint/*.c")
	if err != nil || len(files) == 0 {
		t.Fatalf("no test programs: %v", err)
	}
	n := 0
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(string(src), "// expect: proved\n") {
			continue
		}
		n++
		name := strings.TrimSuffix(filepath.Base(path), ".c")
		t.Run(name, func(t *testing.T) {
			testutil.NeedClang(t)
			prog, err := ir.Load(path, ir.Options{}) // (its own: WrapOverflow changes it)
			if err != nil {
				t.Fatal(err)
			}
			prog.WrapOverflow()
			res := Prove(context.Background(), prog, []string{"reach_error"})
			if !res.Proved {
				t.Errorf("%s: refused under wrap-around: %s", path, res.Reason)
			}
			if ex := searchErrors(t, prog); res.Proved && ex.Verdict == explicit.Satisfied {
				t.Errorf("%s: proved, but explicit search reaches an error: %s", path, ex.Reason)
			}
		})
	}
	if n == 0 {
		t.Fatal("no program meant to be proved")
	}
}

// TestUndefinedLocals: a local variable's bytes before it is written are
// any value (C's indeterminate value, SV-COMP's reading;
// docs/design/uninit-memory.md), not the zeros of the vm's stack: an
// uninitialised array, struct field, pointer or escaping scalar gives no
// proof that holds only for 0 (a wrong TRUE before), and malloc's blocks,
// which the analysis does not model, are refused. A local written before
// anything reads it keeps its proof: main's loads after the write, and
// the loads of callees and threads that main starts only after it (no
// explicit-search check: the vm zeroes stacks, so it finds none of these
// errors).
func TestUndefinedLocals(t *testing.T) {
	testutil.NeedClang(t)
	const head = `#include <stdlib.h>
#include <pthread.h>
extern void reach_error(void);
`
	for _, c := range []struct {
		name, src string
		proof     bool
	}{
		{"a stack array", `int main(void) { char buf[1]; if (buf[0] == 5) reach_error(); return 0; }`, false},
		{"a struct field never written", `struct s { int a; int b; };
int main(void) { struct s x; x.a = 1; if (x.b == 5) reach_error(); return 0; }`, false},
		{"a pointer local", `int main(void) { int *p; if (p != 0) reach_error(); return 0; }`, false},
		{"an escaping scalar a callee reads", `void f(int *q) { if (*q == 5) reach_error(); }
int main(void) { int x; f(&x); return 0; }`, false},
		{"a thread reads before main writes", `void *f(void *a) { if (*(int *)a > 5) reach_error(); return 0; }
int main(void) { pthread_t t; int x; pthread_create(&t, 0, f, &x); x = 1; pthread_join(t, 0); return 0; }`, false},
		{"a malloc'd int", `int main(void) { int *p = malloc(4); if (*p == 42) reach_error(); return 0; }`, false},
		{"free of a malloc'd pointer", `int main(void) { void **p = malloc(8); free(*p); return 0; }`, false},
		{"written before a callee reads", `void f(int *q) { if (*q != 3) reach_error(); }
int main(void) { int x = 3; f(&x); return 0; }`, true},
		{"written before the thread starts", `void *f(void *a) { if (*(int *)a != 3) reach_error(); return 0; }
int main(void) { pthread_t t; int x = 3; pthread_create(&t, 0, f, &x); pthread_join(t, 0); return 0; }`, true},
		{"a scalar written before read", `int main(void) { int x; x = 2; if (x != 2) reach_error(); return 0; }`, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "undef.c")
			if err := os.WriteFile(path, []byte(head+c.src+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			for _, dm := range []ir.DataModel{ir.LP64, ir.ILP32} {
				prog, err := ir.Load(path, ir.Options{DataModel: dm})
				if err != nil {
					t.Fatal(err)
				}
				res := ProveWith(context.Background(), prog, []string{"reach_error"}, Options{UnboundedThreads: true})
				if res.Proved != c.proof {
					t.Errorf("%s: proved %v (%s), want %v", dm, res.Proved, res.Reason, c.proof)
				}
				t.Logf("%s: %s", dm, res.Reason)
			}
		})
	}
}
