package vm

import (
	"github.com/wyvernmc/wyvern/ir"
)

// This file holds read-only views of a state for propositions: what a
// process is about to execute (LODIN's propositions are properties of the
// instructions the processes are about to execute, seed 000 Fig. 14).

// Next returns the function and instruction thread t executes next, or nil.
func (m *Machine) Next(t *Thread) (*ir.Func, *ir.Inst) {
	if t.Done || len(t.Frames) == 0 {
		return nil, nil
	}
	fr := &t.Frames[len(t.Frames)-1]
	if int(fr.PC) >= len(fr.Fn.Code) {
		return fr.Fn, nil
	}
	return fr.Fn, &fr.Fn.Code[fr.PC]
}

// NextCallee returns the name of the function thread t is about to call, or
// "" when its next instruction is not a call.
func (m *Machine) NextCallee(t *Thread) string {
	if i := m.NextCalleeIndex(t); i >= 0 {
		return m.Prog.Funcs[i].Name
	}
	return ""
}

// NextCalleeIndex is NextCallee as an index into Prog.Funcs (-1: none).
func (m *Machine) NextCalleeIndex(t *Thread) int32 {
	fn, in := m.Next(t)
	if in == nil {
		return -1
	}
	switch in.Op {
	case ir.OpCall, ir.OpCallB:
		return fn.Calls[in.Imm].Callee
	case ir.OpCallInd:
		cs := &fn.Calls[in.Imm]
		r := t.Regs[t.Frames[len(t.Frames)-1].Base:]
		if f := m.funcOf(r[cs.FnSlot]); f != nil {
			return int32(m.Prog.FuncIdx[f.Name])
		}
	}
	return -1
}

// MayBlock reports whether a call of function fi can wait (a platform
// function whose enabledness depends on the state, such as
// pthread_mutex_lock): whether a process about to call it is enabled then
// depends on more than the process itself.
func (m *Machine) MayBlock(fi int32) bool {
	f := m.Prog.Funcs[fi]
	return f.External && platform[f.Builtin].enabled != nil
}

// Access describes a memory access a process is about to make.
type Access struct {
	Addr   uint64
	Size   uint32
	Write  bool
	Atomic bool
	// Cont marks an access of the same process as the one before it in a
	// list (a platform call's second and later ranges, NextAccesses): the
	// accesses of one process never race with each other. (A flag, not
	// the process's id, keeps an Access at 16 bytes.)
	Cont bool
}

// NextAccess returns the memory access of thread t's next instruction, if it
// is a load, store, atomicrmw or cmpxchg.
func (m *Machine) NextAccess(t *Thread) (Access, bool) {
	fn, in := m.Next(t)
	if in == nil {
		return Access{}, false
	}
	return accessOf(fn, in, t.Regs[t.Frames[len(t.Frames)-1].Base:])
}

// NextAccesses appends to acc the memory accesses of thread t's next step
// in st: NextAccess's, or the ranges a platform call is about to read and
// write (race.go; the second and later with Cont set).
func (m *Machine) NextAccesses(st *State, t *Thread, acc []Access) []Access {
	fn, in := m.Next(t)
	if in == nil {
		return acc
	}
	r := t.Regs[t.Frames[len(t.Frames)-1].Base:]
	if a, ok := accessOf(fn, in, r); ok {
		return append(acc, a)
	}
	return m.callAccesses(st, t, fn, in, r, acc)
}

// accessOf is NextAccess of instruction in of function fn, whose frame's
// registers are r.
func accessOf(fn *ir.Func, in *ir.Inst, r []uint64) (Access, bool) {
	switch in.Op {
	case ir.OpLoad:
		return Access{Addr: r[in.A], Size: uint32(in.W), Atomic: in.Aux == ir.AuxAtomic}, true
	case ir.OpStore:
		return Access{Addr: r[in.A], Size: uint32(in.W), Write: true, Atomic: in.Aux == ir.AuxAtomic}, true
	case ir.OpLoadAgg, ir.OpStoreAgg:
		acc := &fn.Aggs[in.Imm]
		n := len(acc.Offs)
		size := acc.Offs[n-1] + uint32(acc.Sizes[n-1])
		return Access{Addr: r[in.A], Size: size, Write: in.Op == ir.OpStoreAgg}, true
	case ir.OpAtomicRMW, ir.OpCmpXchg:
		return Access{Addr: r[in.A], Size: uint32(in.W), Write: true, Atomic: true}, true
	}
	return Access{}, false
}

// NextDivZero reports whether thread t is about to divide by zero.
func (m *Machine) NextDivZero(t *Thread) bool {
	_, in := m.Next(t)
	if in == nil {
		return false
	}
	switch in.Op {
	case ir.OpUDiv, ir.OpSDiv, ir.OpURem, ir.OpSRem:
		r := t.Regs[t.Frames[len(t.Frames)-1].Base:]
		return r[in.B] == 0
	}
	return false
}

// NextOverflows reports whether thread t is about to execute a signed
// add, sub or mul whose mathematical result does not fit its type.
func (m *Machine) NextOverflows(t *Thread) bool {
	_, in := m.Next(t)
	if in == nil {
		return false
	}
	r := t.Regs[t.Frames[len(t.Frames)-1].Base:]
	chk := ir.Inst{W: in.W, Flags: ir.FlagNSW, Imm: in.Imm}
	switch in.Op {
	case ir.OpAdd:
		a, b := r[in.A], r[in.B]
		return addOverflow(a, b, (a+b)&in.Imm, &chk)
	case ir.OpSub:
		a, b := r[in.A], r[in.B]
		return subOverflow(a, b, (a-b)&in.Imm, &chk)
	case ir.OpMul:
		return mulOverflow(r[in.A], r[in.B], &chk)
	}
	return false
}

// DataRace reports whether two enabled processes are about to access
// overlapping memory, at least one of them writing and not both atomically.
func (m *Machine) DataRace(st *State) bool {
	var buf [16]Access
	acc := buf[:0]
	var calls []Access // platform calls' accesses (allocated only for them: acc stays on the stack)
	for _, t := range st.Threads {
		if !m.Enabled(st, t) {
			continue
		}
		fn, in := m.Next(t)
		if in == nil {
			continue
		}
		r := t.Regs[t.Frames[len(t.Frames)-1].Base:]
		if a, ok := accessOf(fn, in, r); ok {
			acc = append(acc, a)
		} else if in.Op == ir.OpCallB || in.Op == ir.OpCallInd {
			calls = m.callAccesses(st, t, fn, in, r, calls)
		}
	}
	if len(calls) > 0 {
		acc = append(calls, acc...)
	}
	return racing(acc)
}

// RacingPair returns the first two enabled processes of st (in id order)
// whose next accesses race — overlap, at least one writing, not both
// atomic — and those accesses: what makes DataRace hold. ok is false when
// DataRace does not hold.
func (m *Machine) RacingPair(st *State) (p, q *Thread, a, b Access, ok bool) {
	var acc []Access
	var proc []*Thread // per access, its process
	for _, t := range st.Threads {
		if m.Enabled(st, t) {
			acc = m.NextAccesses(st, t, acc)
			for len(proc) < len(acc) {
				proc = append(proc, t)
			}
		}
	}
	for i := range acc {
		for j := i + 1; j < len(acc); j++ {
			if proc[i] != proc[j] && conflict(acc[i], acc[j]) {
				return proc[i], proc[j], acc[i], acc[j], true
			}
		}
	}
	return nil, nil, Access{}, Access{}, false
}

// EnabledRace is EnabledThreads and DataRace at once, looking at each
// process's next instruction once (Enabled and NextAccess): it appends the
// ids of the processes EnabledThreads lists to en[:0] and reports whether
// st has a data race. acc is a buffer for the accesses, returned for
// reuse.
func (m *Machine) EnabledRace(st *State, en []int32, acc []Access) (_ []int32, _ []Access, race bool) {
	en, acc = en[:0], acc[:0]
	if st.Status != Running && st.Status != StepBound {
		return en, acc, false // nobody steps (Enabled)
	}
	atomic := int32(-1) // the first enabled process inside an atomic section
	for _, t := range st.Threads {
		if !mayStep(t) {
			continue
		}
		fr := &t.Frames[len(t.Frames)-1]
		in := &fr.Fn.Code[fr.PC]
		if in.Op == ir.OpCallB && !m.callEnabled(st, t, fr, in) {
			continue
		}
		en = append(en, t.ID)
		if atomic < 0 && t.Atomic > 0 {
			atomic = t.ID
		}
		switch in.Op { // NextAccesses, the usual accesses written out
		case ir.OpLoad, ir.OpStore:
			acc = append(acc, Access{Addr: t.Regs[fr.Base+in.A], Size: uint32(in.W), Write: in.Op == ir.OpStore, Atomic: in.Aux == ir.AuxAtomic})
		case ir.OpLoadAgg, ir.OpStoreAgg, ir.OpAtomicRMW, ir.OpCmpXchg:
			if a, ok := accessOf(fr.Fn, in, t.Regs[fr.Base:]); ok {
				acc = append(acc, a)
			}
		case ir.OpCallB, ir.OpCallInd:
			acc = m.callAccesses(st, t, fr.Fn, in, t.Regs[fr.Base:], acc)
		}
	}
	if atomic >= 0 {
		en = append(en[:0], atomic)
	}
	return en, acc, racing(acc)
}

// racing reports whether two of the accesses, of different processes (a
// process's accesses are consecutive, all but its first with Cont set),
// conflict.
func racing(acc []Access) bool {
	for i := 0; i < len(acc); i++ {
		j := i + 1
		for j < len(acc) && acc[j].Cont {
			j++ // (the rest of i's process's accesses)
		}
		for ; j < len(acc); j++ {
			if conflict(acc[i], acc[j]) {
				return true
			}
		}
	}
	return false
}

// conflict reports whether two accesses of different processes race: they
// overlap, at least one of them writing and not both atomic.
func conflict(a, b Access) bool {
	if !a.Write && !b.Write || a.Atomic && b.Atomic {
		return false
	}
	return a.Addr < b.Addr+uint64(b.Size) && b.Addr < a.Addr+uint64(a.Size)
}

// ActiveFrame returns the innermost frame of thread t running function fn,
// or nil.
func (t *Thread) ActiveFrame(fn string) *Frame {
	for i := len(t.Frames) - 1; i >= 0; i-- {
		if t.Frames[i].Fn.Name == fn {
			return &t.Frames[i]
		}
	}
	return nil
}

// Reg returns the value of slot s of frame fr.
func (t *Thread) Reg(fr *Frame, s int32) uint64 { return t.Regs[fr.Base+s] }
