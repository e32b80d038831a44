package vm

import (
	"sync/atomic"

	"github.com/wyvernmc/wyvern/ir"
)

// This file holds what exhaustive explicit-state search (package explicit)
// needs beyond Step and the state's identity (AppendKey and Hash, in
// hash.go): copying a state into a reused one and stepping without the
// scheduler's end-of-run bookkeeping.

// CopyInto makes dst an independent copy of src, reusing dst's buffers
// (thread records, frames, registers, memory chunks and small blocks that
// dst owns), so that trying successor after successor of one state
// allocates nothing in the steady state. Like Clone, it writes to src (src
// stops owning the memory it now shares with dst), so it must not run
// concurrently with other uses of src. The processes are shared rather
// than copied (see share.go): dst must be changed only through StepOnly,
// Settle and SettleEnd (which write no process). dst may be a zero State or any state
// of the same machine other than src.
func (m *Machine) CopyInto(dst, src *State) {
	if dst == src {
		return
	}
	src.copies++
	dst.Mem.copyFrom(&src.Mem)
	// The processes are shared (share.go): StepOnly copies the ones a step
	// changes. dst usually holds a copy of the same src already (the
	// successor tried before): the records it still shares with src stay
	// held as they are, without touching their counts, and only the others
	// (the process the last step copied) are dropped and replaced.
	// Only the entries that differ are written (each write of a pointer
	// is a write barrier's while the garbage collector marks).
	n, k := len(src.Threads), len(dst.Threads)
	for i := n; i < k; i++ {
		if t := dst.Threads[i]; release(t) {
			dst.spare = append(dst.spare, t)
		}
		dst.Threads[i] = nil
	}
	held := dst.Threads[:min(k, n)]
	if k < n {
		// (a longer list: carved from a block in bulk, see
		// AllocateInBulk, since every new state the search queues needs one)
		var block *[]*Thread
		if src.Mem.bulk && cap(held) < n {
			if dst.room == nil {
				dst.room = new(recordRoom)
			}
			block = &dst.room.t
		}
		held = lengthen(held, n, roomThreads, roomThreadsBlock, block)
	}
	for i, t := range src.Threads {
		if o := held[i]; o != t {
			if o != nil && release(o) {
				dst.spare = append(dst.spare, o)
			}
			atomic.AddInt32(&t.shared, 1)
			held[i] = t
		}
	}
	dst.Threads = held
	dst.Steps, dst.Status, dst.ExitCode = src.Steps, src.Status, src.ExitCode
	dst.condSeq, dst.LastThread = src.condSeq, src.LastThread
	dst.Err = nil
	if src.Err != nil {
		e := *src.Err
		dst.Err = &e
	}
	if len(src.Out)|len(dst.Out) != 0 { // (most programs print nothing)
		dst.Out = append(dst.Out[:0], src.Out...)
	}
}

// copyFrom makes m a copy-on-write copy of src, recycling what m owns (as
// reset does for the initial image). src stops owning what it shares.
func (m *Memory) copyFrom(src *Memory) {
	// dst's reservation gives src its new epoch (what src shares from now
	// on carries older ones); see renew.
	e := m.takeEpoch()
	src.epoch, src.base = e, e
	m.reset(src)
	m.limit = src.limit // (a zero State had none: MaxMemory must hold in every copy)
}

// StepOnly executes exactly one step of thread tid as the scheduler loop
// (RunObserved) does, without ending the run when no process is enabled
// afterwards (see Settle). It returns false, changing nothing, if the run
// has ended or the thread is not enabled. A blocking platform function
// reached through a function pointer ends the run in an error state, as in
// RunObserved.
func (m *Machine) StepOnly(st *State, tid int32, ch Chooser) bool {
	t := st.Thread(tid)
	if t == nil || st.Status != Running || !m.Enabled(st, t) {
		return false
	}
	m.StepEnabled(st, tid, ch)
	return true
}

// StepEnabled is StepOnly for a process the caller knows to be enabled in
// st (a running state): one listed by EnabledThreads for st, or for a
// state st is an unchanged CopyInto copy of. It does not ask Enabled again
// (explicit search steps each enabled process of a state it expands, in a
// copy made for each successor). Stepping a process that is not enabled is
// an error of the caller's. It reports whether the step was one SoloStep
// allowed (PartsHasher.SuccessorStep).
func (m *Machine) StepEnabled(st *State, tid int32, ch Chooser) (solo bool) {
	var t *Thread
	// Copy what the step may write of processes shared with other states
	// (CopyInto): the moving one, or all of them for a step that may touch
	// others (a platform call, a return that ends a process).
	if solo = m.SoloStep(st, tid); solo {
		t = st.own(tid)
	} else {
		st.ownAll()
		t = st.Threads[tid]
	}
	n := m.exec(st, t, 1, ch, nil)
	st.Steps += n
	st.LastThread = tid
	if m.Leaks != 0 {
		m.checkLeaks(st, t)
	}
	if n == 0 && st.Status == Running {
		m.fail(st, t, t.Frames[len(t.Frames)-1].PC, ErrPthread,
			"blocking pthread function called through a function pointer")
	}
	return solo
}

// Settle appends the enabled processes of st to buf[:0] and returns them;
// when the run is still going but no process is enabled it ends the run
// as the scheduler does (Deadlock, or Exited when every process finished).
func (m *Machine) Settle(st *State, buf []int32) []int32 {
	buf = m.EnabledThreads(st, buf)
	if st.Status == Running && len(buf) == 0 {
		if m.endNoEnabled(st); st.Status == Running {
			buf = m.EnabledThreads(st, buf) // exit(0) started for the exit handlers
		}
	}
	return buf
}

// SettleEnd is Settle without the list: when the run is still going but no
// process is enabled it ends the run as the scheduler does, stopping at the
// first enabled process otherwise (explicit search settles every successor
// and lists the enabled processes only of the states it expands).
//
// It asks process first first (the one that moved: usually still enabled,
// while the processes before it may wait at a join or a lock, which costs
// a platform table look-up to tell); first may be any id.
func (m *Machine) SettleEnd(st *State, first int32) {
	if st.Status != Running {
		return
	}
	if t := st.Thread(first); t != nil && m.Enabled(st, t) {
		return
	}
	for _, t := range st.Threads {
		if m.Enabled(st, t) {
			return
		}
	}
	m.endNoEnabled(st)
}

// SoloStep reports whether the next step of process tid in st changes, of
// the processes, at most tid itself, so that PartsHasher.Successor may
// update a parts hash after it: an instruction that calls no platform
// function but an atomic section's begin or end (directly or through a
// pointer) and returns from no frame (a thread's last return, or an exit,
// ends processes). Steps that end the run are handled by Successor itself.
func (m *Machine) SoloStep(st *State, tid int32) bool {
	t := st.Thread(tid)
	if t == nil || len(t.Frames) == 0 {
		return false
	}
	fr := &t.Frames[len(t.Frames)-1]
	switch in := &fr.Fn.Code[fr.PC]; in.Op {
	case ir.OpCallB:
		return soloBuiltin(ir.Builtin(in.B))
	case ir.OpCallInd:
		// a call through a pointer of a program function is the direct
		// call's step (clang calls a function declared without a
		// prototype, as SV-COMP declares __VERIFIER_atomic_begin(),
		// through a constant pointer)
		cs := &fr.Fn.Calls[in.Imm]
		f := m.funcOf(t.Regs[fr.Base+cs.FnSlot])
		return f != nil && (!f.External || soloBuiltin(f.Builtin))
	case ir.OpRet, ir.OpUnreachable, ir.OpTrap:
		return false
	}
	return true
}

// soloBuiltin reports whether a call of platform function b changes, of
// the processes, only the caller's record: an atomic section's begin or
// end (its depth, in the caller's record).
func soloBuiltin(b ir.Builtin) bool {
	return b == ir.BAtomicBegin || b == ir.BAtomicEnd
}
