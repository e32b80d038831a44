package vm_test

import (
	"strings"
	"testing"

	"github.com/wyvernmc/wyvern/ir"
	"github.com/wyvernmc/wyvern/vm"
)

// loadILP32 compiles a C program given as text for i386 (clang -m32).
func loadILP32(t *testing.T, name, src string, opt int) (*ir.Program, error) {
	t.Helper()
	prog, err := loadSrcWith(t, name, src, ir.Options{OptLevel: opt, DataModel: ir.ILP32})
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

// TestILP32Argv: main(argc, argv) under ILP32 gets an array of 4-byte
// pointers ending in NULL (SV-COMP's pthread fib_bench and triangular
// tasks declare main so, with data_model ILP32), at -O0 and -O1.
func TestILP32Argv(t *testing.T) {
	const src = `#include <stdio.h>
#include <string.h>
int main(int argc, char **argv) {
  int n = 0;
  for (char **p = argv; *p; p++) n++;
  printf("argc=%d counted=%d ptr=%zu\n", argc, n, sizeof argv[0]);
  for (int i = 1; i < argc; i++) printf("%d:%s:%zu\n", i, argv[i], strlen(argv[i]));
  argv[1][0] = 'J';
  printf("%s %d\n", argv[1], argv[argc] == NULL);
  return argc;
}
`
	for _, opt := range []int{0, 1} {
		p, err := loadILP32(t, "argv", src, opt)
		if err != nil {
			t.Fatalf("-O%d: %v", opt, err)
		}
		m := vm.NewMachineArgs(p, []string{"hello", "", "x=y"})
		st := m.NewState()
		m.Run(st, 1_000_000, vm.NewRand(1, 0))
		if st.Status != vm.Exited || st.ExitCode != 4 {
			t.Fatalf("-O%d: %s", opt, st.Describe())
		}
		want := "argc=4 counted=4 ptr=4\n1:hello:5\n2::0\n3:x=y:3\nJello 1\n"
		if got := string(st.Out); got != want {
			t.Errorf("-O%d: output\n%s\nwant\n%s", opt, got, want)
		}
	}
}

// TestILP32Refused: what the vm does not follow under ILP32 ends the run
// (ResourceLimit: a pointer with no 32-bit form), never runs with 64-bit
// assumptions.
func TestILP32Refused(t *testing.T) {
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

// TestILP32Conversions: strtol, strtoul, atoi, atol (saturated at a
// 32-bit long, errno ERANGE) and sscanf's l, ll, z and h conversions
// under ILP32 print what the programs print compiled natively with
// clang-14 -m32 (the expected outputs below).
func TestILP32Conversions(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"strto", `#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
int main(void) {
  const char *v[] = {"2147483647", "2147483648", "-2147483648", "-2147483649", "4294967295", "4294967296", "-1", "-4294967296", "99999999999999999999", "12abc"};
  for (int i = 0; i < 10; i++) {
    char *end; errno = 0;
    long l = strtol(v[i], &end, 10); int e1 = errno; errno = 0;
    unsigned long u = strtoul(v[i], 0, 10); int e2 = errno; errno = 0;
    long long ll = strtoll(v[i], 0, 10); int e3 = errno;
    printf("%s: %ld %d %lu %d %lld %d atoi=%d atol=%ld end=%d\n", v[i], l, e1, u, e2, ll, e3, atoi(v[i]), atol(v[i]), (int)(end - v[i]));
  }
  return 0;
}
`, `2147483647: 2147483647 0 2147483647 0 2147483647 0 atoi=2147483647 atol=2147483647 end=10
2147483648: 2147483647 34 2147483648 0 2147483648 0 atoi=2147483647 atol=2147483647 end=10
-2147483648: -2147483648 0 2147483648 0 -2147483648 0 atoi=-2147483648 atol=-2147483648 end=11
-2147483649: -2147483648 34 2147483647 0 -2147483649 0 atoi=-2147483648 atol=-2147483648 end=11
4294967295: 2147483647 34 4294967295 0 4294967295 0 atoi=2147483647 atol=2147483647 end=10
4294967296: 2147483647 34 4294967295 34 4294967296 0 atoi=2147483647 atol=2147483647 end=10
-1: -1 0 4294967295 0 -1 0 atoi=-1 atol=-1 end=2
-4294967296: -2147483648 34 4294967295 34 -4294967296 0 atoi=-2147483648 atol=-2147483648 end=11
99999999999999999999: 2147483647 34 4294967295 34 9223372036854775807 34 atoi=2147483647 atol=2147483647 end=20
12abc: 12 0 12 0 12 0 atoi=12 atol=12 end=2
`},
		{"sscanf", `#include <stdio.h>
int main(void) {
  const char *v[] = {"2147483647", "2147483648", "-2147483649", "4294967296", "-1", "99999999999999999999", "70000"};
  for (int i = 0; i < 7; i++) {
    long l = 7; unsigned long u = 7; long long ll = 7; int d = 7; unsigned int ud = 7; short h = 7; __SIZE_TYPE__ z = 7; long pair[2] = {9, 9};
    int n = sscanf(v[i], "%ld", &l); sscanf(v[i], "%lu", &u); sscanf(v[i], "%lld", &ll); sscanf(v[i], "%d", &d);
    sscanf(v[i], "%u", &ud); sscanf(v[i], "%hd", &h); sscanf(v[i], "%zu", &z); sscanf(v[i], "%ld", &pair[0]);
    printf("%s: %d %ld %lu %lld %d %u %hd %zu %ld %ld\n", v[i], n, l, u, ll, d, ud, h, z, pair[0], pair[1]);
  }
  double f; sscanf("2.5", "%lf", &f); printf("%g\n", f);
  return 0;
}
`, `2147483647: 1 2147483647 2147483647 2147483647 2147483647 2147483647 -1 2147483647 2147483647 9
2147483648: 1 2147483647 2147483648 2147483648 2147483647 2147483648 -1 2147483648 2147483647 9
-2147483649: 1 -2147483648 2147483647 -2147483649 -2147483648 2147483647 0 2147483647 -2147483648 9
4294967296: 1 2147483647 4294967295 4294967296 2147483647 4294967295 -1 4294967295 2147483647 9
-1: 1 -1 4294967295 -1 -1 4294967295 -1 4294967295 -1 9
99999999999999999999: 1 2147483647 4294967295 9223372036854775807 2147483647 4294967295 -1 4294967295 2147483647 9
70000: 1 70000 70000 70000 70000 70000 4464 70000 70000 9
2.5
`},
	} {
		p, err := loadILP32(t, tc.name, tc.src, 0)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		m := vm.NewMachine(p)
		st := m.NewState()
		m.Run(st, 10_000_000, vm.NewRand(1, 0))
		if st.Status != vm.Exited || st.ExitCode != 0 {
			t.Fatalf("%s: %s", tc.name, st.Describe())
		}
		if got := string(st.Out); got != tc.want {
			t.Errorf("%s: output\n%s\nwant\n%s", tc.name, got, tc.want)
		}
	}
}
