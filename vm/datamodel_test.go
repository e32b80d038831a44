package vm_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wyvernmc/wyvern/ir"
	"github.com/wyvernmc/wyvern/vm"
)

// loadILP32 compiles a C program given as text for i386 (clang -m32).
func loadILP32(t *testing.T, name, src string, opt int) (*ir.Program, error) {
	t.Helper()
	needClang(t)
	p := filepath.Join(t.TempDir(), name+".c")
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	prog, err := ir.Load(p, ir.Options{OptLevel: opt, DataModel: ir.ILP32})
	if err != nil && strings.Contains(err.Error(), "file not found") {
		t.Skipf("no 32-bit C headers (libc6-dev-i386): %v", err)
	}
	return prog, err
}

const ilp32Src = `#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
struct S { char c; long l; double d; };
struct T { int *p; int x; struct T *next; };
struct U { char c; long long ll; };
int g[4] = {1, 2, 3, 4};
int *gp = &g[2];
int *tab[2] = {&g[0], &g[3]};
void *worker(void *arg) { return (int *)arg + 1; }
int main(void) {
  unsigned long x = 4294967295UL; x++;
  printf("x=%lu long=%zu ptr=%zu S=%zu U=%zu T=%zu\n", x, sizeof(long), sizeof(int *), sizeof(struct S), sizeof(struct U), sizeof(struct T));
  struct T *t = malloc(sizeof(struct T));
  t->p = &g[1]; t->x = 7; t->next = t;
  printf("*p=%d x=%d next=%d gp=%d tab=%d,%d\n", *t->next->p, t->x, t->next == t, *gp, *tab[0], *tab[1]);
  unsigned long u = (unsigned long)t->p;
  int *q = (int *)(u + sizeof(int));
  printf("*q=%d diff=%ld null=%p aligned=%d nonzero=%d\n", *q, (long)(gp - t->p), (void *)0, (int)(u % 4 == 0), (int)((unsigned)u != 0));
  long long ll = 1LL << 40; long m = -5;
  printf("%lld %ld %lu %zd %td\n", ll, m, (unsigned long)m, (size_t)-1, &g[3] - &g[0]);
  pthread_t th; void *res;
  pthread_create(&th, 0, worker, &g[0]);
  pthread_join(th, &res);
  printf("th=%zu res=%d\n", sizeof th, *(int *)res);
  int **pp = malloc(2 * sizeof(int *));
  memcpy(pp, tab, sizeof tab);
  printf("copied=%d,%d\n", *pp[0], *pp[1]);
  free(pp); free(t);
  return 0;
}
`

// ilp32Want is what ilp32Src prints compiled natively with clang-14 -m32
// (and run on Linux/i386 glibc), but for the thread id.
const ilp32Want = `x=0 long=4 ptr=4 S=16 U=12 T=12
*p=2 x=7 next=1 gp=3 tab=1,4
*q=3 diff=1 null=(nil) aligned=1 nonzero=1
1099511627776 -5 4294967291 -1 3
th=4 res=2
copied=1,4
`

// TestILP32Program runs a program whose output depends on the data model
// under ILP32, at -O0 and -O1: sizes and layouts, wrap-around of unsigned
// long, pointers through memory, integers and platform functions.
func TestILP32Program(t *testing.T) {
	for _, opt := range []int{0, 1} {
		p, err := loadILP32(t, "ilp32", ilp32Src, opt)
		if err != nil {
			t.Fatalf("-O%d: %v", opt, err)
		}
		if p.DataModel != ir.ILP32 {
			t.Fatalf("-O%d: data model %s", opt, p.DataModel)
		}
		m := vm.NewMachine(p)
		st := m.NewState()
		m.Run(st, 1_000_000, vm.NewRand(1, 0))
		if st.Status != vm.Exited || st.ExitCode != 0 {
			t.Fatalf("-O%d: %s", opt, st.Describe())
		}
		if got := string(st.Out); got != ilp32Want {
			t.Errorf("-O%d: output\n%s\nwant\n%s", opt, got, ilp32Want)
		}
	}
}

// TestILP32Refused: what the vm does not follow under ILP32 is refused by
// name, at load time (platform functions, main's arguments) or as the end
// of the run (ResourceLimit: a pointer with no 32-bit form), never run
// with 64-bit assumptions.
func TestILP32Refused(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"sscanf", `extern int sscanf(const char *, const char *, ...);
int main(void) { long x; return sscanf("12", "%ld", &x); }`, "not supported under the ILP32 data model yet: sscanf"},
		{"argv", `int main(int argc, char **argv) { return argc; }`, "main with parameters"},
	} {
		_, err := loadILP32(t, tc.name, tc.src, 0)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
	p, err := loadILP32(t, "big", `#include <stdlib.h>
int main(void) { char *p = malloc(1 << 21); char **q = malloc(sizeof *q); *q = p + (1 << 20); return **q; }`, 0)
	if err != nil {
		t.Fatal(err)
	}
	m := vm.NewMachine(p)
	st := m.NewState()
	m.Run(st, 1_000_000, vm.NewRand(1, 0))
	if st.Err == nil || st.Err.Kind != vm.ErrResourceLimit || !strings.Contains(st.Err.Detail, "no 32-bit form") {
		t.Fatalf("%s, want ResourceLimit: no 32-bit form", st.Describe())
	}
}
