// Package trace is the one home of runs as data: a Trace is a run from the
// initial state as a list of Steps (the process that moves and the values
// its choices receive), the counterexample and witness shape every engine
// reports (explicit search, BMC, simulation, SV-COMP witnesses). The
// package records runs (Recorder) and replays them (Replayer, Replay,
// ReplayFinal, Visit, Write) under the plain step semantics of vm.
//
// It sits just above vm and below every engine, so that engines, srctrace,
// svcomp and the binary share one definition and one replay loop.
package trace

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
// are expanded), whatever engine or reduction found it, so it replays
// under the plain step semantics. It is every engine's counterexample and
// witness.
type Trace struct {
	Steps []Step `json:"steps"`
	// End describes the last state: "running" or why the run ended.
	End string `json:"end"`
}

// End says in words where a run ends: "running", or why it ended.
func End(st *vm.State) string {
	if st.Status == vm.Running {
		return "running"
	}
	return st.Describe()
}

// Replayer is the chooser of a recorded step: it returns the recorded
// values in order (vm.Chooser) and replays the behaviours its draws show
// (vm.BehaviourChooser).
type Replayer struct {
	vals []uint64
	pos  int
	over bool
}

// NewReplayer returns a chooser handing out vals in order.
func NewReplayer(vals []uint64) *Replayer { return &Replayer{vals: vals} }

// Behaviours implements vm.BehaviourChooser: a recorded step replays the
// behaviours its draws show (vm.ReplayBehaviours).
func (c *Replayer) Behaviours() vm.Behaviours {
	return vm.ReplayBehaviours(c.pos < len(c.vals))
}

// Choose implements vm.Chooser.
func (c *Replayer) Choose(uint64) uint64 {
	if c.pos >= len(c.vals) {
		c.over = true
		return 0
	}
	v := c.vals[c.pos]
	c.pos++
	return v
}

// Used is the number of values handed out; Over tells whether a choice was
// asked for beyond the recorded ones.
func (c *Replayer) Used() int   { return c.pos }
func (c *Replayer) Over() bool  { return c.over }
func (c *Replayer) Exact() bool { return !c.over && c.pos == len(c.vals) }

// Check says, for process tid's step, whether the step used exactly the
// recorded values (nil) or how it did not.
func (c *Replayer) Check(tid int32) error {
	if c.Exact() {
		return nil
	}
	if c.over {
		return fmt.Errorf("process %d's step makes more choices than the %d recorded", tid, len(c.vals))
	}
	return fmt.Errorf("process %d's step makes %d choices, %d recorded", tid, c.pos, len(c.vals))
}

// Recorder is a chooser that draws from a generator and records the draws
// (the values a simulated run's steps receive, for its Trace).
type Recorder struct {
	R     *vm.Rand
	Draws []uint64
}

// Behaviours implements vm.BehaviourChooser: the generator's.
func (c *Recorder) Behaviours() vm.Behaviours { return c.R.Behaviours() }

// Choose implements vm.Chooser.
func (c *Recorder) Choose(n uint64) uint64 {
	v := c.R.Choose(n)
	c.Draws = append(c.Draws, v)
	return v
}

// NotEnabled is the error of a recorded step of process tid that cannot be
// taken from st.
func NotEnabled(st *vm.State, tid int32) error {
	if st.Status != vm.Running {
		return fmt.Errorf("process %d cannot step: %s", tid, st.Describe())
	}
	return fmt.Errorf("process %d is not enabled", tid)
}

// StepOnce executes one trace step on st (checking that the process may
// step, as the scheduler would let it, and that it makes exactly the
// recorded choices) and ends the run if nobody can go on. en is the
// enabled processes' buffer, returned for reuse.
func StepOnce(m *vm.Machine, st *vm.State, s Step, en []int32) ([]int32, error) {
	en = m.EnabledThreads(st, en)
	if !slices.Contains(en, s.Thread) {
		return en, NotEnabled(st, s.Thread)
	}
	ch := NewReplayer(s.Choices)
	m.StepOnly(st, s.Thread, ch)
	if err := ch.Check(s.Thread); err != nil {
		return en, err
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
		if en, err = StepOnce(m, st, s, en); err != nil {
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
		if en, err = StepOnce(m, st, s, en); err != nil {
			return st, fmt.Errorf("explicit: replay step %d: %w", i+1, err)
		}
	}
	return st, nil
}

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
		if en, err = StepOnce(m, st, s, en); err != nil {
			return st, fmt.Errorf("explicit: trace step %d: %w", i+1, err)
		}
	}
	visit(st, nil)
	return st, nil
}

// Write replays steps and prints one line per step: step number, process,
// function, source location, the LLVM instruction about to run and the
// values its choices receive; then how the trace ends (the IR view of
// `wyvern replay --trace ir`).
func Write(w io.Writer, m *vm.Machine, steps []Step) error {
	var werr error
	i := 0
	st, err := Visit(m, steps, func(st *vm.State, t *vm.Thread) {
		if t == nil || werr != nil {
			return
		}
		fr := &t.Frames[len(t.Frames)-1]
		text := ""
		if int(fr.PC) < len(fr.Fn.Text) {
			text = fr.Fn.Text[fr.PC]
		}
		if j := strings.IndexByte(text, '\n'); j >= 0 {
			text = text[:j] + " ..."
		}
		if cs := steps[i].Choices; len(cs) > 0 {
			text += fmt.Sprintf("   [choices %v]", cs)
		}
		i++
		_, werr = fmt.Fprintf(w, "%6d  p%d  %-16s %-18s %s\n", st.Steps, t.ID, fr.Fn.Name, m.Loc(t), text)
	})
	if werr != nil {
		return werr
	}
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "end after %d steps: %s\n", st.Steps, End(st))
	return err
}
