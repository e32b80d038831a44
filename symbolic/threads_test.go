package symbolic

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wyvernmc/wyvern/internal/testutil"
	"github.com/wyvernmc/wyvern/ir"
	"github.com/wyvernmc/wyvern/jobs"
	"github.com/wyvernmc/wyvern/query"
)

// TestThreads checks the threaded (round-robin) encoding alone
// (RoundsOnly: without the partial-order check that follows by default) on
// small programs whose answers depend on the round bound: a violation needs enough rounds and
// comes with a schedule that replays in the vm (Check fails otherwise);
// with fewer rounds, or on a safe program, the verdict is incomplete,
// never not-satisfied.
func TestThreads(t *testing.T) {
	tests := []struct {
		file, query string
		unwind      int
		contexts    int
		verdict     string
	}{
		{"mt_order.c", "E<> Error(AssertFail)", 1, 1, VerdictIncomplete}, // main returns first: the run ends
		{"mt_order.c", "E<> Error(AssertFail)", 1, 2, VerdictSatisfied},  // main yields before its return
		{"mt_back.c", "E<> Error(AssertFail)", 1, 1, VerdictIncomplete},
		{"mt_back.c", "E<> Error(AssertFail)", 1, 2, VerdictSatisfied},
		{"mt_back.c", "A[] !Error(AssertFail)", 1, 2, VerdictNotSatisfied}, // A[] violated
		{"mt_locked.c", "E<> Error", 1, 3, VerdictIncomplete},
		{"mt_join_result.c", "E<> Error(AssertFail)", 1, 2, VerdictSatisfied},
		{"mt_join_result.c", "E<> Error(AssertFail)", 1, 1, VerdictIncomplete}, // main must wait for T1
		{"mt_cond_wake.c", "E<> Error(AssertFail)", 1, 2, VerdictSatisfied},
		{"mt_cond_wake.c", "E<> Error(AssertFail)", 1, 1, VerdictIncomplete}, // main must wait before T1 signals
		{"mt_cond_bcast.c", "E<> Error(AssertFail)", 1, 2, VerdictSatisfied},
		{"mt_cond_other.c", "E<> Error(AssertFail)", 1, 3, VerdictIncomplete},
		{"mt_cond.c", "E<> Error", 2, 3, VerdictIncomplete},
		{"mt_input.c", "E<> Error(AssertFail)", 1, 2, VerdictSatisfied}, // an input and a schedule
		// pointers loaded from shared memory: a case split over the blocks
		{"mt_ptr_bug.c", "E<> Error(AssertFail)", 1, 2, VerdictSatisfied}, // a heap block of another thread
		{"mt_ptr_safe.c", "E<> Error", 1, 2, VerdictIncomplete},
		{"mt_ptr_global.c", "E<> Error(AssertFail)", 1, 2, VerdictSatisfied}, // a write into a global array
		{"mt_ptr_null.c", "E<> Error(NullDeref)", 1, 2, VerdictSatisfied},
		{"mt_ptr_null.c", "E<> Error(NullDeref)", 1, 1, VerdictIncomplete}, // main stores before T1 runs
		{"mt_ptr_uaf.c", "E<> Error(UseAfterFree)", 1, 2, VerdictSatisfied},
		// a thread created after a join: the vm reuses the joined one's id
		{"mt_rejoin.c", "E<> Error(AssertFail)", 1, 3, VerdictSatisfied},
		{"mt_rejoin.c", "E<> Error(AssertFail)", 1, 1, VerdictIncomplete},
	}
	for _, tc := range tests {
		t.Run(tc.file+"/"+tc.query, func(t *testing.T) {
			p := testutil.Program(t, filepath.Join("..", "testdata", "bmc", "encoder", tc.file))
			q, err := query.Parse(tc.query)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			r, err := Check(ctx, p, q, jobs.BMCOptions{Unwind: tc.unwind, Contexts: tc.contexts, SolverTimeoutS: 30, RoundsOnly: true}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if r.Verdict != tc.verdict {
				t.Fatalf("contexts %d: %s (%s), want %s", tc.contexts, r.Verdict, r.Reason, tc.verdict)
			}
			if r.Contexts != tc.contexts {
				t.Errorf("result says %d contexts, want %d", r.Contexts, tc.contexts)
			}
			if (r.Verdict == VerdictSatisfied) != strings.HasPrefix(tc.query, "A[]") {
				if len(r.Schedule) == 0 || r.Trace == nil {
					t.Fatalf("a violation without its schedule or trace: %+v", r)
				}
				threads := map[int32]bool{}
				for _, s := range r.Trace.Steps {
					threads[s.Thread] = true
				}
				if len(threads) < 2 {
					t.Errorf("the witness runs %d process(es), want the threads too", len(threads))
				}
			}
		})
	}
}

// TestThreadsRefused: what the threaded encoding does not handle is an
// error naming it, never a verdict.
func TestThreadsRefused(t *testing.T) {
	p := testutil.Program(t, filepath.Join("..", "testdata", "bmc", "encoder", "mt_once.c"))
	_, err := Encode(p, EncodeOptions{Unwind: 2, Contexts: 2})
	if err == nil || !strings.Contains(err.Error(), "pthread_once") || !strings.Contains(err.Error(), "not supported") {
		t.Fatalf("encode: %v, want pthread_once refused", err)
	}
}

// TestPrivateAllocas: a local whose address is only used by loads and
// stores is the thread's own; one passed to a call escapes.
func TestPrivateAllocas(t *testing.T) {
	p := testutil.Program(t, filepath.Join("..", "testdata", "bmc", "encoder", "mt_join_result.c"))
	var main *ir.Func
	for _, f := range p.Funcs {
		if f.Name == "main" {
			main = f
		}
	}
	priv := privateAllocas(main)
	var allocas, private int
	for pc, in := range main.Code {
		if in.Op == ir.OpAlloca {
			allocas++
			if priv[int32(pc)] {
				private++
			}
		}
	}
	// retval is private; p and r are passed to pthread_create/join
	if allocas != 3 || private != 1 {
		t.Fatalf("%d allocas, %d private; want 3 and 1", allocas, private)
	}
}

// TestMainArgs: main's argc is 1 as in the vm (a 0 would turn this
// reachable error into a wrong not-satisfied), with or without argv
// (TestMainArgv: argv itself).
func TestMainArgs(t *testing.T) {
	q, err := query.Parse("E<> Error")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"argc.c", "argv.c"} {
		p := testutil.Program(t, filepath.Join("..", "testdata", "bmc", "encoder", name))
		r, err := Check(context.Background(), p, q, jobs.BMCOptions{Unwind: 1}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if r.Verdict != VerdictSatisfied {
			t.Fatalf("%s: %s (%s), want satisfied", name, r.Verdict, r.Reason)
		}
	}
}
