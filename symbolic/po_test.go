package symbolic

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/wyvernmc/wyvern/internal/testutil"
	"github.com/wyvernmc/wyvern/ir"
	"github.com/wyvernmc/wyvern/jobs"
	"github.com/wyvernmc/wyvern/query"
)

// TestPartialOrder checks the partial-order encoding on its own (provePO,
// without Check's round-robin rounds): each
// violation's schedule, derived from the clocks, replays in the vm (the
// check fails otherwise), and a safe program is proved; with z3 (integer
// clocks) and, for the short cases, boolector (bitvector clocks) alike.
func TestPartialOrder(t *testing.T) {
	tests := []struct {
		file, query string
		unwind      int
		verdict     string
		long        bool // boolector (bitvector clocks) takes 5 to 25 CPU seconds: z3 alone (integer clocks, 0.2 to 0.5 s)
	}{
		{"encoder/mt_order.c", "E<> Error(AssertFail)", 1, VerdictSatisfied, false},
		{"encoder/mt_back.c", "E<> Error(AssertFail)", 1, VerdictSatisfied, false},
		{"encoder/mt_join_result.c", "E<> Error(AssertFail)", 1, VerdictSatisfied, false},
		{"encoder/mt_rejoin.c", "E<> Error(AssertFail)", 1, VerdictSatisfied, false}, // a thread created after a join: the vm reuses the joined one's id
		{"encoder/mt_input.c", "E<> Error(AssertFail)", 1, VerdictSatisfied, false},  // an input counter as a shared location
		{"mt_lost_update.c", "E<> Error(AssertFail)", 1, VerdictSatisfied, false},
		{"mt_join_wrong.c", "E<> Error(AssertFail)", 1, VerdictSatisfied, false},
		{"encoder/mt_locked.c", "E<> Error", 1, VerdictNotSatisfied, false},
		{"encoder/mt_spin_ok.c", "E<> Error", 1, VerdictNotSatisfied, false},     // a busy wait: the spin-loop reduction
		{"encoder/mt_spin_bug.c", "E<> Error", 1, VerdictSatisfied, false},       // the same wait, the stores swapped
		{"mt_mutex_counter_safe.c", "E<> Error", 2, VerdictNotSatisfied, true},   // a corpus line round-robin rounds leave incomplete
		{"mt_atomic_safe.c", "E<> Error", 1, VerdictNotSatisfied, true},          // another (__VERIFIER_atomic_ sections); needs narrowing
		{"encoder/mt_wait_ok.c", "E<> Error", 1, VerdictNotSatisfied, false},     // a wait loop: the wait-loop reduction
		{"encoder/mt_wait_bug.c", "E<> Error", 1, VerdictSatisfied, false},       // a violation after a reduced wait loop
		{"encoder/mt_wait_trylock.c", "E<> Error", 1, VerdictIncomplete, false},  // a trylock of the waited mutex: the reduction gives no proof
		{"mt_condvar_ok.c", "E<> Error", 2, VerdictNotSatisfied, true},           // two waiting consumers: wait loops, word locations, the mutex lemma
		{"mt_condvar_if.c", "E<> Error(AssertFail)", 1, VerdictSatisfied, false}, // found again with every wait signalled: the first model needs a spurious wakeup
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			p := testutil.Program(t, filepath.Join("..", "testdata", "bmc", tc.file))
			q, target, s := poSetup(t, tc.query)
			defer s.Close()
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			opts := EncodeOptions{Unwind: tc.unwind, Errors: target.Errors}
			if target.AnyError {
				opts.Errors = nil
			}
			provePOWant(ctx, t, p, q, target, s, opts, tc.verdict)
			if tc.long {
				return
			}
			// the same verdict from boolector, which gets bitvector clocks
			// where z3 got integers (encode_po.go)
			b, err := New("boolector", Options{Timeout: 60 * time.Second})
			if err != nil {
				t.Logf("boolector: %v", err)
				return
			}
			defer b.Close()
			vb, whyb, doneb, refb, err := provePO(ctx, p, q, target, b, "boolector", opts, &Result{}, nil)
			if err != nil || refb != "" || !doneb || vb != tc.verdict {
				t.Fatalf("boolector (bitvector clocks): %s (%s, done %v, refused %q, %v), z3 (integer clocks): %s", vb, whyb, doneb, refb, err, tc.verdict)
			}
		})
	}
}

// TestWaitLoop: which loops the wait-loop reduction takes
// (encode_wait.go), and a loop it does not take stays cut by the bound.
func TestWaitLoop(t *testing.T) {
	tests := []struct {
		file string
		wait bool
	}{
		{"mt_condvar_ok.c", true},          // while (count == 0) wait
		{"encoder/mt_wait_ok.c", true},     // while (!ready) wait
		{"encoder/mt_cond.c", true},        // the same in main
		{"encoder/mt_wait_count.c", false}, // the loop also stores
		{"encoder/mt_spin_ok.c", false},    // a busy wait: no wait call
		{"mt_mutex_counter_safe.c", false}, // loops that lock and unlock
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			p := testutil.Program(t, filepath.Join("..", "testdata", "bmc", tc.file))
			e := &encoder{p: p, graphs: map[int]*graph{}}
			loops, wait := 0, false
			for _, fn := range p.Funcs {
				if len(fn.Code) == 0 {
					continue
				}
				g, err := e.graphOf(fn)
				if err != nil {
					t.Fatal(err)
				}
				loops += len(g.endOf)
				wait = wait || len(e.waitSites(fn, g)) > 0
			}
			if loops == 0 {
				t.Fatal("no loop found")
			}
			if wait != tc.wait {
				t.Fatalf("a wait loop: %v, want %v", wait, tc.wait)
			}
		})
	}
	boundCuts(t, "mt_wait_count.c")
}

// TestPartialOrderComplete: Check --complete proves a safe threaded
// program with the partial-order encoding (the sequentialized proof,
// which proves it too, turned off).
func TestPartialOrderComplete(t *testing.T) {
	trySequential = false
	defer func() { trySequential = true }()
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

// TestStutterLoop: the spin-loop reduction (encode_spin.go) takes a busy
// wait that only loads, and leaves a loop whose iterations store (the
// counted wait of mt_spin_write.c, whose bug needs two turns of it: the
// partial-order check at unwind 1 must say the bound cuts an execution,
// not prove the program).
func TestStutterLoop(t *testing.T) {
	tests := []struct {
		file    string
		stutter bool
	}{
		{"encoder/mt_spin_ok.c", true},
		{"mt_peterson_ok.c", true},
		{"encoder/mt_spin_write.c", false},
		{"mt_mutex_counter_safe.c", false},
		{"loop_nested.c", false},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			p := testutil.Program(t, filepath.Join("..", "testdata", "bmc", tc.file))
			e := &encoder{p: p, graphs: map[int]*graph{}}
			loops, stutter := 0, false
			for _, fn := range p.Funcs {
				if len(fn.Code) == 0 {
					continue
				}
				g, err := e.graphOf(fn)
				if err != nil {
					t.Fatal(err)
				}
				for hp := range g.endOf {
					loops++
					stutter = stutter || e.stutterLoop(fn, g, hp)
				}
			}
			if loops == 0 {
				t.Fatal("no loop found")
			}
			if stutter != tc.stutter {
				t.Fatalf("a stutter loop: %v, want %v", stutter, tc.stutter)
			}
		})
	}
	boundCuts(t, "mt_spin_write.c")
}

// poSetup parses a query, takes its BMC target and opens z3 (the test is
// skipped without it).
func poSetup(t *testing.T, text string) (*query.Query, query.Target, Solver) {
	t.Helper()
	q, err := query.Parse(text)
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
	return q, target, s
}

// boundCuts checks that the partial-order check of the encoder test
// program file at unwind 1 is not done: a wait the reductions must not
// drop is cut by the bound.
func boundCuts(t *testing.T, file string) {
	t.Helper()
	p := testutil.Program(t, filepath.Join("..", "testdata", "bmc", "encoder", file))
	q, target, s := poSetup(t, "E<> Error")
	defer s.Close()
	res := &Result{}
	v, why, done, refusal, err := provePO(context.Background(), p, q, target, s, "z3", EncodeOptions{Unwind: 1}, res, nil)
	if err != nil || refusal != "" {
		t.Fatalf("%v %s", err, refusal)
	}
	if done {
		t.Fatalf("%s at unwind 1: %s (%s), want the bound to cut the wait", file, v, why)
	}
}

// provePOWant runs the partial-order check with z3 and fails t unless it
// decides, without refusing, with verdict want, a violation coming with
// its replayed trace and schedule.
func provePOWant(ctx context.Context, t *testing.T, p *ir.Program, q *query.Query, target query.Target, s Solver,
	opts EncodeOptions, want string) {
	t.Helper()
	res := &Result{}
	v, why, done, refusal, err := provePO(ctx, p, q, target, s, "z3", opts, res, nil)
	if err != nil {
		t.Fatal(err)
	}
	if refusal != "" {
		t.Fatalf("refused: %s", refusal)
	}
	if !done || v != want {
		t.Fatalf("%s (%s, done %v), want %s", v, why, done, want)
	}
	if v == VerdictSatisfied && (res.Trace == nil || len(res.Schedule) == 0) {
		t.Errorf("a violation without a replayed trace and schedule")
	}
}
