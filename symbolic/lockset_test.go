package symbolic

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/wyvernmc/wyvern/internal/testutil"
	"github.com/wyvernmc/wyvern/ir"
)

// lockProgram compiles a C program given as text.
func lockProgram(t *testing.T, name, src string) *ir.Program {
	t.Helper()
	testutil.NeedClang(t)
	path := filepath.Join(t.TempDir(), name+".c")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return testutil.Program(t, path)
}

const lockHeader = `#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
pthread_mutex_t m, m2;
`

// TestLockset: the lockset analysis finds the globals every concurrent
// access of which holds a common mutex, and only those.
func TestLockset(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string // protected globals (accessed outside main's single-threaded start)
	}{
		{"protected", `int x, y;
void *t(void *a) { pthread_mutex_lock(&m); x++; y = x; pthread_mutex_unlock(&m); return 0; }
int main(void) { pthread_t a, b; x = 1; pthread_create(&a, 0, t, 0); pthread_create(&b, 0, t, 0);
  pthread_mutex_lock(&m); if (x > 3) reach_error(); pthread_mutex_unlock(&m); return 0; }`, []string{"x", "y"}},
		{"unprotected", `int x, y;
void *t(void *a) { pthread_mutex_lock(&m); x++; pthread_mutex_unlock(&m); y = 2; return 0; }
int main(void) { pthread_t a; pthread_create(&a, 0, t, 0); pthread_mutex_lock(&m); y = x; pthread_mutex_unlock(&m); return 0; }`, []string{"x"}},
		{"different locks", `int x;
void *t1(void *a) { pthread_mutex_lock(&m); x++; pthread_mutex_unlock(&m); return 0; }
void *t2(void *a) { pthread_mutex_lock(&m2); x++; pthread_mutex_unlock(&m2); return 0; }
int main(void) { pthread_t a, b; pthread_create(&a, 0, t1, 0); pthread_create(&b, 0, t2, 0); return 0; }`, nil},
		{"before create", `int x, z;
void *t(void *a) { pthread_mutex_lock(&m); x++; pthread_mutex_unlock(&m); return 0; }
int main(void) { pthread_t a; x = 5; z = 1; pthread_create(&a, 0, t, 0); return 0; }`, []string{"x", "z"}},
		{"after create unprotected", `int x;
void *t(void *a) { pthread_mutex_lock(&m); x++; pthread_mutex_unlock(&m); return 0; }
int main(void) { pthread_t a; pthread_create(&a, 0, t, 0); x = 2; pthread_join(a, 0); return 0; }`, nil},
		{"through pointers", `typedef struct { int v[4]; int n; } Q; Q q;
void put(Q *p, int x) { p->v[p->n] = x; p->n++; }
void *t(void *a) { pthread_mutex_lock(&m); put(&q, __VERIFIER_nondet_int()); pthread_mutex_unlock(&m); return 0; }
int main(void) { pthread_t a, b; put(&q, 1); pthread_create(&a, 0, t, 0); pthread_create(&b, 0, t, 0); return 0; }`, []string{"q"}},
		{"pointer from shared memory", `int x; int *px = 0;
void *t(void *a) { pthread_mutex_lock(&m); x++; pthread_mutex_unlock(&m); return 0; }
int main(void) { pthread_t a; px = &x; pthread_create(&a, 0, t, 0); *px = 3; return 0; }`, nil},
		{"thread argument", `int x;
void *t(void *a) { int *p = a; pthread_mutex_lock(&m); (*p)++; pthread_mutex_unlock(&m); return 0; }
int main(void) { pthread_t a, b; pthread_create(&a, 0, t, &x); pthread_create(&b, 0, t, &x); return 0; }`, nil},
		{"lock through a pointer", `int x;
void *t(void *a) { pthread_mutex_t *l = a; pthread_mutex_lock(l); x++; pthread_mutex_unlock(l); return 0; }
int main(void) { pthread_t a; pthread_create(&a, 0, t, &m); pthread_mutex_lock(&m); x++; pthread_mutex_unlock(&m); return 0; }`, nil},
		{"trylock", `int x;
void *t(void *a) { if (pthread_mutex_trylock(&m) == 0) { x++; pthread_mutex_unlock(&m); } return 0; }
int main(void) { pthread_t a; pthread_create(&a, 0, t, 0); pthread_mutex_lock(&m); x++; pthread_mutex_unlock(&m); return 0; }`, nil},
		{"unlocked in a callee", `int x;
void rel(void) { pthread_mutex_unlock(&m); }
void *t(void *a) { pthread_mutex_lock(&m); rel(); x++; return 0; }
int main(void) { pthread_t a; pthread_create(&a, 0, t, 0); pthread_mutex_lock(&m); x++; pthread_mutex_unlock(&m); return 0; }`, nil},
		{"mutex re-initialised", `int x;
void *t(void *a) { pthread_mutex_lock(&m); x++; pthread_mutex_unlock(&m); return 0; }
int main(void) { pthread_t a; pthread_create(&a, 0, t, 0); pthread_mutex_init(&m, 0); pthread_mutex_lock(&m); x++; pthread_mutex_unlock(&m); return 0; }`, nil},
		{"one path without the lock", `int x;
void *t(void *a) { if (__VERIFIER_nondet_int()) pthread_mutex_lock(&m); x++; pthread_mutex_unlock(&m); return 0; }
int main(void) { pthread_t a, b; pthread_create(&a, 0, t, 0); pthread_create(&b, 0, t, 0); return 0; }`, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := lockProgram(t, strings.ReplaceAll(tc.name, " ", "_"), lockHeader+tc.src)
			d := analyseDRF(p)
			if d.reason != "" {
				t.Fatalf("no analysis: %s", d.reason)
			}
			var got []string
			for _, g := range d.protectedGlobals() {
				if g == "x" || g == "y" || g == "z" || g == "q" {
					got = append(got, g)
				}
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("protected %v, want %v", got, tc.want)
			}
		})
	}
}
