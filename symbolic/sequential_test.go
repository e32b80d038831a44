package symbolic

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/wyvernmc/wyvern/internal/testutil"
	"github.com/wyvernmc/wyvern/jobs"
	"github.com/wyvernmc/wyvern/query"
	"github.com/wyvernmc/wyvern/vm"
)

// TestSequential: the sequentialized proof (sequential.go) takes exactly
// the programs whose threads run whole, proves the safe one, and leaves
// the buggy ones to the partial-order check, which finds their violations
// (TestCompleteDifferential checks the same programs against explicit
// search). The two refused programs are bugs that running the threads
// whole would hide.
func TestSequential(t *testing.T) {
	// SV-COMP's unreach-call as verify asks it: the error function's
	// calls and every error but abort's (and the leak checks')
	var kinds []string
	for _, name := range vm.ErrKindNames() {
		if k, _ := vm.ErrKindByName(name); k != vm.ErrAbort && vm.LeakChecksFor(k) == 0 {
			kinds = append(kinds, "Error("+name+")")
		}
	}
	unreach := "E<> Exists (p)([p.reach_error]) || " + strings.Join(kinds, " || ")
	for _, c := range []struct {
		file    string
		query   string // "": E<> Error
		refused string // sequentialPlan's reason, then runEnds' ("" : the premises hold)
		verdict string
		seq     bool // the verdict comes from the orders
	}{
		{"mt_seq_queue.c", "", "", VerdictNotSatisfied, true},
		{"mt_seq_queue.c", unreach, "", VerdictNotSatisfied, true},
		{"mt_seq_queue.c", "E<> Error(AssertFail)", "the violation leaves out error", VerdictNotSatisfied, false},
		{"mt_seq_three_bug.c", "", "", VerdictSatisfied, false},
		{"mt_seq_outside_bug.c", "", "a memory access outside the critical section", VerdictSatisfied, false},
		{"mt_seq_twice_bug.c", "", "a lock that is not of the one mutex, once", VerdictSatisfied, false},
		{"mt_seq_assume_bug.c", "", "__VERIFIER_assume may end the run", VerdictSatisfied, false},
		{"mt_seq_abort_bug.c", unreach, "abort may end the run", VerdictSatisfied, false},
		{"mt_seq_exit_bug.c", "", "exit may end the run", VerdictSatisfied, false},
		{"mt_seq_divzero_bug.c", "E<> Error(AssertFail)", "the violation leaves out error", VerdictSatisfied, false},
		{"mt_seq_tid_bug.c", "", "a pthread_t variable read after the joins", VerdictSatisfied, false},
		{"mt_join_two.c", "", "pthread_t variable", "", false},
	} {
		t.Run(c.file, func(t *testing.T) {
			p := testutil.Program(t, "../testdata/bmc/encoder/"+c.file)
			text := c.query
			if text == "" {
				text = "E<> Error"
			}
			q, err := query.Parse(text)
			if err != nil {
				t.Fatal(err)
			}
			target, err := query.BMCTarget(q)
			if err != nil {
				t.Fatal(err)
			}
			plan, why := sequentialPlan(p)
			if why == "" {
				why = plan.runEnds(target)
			}
			if c.refused == "" && why != "" || c.refused != "" && !strings.Contains(why, c.refused) {
				t.Fatalf("sequentialPlan, runEnds: %q, want %q", why, c.refused)
			}
			if c.verdict == "" {
				return
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
