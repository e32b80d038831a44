package explicit

import (
	"context"
	"maps"
	"testing"

	"github.com/wyvernmc/wyvern/internal/testutil"
	"github.com/wyvernmc/wyvern/ir"
	"github.com/wyvernmc/wyvern/jobs"
	"github.com/wyvernmc/wyvern/simulator"
	"github.com/wyvernmc/wyvern/vm"
)

// TestEnumStatesAgree: simulation (EnumStatesSMC, the distinct states of R
// traces) and explicit-state search (EnumStates without reduction) count
// the same states on a program whose whole state space a few thousand
// traces cover: two threads waiting on one condition variable, where
// states that differ only in the waiters' order of arrival are different
// states (a fingerprint that ignored that order counted 191 of LODIN's
// 197). Under LODIN's platform (the longest waiter signalled) the set of
// fingerprints is also that of a breadth-first enumeration of the states;
// under POSIX's, exhaustive search takes every waiter a signal may wake
// and a spurious wakeup at every wait, and simulation samples both (a
// uniform waiter, spurious wakeups of probability 1/2), so they meet
// again on a larger space. The traces run to their end (no step bound is
// reached) and the count has stopped growing over the second half of the
// traces.
func TestEnumStatesAgree(t *testing.T) {
	testutil.NeedClang(t)
	prog, err := ir.Load("../testdata/mt/cond_order.c", ir.Options{OptLevel: 1})
	if err != nil {
		t.Fatal(err)
	}
	m := vm.NewMachine(prog)
	for _, tc := range []struct {
		name, search, smc string
		traces            uint64
		bfs               bool
	}{
		{"lodin", "EnumStates {Platform=lodin}", "EnumStatesSMC <=10000 2000 {Platform=lodin}", 2000, true},
		// (4000 traces miss one state, both signals lost and neither
		// waiter woken spuriously, main about to join: ~1e-4 a trace)
		{"posix", "EnumStates", "EnumStatesSMC <=10000 40000 {Spurious=0.5}", 40000, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := Search(context.Background(), compile(t, m, tc.search), Options{Reduction: None, MaxBytes: -1})
			if err != nil {
				t.Fatal(err)
			}
			if res.Verdict != Complete {
				t.Fatalf("EnumStates: %s (%s)", res.Verdict, res.Reason)
			}
			traces := tc.traces
			tr := simulator.NewTracer(compile(t, m, tc.smc))
			half := 0
			for i := range traces {
				out, _ := tr.Trace(1, i)
				if out.End == jobs.EndStepBound {
					t.Fatalf("trace %d reached the step bound", i)
				}
				if i+1 == traces/2 {
					half = tr.States.Len()
				}
			}
			smc := tr.States.Len()
			t.Logf("EnumStates %d states; EnumStatesSMC %d after %d traces, %d after %d", res.States, half, traces/2, smc, traces)
			if half != smc {
				t.Fatalf("EnumStatesSMC still grows (%d states after %d traces, %d after %d): simulation has not covered the state space", half, traces/2, smc, traces)
			}
			if int64(smc) != res.States {
				t.Fatalf("EnumStatesSMC counts %d states, EnumStates %d", smc, res.States)
			}
			if !tc.bfs {
				return
			}
			smcSet := map[vm.Hash128]struct{}{}
			for h := range tr.States.All() {
				smcSet[h] = struct{}{}
			}
			if bfs := bfsHashes(m); !maps.Equal(bfs, smcSet) {
				t.Fatalf("EnumStatesSMC's fingerprints differ from those of a breadth-first enumeration (%d states)", len(bfs))
			}
		})
	}
}

// bfsHashes enumerates the states of a program without probabilistic
// choices, under LODIN's platform (a nil Chooser draws no behaviour),
// breadth-first, single step by single step as EnumStates without
// reduction does, and returns their fingerprints.
func bfsHashes(m *vm.Machine) map[vm.Hash128]struct{} {
	s0 := m.NewState()
	m.Settle(s0, nil)
	seen := map[vm.Hash128]struct{}{s0.Hash(): {}}
	queue := []*vm.State{s0}
	var en []int32
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		if s.Status != vm.Running {
			continue
		}
		for _, tid := range m.EnabledThreads(s, nil) {
			n := new(vm.State)
			m.CopyInto(n, s)
			m.StepOnly(n, tid, nil)
			en = m.Settle(n, en)
			h := n.Hash()
			if _, ok := seen[h]; !ok {
				seen[h] = struct{}{}
				queue = append(queue, n)
			}
		}
	}
	return seen
}
