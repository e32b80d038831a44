package explicit

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/wyvernmc/wyvern/query"
)

// TestThreadIDReuse checks pthread_create's reuse of a joined thread's id
// (vm.State.spawnThread) in the search, each program with a twin of the
// other verdict: a program that creates and joins a thread in a loop has
// finitely many states (a complete search, where fresh ids made the states
// count the rounds), its reachable error is still found, a second join of
// a joined thread is an error, a thread that finished detached keeps its
// id, and the join drops the thread's result as a leak root.
func TestThreadIDReuse(t *testing.T) {
	const head = "#include <pthread.h>\nextern int __VERIFIER_nondet_int(void);\nextern void reach_error(void);\n"
	const reach = "E<> Exists (p)([p.reach_error])"
	cases := []struct {
		name, src, query string
		want             Verdict
	}{
		{"loop_safe", `int x;
void *w(void *a) { x = !x; return 0; }
int main(void) { pthread_t t; while (__VERIFIER_nondet_int()) { pthread_create(&t, 0, w, 0); pthread_join(t, 0); if (x == 2) reach_error(); } return 0; }`,
			reach, NotSatisfied},
		{"loop_unsafe", `int x, y;
void *w(void *a) { x = !x; return 0; }
int main(void) { pthread_t t; while (__VERIFIER_nondet_int()) { pthread_create(&t, 0, w, 0); pthread_join(t, 0); if (x == 0 && y) reach_error(); y = 1; } return 0; }`,
			reach, Satisfied},
		{"loop_safe_no_error", `int x;
void *w(void *a) { x = !x; return 0; }
int main(void) { pthread_t t; while (__VERIFIER_nondet_int()) { pthread_create(&t, 0, w, 0); pthread_join(t, 0); } return 0; }`,
			"E<> Error", NotSatisfied},
		{"joined_twice", `void *w(void *a) { return 0; }
int main(void) { pthread_t t; pthread_create(&t, 0, w, 0); pthread_join(t, 0); pthread_join(t, 0); return 0; }`,
			"E<> Error", Satisfied},
		{"joined_once", `void *w(void *a) { return 0; }
int main(void) { pthread_t t; pthread_create(&t, 0, w, 0); pthread_join(t, 0); return 0; }`,
			"E<> Error", NotSatisfied},
		{"id_reused_after_join", `void *w(void *a) { return 0; }
int main(void) { pthread_t a, b; pthread_create(&a, 0, w, 0); pthread_join(a, 0); pthread_create(&b, 0, w, 0); pthread_join(b, 0); if (a == b) reach_error(); return 0; }`,
			reach, Satisfied},
		{"id_kept_while_not_joined", `void *w(void *a) { return 0; }
int main(void) { pthread_t a, b; pthread_create(&a, 0, w, 0); pthread_create(&b, 0, w, 0); pthread_join(a, 0); pthread_join(b, 0); if (a == b) reach_error(); return 0; }`,
			reach, NotSatisfied},
		{"detached_id_kept", `int done;
void *w(void *a) { done = 1; return 0; }
int main(void) { pthread_t a, b; pthread_attr_t at; pthread_attr_init(&at); pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
  pthread_create(&a, &at, w, 0); while (!done) ; pthread_create(&b, 0, w, 0); pthread_join(b, 0); if (a == b) reach_error(); return 0; }`,
			reach, NotSatisfied},
		{"result_lost_at_join", `#include <stdlib.h>
void *w(void *a) { return malloc(4); }
int main(void) { pthread_t t; pthread_create(&t, 0, w, 0); pthread_join(t, 0); return 0; }`,
			"E<> Error(MemLeak)", Satisfied},
		{"result_taken_at_join", `#include <stdlib.h>
void *w(void *a) { return malloc(4); }
int main(void) { pthread_t t; void *r; pthread_create(&t, 0, w, 0); pthread_join(t, &r); free(r); return 0; }`,
			"E<> Error(MemLeak)", NotSatisfied},
	}
	dir := t.TempDir()
	for _, c := range cases {
		path := filepath.Join(dir, c.name+".c")
		if err := os.WriteFile(path, []byte(head+c.src), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, o := range []struct {
			name string
			opts Options
		}{
			{"none", Options{MaxStates: 100000}},
			{"global_por", Options{Reduction: Global, POR: true, MaxStates: 100000}},
		} {
			t.Run(c.name+"/"+o.name, func(t *testing.T) {
				m := machine(t, path)
				q, err := query.Parse(c.query)
				if err != nil {
					t.Fatal(err)
				}
				m.Leaks = query.LeakChecksOf(q) // Error(MemLeak) asks for the leak checks
				res, err := Search(context.Background(), compile(t, m, c.query), o.opts)
				if err != nil {
					t.Fatalf("%s: %v", c.query, err)
				}
				if res.Verdict != c.want {
					t.Errorf("%s: %s (%s, %d states), want %s", c.query, res.Verdict, res.Reason, res.States, c.want)
				}
			})
		}
	}
}
