package explicit

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/wyvernmc/wyvern/vm"
)

// Step is one step of a trace: process Thread executes one instruction, and
// the choices that instruction makes (wyvern_coin, wyvern_uniform,
// __VERIFIER_nondet_*) receive the values Choices, in order, as returned by
// vm.Chooser.Choose.
type Step struct {
	Thread  int32    `json:"thread"`
	Choices []uint64 `json:"choices,omitempty"`
	// The step in words — the function, source location and LLVM
	// instruction about to run, and the values it loads, stores or passes
	// to a platform call — filled by srctrace.Describe when a result is
	// printed (check, submit); results as workers send them leave them
	// empty.
	Function    string      `json:"function,omitempty"`
	Loc         string      `json:"loc,omitempty"`
	Instruction string      `json:"instruction,omitempty"`
	Values      []StepValue `json:"values,omitempty"`
}

// StepValue is a load, a store or a platform call of a step (see Step).
type StepValue struct {
	Access string `json:"access"` // load, store, rmw (atomicrmw, cmpxchg: the value before) or call
	// Var names what was accessed: the C variable ("counter", "main::i",
	// "buf+8" at a byte offset, "mem#12+4" for memory without a name), or
	// for a call the function.
	Var string `json:"var"`
	// Value is the value loaded or stored (decimal, signed below 8 bytes;
	// "&x" for a pointer to x), or for a call its arguments.
	Value string `json:"value"`
}

// Trace is a run from the initial state: single steps (reduced transitions
// are expanded), whatever reduction found it, so it replays under the plain
// step semantics.
type Trace struct {
	Steps []Step `json:"steps"`
	// End describes the last state: "running" or why the run ended.
	End string `json:"end"`
}

func errNotEnabled(st *vm.State, tid int32) error {
	if st.Status != vm.Running {
		return fmt.Errorf("process %d cannot step: %s", tid, st.Describe())
	}
	return fmt.Errorf("process %d is not enabled", tid)
}

func errChoices(tid int32, have, used int, over bool) error {
	if over {
		return fmt.Errorf("process %d's step makes more choices than the %d recorded", tid, have)
	}
	return fmt.Errorf("process %d's step makes %d choices, %d recorded", tid, used, have)
}

// stepOnce executes one trace step on st (checking that the process may
// step, as the scheduler would let it) and ends the run if nobody can go on.
func stepOnce(m *vm.Machine, st *vm.State, s Step, en []int32) ([]int32, error) {
	en = m.EnabledThreads(st, en)
	if !slices.Contains(en, s.Thread) {
		return en, errNotEnabled(st, s.Thread)
	}
	ch := &replayChooser{vals: s.Choices}
	m.StepOnly(st, s.Thread, ch)
	if ch.over || ch.pos != len(s.Choices) {
		return en, errChoices(s.Thread, len(s.Choices), ch.pos, ch.over)
	}
	return m.Settle(st, en), nil
}

// Replay executes steps from the initial state of m and returns the states
// s0, s1, ..., sn. It fails, naming the step, when a process cannot step or
// the recorded choices do not match the steps.
func Replay(m *vm.Machine, steps []Step) ([]*vm.State, error) {
	st := m.NewState()
	m.Settle(st, nil)
	out := []*vm.State{st.Clone()}
	var en []int32
	for i, s := range steps {
		var err error
		if en, err = stepOnce(m, st, s, en); err != nil {
			return out, fmt.Errorf("explicit: replay step %d: %w", i+1, err)
		}
		out = append(out, st.Clone())
	}
	return out, nil
}

// ReplayFinal is Replay returning only the last state.
func ReplayFinal(m *vm.Machine, steps []Step) (*vm.State, error) {
	st := m.NewState()
	en := m.Settle(st, nil)
	for i, s := range steps {
		var err error
		if en, err = stepOnce(m, st, s, en); err != nil {
			return st, fmt.Errorf("explicit: replay step %d: %w", i+1, err)
		}
	}
	return st, nil
}

// WriteTrace replays steps and prints one line per step: step number,
// process, function, source location, the LLVM instruction about to run and
// the values its choices receive; then how the trace ends.
func WriteTrace(w io.Writer, m *vm.Machine, steps []Step) error {
	st := m.NewState()
	en := m.Settle(st, nil)
	for i, s := range steps {
		t := st.Thread(s.Thread)
		if t == nil || t.Done || len(t.Frames) == 0 {
			return fmt.Errorf("explicit: trace step %d: process %d has no next instruction", i+1, s.Thread)
		}
		fr := &t.Frames[len(t.Frames)-1]
		text := ""
		if int(fr.PC) < len(fr.Fn.Text) {
			text = fr.Fn.Text[fr.PC]
		}
		if j := strings.IndexByte(text, '\n'); j >= 0 {
			text = text[:j] + " ..."
		}
		if len(s.Choices) > 0 {
			text += fmt.Sprintf("   [choices %v]", s.Choices)
		}
		if _, err := fmt.Fprintf(w, "%6d  p%d  %-16s %-18s %s\n", st.Steps, t.ID, fr.Fn.Name, m.Loc(t), text); err != nil {
			return err
		}
		var err error
		if en, err = stepOnce(m, st, s, en); err != nil {
			return fmt.Errorf("explicit: trace step %d: %w", i+1, err)
		}
	}
	_, err := fmt.Fprintf(w, "end after %d steps: %s\n", st.Steps, describe(st))
	return err
}

// describe says in words where a trace ends.
func describe(st *vm.State) string {
	if st.Status == vm.Running {
		return "running"
	}
	return st.Describe()
}
