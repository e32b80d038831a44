package symbolic

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wyvernmc/wyvern/internal/testutil"
	"github.com/wyvernmc/wyvern/jobs"
	"github.com/wyvernmc/wyvern/query"
)

// TestKInduction: k-induction proves safe programs whose loops run far past
// the bound, and never proves an unsafe one or one whose loop it cannot
// havoc soundly (a symbolic store, an allocation, a second long loop, a
// loop outside main, an inner loop past the bound): those stay incomplete.
func TestKInduction(t *testing.T) {
	testutil.NeedClang(t)
	const decls = "void reach_error(void);\nextern unsigned __VERIFIER_nondet_uint(void);\nextern int __VERIFIER_nondet_int(void);\nextern void *malloc(unsigned long);\n"
	cases := []struct {
		name   string
		src    string
		query  string
		unwind int
		want   string
		// why: a word of the k-induction attempts' record (not
		// applicable, or the step's answer) when the verdict is incomplete
		why string
	}{
		{"body check, 10^6 iterations", `int main(void) { unsigned i = 0;
			while (i < 1000000u) { if (i > 1000000u) reach_error(); i++; } return 0; }`,
			"E<> Error", 1, VerdictNotSatisfied, ""},
		{"A[] form proved", `int main(void) { unsigned i = 0;
			while (i < 1000000u) { if (i > 1000000u) reach_error(); i++; } return 0; }`,
			"A[] !Error", 1, VerdictSatisfied, ""},
		{"exit value needs one assumed iteration", `int main(void) { unsigned i = 0;
			while (i < 1000000u) i++; if (i != 1000000u) reach_error(); return 0; }`,
			"E<> Error", 2, VerdictNotSatisfied, ""},
		{"break exit", `int main(void) { unsigned i = 0;
			while (1) { if (i >= 1000000u) break; i++; } if (i != 1000000u) reach_error(); return 0; }`,
			"E<> Error", 2, VerdictNotSatisfied, ""},
		{"inner loop fully unrolled", `int main(void) { unsigned s = 0;
			for (unsigned i = 0; i < 1000000u; i++) { for (unsigned j = 0; j < 3; j++) s = j; if (s > 2) reach_error(); } return 0; }`,
			"E<> Error", 4, VerdictNotSatisfied, ""},
		{"branch the first iteration cannot take", `int main(void) { unsigned i = 0, last = 0;
			while (i < 1000000u) { if (i == 0) last = 5; else last = i; if (last > 1000000u) reach_error(); i++; } return 0; }`,
			"E<> Error", 2, VerdictNotSatisfied, ""},
		{"range invariant from a constant: saturating counter", `int main(void) { unsigned i = 0, j = 0;
			while (i < 1000000u) { i++; if (j < 10) j++; } if (j > 10) reach_error(); return 0; }`,
			"E<> Error", 2, VerdictNotSatisfied, "<=u 10"},
		{"range invariant: a counter that only grows", `int main(void) { int i = 0, m = 0;
			while (i < 1000000) { i++; if (m < i) m = i; } if (m < 0) reach_error(); return 0; }`,
			"E<> Error", 2, VerdictNotSatisfied, ""},
		{"infinite loop", `int main(void) { unsigned x = 0;
			while (1) { x = (x + 1) % 3; if (x > 2) reach_error(); } return 0; }`,
			"E<> Error", 2, VerdictNotSatisfied, ""},
		{"continue: two back edges", `int main(void) { unsigned i = 0;
			while (i < 1000000u) { i++; if (i % 2) continue; if (i > 1000000u) reach_error(); } return 0; }`,
			"E<> Error", 2, VerdictNotSatisfied, ""},
		{"a call that writes a global", `unsigned g; static void tick(void) { g = (g + 1) % 4; }
			int main(void) { for (unsigned i = 0; i < 1000000u; i++) { tick(); if (g > 3) reach_error(); } return 0; }`,
			"E<> Error", 2, VerdictNotSatisfied, ""},
		// never a proof
		{"unsafe: an input before the loop picks a late error", `int main(void) { unsigned n = __VERIFIER_nondet_uint(), i = 0;
			while (i < 1000000u) { if (i == 999999u && n == 7) reach_error(); i++; } return 0; }`,
			"E<> Error", 8, VerdictIncomplete, "step sat"},
		{"unsafe: do-while", `int main(void) { unsigned i = 0;
			do { i++; if (i == 500000u) reach_error(); } while (i < 1000000u); return 0; }`,
			"E<> Error", 8, VerdictIncomplete, "step sat"},
		{"unsafe: a goto into the loop's body", `int main(void) { unsigned i = 0;
			if (__VERIFIER_nondet_uint()) goto inside;
			while (i < 1000000u) { i++; inside: if (i == 777777u) reach_error(); } return 0; }`,
			"E<> Error", 8, VerdictIncomplete, ""},
		{"unsafe: the pointer to the counter is loaded", `int main(void) { unsigned i = 0; unsigned *p = &i;
			while (*p < 1000000u) { (*p)++; if (*p == 999999u) reach_error(); } return 0; }`,
			"E<> Error", 8, VerdictIncomplete, ""},
		{"unsafe: a call that writes a global reaches the error late", `unsigned g; static void tick(void) { g++; }
			int main(void) { for (unsigned i = 0; i < 1000000u; i++) { tick(); if (g == 500000u) reach_error(); } return 0; }`,
			"E<> Error", 8, VerdictIncomplete, "step sat"},
		{"unsafe: saturating counter past its bound", `int main(void) { unsigned i = 0, j = 0;
			while (i < 1000000u) { i++; if (j < 10) j++; } if (j == 10) reach_error(); return 0; }`,
			"E<> Error", 8, VerdictIncomplete, "step sat"},
		{"unsafe: error at the exit", `int main(void) { unsigned i = 0;
			while (i < 1000000u) i++; if (i == 1000000u) reach_error(); return 0; }`,
			"E<> Error", 8, VerdictIncomplete, "step sat"},
		{"unsafe: error in a late iteration", `int main(void) { unsigned i = 0;
			while (i < 1000000u) { if (i == 999999u) reach_error(); i++; } return 0; }`,
			"E<> Error", 8, VerdictIncomplete, "step sat"},
		{"unsafe: nondet loop, error at the 100th iteration", `int main(void) { unsigned c = 0;
			while (__VERIFIER_nondet_uint()) { c++; if (c == 100) reach_error(); } return 0; }`,
			"E<> Error", 8, VerdictIncomplete, "step sat"},
		{"unsafe: error after a break", `int main(void) { unsigned i = 0;
			while (1) { i++; if (i == 123456u) break; } reach_error(); return 0; }`,
			"E<> Error", 8, VerdictIncomplete, "step sat"},
		{"unsafe A[]: error at the exit", `int main(void) { unsigned i = 0;
			while (i < 1000000u) i++; if (i == 1000000u) reach_error(); return 0; }`,
			"A[] !Error", 8, VerdictIncomplete, "step sat"},
		// affine equalities at the header (karr.go), checked by Houdini;
		// SV-COMP's loop-lit tasks as unreach-call asks them (an overflow is
		// no violation: from a havocked state res + 1 may overflow)
		{"relational invariant x = 2y", `int main(void) { unsigned x = 0, y = 0;
			while (y < 1000000u) { x += 2; y++; } if (x != 2 * y) reach_error(); return 0; }`,
			"E<> Error", 4, VerdictNotSatisfied, "affine equality"},
		{"sum preserved (loop-lit hhk2008)", `int main(void) { int a = __VERIFIER_nondet_int(), b = __VERIFIER_nondet_int();
			if (!(a <= 1000000)) return 0; if (!(0 <= b && b <= 1000000)) return 0;
			int res = a, cnt = b; while (cnt > 0) { cnt = cnt - 1; res = res + 1; }
			if (res != a + b) reach_error(); return 0; }`,
			"E<> Exists (p)([p.reach_error])", 2, VerdictNotSatisfied, "affine equality"},
		{"difference preserved (loop-lit jm2006)", `int main(void) { int i = __VERIFIER_nondet_int(), j = __VERIFIER_nondet_int();
			if (!(i >= 0 && j >= 0)) return 0; int x = i, y = j;
			while (x != 0) { x--; y--; } if (i == j && y != 0) reach_error(); return 0; }`,
			"E<> Exists (p)([p.reach_error])", 2, VerdictNotSatisfied, "affine equality"},
		{"two equalities (loop-lit cggmp2005_variant)", `int main(void) { int lo = 0, mid = __VERIFIER_nondet_int();
			if (!(mid > 0 && mid <= 1000000)) return 0; int hi = 2 * mid;
			while (mid > 0) { lo = lo + 1; hi = hi - 1; mid = mid - 1; } if (lo != hi) reach_error(); return 0; }`,
			"E<> Error", 2, VerdictNotSatisfied, "affine equality"},
		{"a guessed equality that does not hold is dropped", `int main(void) { unsigned x = 0, y = 0;
			while (y < 1000000u) { x += 2; y++; if (__VERIFIER_nondet_uint()) x++; } if (x < 2 * y) reach_error(); return 0; }`,
			"E<> Error", 4, VerdictIncomplete, "step sat"},
		{"symbolic store", `int main(void) { unsigned a[8] = {0};
			for (unsigned i = 0; i < 1000000u; i++) a[i % 8] = i; if (a[0] > 1000000u) reach_error(); return 0; }`,
			"E<> Error", 4, VerdictIncomplete, "symbolic index"},
		{"allocation in the loop", `int main(void) { unsigned i = 0;
			while (i < 1000000u) { char *p = malloc(1); if (!p) return 0; *p = 1; i++; } return 0; }`,
			"E<> Error", 4, VerdictIncomplete, "allocates"},
		{"two long loops", `int main(void) { unsigned i = 0, j = 0;
			while (i < 1000000u) i++; while (j < 1000000u) j++; if (j != 1000000u) reach_error(); return 0; }`,
			"E<> Error", 4, VerdictIncomplete, "base sat"},
		{"inner loop past the bound", `int main(void) { unsigned s = 0;
			for (unsigned i = 0; i < 1000000u; i++) { for (unsigned j = 0; j < 100; j++) s = j; if (s > 99) reach_error(); } return 0; }`,
			"E<> Error", 4, VerdictIncomplete, "base sat"},
		// a callee's array (undefined stack bytes, encode_undef.go): each
		// call's bytes are free (the havoc covers the stack site's
		// execution counter)
		{"a callee's array written before it is read", `static unsigned g(unsigned v) { unsigned a[2]; a[0] = v; a[1] = v; return a[0] + a[1]; }
			int main(void) { unsigned i = 0; while (i < 1000000u) { if (g(1) != 2) reach_error(); i++; } return 0; }`,
			"E<> Error", 2, VerdictNotSatisfied, ""},
		{"a callee's array read before it is written", `static unsigned g(void) { unsigned a[1]; return a[0]; }
			int main(void) { unsigned i = 0; while (i < 1000000u) { unsigned v = g(); if (i == 999999u && v == 5) reach_error(); i++; } return 0; }`,
			"E<> Error", 2, VerdictIncomplete, "step sat"},
		{"loop in a callee", `static void f(void) { unsigned i = 0; while (i < 1000000u) i++; if (i != 1000000u) reach_error(); }
			int main(void) { f(); return 0; }`,
			"E<> Error", 4, VerdictIncomplete, ""},
	}
	// (the invariant search's time limit must not decide a row: on a
	// loaded machine, CI's, jm2006's took more than minInductBudget)
	inductFloor = time.Minute
	t.Cleanup(func() { inductFloor = minInductBudget })
	dir := t.TempDir()
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(dir, "k"+string(rune('a'+i))+".c")
			if err := os.WriteFile(path, []byte(decls+c.src+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			p := testutil.Program(t, path)
			q, err := query.Parse(c.query)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			r, err := Check(ctx, p, q, jobs.BMCOptions{Unwind: c.unwind, Solver: "z3", SolverTimeoutS: 20}, nil)
			if err != nil {
				t.Fatal(err)
			}
			var log strings.Builder
			for _, k := range r.Induction {
				log.WriteString("base " + k.Base + ", step " + k.Step + ", invariants " + strings.Join(k.Invariants, ", ") + ", not applicable: " + k.NotApplicable + "; ")
			}
			if r.Verdict != c.want {
				t.Fatalf("%s at unwind %d: %s (%s), want %s; k-induction: %s", c.query, c.unwind, r.Verdict, r.Reason, c.want, log.String())
			}
			if c.want != VerdictIncomplete && !strings.Contains(r.Reason, "k-induction") {
				t.Errorf("proved, but not by k-induction: %s", r.Reason)
			}
			if c.why != "" && !strings.Contains(log.String(), c.why) {
				t.Errorf("k-induction attempts %q, want one saying %q", log.String(), c.why)
			}
		})
	}
}

// TestKInductionCorpus: the corpus lines k-induction answers (kind_*.c) with
// the default solver, each proof by k-induction.
func TestKInductionCorpus(t *testing.T) {
	n := 0
	for _, l := range readCorpus(t) {
		if !strings.HasPrefix(l.file, "kind_") {
			continue
		}
		n++
		t.Run(l.file, func(t *testing.T) {
			p := testutil.Program(t, filepath.Join("../testdata/bmc", l.file))
			q, err := query.Parse(l.query)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			r, err := Check(ctx, p, q, jobs.BMCOptions{Unwind: l.unwind, SolverTimeoutS: 20}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if r.Verdict != l.verdict {
				t.Fatalf("go test ./symbolic -run 'TestKInductionCorpus/%s': %s (%s), want %s", l.file, r.Verdict, r.Reason, l.verdict)
			}
			if r.Verdict == VerdictNotSatisfied && !strings.Contains(r.Reason, "k-induction") {
				t.Errorf("proved, but not by k-induction: %s", r.Reason)
			}
			t.Logf("%s: %s in %.2f s (solver %.2f s)", l.file, r.Verdict, r.ElapsedSec, r.SolverSeconds)
		})
	}
	if n < 7 {
		t.Fatalf("%d kind_ lines in EXPECTED.tsv, want at least 7", n)
	}
}
