package explicit

import (
	"fmt"

	"github.com/wyvernmc/wyvern/vm"
)

// Visit replays steps from the initial state of m like ReplayFinal and
// shows visit each state a step is taken from, with the process that takes
// it, then the final state with a nil process (as vm.Machine.Observe shows
// a run). It returns the final state; it fails, naming the step, when a
// process cannot step or the recorded choices do not match.
func Visit(m *vm.Machine, steps []Step, visit func(st *vm.State, t *vm.Thread)) (*vm.State, error) {
	st := m.NewState()
	en := m.Settle(st, nil)
	for i, s := range steps {
		t := st.Thread(s.Thread)
		if t == nil || t.Done || len(t.Frames) == 0 {
			return st, fmt.Errorf("explicit: trace step %d: process %d has no next instruction", i+1, s.Thread)
		}
		visit(st, t)
		var err error
		if en, err = stepOnce(m, st, s, en); err != nil {
			return st, fmt.Errorf("explicit: trace step %d: %w", i+1, err)
		}
	}
	visit(st, nil)
	return st, nil
}
