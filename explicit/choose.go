package explicit

import (
	"fmt"
	"strings"

	"github.com/wyvernmc/wyvern/ir"
	"github.com/wyvernmc/wyvern/vm"
)

// Choices inside a step. Every probabilistic or nondeterministic choice a
// step makes goes through vm.Chooser.Choose(n). A step is one instruction
// and only platform calls choose (wyvern_coin, wyvern_uniform,
// __VERIFIER_nondet_*), so before the step the vm tells from the
// instruction and its arguments which distribution it draws from
// (Machine.NextChoice, a vm.Choice defined once by the function's platform
// table entry). The scripted chooser enumerates the outcomes of the step's
// choices depth-first: it replays a prefix of values, records each new
// choice with its outcomes (vm.Choice.Outcomes and Outcome: the draws and
// their probabilities), and backtracks. For example wyvern_coin(num, den)
// has two outcomes, the draws 0 (probability num/den) and num; a nondet of
// width w has 2^w; wyvern_uniform(lo, hi) has hi-lo+1. A draw the vm did
// not announce (none is known) is taken as uniform over its range.
//
// A choice with more outcomes than Options.MaxBranching (default 1024: bool,
// char and unsigned char nondet and small uniform ranges pass; int, long
// and short nondet do not) is an error that names the function, process and
// source location: such inputs cannot be enumerated; use a narrower type or
// a small wyvern_uniform range, or raise MaxBranching. The exception is a
// nondet value that an assumption right after the call bounds (bounded.go):
// the values it admits and one it rejects are enumerated; and a nondet
// value that the program only copies and compares with constants
// (classes.go): the first value of each interval between the constants is
// enumerated (the fewer outcomes of the two where both apply). A coin's (at
// most) two outcomes are always enumerated.

// hint names the process whose next instruction may make the choices of
// a step: thread t of st, which the scripted chooser inspects (inspect)
// only when the step draws, which few do. The step runs on a copy of st
// (gen.expand), so st and t stay as they were before it.
type hint struct {
	m  *vm.Machine
	st *vm.State
	t  *vm.Thread
}

// hintFor returns the hint for thread t's next instruction in st.
func hintFor(m *vm.Machine, st *vm.State, t *vm.Thread) hint {
	return hint{m: m, st: st, t: t}
}

// inspection is what the hint's instruction tells of the choice it may
// make.
type inspection struct {
	done   bool      // inspected: the fields below are set
	fn     string    // the called platform function, "" when none
	choice vm.Choice // Kind NoChoice when none
	loc    ir.SrcLoc
}

// inspect sets c.in from the instruction c.h names, once per start.
func (c *scripted) inspect() {
	if c.in.done {
		return
	}
	h := &c.h
	c.in = inspection{done: true}
	if ch, ok := h.m.NextDraw(h.st, h.t, c.b); ok {
		c.in.fn, c.in.choice, c.in.loc = h.m.NextCallee(h.t), ch, h.m.Loc(h.t)
		if _, _, undef := h.m.UndefLoad(h.st, h.t); undef {
			c.in.fn = undefLoadName
		}
	}
}

// point is one choice of a step: its distribution, number of outcomes and
// the current one.
type point struct {
	c     vm.Choice
	count uint64 // number of outcomes
	idx   uint64 // current outcome
	// lim > 0: a Bits choice bounded by an assumption (bounded.go): the
	// outcomes are the values 0..lim-1 and lim, which stands for the
	// values lim..N-1 the assumption rejects (count = lim+1)
	lim uint64
	// cls != nil: a Bits choice enumerated by its input classes
	// (classes.go): the outcomes are the first values of the classes
	cls *classes
}

func (p *point) value() uint64 {
	if p.cls != nil {
		return p.cls.reps[p.idx]
	}
	if p.lim > 0 {
		return p.idx // < lim+1 <= N: Result gives it back
	}
	d, _ := p.c.Outcome(p.idx)
	return d
}

func (p *point) prob() float64 {
	if p.cls != nil {
		return p.cls.prob(int(p.idx))
	}
	if p.lim > 0 {
		n := float64(p.c.N)
		if p.idx < p.lim {
			return 1 / n
		}
		return (n - float64(p.lim)) / n
	}
	_, q := p.c.Outcome(p.idx)
	return q
}

// outcomesText writes the number of outcomes of c for BranchError.
func outcomesText(c vm.Choice) string {
	n := c.Outcomes()
	switch {
	case c.Kind == vm.Bits:
		return fmt.Sprintf("2^%d", c.Width())
	case n == 0:
		return "2^64"
	}
	return fmt.Sprint(n)
}

// BranchError reports a choice with too many outcomes to enumerate.
type BranchError struct {
	Func     string // the drawing function ("" if unknown)
	Process  int32
	Loc      string
	Outcomes string // e.g. "2^32"
	Max      uint64
}

func (e *BranchError) Error() string {
	f := e.Func
	if f == "" {
		f = "a platform function"
	}
	if f == undefLoadName {
		return fmt.Sprintf("explicit: process %d at %s reads memory that was never written (malloc's, or a local array's or struct's: C leaves it indeterminate): its value is an input, one of %s values; exhaustive search enumerates at most %d per choice (MaxBranching): write the memory first (or use calloc)",
			e.Process, e.Loc, e.Outcomes, e.Max)
	}
	if strings.HasPrefix(f, ir.UninitPrefix) {
		return fmt.Sprintf("explicit: process %d reads the local variable declared at %s before writing it: its value is an input (C leaves it indeterminate), one of %s values; exhaustive search enumerates at most %d per choice (MaxBranching): initialise the variable, or give it a __VERIFIER_nondet_ value of a narrower type",
			e.Process, e.Loc, e.Outcomes, e.Max)
	}
	return fmt.Sprintf("explicit: %s (process %d at %s) chooses among %s values; exhaustive search enumerates at most %d per choice (MaxBranching): use a narrower type (bool, char) or a small wyvern_uniform range",
		f, e.Process, e.Loc, e.Outcomes, e.Max)
}

// undefLoadName stands for the drawing function of a load that reads
// undefined bytes (vm/undef.go) in inspections and BranchError.
const undefLoadName = "(load of uninitialised memory)"

// scripted is the enumerating chooser. b are the behaviours of its runs:
// their draws are enumerated as the value choices' are.
type scripted struct {
	b    vm.Behaviours
	pts  []point
	pos  int
	h    hint
	in   inspection // of h
	max  uint64
	err  error
	vals []uint64
	// bounds are the nondet calls bounded by an assumption (bounded.go),
	// nil where the search may not use them
	bounds map[site]uint64
	// classes are the input classes of wide nondet calls (classes.go),
	// nil where the search may not use them
	classes map[site]*classes
}

// Behaviours implements vm.BehaviourChooser.
func (c *scripted) Behaviours() vm.Behaviours { return c.b }

// start prepares the enumeration of the choices of one step.
func (c *scripted) start(h hint, max uint64) {
	c.pts, c.pos, c.h, c.max, c.err = c.pts[:0], 0, h, max, nil
	c.in.done = false
}

// Choose implements vm.Chooser.
func (c *scripted) Choose(n uint64) uint64 {
	if c.pos < len(c.pts) {
		p := &c.pts[c.pos]
		c.pos++
		return p.value()
	}
	c.inspect()
	p := point{c: c.in.choice}
	if p.c.Kind == vm.NoChoice || p.c.Range() != n {
		p.c = vm.UniformDraw(n)
	}
	p.count = p.c.Outcomes()
	if p.c.Kind == vm.Bits && (p.count == 0 || p.count > c.max) {
		if lim := c.boundAt(c.h.t); lim > 0 && lim < c.max && (p.count == 0 || lim < p.count) {
			p.lim, p.count = lim, lim+1
		}
		// (a nondet call is a step's first and only choice, of the
		// call's width)
		if cl := c.classAt(c.h.t); cl != nil && len(c.pts) == 0 && int(cl.w) == p.c.Width() && uint64(len(cl.reps)) <= c.max && (p.count == 0 || uint64(len(cl.reps)) < p.count) {
			p.lim, p.cls, p.count = 0, cl, uint64(len(cl.reps))
		}
	}
	if p.c.Kind != vm.Coin && (p.count == 0 || p.count > c.max) {
		c.fail(outcomesText(p.c))
		return 0
	}
	c.pts = append(c.pts, p)
	c.pos++
	return p.value()
}

func (c *scripted) fail(outcomes string) {
	if c.err == nil {
		c.inspect()
		c.err = &BranchError{Func: c.in.fn, Process: c.h.t.ID, Loc: c.in.loc.String(), Outcomes: outcomes, Max: c.max}
	}
}

// begin restarts the replay before executing the step again.
func (c *scripted) begin() { c.pos = 0 }

// done trims choices the last execution did not reach and returns the
// values it used and their joint probability.
func (c *scripted) done() ([]uint64, float64) {
	c.pts = c.pts[:c.pos]
	c.vals = c.vals[:0]
	if len(c.pts) == 0 {
		return c.vals, 1 // most steps choose nothing
	}
	p := 1.0
	for i := range c.pts {
		c.vals = append(c.vals, c.pts[i].value())
		p *= c.pts[i].prob()
	}
	return c.vals, p
}

// next moves to the next combination of outcomes; false when exhausted.
func (c *scripted) next() bool {
	for len(c.pts) > 0 {
		last := &c.pts[len(c.pts)-1]
		last.idx++
		if last.idx < last.count {
			return true
		}
		c.pts = c.pts[:len(c.pts)-1]
	}
	return false
}

// noChoice is the chooser of invisible steps, which never choose.
type noChoice struct{ asked bool }

func (c *noChoice) Choose(uint64) uint64 { c.asked = true; return 0 }
