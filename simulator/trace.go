// Package simulator generates traces: one run of a program under the seeded
// scheduler, observed by a compiled query; and the handler of the trace job
// kind (TraceHandler), which runs a range of trace indices on a worker.
package simulator

import (
	"sync/atomic"

	"github.com/wyvernmc/wyvern/jobs"
	"github.com/wyvernmc/wyvern/query"
	"github.com/wyvernmc/wyvern/vm"
)

// Tracer runs traces of one compiled query. It is not safe for concurrent
// use; give each goroutine its own.
type Tracer struct {
	C      *query.Compiled
	rng    vm.Rand
	st     *vm.State        // reused from run to run
	States *StateSet        // EnumStatesSMC: distinct states seen
	fp     vm.Fingerprinter // EnumStatesSMC: State.Hash along a run
	// Interrupt, once true, stops the trace running (and those after it)
	// within a slice of steps (vm.State.Interrupt): its outcome is then
	// not the trace's and must be dropped. TraceHandler sets it when the
	// job's context ends.
	Interrupt atomic.Bool
}

// NewTracer returns a tracer for a compiled query.
func NewTracer(c *query.Compiled) *Tracer {
	t := &Tracer{C: c}
	t.rng.SetBehaviours(c.Q.Behaviours())
	if c.Q.Kind == query.EnumStatesSMC {
		t.States = new(StateSet)
	}
	return t
}

// Trace runs trace index of the experiment seed and returns its outcome and
// final state. The state is reused by the next call: clone it to keep it.
// For Pr queries the run stops at the first state satisfying the
// proposition (states s0..sN of a run of at most N steps are checked); for
// Estimate the run's max/min/avg of the expression over its states is the
// value; for EnumStatesSMC every state's hash is recorded.
func (tr *Tracer) Trace(seed, index uint64) (jobs.Outcome, *vm.State) {
	c := tr.C
	m := c.M
	tr.rng.Reset(seed, index)
	if tr.st == nil {
		tr.st = m.NewState()
	} else {
		m.Reset(tr.st)
	}
	st := tr.st
	st.Interrupt = &tr.Interrupt
	out := jobs.Outcome{Index: index}
	q := c.Q
	switch q.Kind {
	case query.Probability, query.Hypothesis:
		prop := c.Prop
		// The proposition is shown only the states where something it
		// reads can have changed: the others have its value at the last
		// state it saw, which was false (or the run would have stopped).
		out.Sat = m.ObserveWatch(st, q.Bound, &tr.rng, c.PropWatch, func(st *vm.State, _ *vm.Thread) bool { return prop(st) })
	case query.Estimate:
		// The expression is shown only the states where something it
		// reads can have changed; a state it is shown holds its value
		// for every state up to the next one shown (so many states
		// count for the average).
		expr := c.Expr
		var acc, n, last float64
		var lastSteps uint64
		add := func(x, w float64) {
			switch {
			case n == 0:
				acc = x * w
				if q.Agg != "avg" {
					acc = x
				}
			case q.Agg == "max":
				acc = max(acc, x)
			case q.Agg == "min":
				acc = min(acc, x)
			default:
				acc += x * w
			}
			n += w
		}
		seen := false
		m.ObserveWatch(st, q.Bound, &tr.rng, c.ExprWatch, func(st *vm.State, t *vm.Thread) bool {
			x := float64(expr(st))
			if seen {
				add(last, float64(max(1, st.Steps-lastSteps)))
			}
			seen, last, lastSteps = true, x, st.Steps
			if t == nil {
				add(x, 1) // the state the run ended in
			}
			return false
		})
		if q.Agg == "avg" {
			acc /= n
		}
		out.Value = acc
	case query.EnumStatesSMC:
		// Each state's fingerprint is its predecessor's updated with
		// the parts the step changed (the same value as st.Hash()).
		m.Observe(st, q.Bound, &tr.rng, func(st *vm.State, _ *vm.Thread) bool {
			tr.States.Add(tr.fp.Hash(st))
			return false
		})
	}
	out.Steps = st.Steps
	out.End = jobs.End(st.Status)
	return out, st
}
