package explicit

import (
	"fmt"

	"github.com/wyvernmc/wyvern/ir"
	"github.com/wyvernmc/wyvern/vm"
)

// Choices inside a step. Every probabilistic or nondeterministic choice a
// step makes goes through vm.Chooser.Choose(n). A step is one instruction
// and only platform calls choose (wyvern_coin, wyvern_uniform,
// __VERIFIER_nondet_*), so before the step we know from the instruction
// which function draws and with what arguments. The scripted chooser
// enumerates the outcomes of the step's choices depth-first: it replays a
// prefix of values, records the range of each new choice, and backtracks.
//
// Enumeration rule (what one choice may branch into):
//
//   - wyvern_coin(num, den) draws Choose(den) and compares with num: two
//     outcomes, value 0 with probability num/den and value num with
//     probability (den-num)/den (one outcome when num is 0 or den);
//   - __VERIFIER_nondet_T draws Choose(0) (64 random bits) masked to the
//     width w of T: 2^w outcomes of probability 2^-w;
//   - any other Choose(n), n > 0 (wyvern_uniform): n outcomes of probability
//     1/n.
//
// A choice with more outcomes than Options.MaxBranching (default 1024: bool,
// char and unsigned char nondet and small uniform ranges pass; int, long
// and short nondet do not) is an error that names the function, process and
// source location: such inputs cannot be enumerated (__VERIFIER_assume does
// not help, it filters after the draw); use a narrower type or a small
// wyvern_uniform range, or raise MaxBranching.

// hint describes the choice the next instruction of a process may make.
type hint struct {
	fn       string // the called platform function, "" when none
	builtin  ir.Builtin
	width    uint8 // nondet: result width in bits
	num, den uint64
	loc      ir.SrcLoc
	thread   int32
}

// hintFor inspects thread t's next instruction.
func hintFor(m *vm.Machine, t *vm.Thread) hint {
	h := hint{thread: t.ID}
	fn, in := m.Next(t)
	if in == nil {
		return h
	}
	var b ir.Builtin
	switch in.Op {
	case ir.OpCallB:
		b = ir.Builtin(in.B)
	case ir.OpCallInd:
		name := m.NextCallee(t)
		i, ok := m.Prog.FuncIdx[name]
		if !ok || !m.Prog.Funcs[i].External {
			return h
		}
		b = m.Prog.Funcs[i].Builtin
	default:
		return h
	}
	if b != ir.BNondet && b != ir.BCoin && b != ir.BUniform {
		return h
	}
	cs := &fn.Calls[in.Imm]
	r := t.Regs[t.Frames[len(t.Frames)-1].Base:]
	h.fn, h.builtin, h.loc = m.NextCallee(t), b, m.Loc(t)
	switch b {
	case ir.BNondet:
		h.width = cs.RetBits
		if h.width == 0 {
			h.width = 64
		}
	case ir.BCoin:
		if len(cs.Args) >= 2 {
			h.num, h.den = uint64(uint32(r[cs.Args[0]])), uint64(uint32(r[cs.Args[1]]))
		}
	}
	return h
}

// point is one choice of a step: its alternatives and the current one.
type point struct {
	n     uint64 // the range asked (0: 64 bits)
	count uint64 // number of alternatives
	idx   uint64 // current alternative
	coin  bool   // alternatives are {0, num}
	num   uint64
	den   uint64
	width uint8 // nondet width (n == 0)
}

func (p *point) value() uint64 {
	if p.coin && p.idx == 1 {
		return p.num
	}
	return p.idx
}

func (p *point) prob() float64 {
	switch {
	case p.coin:
		if p.count == 1 {
			return 1
		}
		if p.idx == 0 {
			return float64(p.num) / float64(p.den)
		}
		return float64(p.den-p.num) / float64(p.den)
	case p.n == 0:
		return 1 / float64(uint64(1)<<p.width)
	}
	return 1 / float64(p.n)
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
	return fmt.Sprintf("explicit: %s (process %d at %s) chooses among %s values; exhaustive search enumerates at most %d per choice (MaxBranching): use a narrower type (bool, char) or a small wyvern_uniform range",
		f, e.Process, e.Loc, e.Outcomes, e.Max)
}

// scripted is the enumerating chooser.
type scripted struct {
	pts  []point
	pos  int
	h    hint
	max  uint64
	err  error
	vals []uint64
}

// start prepares the enumeration of the choices of one step.
func (c *scripted) start(h hint, max uint64) {
	c.pts, c.pos, c.h, c.max, c.err = c.pts[:0], 0, h, max, nil
}

// Choose implements vm.Chooser.
func (c *scripted) Choose(n uint64) uint64 {
	if c.pos < len(c.pts) {
		p := &c.pts[c.pos]
		c.pos++
		return p.value()
	}
	p := point{n: n}
	h := &c.h
	switch {
	case h.builtin == ir.BCoin && n == h.den && n > 0:
		p.coin, p.num, p.den = true, h.num, h.den
		p.count = 2
		if h.num == 0 || h.num >= h.den {
			p.count = 1
		}
	case n == 0:
		w := h.width
		if h.builtin != ir.BNondet || w == 0 {
			w = 64
		}
		if w >= 64 || uint64(1)<<w > c.max {
			c.fail(fmt.Sprintf("2^%d", w))
			return 0
		}
		p.width, p.count = w, uint64(1)<<w
	default:
		if n > c.max {
			c.fail(fmt.Sprint(n))
			return 0
		}
		p.count = n
	}
	c.pts = append(c.pts, p)
	c.pos++
	return p.value()
}

func (c *scripted) fail(outcomes string) {
	if c.err == nil {
		c.err = &BranchError{Func: c.h.fn, Process: c.h.thread, Loc: c.h.loc.String(), Outcomes: outcomes, Max: c.max}
	}
}

// begin restarts the replay before executing the step again.
func (c *scripted) begin() { c.pos = 0 }

// done trims choices the last execution did not reach and returns the
// values it used and their joint probability.
func (c *scripted) done() ([]uint64, float64) {
	c.pts = c.pts[:c.pos]
	c.vals = c.vals[:0]
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

// replayChooser returns recorded values in order.
type replayChooser struct {
	vals []uint64
	pos  int
	over bool
}

func (c *replayChooser) Choose(uint64) uint64 {
	if c.pos >= len(c.vals) {
		c.over = true
		return 0
	}
	v := c.vals[c.pos]
	c.pos++
	return v
}
