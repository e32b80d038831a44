package symbolic

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/wyvernmc/wyvern/internal/testutil"
	"github.com/wyvernmc/wyvern/jobs"
	"github.com/wyvernmc/wyvern/query"
)

// TestSequential: the sequentialized proof (sequential.go) takes exactly
// the programs whose threads run whole, proves the safe one, and leaves
// the buggy ones to the partial-order check, which finds their violations
// (TestCompleteDifferential checks the same programs against explicit
// search). The two refused programs are bugs that running the threads
// whole would hide.
func TestSequential(t *testing.T) {
	for _, c := range []struct {
		file    string
		refused string // sequentialPlan's reason ("" : the premises hold)
		verdict string
		seq     bool // the verdict comes from the orders
	}{
		{"mt_seq_queue.c", "", VerdictNotSatisfied, true},
		{"mt_seq_three_bug.c", "", VerdictSatisfied, false},
		{"mt_seq_outside_bug.c", "a memory access outside the critical section", VerdictSatisfied, false},
		{"mt_seq_twice_bug.c", "a lock that is not of the one mutex, once", VerdictSatisfied, false},
		{"mt_join_two.c", "pthread_t variable", "", false},
	} {
		t.Run(c.file, func(t *testing.T) {
			p := testutil.Program(t, "../testdata/bmc/encoder/"+c.file)
			plan, why := sequentialPlan(p)
			if c.refused == "" && (plan == nil || why != "") || c.refused != "" && !strings.Contains(why, c.refused) {
				t.Fatalf("sequentialPlan: %q, want %q", why, c.refused)
			}
			if c.verdict == "" {
				return
			}
			q, err := query.Parse("E<> Error")
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			r, err := Check(ctx, p, q, jobs.BMCOptions{MaxUnwind: 4, SolverTimeoutS: 20}, nil)
			if err != nil {
				t.Fatal(err)
			}
			seq := strings.Contains(r.Reason, "sequentialized")
			if r.Verdict != c.verdict || seq != c.seq {
				t.Fatalf("%s (%s), want %s (from the orders: %v)", r.Verdict, r.Reason, c.verdict, c.seq)
			}
			orders := 0
			for _, b := range r.Checks {
				orders = max(orders, b.Order)
			}
			if want := map[bool]int{true: 2}[c.seq]; c.seq && orders != want {
				t.Fatalf("checks of %d orders, want %d", orders, want)
			}
		})
	}
}
