package query

import (
	"fmt"
	"slices"
	"strings"

	"github.com/wyvernmc/wyvern/ir"
	"github.com/wyvernmc/wyvern/vm"
)

// Compiled holds a query's propositions and expressions compiled against a
// program. It is not safe for concurrent use: compile one per goroutine.
type Compiled struct {
	Q    *Query
	M    *vm.Machine
	Prop func(st *vm.State) bool  // nil when the query has no proposition
	Expr func(st *vm.State) int64 // nil when the query has no expression
	// Importance splitting: the score expression and the level
	// propositions, when the query has them.
	Score  func(st *vm.State) int64
	Levels []func(st *vm.State) bool
	// Reads is what the compiled propositions and expressions read.
	Reads Reads
	// PropWatch and ExprWatch name what Prop and Expr read, for
	// vm.ObserveWatch: a run need not show them the states where none of
	// it can have changed.
	PropWatch vm.Watch
	ExprWatch vm.Watch
	// SplitWatch names what Prop, Score and Levels read together (what
	// importance splitting's score function reads).
	SplitWatch vm.Watch
	watch      vm.Watch // what the part being compiled reads
	// Processes are the process numbers the query names literally ([2.f],
	// @1.f.%x), in the order they are compiled (Exists-bound ones are not).
	Processes []int32
	env       []int32 // values of Exists-bound process variables
}

// Read is a part of a state that a query can read, as a bit set.
type Read uint16

// Parts of a state.
const (
	ReadRegisters Read = 1 << iota // @i.f.%r: a register of a process's current activation of f
	ReadLocals                     // f::x: a local variable of the first process running f
	ReadGlobals                    // x: a global variable
	ReadCalls                      // [i.f]: whether process i is enabled and about to call f
	ReadLines                      // [i.f:L]: the source line process i executes
	ReadDivZero                    // DivZero: the next instruction of every enabled process
	ReadOverflows                  // OverFlows: the next instruction of every enabled process
	ReadDataRace                   // DataRace: the next memory accesses of the enabled processes
	ReadDeadlock                   // Deadlock: whether the run ended in a deadlock
	ReadError                      // Error, Error(kind): whether (and how) the run ended in an error
	ReadProcesses                  // Exists (p): the set of processes
	ReadExit                       // Exited, Exited == c: whether (and with which status) the program exited
)

var readNames = [...]string{"registers", "locals", "globals", "calls", "lines", "DivZero", "OverFlows",
	"DataRace", "Deadlock", "Error", "processes", "Exited"}

func (r Read) String() string {
	var names []string
	for i, n := range readNames {
		if r&(1<<i) != 0 {
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		return "nothing"
	}
	return strings.Join(names, "|")
}

// Reads records what a compiled query reads: the union of the parts, and
// every read with what it names, in the order of the query text.
type Reads struct {
	Set  Read
	Uses []Use
}

// Use is one read in a query: Name is the register (main.%x), the
// variable (x, main::k), the function ([i.f], [i.f:L]: f), the error kind
// (Error(DivZero): DivZero; "" for any error) or the keyword (DataRace).
type Use struct {
	Read Read
	Name string
	Col  int
}

// Has reports whether any of the parts in r are read.
func (r Reads) Has(parts Read) bool { return r.Set&parts != 0 }

func (c *Compiled) use(r Read, name string, col int) {
	switch r {
	case ReadRegisters, ReadLines, ReadCalls:
		// the control state of one process: c.proc adds it to the watch
	case ReadDeadlock, ReadError, ReadExit:
		// the run's status: it changes only when the run ends
	default:
		c.watch.All = true // memory, every process's next instruction...
	}
	c.Reads.Set |= r
	c.Reads.Uses = append(c.Reads.Uses, Use{Read: r, Name: name, Col: col})
}

// Compile resolves names against the machine's program. Unknown functions,
// registers, variables and error kinds are reported with their column.
func Compile(q *Query, m *vm.Machine) (*Compiled, error) {
	c := &Compiled{Q: q, M: m, env: make([]int32, 8)}
	var err error
	if q.Prop != nil {
		if c.Prop, err = c.prop(q.Prop); err != nil {
			return nil, err
		}
		c.PropWatch = c.watch
	}
	if q.Expr != nil {
		c.watch = vm.Watch{}
		if c.Expr, err = c.expr(q.Expr); err != nil {
			return nil, err
		}
		c.ExprWatch = c.watch
	}
	c.watch = c.PropWatch
	if q.Score != nil {
		if c.Score, err = c.expr(q.Score); err != nil {
			return nil, err
		}
	}
	for _, lp := range q.LevelProps {
		f, err := c.prop(lp)
		if err != nil {
			return nil, err
		}
		c.Levels = append(c.Levels, f)
	}
	c.SplitWatch = c.watch
	slices.SortStableFunc(c.Reads.Uses, func(a, b Use) int { return a.Col - b.Col })
	return c, nil
}

func (c *Compiled) errAt(col int, format string, args ...any) error {
	return &SyntaxError{Query: c.Q.Text, Col: col, Msg: fmt.Sprintf(format, args...)}
}

func (c *Compiled) proc(r procRef) func() int32 {
	return c.procWatch(r, false)
}

// procWatch is proc for a part that reads of the process only the function
// its next instruction calls when callOnly is set (vm.Watch.Calls).
func (c *Compiled) procWatch(r procRef, callOnly bool) func() int32 {
	if r.v < 0 {
		lit := r.lit
		c.Processes = append(c.Processes, lit)
		if lit >= 0 && lit < 64 && callOnly {
			c.watch.Calls |= 1 << uint(lit)
		} else if lit >= 0 && lit < 64 {
			c.watch.Procs |= 1 << uint(lit)
		} else if lit >= 64 {
			c.watch.All = true
		}
		return func() int32 { return lit }
	}
	c.watch.All = true // a process bound by Exists: any of them
	v := r.v
	return func() int32 { return c.env[v] }
}

func (c *Compiled) prop(p Prop) (func(*vm.State) bool, error) {
	m := c.M
	switch p := p.(type) {
	case propAnd:
		l, err := c.prop(p.l)
		if err != nil {
			return nil, err
		}
		r, err := c.prop(p.r)
		if err != nil {
			return nil, err
		}
		return func(st *vm.State) bool { return l(st) && r(st) }, nil
	case propOr:
		l, err := c.prop(p.l)
		if err != nil {
			return nil, err
		}
		r, err := c.prop(p.r)
		if err != nil {
			return nil, err
		}
		return func(st *vm.State) bool { return l(st) || r(st) }, nil
	case propNot:
		x, err := c.prop(p.x)
		if err != nil {
			return nil, err
		}
		return func(st *vm.State) bool { return !x(st) }, nil
	case propConst:
		v := p.v
		return func(*vm.State) bool { return v }, nil
	case propUntil:
		l, err := c.prop(p.l)
		if err != nil {
			return nil, err
		}
		r, err := c.prop(p.r)
		if err != nil {
			return nil, err
		}
		// A monitor of the run: states are shown in order from the first
		// (Steps 0, where it starts afresh).
		failed := false
		return func(st *vm.State) bool {
			if st.Steps == 0 {
				failed = false
			}
			switch {
			case failed:
				return false
			case r(st):
				return true
			case !l(st):
				failed = true
			}
			return false
		}, nil
	case propKeyword:
		switch p.name {
		case "DataRace":
			c.use(ReadDataRace, p.name, p.c)
			return func(st *vm.State) bool { return m.DataRace(st) }, nil
		case "DivZero":
			c.use(ReadDivZero, p.name, p.c)
			return func(st *vm.State) bool {
				for _, t := range st.Threads {
					if m.Enabled(st, t) && m.NextDivZero(t) {
						return true
					}
				}
				return false
			}, nil
		case "OverFlows":
			c.use(ReadOverflows, p.name, p.c)
			return func(st *vm.State) bool {
				for _, t := range st.Threads {
					if m.Enabled(st, t) && m.NextOverflows(t) {
						return true
					}
				}
				return false
			}, nil
		case "Deadlock":
			c.use(ReadDeadlock, p.name, p.c)
			return func(st *vm.State) bool { return st.Status == vm.Deadlock }, nil
		case "Exited":
			c.use(ReadExit, p.name, p.c)
			return func(st *vm.State) bool { return st.Status == vm.Exited }, nil
		case "Error":
			c.use(ReadError, p.arg, p.c)
			if p.arg == "" {
				return func(st *vm.State) bool { return st.Status == vm.Failed }, nil
			}
			k, ok := vm.ErrKindByName(p.arg)
			if !ok {
				return nil, c.errAt(p.c, "unknown error kind %q (kinds: %s)", p.arg, strings.Join(vm.ErrKindNames(), ", "))
			}
			if vm.LeakChecksFor(k)&^m.Leaks != 0 {
				// (a machine that does not check leaks never reaches the
				// error: the query would hold vacuously)
				return nil, c.errAt(p.c, "Error(%s) needs a machine that checks leaks (vm.Machine.Leaks from query.LeakChecksOf)", p.arg)
			}
			return func(st *vm.State) bool { return st.Status == vm.Failed && st.Err != nil && st.Err.Kind == k }, nil
		}
	case propCall:
		if _, ok := m.Prog.FuncIdx[p.fn]; !ok {
			return nil, c.errAt(p.c, "the program has no function %q", p.fn)
		}
		// [i.f] reads only i's next call (and whether i is enabled);
		// [i.f:L] its program counter
		proc := c.procWatch(p.proc, p.line < 0)
		if p.line >= 0 {
			c.use(ReadLines, p.fn, p.c)
			f := m.Prog.Funcs[m.Prog.FuncIdx[p.fn]]
			if f.External {
				return nil, c.errAt(p.c, "function %s has no body, so no lines", p.fn)
			}
			line, found := int32(p.line), false
			for _, li := range f.Locs {
				if m.Prog.Locs[li].Line == line {
					found = true
					break
				}
			}
			if !found {
				return nil, c.errAt(p.c, "function %s has no instruction at line %d (is the program compiled with -g?)", p.fn, p.line)
			}
			return func(st *vm.State) bool {
				t := st.Thread(proc())
				if t == nil || t.Done || len(t.Frames) == 0 {
					return false
				}
				fr := &t.Frames[len(t.Frames)-1]
				return fr.Fn == f && int(fr.PC) < len(f.Locs) && m.Prog.Locs[f.Locs[fr.PC]].Line == line
			}, nil
		}
		c.use(ReadCalls, p.fn, p.c)
		fi := int32(m.Prog.FuncIdx[p.fn])
		if m.MayBlock(fi) {
			c.watch.All = true // whether the caller is enabled reads memory
		}
		return func(st *vm.State) bool {
			t := st.Thread(proc())
			return t != nil && m.NextCalleeIndex(t) == fi && m.Enabled(st, t)
		}, nil
	case propExists:
		c.use(ReadProcesses, "", p.c)
		body, err := c.prop(p.body)
		if err != nil {
			return nil, err
		}
		if p.v >= len(c.env) {
			return nil, c.errAt(p.c, "too many nested Exists")
		}
		v := p.v
		return func(st *vm.State) bool {
			for _, t := range st.Threads {
				c.env[v] = t.ID
				if body(st) {
					return true
				}
			}
			return false
		}, nil
	case propCmp:
		l, err := c.expr(p.l)
		if err != nil {
			return nil, err
		}
		r, err := c.expr(p.r)
		if err != nil {
			return nil, err
		}
		switch p.op {
		case "==":
			return func(st *vm.State) bool { return l(st) == r(st) }, nil
		case "!=":
			return func(st *vm.State) bool { return l(st) != r(st) }, nil
		case "<":
			return func(st *vm.State) bool { return l(st) < r(st) }, nil
		case "<=":
			return func(st *vm.State) bool { return l(st) <= r(st) }, nil
		case ">":
			return func(st *vm.State) bool { return l(st) > r(st) }, nil
		case ">=":
			return func(st *vm.State) bool { return l(st) >= r(st) }, nil
		}
	}
	return nil, c.errAt(p.col(), "unsupported proposition")
}

func (c *Compiled) expr(e Expr) (func(*vm.State) int64, error) {
	m := c.M
	switch e := e.(type) {
	case exprNum:
		v := e.v
		return func(*vm.State) int64 { return v }, nil
	case exprNeg:
		x, err := c.expr(e.x)
		if err != nil {
			return nil, err
		}
		return func(st *vm.State) int64 { return -x(st) }, nil
	case exprFunc:
		args := make([]func(*vm.State) int64, len(e.args))
		for i, a := range e.args {
			f, err := c.expr(a)
			if err != nil {
				return nil, err
			}
			args[i] = f
		}
		switch e.fn {
		case "abs":
			x := args[0]
			return func(st *vm.State) int64 {
				v := x(st)
				if v < 0 {
					v = -v
				}
				return v
			}, nil
		case "min", "max":
			lower := e.fn == "min"
			return func(st *vm.State) int64 {
				v := args[0](st)
				for _, a := range args[1:] {
					if w := a(st); lower && w < v || !lower && w > v {
						v = w
					}
				}
				return v
			}, nil
		}
	case exprBin:
		l, err := c.expr(e.l)
		if err != nil {
			return nil, err
		}
		r, err := c.expr(e.r)
		if err != nil {
			return nil, err
		}
		switch e.op {
		case "+":
			return func(st *vm.State) int64 { return l(st) + r(st) }, nil
		case "-":
			return func(st *vm.State) int64 { return l(st) - r(st) }, nil
		case "*":
			return func(st *vm.State) int64 { return l(st) * r(st) }, nil
		case "/", "%":
			mod := e.op == "%"
			return func(st *vm.State) int64 {
				d := r(st)
				if d == 0 {
					return 0 // total semantics: x/0 = x%0 = 0
				}
				if mod {
					return l(st) % d
				}
				return l(st) / d
			}, nil
		}
	case exprReg:
		fi, ok := m.Prog.FuncIdx[e.fn]
		if !ok || m.Prog.Funcs[fi].External {
			return nil, c.errAt(e.c, "the program defines no function %q", e.fn)
		}
		f := m.Prog.Funcs[fi]
		slot, ok := f.RegSlots[e.reg]
		if !ok {
			return nil, c.errAt(e.c, "function %s has no register %%%s", e.fn, e.reg)
		}
		proc, fn, bits, signed := c.proc(e.proc), e.fn, e.bits, e.signed
		c.use(ReadRegisters, e.fn+".%"+e.reg, e.c)
		return func(st *vm.State) int64 {
			t := st.Thread(proc())
			if t == nil || t.Done || len(t.Frames) == 0 {
				return 0
			}
			fr := &t.Frames[len(t.Frames)-1]
			if fr.Fn.Name != fn {
				return 0 // LODIN: registers outside the current activation record read as 0
			}
			return typed(t.Reg(fr, slot), bits, signed)
		}, nil
	case exprExitCode:
		c.use(ReadExit, "Exited", e.c)
		return func(st *vm.State) int64 { return int64(st.ExitCode) }, nil
	case exprVar:
		return c.variable(e)
	case exprProp:
		x, err := c.prop(e.x)
		if err != nil {
			return nil, err
		}
		return func(st *vm.State) int64 {
			if x(st) {
				return 1
			}
			return 0
		}, nil
	}
	return nil, c.errAt(e.col(), "unsupported expression")
}

func typed(v uint64, bits uint8, signed bool) int64 {
	if bits == 0 || bits == 64 {
		return int64(v)
	}
	v &= 1<<bits - 1
	if signed && v >= 1<<(bits-1) {
		return int64(v) - 1<<bits
	}
	return int64(v)
}

// variable resolves a C variable: a global `x` or a local `f::x`.
func (c *Compiled) variable(e exprVar) (func(*vm.State) int64, error) {
	m := c.M
	if len(e.path) > 0 {
		return c.cpath(e)
	}
	if e.fn == "" {
		for _, g := range m.Prog.Globals {
			if g.CName == e.name || g.Name == e.name {
				if g.Size == 0 || g.Size > 8 || g.ElemKind == ir.KindAgg {
					return nil, c.errAt(e.c, "global %s is not a scalar", e.name)
				}
				addr, size := ir.MakePtr(g.Block, 0), g.Size
				c.use(ReadGlobals, e.name, e.c)
				return func(st *vm.State) int64 {
					v, _ := st.Mem.Load(addr, size)
					return typed(v, uint8(size*8), true)
				}, nil
			}
		}
		for _, f := range m.Prog.Funcs {
			for _, v := range f.Vars {
				if v.Name == e.name {
					return nil, c.errAt(e.c, "no global variable %q; for the local variable write %s::%s", e.name, f.Name, e.name)
				}
			}
		}
		return nil, c.errAt(e.c, "no variable %q in the program (is it compiled with -g?)", e.name)
	}
	fi, ok := m.Prog.FuncIdx[e.fn]
	if !ok {
		return nil, c.errAt(e.c, "the program has no function %q", e.fn)
	}
	f := m.Prog.Funcs[fi]
	for _, v := range f.Vars {
		if v.Name != e.name {
			continue
		}
		if v.Size == 0 {
			return nil, c.errAt(e.c, "local %s::%s is not a scalar", e.fn, e.name)
		}
		slot, size, fn := v.Slot, uint32(v.Size), e.fn
		c.use(ReadLocals, e.fn+"::"+e.name, e.c)
		return func(st *vm.State) int64 {
			for _, t := range st.Threads {
				if fr := t.ActiveFrame(fn); fr != nil {
					val, err := st.Mem.Load(t.Reg(fr, slot), size)
					if err != vm.ErrNone {
						return 0
					}
					return typed(val, uint8(size*8), true)
				}
			}
			return 0
		}, nil
	}
	return nil, c.errAt(e.c, "function %s has no local variable %q", e.fn, e.name)
}
