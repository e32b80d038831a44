package symbolic

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/wyvernmc/wyvern/internal/testutil"
	"github.com/wyvernmc/wyvern/jobs"
	"github.com/wyvernmc/wyvern/query"
)

// TestPartialOrder checks the partial-order encoding on its own (not
// after the round-robin check, which finds these bugs first): each
// violation's schedule, derived from the clocks, replays in the vm (the
// check fails otherwise), and a safe program is proved.
func TestPartialOrder(t *testing.T) {
	tests := []struct {
		file, query string
		unwind      int
		verdict     string
		long        bool // about 20 s of z3: not under -short
	}{
		{"encoder/mt_order.c", "E<> Error(AssertFail)", 1, VerdictSatisfied, false},
		{"encoder/mt_back.c", "E<> Error(AssertFail)", 1, VerdictSatisfied, false},
		{"encoder/mt_join_result.c", "E<> Error(AssertFail)", 1, VerdictSatisfied, false},
		{"encoder/mt_input.c", "E<> Error(AssertFail)", 1, VerdictSatisfied, false}, // an input counter as a shared location
		{"mt_lost_update.c", "E<> Error(AssertFail)", 1, VerdictSatisfied, false},
		{"mt_join_wrong.c", "E<> Error(AssertFail)", 1, VerdictSatisfied, false},
		{"encoder/mt_locked.c", "E<> Error", 1, VerdictNotSatisfied, false},
		{"mt_mutex_counter_safe.c", "E<> Error", 2, VerdictNotSatisfied, true}, // a corpus line round-robin rounds leave incomplete
		{"mt_atomic_safe.c", "E<> Error", 1, VerdictNotSatisfied, true},        // another (__VERIFIER_atomic_ sections); needs narrowing
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			if tc.long && testing.Short() {
				t.Skip("long: about 20 s of z3")
			}
			p := testutil.Program(t, filepath.Join("..", "testdata", "bmc", tc.file))
			q, err := query.Parse(tc.query)
			if err != nil {
				t.Fatal(err)
			}
			target, err := query.BMCTarget(q)
			if err != nil {
				t.Fatal(err)
			}
			s, err := New("z3", Options{Timeout: 60 * time.Second})
			if err != nil {
				t.Skipf("z3: %v", err)
			}
			defer s.Close()
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			opts := EncodeOptions{Unwind: tc.unwind, Errors: target.Errors}
			if target.AnyError {
				opts.Errors = nil
			}
			res := &Result{}
			v, why, done, refusal, err := provePO(ctx, p, q, target, s, "z3", opts, res, nil)
			if err != nil {
				t.Fatal(err)
			}
			if refusal != "" {
				t.Fatalf("refused: %s", refusal)
			}
			if !done || v != tc.verdict {
				t.Fatalf("%s (%s, done %v), want %s", v, why, done, tc.verdict)
			}
			if v == VerdictSatisfied && (res.Trace == nil || len(res.Schedule) == 0) {
				t.Errorf("a violation without a replayed trace and schedule")
			}
		})
	}
}

// TestPartialOrderComplete: Check --complete proves a safe threaded
// program with the partial-order encoding.
func TestPartialOrderComplete(t *testing.T) {
	p := testutil.Program(t, filepath.Join("..", "testdata", "bmc", "encoder", "mt_locked.c"))
	q, err := query.Parse("E<> Error")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	r, err := Check(ctx, p, q, jobs.BMCOptions{Unwind: 1, Contexts: 3, Complete: true, SolverTimeoutS: 30}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r.Verdict != VerdictNotSatisfied {
		t.Fatalf("%s (%s), want not-satisfied", r.Verdict, r.Reason)
	}
	po := false
	for _, c := range r.Checks {
		po = po || c.PartialOrder
	}
	if !po {
		t.Errorf("no partial-order check in %+v", r.Checks)
	}
}
