// Package srctrace shows runs at the level of the C source: the steps of a
// run with the values each loads and stores under their C variable names
// (from the debug information the loader keeps), grouped into one line per
// source statement and process with the switches between processes
// marked, and a summary of the final state (where each process is and what
// it waits for, the holders of mutexes, the waiters of condition
// variables, the globals that changed).
package srctrace

import (
	"fmt"
	"os"
	"strings"

	"github.com/wyvernmc/wyvern/ir"
	"github.com/wyvernmc/wyvern/trace"
	"github.com/wyvernmc/wyvern/vm"
)

// Value is a load, a store or a platform call of a step.
type Value = trace.StepValue

func val(access, name, value string) Value { return Value{Access: access, Var: name, Value: value} }

// Step is one step of a run in detail.
type Step struct {
	Step        uint64  `json:"step"` // 1 for the first step
	Process     int32   `json:"process"`
	Function    string  `json:"function"`
	Loc         string  `json:"loc"` // file:line:col ("?" without debug information)
	File        string  `json:"-"`
	Line        int32   `json:"-"`
	Instruction string  `json:"instruction"`
	Values      []Value `json:"values"`
	Output      string  `json:"-"` // what the program printed during the step
}

// Recorder records the steps of a run: call Step with each state a step is
// taken from and the process that takes it (vm.Machine.Observe's visitor,
// trace.Visit's), before the step.
type Recorder struct {
	m     *vm.Machine
	init  *vm.State // the initial state, for the globals that changed
	Steps []Step
	// Mutexes and Conds are the addresses of the mutexes and condition
	// variables the run's pthread calls used, in the order first seen.
	Mutexes []uint64
	Conds   []uint64
	seen    map[uint64]bool
	outLen  int
}

// NewRecorder records a run of m.
func NewRecorder(m *vm.Machine) *Recorder {
	return &Recorder{m: m, init: m.NewState(), seen: map[uint64]bool{}}
}

// Step records the step process t is about to take from st; with t nil
// (the final state), only what the last step printed.
func (r *Recorder) Step(st *vm.State, t *vm.Thread) {
	if len(st.Out) > r.outLen && len(r.Steps) > 0 {
		r.Steps[len(r.Steps)-1].Output += string(st.Out[r.outLen:])
	}
	r.outLen = len(st.Out)
	if t == nil || t.Done || len(t.Frames) == 0 {
		return
	}
	fr := &t.Frames[len(t.Frames)-1]
	s := Step{Step: st.Steps + 1, Process: t.ID, Function: fr.Fn.Name, Values: []Value{}}
	loc := r.m.Loc(t)
	s.Loc, s.File, s.Line = loc.String(), loc.File, loc.Line
	if int(fr.PC) < len(fr.Fn.Text) {
		s.Instruction = fr.Fn.Text[fr.PC]
		if i := strings.IndexByte(s.Instruction, '\n'); i >= 0 {
			s.Instruction = s.Instruction[:i] + " ..."
		}
	}
	_, in := r.m.Next(t)
	if in != nil {
		s.Values = r.values(st, t, fr, in)
	}
	r.Steps = append(r.Steps, s)
}

// values are the loads, stores and platform call of instruction in.
func (r *Recorder) values(st *vm.State, t *vm.Thread, fr *vm.Frame, in *ir.Inst) []Value {
	regs := t.Regs[fr.Base:]
	switch in.Op {
	case ir.OpLoad:
		v, e := st.Mem.Load(regs[in.A], uint32(in.W))
		if e != vm.ErrNone {
			return []Value{val("load", r.Name(st, regs[in.A]), "error: "+e.String())}
		}
		return []Value{val("load", r.name(st, regs[in.A], uint32(in.W)), r.typedValue(st, regs[in.A], v, in.W))}
	case ir.OpStore:
		return []Value{val("store", r.name(st, regs[in.A], uint32(in.W)), r.typedValue(st, regs[in.A], regs[in.B]&ir.Mask(8*in.W), in.W))}
	case ir.OpAtomicRMW, ir.OpCmpXchg:
		v, _ := st.Mem.Load(regs[in.A], uint32(in.W))
		return []Value{val("rmw", r.Name(st, regs[in.A]), r.format(st, v, in.W))}
	case ir.OpLoadAgg, ir.OpStoreAgg:
		kind := "load"
		if in.Op == ir.OpStoreAgg {
			kind = "store"
		}
		return []Value{val(kind, r.Name(st, regs[in.A]), "{...}")}
	case ir.OpCall, ir.OpCallB:
		cs := &fr.Fn.Calls[in.Imm]
		if cs.Callee < 0 {
			return []Value{}
		}
		f := r.m.Prog.Funcs[cs.Callee]
		if !f.External {
			return []Value{}
		}
		args := make([]string, len(cs.Args))
		for i, a := range cs.Args {
			size := uint8(8)
			if i < len(cs.ArgSizes) && cs.ArgSizes[i] > 0 {
				size = cs.ArgSizes[i]
			}
			args[i] = r.format(st, regs[a]&ir.Mask(8*size), size)
			if strings.HasPrefix(f.Name, "pthread_") && size == 8 && r.globalAt(regs[a]) != nil {
				args[i] = "&" + r.syncName(st, regs[a]) // &acc[1].m, not &acc[1]
			}
		}
		r.notePthread(f.Name, cs, regs)
		return []Value{val("call", f.Name, strings.Join(args, ", "))}
	}
	return []Value{}
}

// notePthread remembers the mutexes and condition variables of a pthread
// call, for the final state's summary.
func (r *Recorder) notePthread(name string, cs *ir.CallSite, regs []uint64) {
	arg := func(i int) uint64 {
		if i < len(cs.Args) {
			return regs[cs.Args[i]]
		}
		return 0
	}
	add := func(list *[]uint64, p uint64) {
		if p != 0 && !r.seen[p] {
			r.seen[p] = true
			*list = append(*list, p)
		}
	}
	switch name {
	case "pthread_mutex_lock", "pthread_mutex_unlock", "pthread_mutex_trylock", "pthread_mutex_init":
		add(&r.Mutexes, arg(0))
	case "pthread_cond_wait", "pthread_cond_timedwait":
		add(&r.Conds, arg(0))
		add(&r.Mutexes, arg(1))
	case "pthread_cond_signal", "pthread_cond_broadcast", "pthread_cond_init":
		add(&r.Conds, arg(0))
	}
}

// Name names the memory at pointer p in state st: a global's C name, with
// the C path to the offset when the debug information describes its type
// (acc[1].balance, big[2]), a local as function::name, with "+off" for a
// byte offset into it (or past the path); a function as &f; other memory
// as mem#block+off.
func (r *Recorder) Name(st *vm.State, p uint64) string { return r.name(st, p, 0) }

// name is Name for an access of size bytes at p (0: a pointer's target,
// not an access): the C path goes down to the member or element of that
// size.
func (r *Recorder) name(st *vm.State, p uint64, size uint32) string {
	prog := r.m.Prog
	block, off := ir.PtrBlock(p), ir.PtrOff(p)
	suffix := ""
	if off != 0 {
		suffix = fmt.Sprintf("+%d", off)
	}
	switch {
	case block == 0:
		return fmt.Sprintf("NULL%s", suffix)
	case int(block) <= len(prog.Globals):
		g := prog.Globals[block-1]
		name := g.CName
		if name == "" {
			name = "@" + g.Name
		}
		if g.CType != nil && (off != 0 || size != 0 && size != syncObject || size == syncObject && g.CType.Kind != ir.CScalar) {
			// acc[1].m, big[1], pt.y: the C path to the offset
			path, _, rest := cpath(g.CType, off, size)
			if rest != 0 {
				return fmt.Sprintf("%s%s+%d", name, path, rest)
			}
			return name + path
		}
		return name + suffix
	case block >= prog.FirstFuncBlock && block < prog.FirstDynBlock:
		return prog.Funcs[block-prog.FirstFuncBlock].Name + suffix
	}
	for _, t := range st.Threads {
		for i := range t.Frames {
			fr := &t.Frames[i]
			for _, v := range fr.Fn.Vars {
				if q := t.Regs[fr.Base+v.Slot]; ir.PtrBlock(q) == block && ir.PtrOff(q) == 0 {
					return fmt.Sprintf("%s::%s%s", fr.Fn.Name, v.Name, suffix)
				}
			}
		}
	}
	return fmt.Sprintf("mem#%d%s", block, suffix)
}

// format writes a value of size bytes: a pointer (8 bytes into a block of
// the program) as &name, else a signed decimal.
func (r *Recorder) format(st *vm.State, v uint64, size uint8) string {
	if size == 8 && v>>ir.PtrBlockShift != 0 && v>>ir.PtrBlockShift < 1<<31 {
		block := uint32(v >> ir.PtrBlockShift)
		if _, live := st.Mem.BlockSize(v); block < r.m.Prog.FirstDynBlock || live {
			return "&" + r.Name(st, v)
		}
	}
	switch size {
	case 1:
		return fmt.Sprint(int8(v))
	case 2:
		return fmt.Sprint(int16(v))
	case 4:
		return fmt.Sprint(int32(v))
	}
	if size > 0 && size < 8 { // an odd-width integer's bytes (3, 5, 6, 7)
		sh := 64 - 8*uint(size)
		return fmt.Sprint(int64(v<<sh) >> sh)
	}
	return fmt.Sprint(int64(v))
}

// sources caches the lines of source files.
type sources map[string][]string

func (s sources) line(file string, line int32) string {
	lines, ok := s[file]
	if !ok {
		if b, err := os.ReadFile(file); err == nil {
			lines = strings.Split(string(b), "\n")
		}
		s[file] = lines
	}
	if line < 1 || int(line) > len(lines) {
		return ""
	}
	return strings.TrimSpace(lines[line-1])
}

// Replay records the run of explicit-state (or BMC) trace steps on m and
// returns its final state.
func Replay(m *vm.Machine, steps []trace.Step) (*Recorder, *vm.State, error) {
	r := NewRecorder(m)
	st, err := trace.Visit(m, steps, r.Step)
	return r, st, err
}

// Describe fills the steps of trace with their function, location,
// instruction and values (trace.Step), replaying it on m.
func Describe(m *vm.Machine, tr *trace.Trace) error {
	if tr == nil {
		return nil
	}
	r, _, err := Replay(m, tr.Steps)
	if err != nil {
		return err
	}
	for i := range tr.Steps {
		if i < len(r.Steps) {
			s := &r.Steps[i]
			tr.Steps[i].Function, tr.Steps[i].Loc, tr.Steps[i].Instruction, tr.Steps[i].Values = s.Function, s.Loc, s.Instruction, s.Values
		}
	}
	return nil
}
