package vm_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wyvernmc/wyvern/ir"
	"github.com/wyvernmc/wyvern/vm"
)

// loadSource compiles a C program given as text at -O0.
func loadSource(t *testing.T, name, src string) *ir.Program {
	t.Helper()
	needClang(t)
	p := filepath.Join(t.TempDir(), name+".c")
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	prog, err := ir.Load(p, ir.Options{})
	if err != nil {
		t.Fatalf("load %s: %v", name, err)
	}
	return prog
}

// exploreAll visits every state reachable from the initial state by
// stepping any enabled process (an exhaustive search without reductions)
// and returns the distinct final states' descriptions and outputs.
func exploreAll(t *testing.T, m *vm.Machine, limit int) map[string]int {
	t.Helper()
	seen := map[vm.Hash128]bool{}
	finals := map[string]int{}
	stack := []*vm.State{m.NewState()}
	for len(stack) > 0 {
		st := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		h := st.Hash()
		if seen[h] {
			continue
		}
		seen[h] = true
		if len(seen) > limit {
			t.Fatalf("more than %d states", limit)
		}
		en := m.EnabledThreads(st, nil)
		if st.Status != vm.Running || len(en) == 0 {
			if st.Status == vm.Running {
				t.Fatalf("a running state with no enabled process")
			}
			finals[st.Describe()+": "+string(st.Out)]++
			continue
		}
		for _, tid := range en {
			c := st.Clone()
			if !m.Step(c, tid, vm.NewRand(1, 0)) {
				t.Fatalf("process %d is enabled but does not step", tid)
			}
			stack = append(stack, c)
		}
	}
	return finals
}

// TestSyncEnabledness checks semaphores, barriers and detached threads over
// every interleaving: a process blocked in sem_wait or pthread_barrier_wait
// is disabled until it may proceed (so the properties the programs assert
// hold in every final state), a barrier with too few processes and a
// semaphore nobody posts deadlock, joining a detached thread is an error.
func TestSyncEnabledness(t *testing.T) {
	cases := []struct {
		name, src string
		want      []string // every final state's description, each one at least once
	}{
		{"sem_orders", `#include <semaphore.h>
#include <pthread.h>
#include <stdio.h>
#include <assert.h>
sem_t s; int x;
void *w(void *a) { x = 1; sem_post(&s); return 0; }
int main(void) { pthread_t t; sem_init(&s, 0, 0); pthread_create(&t, 0, w, 0);
  sem_wait(&s); assert(x == 1); pthread_join(t, 0); printf("ok %d\n", sem_trywait(&s)); return 0; }`,
			[]string{"program exited with status 0: ok -1\n"}},
		{"sem_mutex", `#include <semaphore.h>
#include <pthread.h>
#include <stdio.h>
sem_t s; int in, most;
void *w(void *a) { sem_wait(&s); in++; most = in > most ? in : most; in--; sem_post(&s); return 0; }
int main(void) { pthread_t t; sem_init(&s, 0, 1); pthread_create(&t, 0, w, 0); w(0); pthread_join(t, 0);
  int v; sem_getvalue(&s, &v); printf("value %d most %d\n", v, most); return 0; }`,
			[]string{"program exited with status 0: value 1 most 1\n"}},
		{"sem_deadlock", `#include <semaphore.h>
sem_t s;
int main(void) { sem_init(&s, 0, 0); sem_wait(&s); return 0; }`,
			[]string{"deadlock: no process is enabled: "}},
		{"barrier", `#include <pthread.h>
#include <stdio.h>
#include <assert.h>
pthread_barrier_t b; int arrived[2], serial[2];
void *w(void *a) { int id = a != 0; arrived[id] = 1; int r = pthread_barrier_wait(&b);
  assert(arrived[0] && arrived[1]); serial[id] = r == PTHREAD_BARRIER_SERIAL_THREAD; assert(serial[id] || r == 0); return 0; }
int main(void) { pthread_t t; pthread_barrier_init(&b, 0, 2); pthread_create(&t, 0, w, (void *)1);
  w(0); pthread_join(t, 0); printf("serial %d\n", serial[0] + serial[1]); return pthread_barrier_destroy(&b); }`,
			[]string{"program exited with status 0: serial 1\n"}},
		{"barrier_short", `#include <pthread.h>
pthread_barrier_t b;
void *w(void *a) { pthread_barrier_wait(&b); return 0; }
int main(void) { pthread_t t; pthread_barrier_init(&b, 0, 3); pthread_create(&t, 0, w, 0);
  pthread_barrier_wait(&b); return 0; }`,
			[]string{"deadlock: no process is enabled: "}},
		{"join_detached", `#include <pthread.h>
void *w(void *a) { return 0; }
int main(void) { pthread_t t; pthread_attr_t at; pthread_attr_init(&at);
  pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
  pthread_create(&t, &at, w, 0); pthread_join(t, 0); return 0; }`,
			[]string{"error: "}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := vm.NewMachine(loadSource(t, tc.name, tc.src))
			finals := exploreAll(t, m, 200000)
			for f := range finals {
				ok := false
				for _, w := range tc.want {
					if strings.HasPrefix(f, w) {
						ok = true
					}
				}
				if !ok {
					t.Errorf("final state %q, want one of %q", f, tc.want)
				}
			}
			if len(finals) == 0 {
				t.Error("no final state")
			}
		})
	}
}

// TestLibcErrors: bad arguments and misuse are error states naming the
// function, never Go panics.
func TestLibcErrors(t *testing.T) {
	cases := []struct {
		name, src string
		kind      vm.ErrKind
		detail    string
	}{
		{"join_detached", `#include <pthread.h>
void *w(void *a) { return 0; }
int main(void) { pthread_t t; pthread_create(&t, 0, w, 0); pthread_detach(t); pthread_join(t, 0); return 0; }`,
			vm.ErrPthread, "detached"},
		{"qsort_comparator_null", `#include <stdlib.h>
static int cmp(const void *a, const void *b) { int *p = 0; return *p; }
int main(void) { int a[3] = {3, 1, 2}; qsort(a, 3, sizeof a[0], cmp); return a[0]; }`,
			vm.ErrNullDeref, ""},
		{"qsort_bad_array", `#include <stdlib.h>
static int cmp(const void *a, const void *b) { return 0; }
int main(void) { int a[3]; qsort(a, 4, sizeof a[0], cmp); return 0; }`,
			vm.ErrOutOfBounds, "qsort"},
		{"fprintf_stream", `#include <stdio.h>
int main(void) { int x; fprintf((FILE *)&x, "hi"); return 0; }`,
			vm.ErrBadArg, "neither stdout nor stderr"},
		{"strtol_base", `#include <stdlib.h>
int main(void) { return (int)strtol("12", 0, 99); }`,
			vm.ErrBadArg, "base 99"},
		{"sscanf_long_double", `#include <stdio.h>
int main(void) { double d; return sscanf("1.5", "%Lf", &d); }`,
			vm.ErrBadArg, "long double"},
		{"sprintf_overflow", `#include <stdio.h>
int main(void) { char b[4]; sprintf(b, "%d", 123456); return b[0]; }`,
			vm.ErrOutOfBounds, "sprintf"},
		{"barrier_uninit", `#include <pthread.h>
pthread_barrier_t b;
int main(void) { return pthread_barrier_wait(&b); }`,
			vm.ErrPthread, "not initialised"},
		{"key_destructor", `#include <pthread.h>
#include <stdio.h>
static void bye(void *v) { printf("bye\n"); }
int main(void) { pthread_key_t k; return pthread_key_create(&k, bye); }`,
			vm.ErrBadArg, "destructors"},
		{"strcat_overflow", `#include <string.h>
int main(void) { char b[6] = "abc"; strcat(b, "defg"); return b[0]; }`,
			vm.ErrOutOfBounds, "strcat"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := vm.NewMachine(loadSource(t, tc.name, tc.src))
			st := runTrace(m, 1, 0)
			if st.Status != vm.Failed || st.Err == nil || st.Err.Kind != tc.kind || !strings.Contains(st.Err.Error(), tc.detail) {
				t.Fatalf("%s; want error %s mentioning %q", st.Describe(), tc.kind, tc.detail)
			}
		})
	}
}
