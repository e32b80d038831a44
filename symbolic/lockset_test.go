package symbolic

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/wyvernmc/wyvern/internal/testutil"
	"github.com/wyvernmc/wyvern/ir"
	"github.com/wyvernmc/wyvern/jobs"
	"github.com/wyvernmc/wyvern/query"
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
		{"after joins", `int x;
void *t(void *a) { pthread_mutex_lock(&m); x++; pthread_mutex_unlock(&m); return 0; }
int main(void) { pthread_t a, b; pthread_create(&a, 0, t, 0); pthread_create(&b, 0, t, 0); pthread_join(a, 0); pthread_join(b, 0); return x; }`, []string{"x"}},
		{"one thread joined", `int x;
void *t(void *a) { pthread_mutex_lock(&m); x++; pthread_mutex_unlock(&m); return 0; }
int main(void) { pthread_t a, b; pthread_create(&a, 0, t, 0); pthread_create(&b, 0, t, 0); pthread_join(a, 0); return x; }`, nil},
		{"id reused", `int x;
void *t(void *a) { pthread_mutex_lock(&m); x++; pthread_mutex_unlock(&m); return 0; }
int main(void) { pthread_t a; pthread_create(&a, 0, t, 0); pthread_create(&a, 0, t, 0); pthread_join(a, 0); return x; }`, nil},
		{"joins in a loop", `int x;
void *t(void *a) { pthread_mutex_lock(&m); x++; pthread_mutex_unlock(&m); return 0; }
int main(void) { pthread_t a[2]; for (int i = 0; i < 2; i++) pthread_create(&a[i], 0, t, 0); for (int i = 0; i < 2; i++) pthread_join(a[i], 0); return x; }`, nil},
		{"created by a thread", `int x;
void *u(void *a) { pthread_mutex_lock(&m); x++; pthread_mutex_unlock(&m); return 0; }
void *t(void *a) { pthread_t c; pthread_create(&c, 0, u, 0); return 0; }
int main(void) { pthread_t a; pthread_create(&a, 0, t, 0); pthread_join(a, 0); return x; }`, nil},
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

// TestLockReductionRounds: the reduction leaves out the switch points of
// protected accesses, so the complete check needs fewer rounds; a racy
// program keeps all its switch points. WYVERN_DRF_FILES (a list of C
// files, colon-separated) logs the rounds of other programs.
func TestLockReductionRounds(t *testing.T) {
	tests := []struct {
		name, src string
		fewer     bool  // the reduction removes switch points: fewer complete rounds
		drop      []int // else: the switch points it removes per thread (unlocks of a held mutex only)
	}{
		{"queue", `typedef struct { int v[3]; int n; } Q; Q q; int flag;
void put(Q *p, int x) { p->v[p->n] = x; p->n++; }
void *t1(void *a) { pthread_mutex_lock(&m); if (!flag) { for (int i = 0; i < 3; i++) put(&q, __VERIFIER_nondet_int()); flag = 1; } pthread_mutex_unlock(&m); return 0; }
void *t2(void *a) { pthread_mutex_lock(&m); if (flag && q.n != 3) reach_error(); pthread_mutex_unlock(&m); return 0; }
int main(void) { pthread_t a, b; pthread_create(&a, 0, t1, 0); pthread_create(&b, 0, t2, 0); pthread_join(a, 0); pthread_join(b, 0); return 0; }`, true, nil},
		{"racy", `int x, y;
void *t1(void *a) { pthread_mutex_lock(&m); x = 1; y = x + 1; pthread_mutex_unlock(&m); return 0; }
void *t2(void *a) { if (x == 1 && y != 2) reach_error(); return 0; }
int main(void) { pthread_t a, b; pthread_create(&a, 0, t1, 0); pthread_create(&b, 0, t2, 0); return 0; }`, false, []int{0, 1, 0}},
	}
	var files []string
	if f := os.Getenv("WYVERN_DRF_FILES"); f != "" {
		files = strings.Split(f, ":")
	}
	type prog struct {
		name  string
		p     *ir.Program
		fewer int // -1: log only
		drop  []int
	}
	var progs []prog
	for _, tc := range tests {
		fewer := 0
		if tc.fewer {
			fewer = 1
		}
		progs = append(progs, prog{tc.name, lockProgram(t, tc.name, lockHeader+tc.src), fewer, tc.drop})
	}
	for _, f := range files {
		progs = append(progs, prog{filepath.Base(f), testutil.Program(t, f), -1, nil})
	}
	for _, pr := range progs {
		t.Run(pr.name, func(t *testing.T) {
			unwind := 4
			rounds := func(off bool) (int, []int, int) {
				enc, err := Encode(pr.p, EncodeOptions{Unwind: unwind, Contexts: 1, NoLockReduction: off})
				if err != nil {
					t.Fatalf("encode: %v", err)
				}
				return enc.CompleteRounds, enc.Switches, enc.Terms
			}
			n0, s0, t0 := rounds(true)
			n1, s1, t1 := rounds(false)
			t.Logf("%s unwind %d: switch points %v -> %v, complete rounds %d -> %d (1-round terms %d -> %d); protected %v",
				pr.name, unwind, s0, s1, n0, n1, t0, t1, analyseDRF(pr.p).protectedGlobals())
			switch pr.fewer {
			case 1:
				if n1 >= n0 {
					t.Fatalf("complete rounds %d -> %d: want fewer", n0, n1)
				}
			case 0:
				for i := range s0 {
					if i >= len(s1) || i >= len(pr.drop) || s0[i]-s1[i] != pr.drop[i] {
						t.Fatalf("switch points %v -> %v: want %v removed (the racy accesses' kept)", s0, s1, pr.drop)
					}
				}
			}
		})
	}
}

// TestLockReductionDifferential compares the round-robin complete check
// with the lock-based reduction (RoundsOnly, Complete: the rounds that
// hold every schedule of the reduced switch points) with the explicit
// search on E<> Error: a proof never contradicts a reachable error, and a
// violation the search finds is found (racy programs keep the switch
// points their bugs need). With WYVERN_BMC_COMPLETE=1 it adds
// testdata/mt's and the threaded testdata/bmc programs (tens of minutes).
func TestLockReductionDifferential(t *testing.T) {
	if testing.Short() {
		t.Skip("complete round-robin checks: about 25 s")
	}
	type prog struct {
		name string
		p    *ir.Program
	}
	small := []struct{ name, src string }{
		{"lost_update", `int x;
void *t(void *a) { int v = x; x = v + 1; return 0; }
int main(void) { pthread_t a, b; pthread_create(&a, 0, t, 0); pthread_create(&b, 0, t, 0); pthread_join(a, 0); pthread_join(b, 0); if (x != 2) reach_error(); return 0; }`},
		{"one_side_locked", `int x;
void *t1(void *a) { pthread_mutex_lock(&m); int v = x; x = v + 1; pthread_mutex_unlock(&m); return 0; }
void *t2(void *a) { int v = x; x = v + 1; return 0; }
int main(void) { pthread_t a, b; pthread_create(&a, 0, t1, 0); pthread_create(&b, 0, t2, 0); pthread_join(a, 0); pthread_join(b, 0); if (x != 2) reach_error(); return 0; }`},
		{"different_locks", `int x;
void *t1(void *a) { pthread_mutex_lock(&m); int v = x; x = v + 1; pthread_mutex_unlock(&m); return 0; }
void *t2(void *a) { pthread_mutex_lock(&m2); int v = x; x = v + 1; pthread_mutex_unlock(&m2); return 0; }
int main(void) { pthread_t a, b; pthread_create(&a, 0, t1, 0); pthread_create(&b, 0, t2, 0); pthread_join(a, 0); pthread_join(b, 0); if (x != 2) reach_error(); return 0; }`},
		{"locked_counter", `int x;
void *t(void *a) { pthread_mutex_lock(&m); int v = x; x = v + 1; pthread_mutex_unlock(&m); return 0; }
int main(void) { pthread_t a, b; pthread_create(&a, 0, t, 0); pthread_create(&b, 0, t, 0); pthread_join(a, 0); pthread_join(b, 0); if (x != 2) reach_error(); return 0; }`},
		{"locked_flags", `int x, y;
void *t1(void *a) { pthread_mutex_lock(&m); x = 1; y = 1; pthread_mutex_unlock(&m); return 0; }
void *t2(void *a) { pthread_mutex_lock(&m); if (x != y) reach_error(); pthread_mutex_unlock(&m); return 0; }
int main(void) { pthread_t a, b; pthread_create(&a, 0, t1, 0); pthread_create(&b, 0, t2, 0); return 0; }`},
		{"unlocked_flags", `int x, y;
void *t1(void *a) { pthread_mutex_lock(&m); x = 1; pthread_mutex_unlock(&m); y = 1; return 0; }
void *t2(void *a) { pthread_mutex_lock(&m); if (x != y) reach_error(); pthread_mutex_unlock(&m); return 0; }
int main(void) { pthread_t a, b; pthread_create(&a, 0, t1, 0); pthread_create(&b, 0, t2, 0); return 0; }`},
		{"locked_input", `int q[2], n;
void *t1(void *a) { pthread_mutex_lock(&m); q[n] = __VERIFIER_nondet_int(); n++; pthread_mutex_unlock(&m); return 0; }
void *t2(void *a) { pthread_mutex_lock(&m); if (n > 1) reach_error(); pthread_mutex_unlock(&m); return 0; }
int main(void) { pthread_t a, b, c; pthread_create(&a, 0, t1, 0); pthread_create(&b, 0, t1, 0); pthread_create(&c, 0, t2, 0); return 0; }`},
		// a failing trylock sees t between its lock and its unlock: the
		// unlock is no left mover past it (a wrong not-satisfied before
		// 2026-11-28)
		{"trylock_sees_holder", `void *t(void *a) { pthread_mutex_lock(&m); pthread_mutex_unlock(&m); return 0; }
int main(void) { pthread_t a; pthread_create(&a, 0, t, 0); if (pthread_mutex_trylock(&m) != 0) reach_error(); return 0; }`},
		{"trylock_through_a_pointer", `void *t(void *a) { pthread_mutex_lock(&m); pthread_mutex_unlock(&m); return 0; }
void *u(void *a) { pthread_mutex_t *p = a; if (pthread_mutex_trylock(p) != 0) reach_error(); return 0; }
int main(void) { pthread_t a, b; pthread_create(&a, 0, t, 0); pthread_create(&b, 0, u, &m); return 0; }`},
	}
	all := os.Getenv("WYVERN_BMC_COMPLETE") != ""
	var progs []prog
	for _, s := range small {
		if s.name == "locked_counter" && !all {
			continue // 9 rounds: no answer within 20 s on a loaded 2-core machine
		}
		progs = append(progs, prog{s.name, lockProgram(t, s.name, lockHeader+s.src)})
	}
	if all {
		m, _ := filepath.Glob("../testdata/bmc/mt_*.c")
		m2, _ := filepath.Glob("../testdata/mt/*.c")
		for _, f := range append(m, m2...) {
			if !strings.HasSuffix(f, "once.c") {
				progs = append(progs, prog{filepath.Base(f), testutil.Program(t, f)})
			}
		}
	}
	for _, pr := range progs {
		t.Run(pr.name, func(t *testing.T) {
			exv, r := diffVerdicts(t, pr.p, jobs.BMCOptions{MaxUnwind: 4, SolverTimeoutS: 20, Complete: true, RoundsOnly: true})
			t.Logf("explicit %s; bmc %s (%s)", exv, r.Verdict, r.Reason)
			definite := func(v string) bool { return v == VerdictSatisfied || v == VerdictNotSatisfied }
			if definite(r.Verdict) && definite(exv) && r.Verdict != exv {
				t.Fatalf("bmc %s, explicit search %s", r.Verdict, exv)
			}
			if exv == VerdictSatisfied && r.Verdict != VerdictSatisfied && r.Verdict != VerdictUnknown && !strings.HasPrefix(pr.name, "mt_") {
				t.Fatalf("bmc %s: the violation the explicit search finds is lost", r.Verdict)
			}
		})
	}
}

// TestCompleteNarrowTarget: a round-robin context ends only before a
// switch point, so a thread cannot stop between a store another thread's
// violation needs and its own failing step (here a division by zero right
// after it): for a violation that is not every error, the round-robin
// complete check must not prove the program (it did before: a wrong
// not-satisfied where the explicit search finds the violation).
func TestCompleteNarrowTarget(t *testing.T) {
	p := lockProgram(t, "narrow", lockHeader+`int x;
void *t1(void *a) { int zero = 0; x = 1; int q = 1 / zero; return (void *)(long)q; }
void *t2(void *a) { if (x == 1) reach_error(); return 0; }
int main(void) { pthread_t a, b; pthread_create(&a, 0, t1, 0); pthread_create(&b, 0, t2, 0); return 0; }`)
	tests := []struct{ query, want string }{
		{"E<> Error(ReachError)", VerdictIncomplete},
		{"E<> Error", VerdictSatisfied},
	}
	for _, tc := range tests {
		t.Run(tc.query, func(t *testing.T) {
			q, err := query.Parse(tc.query)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			r, err := Check(ctx, p, q, jobs.BMCOptions{Unwind: 1, SolverTimeoutS: 30, Complete: true, RoundsOnly: true}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if r.Verdict != tc.want && r.Verdict != VerdictUnknown {
				t.Fatalf("%s (%s), want %s", r.Verdict, r.Reason, tc.want)
			}
		})
	}
}
