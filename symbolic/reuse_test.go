package symbolic

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/wyvernmc/wyvern/internal/testutil"
	"github.com/wyvernmc/wyvern/ir"
	"github.com/wyvernmc/wyvern/jobs"
	"github.com/wyvernmc/wyvern/query"
)

// TestReuseCut: where the vm lets an allocator reuse a freed block's
// address (vm/reuse.go), a comparison of a new block with a freed one may
// be true; the encodings cut such paths, so BMC gives no proof of a
// program whose error needs the reuse (a wrong TRUE before), and still
// proves one that compares its blocks before freeing them. Single-threaded
// (flat array and object memory) and threaded (the complete check).
func TestReuseCut(t *testing.T) {
	testutil.NeedClang(t)
	const head = `#include <stdlib.h>
#include <pthread.h>
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", "f.c", 1, "reach_error"); }
`
	for _, c := range []struct {
		name, src string
		opts      jobs.BMCOptions
		verdict   string
	}{
		{"after free", `int main(void) { int *y = malloc(4); free(y); int *x = malloc(4);
  if (x == y) reach_error(); free(x); return 0; }`, jobs.BMCOptions{Unwind: 2}, VerdictIncomplete},
		{"after free, object memory", `int main(void) { int *y = malloc(4); free(y); int *x = malloc(4);
  int *p = x, *q = y; if (p != q) { free(x); return 0; } reach_error(); }`, jobs.BMCOptions{Unwind: 2}, VerdictIncomplete},
		{"before free", `int main(void) { int *y = malloc(4); int *x = malloc(4);
  if (x == y) reach_error(); free(y); free(x); return 0; }`, jobs.BMCOptions{Unwind: 2}, VerdictNotSatisfied},
		{"threads", `int *y;
void *run(void *a) { int *x = malloc(4); if (x == y) reach_error(); free(x); return 0; }
int main(void) { pthread_t t; y = malloc(4); free(y); pthread_create(&t, 0, run, 0); pthread_join(t, 0); return 0; }`,
			jobs.BMCOptions{Unwind: 2, Contexts: 1, Complete: true}, VerdictIncomplete},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := srcProgram(t, "reuse", head+c.src+"\n", ir.Options{})
			q, err := query.Parse("E<> Exists (p)([p.reach_error])")
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			r, err := Check(ctx, p, q, c.opts, nil)
			if err != nil {
				t.Fatal(err)
			}
			if r.Verdict != c.verdict {
				t.Fatalf("%s (%s), want %s", r.Verdict, r.Reason, c.verdict)
			}
			if c.verdict == VerdictIncomplete && !strings.Contains(r.Reason, reuseCutNote) {
				t.Errorf("reason %q does not say why", r.Reason)
			}
			if Threaded(p) {
				return
			}
			// the flat memory array cuts the same paths
			target, err := query.BMCTarget(q)
			if err != nil {
				t.Fatal(err)
			}
			viol, _, unwound, enc := bmcCheck(t, p, EncodeOptions{Unwind: 2, FlatMemory: true, Errors: target.Errors, Calls: target.Calls})
			if enc.ObjectMemory {
				t.Fatal("FlatMemory: object memory used")
			}
			if wantCut := c.verdict == VerdictIncomplete; viol != Unsat || (unwound == Sat) != wantCut || wantCut && !enc.ReuseCut {
				t.Errorf("flat memory: violation %s, unwound %s, reuse cut %v; want unsat, a cut %v", viol, unwound, enc.ReuseCut, wantCut)
			}
		})
	}
}
