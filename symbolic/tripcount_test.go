package symbolic

import (
	"context"
	"fmt"
	"math/big"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wyvernmc/wyvern/ir"
	"github.com/wyvernmc/wyvern/jobs"
	"github.com/wyvernmc/wyvern/query"
)

// tripProgram is a threaded program: main creates a thread running thr
// and joins it; body is thr's, top more declarations (the functions thr
// calls), and mainBody runs in main after the join.
func tripProgram(top, body, mainBody string) string {
	return `#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
int g, x;
int *gp;
` + top + `
void *thr(void *arg) {
` + body + `
	return 0;
}
int main(void) {
	pthread_t t;
	x = __VERIFIER_nondet_int();
	pthread_create(&t, 0, thr, 0);
	pthread_join(t, 0);
` + mainBody + `
	return 0;
}
`
}

// TestStaticUnwind: the static trip counts of counted loops (tripcount.go)
// and the refusals; and, by the partial-order check itself, that the bound
// found is exactly the smallest at which no execution is cut (one less
// cuts one: every loop here can run its full count).
func TestStaticUnwind(t *testing.T) {
	tests := []struct {
		name, top, body, main string
		want                  int // 0: no static bound
		why                   string
	}{
		{"up_lt", "", "for (int i = 0; i < 5; i++) g++;", "", 5, ""},
		{"up_le", "", "for (int i = 1; i <= 5; i++) g++;", "", 5, ""},
		{"down_gt", "", "for (int i = 5; i > 0; i--) g++;", "", 5, ""},
		{"down_ge_step2", "", "for (int i = 5; i >= 0; i -= 2) g++;", "", 3, ""},
		{"ne_step2", "", "for (int i = 0; i != 6; i += 2) g++;", "", 3, ""},
		{"ne_misses", "", "for (int i = 0; i != 5; i += 2) g++;", "", 0, "wrap"},
		{"step3", "", "for (int i = 0; i < 10; i += 3) g++;", "", 4, ""},
		{"constant_left", "", "for (int i = 0; 4 > i; i++) g++;", "", 4, ""},
		{"unsigned", "", "for (unsigned u = 0; u < 4u; u++) g++;", "", 4, ""},
		{"while", "", "int i = 0; while (i < 3) { g++; i++; }", "", 3, ""},
		{"break", "", "for (int i = 0; i < 6; i++) { if (x == i) break; g++; }", "", 6, ""},
		{"not_entered", "", "for (int i = 9; i < 3; i++) g++;", "", 1, ""},
		{"nested", "", "for (int i = 0; i < 3; i++) for (int j = 0; j < 4; j++) g++;", "", 4, ""},
		{"call", "void work(void) { for (int k = 0; k < 7; k++) g++; }", "work(); work();", "", 7, ""},
		{"in_main", "", "g++;", "for (int i = 0; i < 2; i++) g++;", 2, ""},
		{"modified_in_body", "", "for (int i = 0; i < 5; i++) { if (x) i--; g++; }", "", 0, "twice"},
		{"escapes", "", "for (int i = 0; i < 5; i++) { gp = &i; g++; }", "", 0, "private"},
		{"escapes_to_call", "void touch(int *p) { *p = 0; }", "for (int i = 0; i < 5; i++) { touch(&i); g++; }", "", 0, "private"},
		{"nondet_bound", "", "int n = __VERIFIER_nondet_int(); for (int i = 0; i < n; i++) g++;", "", 0, "constant"},
		{"nondet_start", "", "int i = __VERIFIER_nondet_int(); for (; i < 5; i++) g++;", "", 0, "entry"},
		{"no_step", "", "int i = 0; while (i < 5) { g++; if (x) i++; }", "", 0, "does not step"},
		{"inner_step", "", "for (int i = 0; i < 5;) { for (int j = 0; j < 2; j++) i++; }", "", 0, "step"},
		{"recursion", "int rec(int n) { return n > 0 ? rec(n - 1) : 0; }", "g = rec(3);", "", 0, "recursion"},
		{"wraps", "", "for (int i = 2147483640; i <= 2147483647; i++) g++;", "", 0, "wrap"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := lockProgram(t, tc.name, tripProgram(tc.top, tc.body, tc.main))
			got, why, ok := staticUnwind(p, true)
			if !ok {
				got = 0
			}
			if got != tc.want || (tc.want == 0 && !strings.Contains(why, tc.why)) {
				t.Fatalf("static bound %d (%v, %q), want %d (%q)", got, ok, why, tc.want, tc.why)
			}
			if tc.want == 0 || testing.Short() {
				return
			}
			// the partial-order check: nothing cut at the bound, something
			// cut one below it
			q, target, s := poSetup(t, "E<> Error(AssertFail)")
			defer s.Close()
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			for _, k := range []int{got, got - 1} {
				if k < 1 || (k == got-1 && tc.name == "not_entered") {
					continue
				}
				opts := EncodeOptions{Unwind: k, Errors: target.Errors}
				v, why, done, refusal, err := provePO(ctx, p, q, target, s, "z3", opts, &Result{}, nil)
				if err != nil || refusal != "" {
					t.Fatalf("unwind %d: %v %s", k, err, refusal)
				}
				if done != (k == got) {
					t.Fatalf("unwind %d: done %v (%s: %s), want %v", k, done, v, why, k == got)
				}
			}
		})
	}
}

// TestIterations: the trip count formula at its edges (wrap around, the
// unsigned view, a step away from the bound).
func TestIterations(t *testing.T) {
	tests := []struct {
		a, k, s int64
		op      ir.Op
		w       uint8
		want    int // -1: no bound
	}{
		{0, 20, 1, ir.OpSlt, 32, 20},
		{0, 20, 1, ir.OpSle, 32, 21},
		{20, 0, -1, ir.OpSgt, 32, 20},
		{20, 0, -1, ir.OpSge, 32, 21},
		{0, 20, -1, ir.OpSlt, 32, -1},     // away from the bound
		{0, 127, 1, ir.OpSle, 8, -1},      // 127 <= 127 always: wraps
		{0, 126, 1, ir.OpSle, 8, 127},     // the last value, 127, leaves
		{0, 255, 1, ir.OpUle, 8, -1},      // unsigned: wraps too
		{250, 255, 2, ir.OpUlt, 8, -1},    // 250, 252, 254, then 256 wraps to 0 < 255
		{250, 254, 2, ir.OpUlt, 8, 2},     // 250, 252, then 254 leaves
		{0, 7, 2, ir.OpNe, 32, -1},        // never equal
		{10, 0, -5, ir.OpNe, 32, 2},       // 10, 5, 0
		{3, 3, 1, ir.OpEq, 32, 1},         // once
		{5, 5, 1, ir.OpSlt, 32, 0},        // not entered
		{0, 1 << 30, 1, ir.OpSlt, 32, -1}, // above maxTrip
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%d_%s_%d_by_%d_w%d", tc.a, tc.op, tc.k, tc.s, tc.w), func(t *testing.T) {
			n, ok := iterations(big.NewInt(tc.a), big.NewInt(tc.k), big.NewInt(tc.s), tc.op, tc.w)
			if !ok {
				n = -1
			}
			if n != tc.want {
				t.Fatalf("%d (%v), want %d", n, ok, tc.want)
			}
		})
	}
}

// TestDeepeningSchedule: the bounds the deepening tries, with and without
// a static bound.
func TestDeepeningSchedule(t *testing.T) {
	tests := []struct {
		max, static int
		want        []int
	}{
		{64, 0, []int{1, 2, 4, 8, 16, 32, 64}},
		{32, 20, []int{1, 2, 20, 32}},
		{64, 16, []int{1, 2, 16, 32, 64}},
		{64, 3, []int{1, 2, 3, 4, 8, 16, 32, 64}},
		{64, 1, []int{1, 2, 4, 8, 16, 32, 64}},
		{64, 64, []int{1, 2, 64}},
		{20, 20, []int{1, 2, 20}},
		{16, 11, []int{1, 2, 11, 16}},
		{64, 800, []int{1, 2, 4, 8, 16, 32, 64}}, // above the limit: no jump
		{1, 5, []int{1}},
	}
	for _, tc := range tests {
		if got := deepening(tc.max, tc.static); !slices.Equal(got, tc.want) {
			t.Errorf("deepening(%d, %d) = %v, want %v", tc.max, tc.static, got, tc.want)
		}
	}
}

// TestDeepeningJumps: Check on a threaded program whose loops run 5
// times tries unwind 1 and 2, then 5, where the partial-order check
// proves it; with the rounds alone (no partial-order check) the
// deepening doubles as before.
func TestDeepeningJumps(t *testing.T) {
	p := lockProgram(t, "jump", tripProgram("", "for (int i = 0; i < 5; i++) g++;", ""))
	q, err := query.Parse("E<> Error(AssertFail)")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	res, err := Check(ctx, p, q, jobs.BMCOptions{MaxUnwind: 16, Contexts: 1, Solver: "z3"}, nil)
	if err != nil {
		t.Skipf("z3: %v", err)
	}
	var unwinds []int
	for _, c := range res.Checks {
		unwinds = append(unwinds, c.Unwind)
	}
	if res.Verdict != VerdictNotSatisfied || !slices.Equal(unwinds, []int{1, 2, 5}) {
		t.Fatalf("%s (%s) after unwinds %v, want not-satisfied after 1, 2, 5", res.Verdict, res.Reason, unwinds)
	}
}
