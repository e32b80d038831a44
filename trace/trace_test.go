package trace_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/wyvernmc/wyvern/internal/testutil"
	"github.com/wyvernmc/wyvern/trace"
	"github.com/wyvernmc/wyvern/vm"
)

// TestReplayerChecksChoices: a replayed step gets the recorded values in
// order, and Check names a step that makes more or fewer choices.
func TestReplayerChecksChoices(t *testing.T) {
	r := trace.NewReplayer([]uint64{3, 5})
	if a, b := r.Choose(10), r.Choose(10); a != 3 || b != 5 {
		t.Fatalf("Choose gave %d, %d; want 3, 5", a, b)
	}
	if err := r.Check(1); err != nil {
		t.Fatalf("two choices of two recorded: %v", err)
	}
	r.Choose(10)
	if err := r.Check(1); err == nil || !strings.Contains(err.Error(), "more choices than the 2 recorded") {
		t.Fatalf("a third choice: %v", err)
	}
	r = trace.NewReplayer([]uint64{1, 2})
	r.Choose(2)
	if err := r.Check(4); err == nil || err.Error() != "process 4's step makes 1 choices, 2 recorded" {
		t.Fatalf("one choice of two recorded: %v", err)
	}
}

// record runs counter_race under seed's scheduler and returns its steps
// (it draws nothing but the scheduler's picks) and its final state.
func record(t *testing.T, m *vm.Machine, seed uint64) ([]trace.Step, *vm.State) {
	t.Helper()
	st := m.NewState()
	var steps []trace.Step
	m.Observe(st, 10000, vm.NewRand(seed, 0), func(_ *vm.State, th *vm.Thread) bool {
		if th != nil {
			steps = append(steps, trace.Step{Thread: th.ID})
		}
		return false
	})
	return steps, st
}

// TestReplayReproducesRuns: a recorded run replays to the same final
// state by Replay, ReplayFinal, Visit and Write; a step of a process
// that cannot move fails, naming the step.
func TestReplayReproducesRuns(t *testing.T) {
	m := vm.NewMachine(testutil.Program(t, "../testdata/mt/counter_race.c"))
	for seed := uint64(1); seed <= 3; seed++ {
		steps, want := record(t, m, seed)
		states, err := trace.Replay(m, steps)
		if err != nil {
			t.Fatalf("seed %d: Replay: %v", seed, err)
		}
		if len(states) != len(steps)+1 || states[len(steps)].Hash() != want.Hash() {
			t.Fatalf("seed %d: Replay gave %d states ending %s, want %d ending %s", seed, len(states),
				trace.End(states[len(states)-1]), len(steps)+1, trace.End(want))
		}
		final, err := trace.ReplayFinal(m, steps)
		if err != nil || final.Hash() != want.Hash() {
			t.Fatalf("seed %d: ReplayFinal ends %s (%v), want %s", seed, trace.End(final), err, trace.End(want))
		}
		visits := 0
		if _, err := trace.Visit(m, steps, func(*vm.State, *vm.Thread) { visits++ }); err != nil || visits != len(steps)+1 {
			t.Fatalf("seed %d: Visit saw %d states (%v), want %d", seed, visits, err, len(steps)+1)
		}
		var b bytes.Buffer
		if err := trace.Write(&b, m, steps); err != nil {
			t.Fatalf("seed %d: Write: %v", seed, err)
		}
		lines := strings.Split(strings.TrimSpace(b.String()), "\n")
		if len(lines) != len(steps)+1 || !strings.HasPrefix(lines[len(lines)-1], "end after ") {
			t.Fatalf("seed %d: Write printed %d lines ending %q, want %d and the end", seed, len(lines), lines[len(lines)-1], len(steps)+1)
		}
	}
	bad := []trace.Step{{Thread: 7}}
	if _, err := trace.ReplayFinal(m, bad); err == nil || !strings.Contains(err.Error(), "step 1: process 7 is not enabled") {
		t.Fatalf("a step of no process: %v", err)
	}
}
