package symbolic

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wyvernmc/wyvern/internal/testutil"
	"github.com/wyvernmc/wyvern/ir"
)

// ilp32Program compiles C source for i386 (clang -m32; no header needed).
func ilp32Program(t *testing.T, name, src string) *ir.Program {
	t.Helper()
	return srcProgram(t, name, src, ir.Options{DataModel: ir.ILP32})
}

// srcProgram compiles C source given as text with options o.
func srcProgram(t *testing.T, name, src string, o ir.Options) *ir.Program {
	t.Helper()
	testutil.NeedClang(t)
	path := filepath.Join(t.TempDir(), name+".c")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := ir.Load(path, o)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

const ilp32Prelude = `extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", "f.c", 1, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern void *malloc(unsigned int);
`

// TestILP32Pointers: the encoder follows ILP32 pointers' 32-bit form in
// memory and as integers (toPtr32, fromPtr32), as the vm does: a pointer
// computed from a nondeterministic integer, stored and loaded back
// designates the element it should (no violation: a proof); comparing
// its integer with another element's finds the input that makes them
// equal; a pointer with no 32-bit form stored is ResourceLimit; a thread's
// pthread_t and result are 32-bit.
func TestILP32Pointers(t *testing.T) {
	body := `int main(void) {
  int a[4] = {0, 0, 0, 0};
  int i = __VERIFIER_nondet_int();
  if (i < 0 || i > 3) return 0;
  unsigned long u = (unsigned long)a + i * sizeof(int);
  int *ps[1];
  ps[0] = (int *)u;
  *ps[0] = 7;
  if (a[i] != 7 || *ps[0] != 7 || ps[0] - a != i || sizeof u != 4) reach_error();
  %s
  return 0;
}`
	for _, tc := range []struct {
		name, extra string
		want        Status
	}{
		{"proof", "", Unsat},
		{"found", "if ((unsigned long)ps[0] == (unsigned long)&a[2]) reach_error();", Sat},
	} {
		p := ilp32Program(t, tc.name, ilp32Prelude+strings.Replace(body, "%s", tc.extra, 1))
		viol, model, unwound, enc := bmcCheck(t, p, EncodeOptions{Unwind: 2})
		if viol != tc.want || unwound != Unsat {
			t.Fatalf("%s: violation %s, unwound %s; want %s, unsat", tc.name, viol, unwound, tc.want)
		}
		if tc.want == Sat {
			if i := input(t, enc, model, 0); i != 2 {
				t.Errorf("%s: input %d, want 2", tc.name, i)
			}
		}
	}
	p := ilp32Program(t, "big", ilp32Prelude+`int main(void) {
  char *p = malloc(1 << 21);
  char **q = malloc(sizeof *q);
  if (!p || !q) return 0;
  *q = p + (1 << 20);
  return 0;
}`)
	if viol, _, _, _ := bmcCheck(t, p, EncodeOptions{Unwind: 1}); viol != Sat {
		t.Errorf("a pointer with no 32-bit form stored: violation %s, want sat (ResourceLimit)", viol)
	}
	// threads: pthread_t and the thread's result (a pointer) are 32-bit
	threads := `typedef unsigned long pthread_t;
extern int pthread_create(pthread_t *, void *, void *(*)(void *), void *);
extern int pthread_join(pthread_t, void **);
int g[2] = {5, 6};
void *f(void *a) { return (int *)a + 1; }
int main(void) {
  pthread_t t[2];
  void *r[1];
  pthread_create(&t[1], 0, f, g);
  pthread_join(t[1], &r[0]);
  if (sizeof(pthread_t) != 4 || sizeof r != 4) reach_error();
  %s
  return 0;
}`
	for _, tc := range []struct {
		name, check string
		want        Status
	}{
		{"threads_proof", "if (r[0] != (void *)&g[1]) reach_error();", Unsat},
		{"threads_found", "if (r[0] == (void *)&g[1]) reach_error();", Sat},
	} {
		p := ilp32Program(t, tc.name, ilp32Prelude+strings.Replace(threads, "%s", tc.check, 1))
		if viol, _, _, _ := bmcCheck(t, p, EncodeOptions{Unwind: 2}); viol != tc.want {
			t.Errorf("%s: violation %s, want %s", tc.name, viol, tc.want)
		}
	}
}
