package explicit

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/wyvernmc/wyvern/internal/testutil"
	"github.com/wyvernmc/wyvern/trace"
)

// TestInputClassesAnalysis checks the analysis of classes.go on small
// programs: the classes of the one wide nondet call (reps), or the reason
// it refuses it (why, a substring).
func TestInputClassesAnalysis(t *testing.T) {
	const head = "#include <pthread.h>\n#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n" +
		"extern unsigned int __VERIFIER_nondet_uint(void);\nextern int __VERIFIER_nondet_int(void);\n" +
		"extern unsigned long __VERIFIER_nondet_ulong(void);\nextern void reach_error(void);\n"
	cases := []struct {
		name, src string
		reps      []uint64
		why       string
	}{
		{"truth value", "int main(void) { if (__VERIFIER_nondet_int()) reach_error(); return 0; }",
			[]uint64{0, 1}, ""},
		{"unsigned bound and equality", "int main(void) { unsigned x = __VERIFIER_nondet_uint(); if (x < 5) return 0; if (x == 9) reach_error(); return 0; }",
			[]uint64{0, 5, 9, 10}, ""},
		{"bound mirrored", "int main(void) { unsigned x = __VERIFIER_nondet_uint(); if (7 >= x) reach_error(); return 0; }",
			[]uint64{0, 8}, ""},
		{"signed bound cuts at the sign bit", "int main(void) { int x = __VERIFIER_nondet_int(); if (x < -5) reach_error(); return 0; }",
			[]uint64{0, 1 << 31, 0xfffffffb}, ""},
		{"switch", "int main(void) { switch (__VERIFIER_nondet_int()) { case 2: reach_error(); case 4: return 1; } return 0; }",
			[]uint64{0, 2, 3, 4, 5}, ""},
		{"zero-extended to a wider compare", "int main(void) { unsigned x = __VERIFIER_nondet_uint(); long y = x; if (y > 100) reach_error(); return 0; }",
			[]uint64{0, 101}, ""},
		{"64-bit", "int main(void) { unsigned long x = __VERIFIER_nondet_ulong(); if (x == 0xffffffffffffffffUL) reach_error(); return 0; }",
			[]uint64{0, 0xffffffffffffffff}, ""},
		{"through a global array, a pointer parameter and a return",
			"unsigned a[4]; int top;\nvoid push(unsigned *s, unsigned v) { s[top++] = v; }\nunsigned pop(unsigned *s) { return s[--top]; }\n" +
				"int main(void) { push(a, __VERIFIER_nondet_uint()); if (pop(a) == 3) reach_error(); return 0; }",
			[]uint64{0, 3, 4}, ""},
		{"through a pointer held in a local", "unsigned g;\nint main(void) { unsigned *p = &g; *p = __VERIFIER_nondet_uint(); if (g > 2) reach_error(); return 0; }",
			[]uint64{0, 3}, ""},
		{"arithmetic", "int main(void) { unsigned x = __VERIFIER_nondet_uint(); if (x + 1 == 0) reach_error(); return 0; }",
			nil, "used by add"},
		{"an index", "int a[4];\nint main(void) { unsigned x = __VERIFIER_nondet_uint(); if (x < 4 && a[x]) reach_error(); return 0; }",
			nil, "used by"},
		{"printed", "int main(void) { printf(\"%u\\n\", __VERIFIER_nondet_uint()); return 0; }",
			nil, "used by callb"},
		{"compared with another input", "int main(void) { if (__VERIFIER_nondet_uint() == __VERIFIER_nondet_uint()) reach_error(); return 0; }",
			nil, "compared with a non-constant"},
		{"compared with a variable", "int n = 3;\nint main(void) { unsigned x = __VERIFIER_nondet_uint(); if (x == n) reach_error(); return 0; }",
			nil, "compared with a non-constant"},
		{"truncated", "int main(void) { char c = __VERIFIER_nondet_int(); if (c == 1) reach_error(); return 0; }",
			nil, "used by trunc"},
		{"stored to the heap", "int main(void) { unsigned *p = malloc(4); *p = __VERIFIER_nondet_uint(); if (*p == 1) reach_error(); return 0; }",
			nil, "unknown memory"},
		{"object passed to memcpy", "unsigned g, h;\nint main(void) { g = __VERIFIER_nondet_uint(); memcpy(&h, &g, 4); if (h == 1) reach_error(); return 0; }",
			nil, "escapes"},
		{"object pointed to by an initialiser", "unsigned g; unsigned *p = &g;\nint main(void) { g = __VERIFIER_nondet_uint(); if (*p == 1) reach_error(); return 0; }",
			nil, "escapes"},
		{"object read at another width", "unsigned g;\nint main(void) { g = __VERIFIER_nondet_uint(); if (*(unsigned char *)&g == 1) reach_error(); return 0; }",
			nil, "another width"},
		{"object read misaligned", "unsigned g[2];\nint main(void) { g[0] = __VERIFIER_nondet_uint(); if (*(unsigned *)((char *)g + 2) == 1) reach_error(); return 0; }",
			nil, "aligned"},
		{"thread-local object", "__thread unsigned g;\nint main(void) { g = __VERIFIER_nondet_uint(); if (g == 1) reach_error(); return 0; }",
			nil, "thread-local"},
		{"returned from main", "int main(void) { return __VERIFIER_nondet_int(); }",
			nil, "unknown caller"},
		{"thread argument", "void *f(void *a) { return 0; }\nint main(void) { pthread_t t; unsigned x = __VERIFIER_nondet_uint(); pthread_create(&t, 0, f, (void *)(long)x); return 0; }",
			nil, "used by"},
	}
	dir := t.TempDir()
	for i, c := range cases {
		t.Run(strings.ReplaceAll(c.name, " ", "_"), func(t *testing.T) {
			path := filepath.Join(dir, fmt.Sprintf("c%d.c", i))
			if err := os.WriteFile(path, []byte(head+c.src+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			p := testutil.Program(t, path)
			fl := newFlow(p)
			srcs := nondetSources(p)
			if len(srcs) == 0 {
				t.Fatalf("%s: no nondet call", c.src)
			}
			for s, w := range srcs {
				cl, why := fl.classesOf(s, w)
				switch {
				case c.reps != nil && cl == nil:
					t.Errorf("%s: refused (%s), want classes %v", c.src, why, c.reps)
				case c.reps != nil && !slices.Equal(cl.reps, c.reps):
					t.Errorf("%s: classes %v, want %v", c.src, cl.reps, c.reps)
				case c.reps == nil && cl != nil:
					t.Errorf("%s: classes %v, want refused (%s)", c.src, cl.reps, c.why)
				case c.reps == nil && !strings.Contains(why, c.why):
					t.Errorf("%s: refused: %s, want %q", c.src, why, c.why)
				}
				if cl != nil {
					sum := 0.0
					for i := range cl.reps {
						sum += cl.prob(i)
					}
					if sum < 0.999999 || sum > 1.000001 {
						t.Errorf("%s: class probabilities sum to %g", c.src, sum)
					}
				}
			}
		})
	}
}

// TestInputClassesVerdicts searches programs whose errors need one
// specific wide input value: the search over input classes finds each (its
// trace replays with the representative) and proves the safe twin, with
// and without reduction; a query that reads a global is still refused.
func TestInputClassesVerdicts(t *testing.T) {
	const reach = "E<> Error(ReachError) || Error(VerifierError)"
	cases := []struct {
		path, q string
		want    Verdict
	}{
		{"../testdata/wide/eq_bug.c", reach, Satisfied},
		{"../testdata/wide/eq_safe.c", reach, NotSatisfied},
		{"../testdata/wide/signed_switch.c", reach, Satisfied},
		{"../testdata/wide/signed_switch.c", "A[] !Error", NotSatisfied},
		{"../testdata/mt/assume_signed.c", "E<> Error", Satisfied},
		{"../testdata/mt/assume_escaped.c", "E<> Error", Satisfied},
	}
	for _, c := range cases {
		for _, red := range []Reduction{None, Global} {
			m := machine(t, c.path)
			cq := compile(t, m, c.q)
			res, err := Search(context.Background(), cq, Options{Reduction: red})
			if err != nil {
				t.Fatalf("%s: %s, reduction %s: %v", c.path, c.q, red, err)
			}
			if res.Verdict != c.want {
				t.Errorf("%s: %s, reduction %s: %s, want %s", c.path, c.q, red, res.Verdict, c.want)
				continue
			}
			t.Logf("%s: %s, reduction %s: %s in %d states", c.path, c.q, red, res.Verdict, res.States)
			if res.Verdict == Satisfied && c.q == reach {
				// the trace is a run of the program: it replays with the
				// representatives and ends in the error
				st, err := trace.ReplayFinal(m, res.Trace.Steps)
				if err != nil {
					t.Fatalf("%s, reduction %s: replay: %v", c.path, red, err)
				}
				if !cq.Prop(st) {
					t.Errorf("%s, reduction %s: the replayed trace does not end in the error", c.path, red)
				}
				if c.path == "../testdata/wide/eq_bug.c" && !slices.ContainsFunc(res.Trace.Steps, func(s trace.Step) bool { return slices.Contains(s.Choices, 123456789) }) {
					t.Errorf("eq_bug.c: no step draws 123456789: %+v", res.Trace.Steps)
				}
			}
		}
	}
	// a query reading a global could see the representative
	m := machine(t, "../testdata/wide/eq_bug.c")
	_, err := Search(context.Background(), compile(t, m, "E<> slot[1] == 5"), Options{Reduction: Global})
	var be *BranchError
	if !errors.As(err, &be) || be.Outcomes != "2^32" {
		t.Errorf("eq_bug.c: a query reading a global: error %v, want a BranchError", err)
	}
}

// TestInputClassesMatchFull compares the search over input classes with
// full enumeration on programs whose inputs are unsigned chars: with the
// default MaxBranching the search enumerates all 256 values of each input;
// with MaxBranching 16 it must use the classes (it would refuse the input
// otherwise). Verdicts agree, with and without reduction, and the classes
// store fewer states.
func TestInputClassesMatchFull(t *testing.T) {
	queries := map[string]map[string]Verdict{
		"../testdata/wide/char_bug.c": {
			"E<> Error(ReachError)": Satisfied, "A[] !Error": NotSatisfied, "E<> Deadlock": NotSatisfied,
		},
		"../testdata/wide/char_safe.c": {
			"E<> Error(ReachError)": NotSatisfied, "A[] !Error": Satisfied,
		},
	}
	for path, qs := range queries {
		for q, want := range qs {
			for _, red := range []Reduction{None, Global} {
				full := search(t, path, q, Options{Reduction: red})
				cls := search(t, path, q, Options{Reduction: red, MaxBranching: 16})
				if full.Verdict != want || cls.Verdict != want {
					t.Errorf("%s: %s, reduction %s: %s over all values, %s over classes, want %s", path, q, red, full.Verdict, cls.Verdict, want)
				}
				if want == NotSatisfied && q != "A[] !Error" || want == Satisfied && q == "A[] !Error" { // complete searches
					if cls.States >= full.States {
						t.Errorf("%s: %s, reduction %s: %d states over classes, %d over all values", path, q, red, cls.States, full.States)
					}
				}
				t.Logf("%s: %s, reduction %s: %s, %d states over classes, %d over all values", path, q, red, cls.Verdict, cls.States, full.States)
			}
		}
	}
}
