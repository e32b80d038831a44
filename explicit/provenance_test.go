package explicit

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/wyvernmc/wyvern/internal/testutil"
	"github.com/wyvernmc/wyvern/ir"
)

// provPrograms are the differential tests' programs whose error needs the
// order of two processes' block ids, seen only through an address that
// reaches a conversion indirectly (TestReductionsKeepVerdicts, porCorpus):
// before the provenance analysis kept their allocas visible, the global
// reduction answered not-satisfied for E<> Exists (p)([p.reach_error]) on
// each of them with the gate off.
var provPrograms = []string{"testdata/por_prov_global.c", "testdata/por_prov_field.c", "testdata/por_prov_arg.c",
	"testdata/por_prov_ret.c", "testdata/por_prov_heap.c", "testdata/por_prov_union.c", "testdata/por_prov_union_global.c",
	"testdata/por_prov_union_heap.c", "testdata/por_prov_pun.c", "testdata/por_prov_memcpy_long.c", "testdata/por_prov_struct_copy.c"}

// provHeader starts every program of TestSeesBlockIDs.
const provHeader = `#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
`

// TestSeesBlockIDs: the provenance analysis answers "may see" for every way
// an address of a block allocated at run time reaches a conversion, an
// ordering or a byte copy, and "no" where only integers, null and fixed
// (global) addresses do.
func TestSeesBlockIDs(t *testing.T) {
	testutil.NeedClang(t)
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		src  string
		want bool
	}{
		{"integer_argument", `
int n;
void *f(void *arg) { int id = (int)(long)arg; n += id; return 0; }
int main(void) { pthread_t t; pthread_create(&t, 0, f, (void *)1L); pthread_join(t, 0); return 0; }`, false},
		{"null_argument", `
int n;
void *f(void *arg) { long id = (long)arg; n += id; return 0; }
int main(void) { pthread_t t; int x = 3; pthread_create(&t, 0, f, 0); pthread_join(t, 0); return x; }`, false},
		{"local_argument", `
long n;
void *f(void *arg) { n = (long)arg; return 0; }
int main(void) { pthread_t t; int x = 3; pthread_create(&t, 0, f, &x); pthread_join(t, 0); return 0; }`, true},
		{"global_address", `
int g, h; long n;
int main(void) { n = (long)&g; int *p = &h; if (p < &g) n++; return 0; }`, false},
		{"global_address_compared_to_local", `
int g; long n;
int main(void) { int x; int *p = &x; if (p < &g) n++; return 0; }`, true},
		{"direct_conversion", `
long n;
int main(void) { int x; n = (long)&x; return 0; }`, true},
		{"through_global", `
int *gp; long n;
void *f(void *a) { n = (long)gp; return 0; }
int main(void) { int x; gp = &x; pthread_t t; pthread_create(&t, 0, f, 0); pthread_join(t, 0); return 0; }`, true},
		{"through_struct_field", `
struct s { int k; int *p; }; long n;
int main(void) { int x; struct s v; v.k = 1; v.p = &x; n = (long)v.p; return 0; }`, true},
		{"through_private_local", `
long n;
int main(void) { int x; int *p = &x; n = (long)p; return 0; }`, true},
		{"integer_through_private_local", `
long n;
int main(void) { int x = 5; int *p = &x; long v = 7; n = (long)(void *)v + *p; return 0; }`, false},
		{"returned_pointer", `
long n;
int *id(int *p) { return p; }
int main(void) { int x; n = (long)id(&x); return 0; }`, true},
		{"union_pun", `
union u { int *p; long n; }; long n;
int main(void) { int x; volatile union u v; v.p = &x; n = v.n; return 0; }`, true},
		{"union_pun_through_global", `
union u { int *p; long n; }; union u g; long n;
int main(void) { int x; g.p = &x; n = g.n; return 0; }`, true},
		{"union_pun_bytes", `
union u { int *p; unsigned char c[8]; }; unsigned n;
int main(void) { int x; volatile union u v; v.p = &x; n = v.c[5]; return 0; }`, true},
		{"union_pun_in_heap_block", `
union u { int *p; long n; }; long n;
int main(void) { int x; union u *v = malloc(sizeof *v); v->p = &x; n = v->n; free(v); return 0; }`, true},
		{"type_pun", `
long n;
int main(void) { int x; int *volatile p = &x; n = *(volatile long *)&p; return 0; }`, true},
		{"memcpy_of_pointer_into_local_long", `
long n;
int main(void) { int x; int *p = &x; long k; memcpy(&k, &p, sizeof k); n = k; return 0; }`, true},
		{"memcpy_of_pointer_unread", `
int main(void) { int x; int *p = &x; long k; memcpy(&k, &p, sizeof k); return 0; }`, false},
		{"memcpy_of_pointer_twice", `
long n;
int main(void) { int x; int *p = &x; int *q; long k; memcpy(&q, &p, sizeof q); memcpy(&k, &q, sizeof k); n = k; return 0; }`, true},
		{"struct_copy_read_by_offset", `
struct s { int k; int *p; }; long n;
int main(void) { int x; struct s v = {1, &x}, w; w = v; n = *(long *)((char *)&w + 8); return 0; }`, true},
		{"struct_of_pointers_to_numbers", `
struct args { int *flag; int *turn; }; int n;
void *f(void *a) { struct args *s = a; *s->flag = 1; *s->turn = 0; n = *s->flag + *s->turn; return 0; }
int main(void) { int flag = 0, turn = 0; struct args s = {&flag, &turn}; pthread_t t;
  pthread_create(&t, 0, f, &s); pthread_join(t, 0); return flag + turn; }`, false},
		{"pointer_global_dereferenced", `
int *gp;
int main(void) { int x = 1; gp = &x; return *gp; }`, false},
		{"pointer_global_read_as_number", `
int *gp; long n;
int main(void) { int x = 1; gp = &x; n = *(long *)&gp; return 0; }`, true},
		{"global_number_holding_address", `
union u { int *p; long n; }; union u g;
int main(void) { int x; g.p = &x; return 0; }`, true},
		{"cmpxchg_of_pointers", `
int *top;
int main(void) { int x; int *old = top; __atomic_compare_exchange_n(&top, &old, &x, 0, 5, 5); return old != 0; }`,
			true}, // (clang lowers __atomic builtins on pointers to loads and a cmpxchg of i64: a number, conservatively)
		{"fetch_add_on_pointer_bytes", `
union u { int *p; long n; }; long n;
int main(void) { int x; union u v; v.p = &x; n = __atomic_fetch_add(&v.n, 1, 5); return 0; }`, true},
		{"pointer_through_unknown_call", `
long n;
void keep(int **pp, int *p) { *pp = p; }
void (*fp)(int **, int *) = keep;
int main(void) { int x; int *q; fp(&q, &x); n = *(long *)&q; return 0; }`, true},
		{"nondet_through_unprototyped_declaration", `
unsigned __VERIFIER_nondet_uint(); int arr[4];
void push(int *a, int x) { a[0] = x; }
int main(void) { int t = __VERIFIER_nondet_uint(); push(arr, t); return arr[0]; }`, false},
		{"nondet_pointer_stored_as_number", `
long __VERIFIER_nondet_long(void); long n;
int main(void) { long v = __VERIFIER_nondet_long(); int x = 1; int *p = &x; n = v + *p; return (int)n; }`, false},
		{"argc_stored", `
int main(int argc, char **argv) { int n = argc; return n + argv[0][0]; }`, false},
		{"union_of_integers", `
union u { int k; long n; }; long n;
int main(void) { int x = 2; volatile union u v; v.k = x; n = v.n; return 0; }`, false},
		{"returned_integer", `
long n;
int *mk(long v) { return (int *)v; }
int main(void) { int x = 1; n = (long)mk(x); return 0; }`, false},
		{"phi_select", `
long n; int c;
int main(void) { int x, y; int *p = c ? &x : &y; n = (long)p; return 0; }`, true},
		{"heap", `
long n;
int main(void) { int *p = malloc(4); n = (long)p; free(p); return 0; }`, true},
		{"memcpy_of_pointer", `
unsigned long n;
int main(void) { int x; int *p = &x; int *q[1]; q[0] = p; memcpy(&n, &q[0], sizeof p); return 0; }`, true},
		{"memcpy_of_integers", `
int a[4], b[4];
int main(void) { int x = 1; a[0] = x; memcpy(b, a, sizeof a); return b[0]; }`, false},
		{"indirect_call", `
long n;
void conv(int *p) { n = (long)p; }
void (*fp)(int *) = conv;
int main(void) { int x; fp(&x); return 0; }`, true},
		{"indirect_platform_call", `
long n;
void *(*alloc)(size_t) = malloc;
int main(void) { n = (long)alloc(4); return 0; }`, true},
		{"start_routine_through_pointer", `
long n;
void *conv(void *arg) { n = (long)arg; return 0; }
void *(*routine)(void *) = conv;
int main(void) { pthread_t t; int x; pthread_create(&t, 0, routine, &x); pthread_join(t, 0); return 0; }`, true},
		{"start_routine_through_pointer_integer", `
long n;
void *conv(void *arg) { n = (long)arg; return 0; }
void *(*routine)(void *) = conv;
int main(void) { pthread_t t; pthread_create(&t, 0, routine, (void *)4L); pthread_join(t, 0); return 0; }`, false},
		{"struct_returned_by_value_integer", `
struct s { int *p; long k; }; long n;
struct s mk(long p) { struct s v; v.p = (int *)p; v.k = 1; return v; }
int main(void) { struct s v = mk(8); n = (long)v.p; return 0; }`, false},
		{"struct_returned_by_value", `
struct s { int *p; long k; }; long n;
struct s mk(int *p) { struct s v; v.p = p; v.k = 1; return v; }
int main(void) { int x; struct s v = mk(&x); n = (long)v.p; return 0; }`, true},
		{"pthread_join_result", `
long n;
void *f(void *a) { int *p = malloc(4); return p; }
int main(void) { pthread_t t; void *r; pthread_create(&t, 0, f, 0); pthread_join(t, &r); n = (long)r; return 0; }`, true},
		{"pthread_join_integer_result", `
long n;
void *f(void *a) { return (void *)(long)a + 1; }
int main(void) { pthread_t t; void *r; int x; int *q = &x; *q = 1;
  pthread_create(&t, 0, f, (void *)2L); pthread_join(t, &r); n = (long)r; return 0; }`, false},
		{"thread_local", `
__thread int tl; long n;
void *f(void *a) { n = (long)&tl; return 0; }
int main(void) { pthread_t t; pthread_create(&t, 0, f, 0); pthread_join(t, 0); return 0; }`, true},
		{"pointer_order_of_locals", `
int n;
int main(void) { int x, y; int *p = &x, *q = &y; if (p < q) n = 1; return 0; }`, true},
		{"sprintf_of_address", `
char buf[32];
int main(void) { int x; sprintf(buf, "%p", (void *)&x); return buf[3]; }`, true},
		{"strtol_end_pointer", `
long n;
int main(void) { char s[4] = "12"; char *end; strtol(s, &end, 10); n = (long)end; return 0; }`, true},
		{"memset_of_local", `
struct s { int a, b; }; long n;
void *f(void *arg) { n = (long)arg; return 0; }
int main(void) { struct s v; memset(&v, 0, sizeof v); pthread_t t; pthread_create(&t, 0, f, (void *)(long)v.a); pthread_join(t, 0); return 0; }`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, tc.name+".c")
			if err := os.WriteFile(path, []byte(provHeader+tc.src+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			why := provenanceWhy(testutil.Program(t, path))
			if got := why != ""; got != tc.want {
				t.Errorf("seesBlockIDs = %v (%q), want %v", got, why, tc.want)
			}
		})
	}
}

// TestBuiltinEffectsKnown: every platform function is classified (a new one
// falls to the conservative default, and this test names it).
func TestBuiltinEffectsKnown(t *testing.T) {
	for b := ir.BNone + 1; b < ir.NumBuiltins; b++ {
		if _, known := builtinEffects(b); !known {
			t.Errorf("platform function %s (%d): no effects in builtinEffects", b, b)
		}
	}
}
