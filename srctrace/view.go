package srctrace

import (
	"fmt"
	"io"
	"strings"

	"github.com/wyvernmc/wyvern/ir"
	"github.com/wyvernmc/wyvern/vm"
)

// Write prints the recorded steps at the source level: one line per source
// statement a process executes (consecutive steps of a process on one
// line), with the first step's number, the process, file:line, the source
// text and the values loaded and stored; a line marks each switch to
// another process. Then the summary of the final state st.
func (r *Recorder) Write(w io.Writer, st *vm.State) error {
	src := sources{}
	prev := int32(-1)
	for i := 0; i < len(r.Steps); {
		s := r.Steps[i]
		j := i + 1
		for j < len(r.Steps) && r.Steps[j].Process == s.Process && sameLine(r.Steps[j], s) {
			j++
		}
		if s.Process != prev {
			fmt.Fprintf(w, "--- process %d (%s) ---\n", s.Process, s.Function)
			prev = s.Process
		}
		text := src.line(s.File, s.Line)
		switch {
		case s.Line == 0:
			text = "(entry: parameters and locals)"
		case text == "":
			text = s.Instruction
		}
		if len(text) > 44 {
			text = text[:41] + "..."
		}
		var vals []string
		for _, st := range r.Steps[i:j] {
			for _, v := range st.Values {
				switch v.Access {
				case "call":
					vals = append(vals, fmt.Sprintf("%s(%s)", v.Var, v.Value))
				default:
					vals = append(vals, fmt.Sprintf("%s %s = %s", v.Access, v.Var, v.Value))
				}
			}
		}
		where := fmt.Sprintf("%s:%d", baseName(s.File), s.Line)
		if s.Line == 0 {
			where = s.Function
		}
		line := fmt.Sprintf("%6d  p%d  %-16s %-44s", s.Step, s.Process, where, text)
		if len(vals) > 0 {
			line += "  " + strings.Join(vals, ", ")
		}
		if _, err := fmt.Fprintln(w, strings.TrimRight(line, " ")); err != nil {
			return err
		}
		for _, st := range r.Steps[i:j] {
			for _, l := range strings.SplitAfter(st.Output, "\n") {
				if l != "" {
					fmt.Fprintf(w, "          | %s", strings.TrimSuffix(l, "\n")+"\n")
				}
			}
		}
		i = j
	}
	return r.WriteSummary(w, st)
}

func sameLine(a, b Step) bool {
	if a.Line == 0 || b.Line == 0 {
		return a.Function == b.Function && a.Line == b.Line && a.File == b.File && a.Loc == b.Loc
	}
	return a.Function == b.Function && a.File == b.File && a.Line == b.Line
}

func baseName(f string) string {
	if i := strings.LastIndexByte(f, '/'); i >= 0 {
		return f[i+1:]
	}
	return f
}

// WriteSummary prints the final state: how the run ends, each process
// (where it is, what it waits for), each mutex the run used (its holder),
// each condition variable (its waiters), and the globals whose value
// changed.
func (r *Recorder) WriteSummary(w io.Writer, st *vm.State) error {
	end := "running"
	if st.Status != vm.Running {
		end = st.Describe()
	}
	fmt.Fprintf(w, "Final state after %d steps: %s\n", st.Steps, end)
	fmt.Fprintln(w, "  Processes:")
	for _, t := range st.Threads {
		fmt.Fprintf(w, "    p%d  %s\n", t.ID, r.process(st, t))
	}
	if p, q, a, b, ok := r.m.RacingPair(st); ok {
		// DataRace holds: which two accesses race
		fmt.Fprintf(w, "  Data race: p%d %s at %s, p%d %s at %s\n",
			p.ID, r.access(st, a), r.m.Loc(p), q.ID, r.access(st, b), r.m.Loc(q))
	}
	if len(r.Mutexes) > 0 {
		fmt.Fprintln(w, "  Mutexes:")
		for _, p := range r.Mutexes {
			v, e := st.Mem.Load(p, 4)
			switch {
			case e != vm.ErrNone:
				fmt.Fprintf(w, "    %s: freed or invalid\n", r.syncName(st, p))
			case v == 0:
				fmt.Fprintf(w, "    %s: free\n", r.syncName(st, p))
			default:
				fmt.Fprintf(w, "    %s: held by p%d\n", r.syncName(st, p), v-1)
			}
		}
	}
	if len(r.Conds) > 0 {
		fmt.Fprintln(w, "  Condition variables:")
		for _, c := range r.Conds {
			var waiters []string
			for _, t := range st.Threads {
				if !t.Done && t.Wait == vm.WaitCond && t.WaitOn == c {
					waiters = append(waiters, fmt.Sprintf("p%d", t.ID))
				}
			}
			if len(waiters) == 0 {
				waiters = []string{"none"}
			}
			fmt.Fprintf(w, "    %s: waiters %s\n", r.syncName(st, c), strings.Join(waiters, ", "))
		}
	}
	changed := r.changedGlobals(st)
	if len(changed) > 0 {
		fmt.Fprintln(w, "  Globals changed:")
		for _, c := range changed {
			fmt.Fprintf(w, "    %s\n", c)
		}
	} else {
		fmt.Fprintln(w, "  Globals changed: none")
	}
	return nil
}

// access describes a process's next memory access: "writes counter (4
// bytes)", "reads acc[1].balance atomically".
func (r *Recorder) access(st *vm.State, a vm.Access) string {
	verb := "reads"
	if a.Write {
		verb = "writes"
	}
	s := fmt.Sprintf("%s %s (%d bytes)", verb, r.name(st, a.Addr, a.Size), a.Size)
	if a.Atomic {
		s += " atomically"
	}
	return s
}

// process says where process t is and what it waits for.
func (r *Recorder) process(st *vm.State, t *vm.Thread) string {
	if t.Done || len(t.Frames) == 0 {
		return "finished"
	}
	fr := &t.Frames[len(t.Frames)-1]
	at := fmt.Sprintf("in %s at %s", fr.Fn.Name, r.m.Loc(t))
	switch t.Wait {
	case vm.WaitCond:
		return fmt.Sprintf("%s, waits for a signal on %s", at, r.syncName(st, t.WaitOn))
	case vm.WaitBarrier:
		return fmt.Sprintf("%s, waits at barrier %s", at, r.syncName(st, t.WaitOn))
	}
	_, in := r.m.Next(t)
	if in == nil || in.Op != ir.OpCall && in.Op != ir.OpCallB {
		return at
	}
	cs := &fr.Fn.Calls[in.Imm]
	if cs.Callee < 0 || len(cs.Args) == 0 {
		return at
	}
	arg := t.Regs[fr.Base+cs.Args[0]]
	switch name := r.m.Prog.Funcs[cs.Callee].Name; name {
	case "pthread_mutex_lock":
		if v, e := st.Mem.Load(arg, 4); e == vm.ErrNone && v != 0 {
			return fmt.Sprintf("%s, waits for mutex %s held by p%d", at, r.syncName(st, arg), v-1)
		}
		return fmt.Sprintf("%s, about to lock %s", at, r.syncName(st, arg))
	case "pthread_cond_wait", "pthread_cond_timedwait":
		if t.Wait == vm.WaitRelock && len(cs.Args) > 1 {
			mp := t.Regs[fr.Base+cs.Args[1]]
			if v, e := st.Mem.Load(mp, 4); e == vm.ErrNone && v != 0 {
				return fmt.Sprintf("%s, signalled, waits to relock %s held by p%d", at, r.syncName(st, mp), v-1)
			}
		}
	case "pthread_join":
		if u := st.Thread(int32(arg)); u != nil && !u.Done {
			return fmt.Sprintf("%s, waits for p%d to finish (pthread_join)", at, arg)
		}
	}
	return at
}

// changedGlobals lists the globals whose bytes differ from the initial
// state: by their C types when the debug information gives them
// (changedTyped: "name.f[i] = new (was old)"), else as "name = new (was
// old)" for scalars and per changed 4-byte word of larger ones, at most 8
// words each and then how many more.
func (r *Recorder) changedGlobals(st *vm.State) []string {
	var out []string
	for _, g := range r.m.Prog.Globals {
		p := ir.MakePtr(g.Block, 0)
		if g.Const {
			continue
		}
		name := g.CName
		if name == "" {
			name = "@" + g.Name
		}
		if g.CType != nil && g.CType.Size == g.Size {
			out = append(out, r.changedTyped(st, g, name)...)
			continue
		}
		if r.seen[p] { // a mutex's or condition variable's word is in the summary above
			continue
		}
		switch g.Size {
		case 1, 2, 4, 8:
			nv, e1 := st.Mem.Load(p, g.Size)
			ov, e2 := r.init.Mem.Load(p, g.Size)
			if e1 == vm.ErrNone && e2 == vm.ErrNone && nv != ov {
				out = append(out, fmt.Sprintf("%s = %s (was %s)", name, r.format(st, nv, uint8(g.Size)), r.format(r.init, ov, uint8(g.Size))))
			}
			continue
		}
		shown, more := 0, 0
		for off := uint32(0); off+4 <= g.Size && off/4 < maxComparedLeaves; off += 4 {
			nv, e1 := st.Mem.Load(p+uint64(off), 4)
			ov, e2 := r.init.Mem.Load(p+uint64(off), 4)
			if e1 == vm.ErrNone && e2 == vm.ErrNone && nv != ov {
				if shown == 8 {
					more++
					continue
				}
				out = append(out, fmt.Sprintf("%s+%d = %d (was %d)", name, off, int32(nv), int32(ov)))
				shown++
			}
		}
		if more > 0 {
			out = append(out, fmt.Sprintf("... and %d more changed words in %s", more, name))
		}
	}
	return out
}
