package symbolic

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wyvernmc/wyvern/internal/testutil"
	"github.com/wyvernmc/wyvern/ir"
	"github.com/wyvernmc/wyvern/jobs"
	"github.com/wyvernmc/wyvern/query"
)

// heapTooHard are the heap corpus lines the default solver may not decide
// within the test's 20 s limit: the test accepts "unknown" for them, never
// a wrong verdict. With the flat memory array 12 of the 24 lines were
// listed; object memory (encode_obj.go, issue 29) decides every line in
// under 4 s on the loaded 2-core machine (BENCHMARKS.md).
var heapTooHard = map[string]bool{}

// TestHeapCorpus checks every line of testdata/bmc-heap (issue 29's heap
// programs: lists, trees, arrays of structs, realloc'd vectors, string
// functions, pointer swaps; validated natively by testdata/bmc/validate.sh
// with CORPUS=testdata/bmc-heap) with the default solver: the expected
// verdict, and a witness that replays for every violation. -short skips it.
func TestHeapCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("the heap corpus takes minutes; run without -short")
	}
	lines := readCorpusAt(t, "../testdata/bmc-heap/EXPECTED.tsv")
	if len(lines) < 20 {
		t.Fatalf("the heap corpus has %d lines, want >= 20", len(lines))
	}
	for _, l := range lines {
		p := testutil.Program(t, filepath.Join("../testdata/bmc-heap", l.file))
		q, err := query.Parse(l.query)
		if err != nil {
			t.Fatalf("%s: %v", l.file, err)
		}
		t.Run(fmt.Sprintf("%s/k%d", l.file, l.unwind), func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			r, err := Check(ctx, p, q, jobs.BMCOptions{Unwind: l.unwind, SolverTimeoutS: 20}, nil)
			if err != nil {
				t.Fatalf("%s: %v", l.query, err)
			}
			if r.Verdict == VerdictUnknown && heapTooHard[l.file] {
				t.Logf("%s: %s (known to be too hard yet)", l.file, r.Reason)
				return
			}
			if r.Verdict != l.verdict {
				t.Fatalf("%s at unwind %d: %s (%s), want %s", l.query, l.unwind, r.Verdict, r.Reason, l.verdict)
			}
			if r.Verdict == VerdictSatisfied && (r.Trace == nil || len(r.Trace.Steps) == 0) && strings.HasPrefix(l.query, "E<>") {
				t.Fatalf("a violation without a witness: %+v", r)
			}
			t.Logf("%s: %s in %.2f s (solver %.2f s, %d terms)", l.file, r.Verdict, r.ElapsedSec, r.SolverSeconds, r.Checks[len(r.Checks)-1].Terms)
		})
	}
}

// TestStringsFlat: the string functions' encodings over the flat memory
// array (the heap corpus's loops are too hard for it): strcmp's sign and
// strncmp's limit over a nondet char, and reads past an unterminated
// buffer.
func TestStringsFlat(t *testing.T) {
	testutil.NeedClang(t)
	const head = `#include <assert.h>
#include <stdlib.h>
#include <string.h>
extern char __VERIFIER_nondet_char(void);
extern unsigned char __VERIFIER_nondet_uchar(void);
`
	for _, c := range []struct {
		name, src, query string
		want             Status
	}{
		{"strcmp sign", `int main(void) { char *s = malloc(3); s[0] = 'b'; s[1] = __VERIFIER_nondet_char(); s[2] = 0;
  int r = strcmp(s, "bm"); assert((r < 0) == ((unsigned char)s[1] < 'm') && (r == 0) == (s[1] == 'm')); free(s); return 0; }`,
			"E<> Error", Unsat},
		{"strcmp equal", `int main(void) { char *s = malloc(3); s[0] = 'b'; s[1] = __VERIFIER_nondet_char(); s[2] = 0;
  assert(strcmp(s, "bm") != 0); free(s); return 0; }`, "E<> Error(AssertFail)", Sat},
		{"strncmp limit", `int main(void) { char *s = malloc(2); s[0] = 'x'; s[1] = 'y'; unsigned char n = __VERIFIER_nondet_uchar();
  if (n > 2) n = 2; assert(strncmp(s, "xz", n) == 0 || n == 2); free(s); return 0; }`, "E<> Error", Unsat},
		{"strncmp past the end", `int main(void) { char *s = malloc(2), *u = malloc(2); s[0] = s[1] = u[0] = u[1] = 'q';
  unsigned char n = __VERIFIER_nondet_uchar(); int r = strncmp(s, u, n); free(s); free(u); return r; }`, "E<> Error(OutOfBounds)", Sat},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := srcProgram(t, "str", head+c.src+"\n", ir.Options{})
			q, err := query.Parse(c.query)
			if err != nil {
				t.Fatal(err)
			}
			target, err := query.BMCTarget(q)
			if err != nil {
				t.Fatal(err)
			}
			viol, _, _, enc := bmcCheck(t, p, EncodeOptions{Unwind: 1, FlatMemory: true, Errors: target.Errors, Calls: target.Calls})
			if enc.ObjectMemory {
				t.Fatal("FlatMemory: object memory used")
			}
			if viol != c.want {
				t.Errorf("flat memory: violation %s, want %s", viol, c.want)
			}
			if r, err := Check(context.Background(), p, q, jobs.BMCOptions{Unwind: 1}, nil); err != nil {
				t.Fatal(err)
			} else if want := map[Status]string{Sat: VerdictSatisfied, Unsat: VerdictNotSatisfied}[c.want]; r.Verdict != want {
				t.Errorf("Check: %s (%s), want %s", r.Verdict, r.Reason, want)
			}
		})
	}
}
