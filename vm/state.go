// Package vm holds Wyvern's execution semantics: the state (processes, call
// stacks, register slots, memory), the step function, the platform (pthreads,
// SV-COMP functions, a libc subset, wyvern.h) and the scheduler loop.
package vm

import (
	"fmt"
	"sync/atomic"
	"unsafe"

	"github.com/wyvernmc/wyvern/ir"
)

// Status says whether a run goes on and, if not, why it ended.
type Status uint8

// Run statuses.
const (
	Running      Status = iota
	Exited              // main returned or exit() was called
	Deadlock            // no process enabled, main not finished
	AssumeFailed        // __VERIFIER_assume(0)
	Failed              // an error was detected (see State.Err)
	StepBound           // the step bound was reached
)

var statusNames = [...]string{"running", "exited", "deadlock", "assume-failed", "error", "step-bound"}

func (s Status) String() string {
	if int(s) < len(statusNames) {
		return statusNames[s]
	}
	return "status?"
}

// Frame is one activation record.
type Frame struct {
	Fn         *ir.Func
	PC         int32
	Base       int32  // first register slot of the frame in Thread.Regs
	RetDst     int32  // absolute slot in Thread.Regs receiving the result, -1 if none
	RetN       int32  // number of result slots
	AllocaMark int32  // len(Thread.Allocas) at entry
	OnceAddr   uint64 // pthread_once control to complete on return, 0 if none
	Atomic     bool   // frame of a __VERIFIER_atomic_* function
}

// Wait kinds of a thread blocked inside a platform call.
const (
	waitNone        uint8 = iota
	waitCond              // in pthread_cond_wait, not yet signalled
	waitRelock            // signalled, must reacquire the mutex
	waitBarrier           // in pthread_barrier_wait, the round not yet complete
	waitBarrierDone       // the round completed: returns 0 at its next step
	// waitJoined marks a finished process that pthread_join joined: the
	// end of its thread id's lifetime (POSIX), so spawnThread reuses the id.
	waitJoined
)

// Thread is a process: the entry point or a thread created by pthread_create.
type Thread struct {
	ID      int32
	Done    bool
	Frames  []Frame
	Regs    []uint64
	Allocas []uint32 // live stack blocks, innermost last
	RetVal  uint64   // value passed to pthread_exit or returned
	Atomic  int32    // depth of __VERIFIER_atomic sections
	Wait    uint8
	WaitSeq uint64 // order of arrival at a condition variable
	WaitOn  uint64 // condition variable or barrier address
	// Detached: created detached or pthread_detach'ed (joining it is an
	// error).
	Detached bool
	// shared counts the states holding this record but one (share.go):
	// the record may be written only while it is 0. Accessed atomically.
	shared int32
	// ph is the parts hash of this process (PartsHasher.thread) for the
	// hasher phID (0: none), cached by the hasher while the record was
	// owned: a record shared between a parent and its successors keeps
	// it, so a successor rehashes only the process that moved. Valid as
	// long as the record is changed only after own (StepOnly).
	ph   Hash128
	phID uint64
}

// State is a complete program state.
type State struct {
	Mem      Memory
	Threads  []*Thread
	Steps    uint64
	Status   Status
	ExitCode int32
	Err      *ErrorState
	Out      []byte // captured output of printf/puts/putchar
	condSeq  uint64
	// LastThread is the process that executed the last step (-1 at start).
	LastThread int32
	// Interrupt, when set, stops a run (Run, Observe) once it is true, at
	// the next slice boundary (at most interruptSlice steps apart): the
	// run's status stays Running and the state is where the run stopped.
	// A worker sets it when a job's experiment is cancelled, so that a
	// trace of 10^12 steps does not keep it for hours. Slicing a run
	// changes none of its draws or states.
	Interrupt *atomic.Bool
	scratch   []byte
	fmtBuf    []byte      // printf's format string, reused
	spare     []*Thread   // thread records kept by Reset for reuse
	room      *recordRoom // blocks that copied records' buffers are carved from (share.go)
	// syncs counts the platform calls made (but the quiet ones: choices and
	// pure functions) and the processes finished: the events that can
	// change which processes are enabled other than through memory. Only differences matter (the scheduler compares it
	// across a step); it is not part of the state's identity.
	syncs uint64
	// copies counts the CopyInto calls that took the state as their
	// source: its process records may be shared since the last change
	// (runObserved takes them back only then).
	copies uint64
	// leaks is the scratch space of the leak checks (leak.go), nil until
	// the first pass.
	leaks *leakScan
}

// Machine holds a loaded program and its post-initialisation memory image.
type Machine struct {
	Prog *ir.Program
	init Memory
	// Per-run limits (0: none; NewMachine sets the defaults). A run that
	// passes MaxMemory (bytes of live malloc and alloca blocks) or MaxProcs
	// (processes, main included) ends in the error ResourceLimit, one that
	// calls deeper than MaxDepth in StackOverflow: a program cannot exhaust
	// the host's memory.
	MaxDepth  int // call depth per process
	MaxMemory uint64
	MaxProcs  int
	// globals is the bytes of the program's globals, counted against
	// MaxMemory: what a run may allocate is the rest.
	globals uint64
	libc    libcImage
	tls     *tlsImage // nil: no thread-local globals
	// code holds, per function of Prog, the code the interpreter runs:
	// the function's code with superinstructions (fuse.go).
	code [][]ir.Inst
	// straight holds, per function of Prog, its straight distances (see
	// straightDists; nil with code).
	straight [][]uint16
	// straightDef, in a program that may allocate undefined memory, holds
	// the straight distances of states without undefined bytes (nil
	// otherwise: straight holds every state's; straightProgram).
	straightDef [][]uint16
	// ilp32: the program's data model is ILP32 (Prog.DataModel): pointers
	// are 32-bit in memory (ir.Ptr32), long is 4 bytes.
	ilp32 bool
	// Leaks selects the leak checks runs make (MemLeak, MemCleanup; see
	// leak.go): none unless set, so that the other properties see runs
	// as they were. Set it before the machine's first run.
	Leaks LeakChecks
	// leakBlocks: the basic blocks' starts of the unoptimised functions,
	// built on the first leak check (leak.go).
	leakBlocks leakBlocks
	// atexitExit is the program's exit function when the loader gave it
	// the exit handlers (ir/atexit.go; nil otherwise), atexitCount the
	// address of the handlers' count.
	atexitExit  *ir.Func
	atexitCount uint64
	// reuse: the program may compare a freed block's address with a later
	// block's (ir.Program.ReusesAddresses): frees record when they
	// happened and such comparisons may draw (reuse.go).
	reuse bool
	// undef: the program may allocate memory whose bytes are undefined
	// until written (ir.Program.UndefinedMemory): loads of them draw
	// (undef.go).
	undef bool
}

// Limits are a machine's per-run limits; a zero field leaves the
// machine's value as it is.
type Limits struct {
	Memory uint64 // bytes of live malloc and alloca blocks
	Procs  int    // processes, main included
	Depth  int    // call depth per process
}

// Apply sets m's limits to l's non-zero fields.
func (l Limits) Apply(m *Machine) {
	if l.Memory > 0 {
		m.MaxMemory = l.Memory
	}
	if l.Procs > 0 {
		m.MaxProcs = l.Procs
	}
	if l.Depth > 0 {
		m.MaxDepth = l.Depth
	}
}

// Default per-run limits.
const (
	DefaultMaxDepth  = 10000
	DefaultMaxMemory = 512 << 20
	DefaultMaxProcs  = 1000
)

// NewMachine prepares a program for execution.
func NewMachine(p *ir.Program) *Machine { return NewMachineArgs(p, nil) }

// NewMachineArgs prepares a program for execution with command-line
// arguments: main(argc, argv) receives argv[0] (the program's file name),
// then args.
func NewMachineArgs(p *ir.Program, args []string) *Machine {
	m := &Machine{Prog: p, MaxDepth: DefaultMaxDepth, MaxMemory: DefaultMaxMemory, MaxProcs: DefaultMaxProcs,
		ilp32: p.DataModel == ir.ILP32}
	if p.Entry >= 0 && p.Funcs[p.Entry].Name == ir.AtexitStart {
		m.atexitExit = p.Funcs[p.FuncIdx["exit"]]
		m.atexitCount = ir.MakePtr(p.Globals[p.GlobalIdx[ir.AtexitCount]].Block, 0)
	}
	var mem Memory
	mem.renew()
	mem.initBlock(0, blkNone, nil)
	for _, g := range p.Globals {
		m.globals += uint64(len(g.Init))
		kind := blkGlobal
		if g.Const {
			kind = blkConst
		}
		mem.initBlock(g.Block, kind, g.Init)
	}
	for _, f := range p.Funcs {
		mem.initBlock(f.Block, blkFunc, nil)
	}
	m.extendImage(&mem, args)
	mem.renew() // freeze: the image owns nothing, so no state writes into it
	mem.freeze()
	m.init = mem
	m.init.image = &m.init
	for _, f := range p.Funcs {
		checkRegs(f)
		checkPCs(f)
	}
	m.reuse = p.ReusesAddresses()
	m.undef = p.UndefinedMemory()
	m.code = fuseProgram(p, true, m.reuse)
	if m.code != nil {
		m.straight, m.straightDef = straightProgram(p, m.reuse, m.undef)
	}
	return m
}

// NewState returns the initial state: main about to run, memory the
// post-initialisation image (shared copy-on-write, so this is cheap).
func (m *Machine) NewState() *State {
	st := &State{Mem: m.init.derive(), LastThread: -1}
	st.Mem.limit = m.runLimit()
	t := st.newThread()
	m.pushFrame(st, t, m.Prog.Funcs[m.Prog.Entry], -1, 0)
	m.setMainArgs(t)
	m.checkGlobals(st, t)
	return st
}

// Footprint estimates the bytes the loaded program holds for as long as
// the machine lives: its globals' initial bytes (the program's and those
// of the post-initialisation image that are not shared zero pages) and
// its code. A worker bounds its cache of loaded programs by it.
func (m *Machine) Footprint() uint64 {
	n := m.globals
	for _, g := range m.Prog.Globals {
		if len(g.Init) <= pageSize {
			n += uint64(len(g.Init))
			continue
		}
		for i := 0; i < len(g.Init); i += pageSize {
			if !allZero(g.Init[i:min(len(g.Init), i+pageSize)]) {
				n += pageSize
			}
		}
	}
	const instBytes = uint64(unsafe.Sizeof(ir.Inst{}))
	for _, f := range m.Prog.Funcs {
		n += uint64(len(f.Code)) * instBytes
	}
	for _, c := range m.code {
		n += uint64(len(c)) * instBytes
	}
	return n
}

// runLimit is the bound on a run's live heap and stack blocks: MaxMemory
// less the program's globals (0: none).
func (m *Machine) runLimit() uint64 {
	if m.MaxMemory == 0 {
		return 0
	}
	if m.globals >= m.MaxMemory {
		return 1 // checkGlobals ends the run before its first step
	}
	return m.MaxMemory - m.globals
}

// checkGlobals ends a fresh run at once, with ErrResourceLimit, when the
// program's globals alone pass MaxMemory.
func (m *Machine) checkGlobals(st *State, t *Thread) {
	if m.libc.argvErr != "" {
		m.fail(st, t, 0, ErrResourceLimit, m.libc.argvErr)
		return
	}
	if m.MaxMemory > 0 && m.globals >= m.MaxMemory {
		m.fail(st, t, 0, ErrResourceLimit, fmt.Sprintf("memory: %d bytes of globals pass the per-run limit of %d bytes",
			m.globals, m.MaxMemory))
	}
}

// maxOutput bounds a run's captured output and any one formatted field
// when the machine has no memory limit (C's printf fails past INT_MAX).
const maxOutput = 1<<31 - 1

// memRoom is the bytes a run may still take for output and temporary
// buffers: the per-run memory limit less its globals, live blocks and
// captured output (maxOutput less the output with no limit).
func (st *State) memRoom() uint64 {
	used := st.Mem.live + uint64(len(st.Out))
	limit := st.Mem.limit
	if limit == 0 {
		limit = maxOutput
	}
	if used >= limit {
		return 0
	}
	return limit - used
}

// Reset turns st back into the initial state, reusing its buffers (memory
// chunks, register stacks, thread records, output): starting another run
// this way allocates nothing in the steady state. States cloned from st
// earlier are unaffected.
func (m *Machine) Reset(st *State) {
	st.Mem.reset(&m.init)
	st.Mem.limit = m.runLimit()
	st.releaseThreads()
	st.Steps, st.Status, st.ExitCode, st.Err, st.condSeq, st.LastThread = 0, Running, 0, nil, 0, -1
	st.Out = st.Out[:0]
	t := st.newThread()
	m.pushFrame(st, t, m.Prog.Funcs[m.Prog.Entry], -1, 0)
	m.setMainArgs(t)
	m.checkGlobals(st, t)
}

// newThread appends a thread, reusing a spare thread record if there is one.
func (st *State) newThread() *Thread {
	t := st.blankThread()
	t.ID = int32(len(st.Threads))
	st.Threads = append(st.Threads, t)
	return t
}

// blankThread returns an empty record: a spare one if there is one.
func (st *State) blankThread() *Thread {
	if k := len(st.spare); k > 0 {
		t := st.spare[k-1]
		st.spare = st.spare[:k-1]
		*t = Thread{Frames: t.Frames[:0], Regs: t.Regs[:0], Allocas: t.Allocas[:0]} // spare records are unshared
		return t
	}
	return &Thread{}
}

// spawnThread adds the thread pthread_create starts. Its id is the lowest
// id of a joined process (waitJoined), whose record it replaces, or a new
// one after the others. POSIX ends a thread id's lifetime when the thread
// is joined, and implementations reuse ids (glibc's pthread_t is the
// address of a recycled descriptor): reusing them keeps the state space of
// a program that creates and joins threads in a loop finite (ldv-races'
// race-4_1), where fresh ids would count the rounds. A process that
// finished detached keeps its id: its end is a step that partial-order
// reduction may take as independent of others' creations
// (explicit/por.go), where a join and a creation are both dependent on
// every step.
func (st *State) spawnThread() *Thread {
	for i := 1; i < len(st.Threads); i++ {
		if o := st.Threads[i]; o.Done && o.Wait == waitJoined {
			t := st.blankThread()
			t.ID = int32(i)
			st.Threads[i] = t
			if release(o) {
				st.spare = append(st.spare, o)
			}
			return t
		}
	}
	return st.newThread()
}

// Clone returns an independent copy of the state; memory is shared
// copy-on-write, threads are copied (the copies owned by the clone).
func (st *State) Clone() *State {
	c := *st
	c.Mem = st.Mem.Clone()
	c.Threads = make([]*Thread, len(st.Threads))
	for i, t := range st.Threads {
		nt := new(Thread)
		copyThread(nt, t, nil)
		c.Threads[i] = nt
	}
	c.Out = append([]byte(nil), st.Out...)
	c.scratch, c.fmtBuf, c.spare, c.room, c.leaks = nil, nil, nil, nil, nil // (scratch: the copy makes its own)
	if st.Err != nil {
		e := *st.Err
		c.Err = &e
	}
	return &c
}

// overLimit reports whether st passed a per-run limit in the step of
// thread t that just ran (a platform call or an alloca) and if so ends the
// run with ErrResourceLimit, naming the limit.
func (m *Machine) overLimit(st *State, t *Thread, pc int32) bool {
	switch {
	case st.Mem.refused != 0:
		m.fail(st, t, pc, ErrResourceLimit, fmt.Sprintf("memory: %d more bytes with %d live%s would pass the per-run limit of %d bytes",
			st.Mem.refused, st.Mem.live, m.globalsNote(), m.MaxMemory))
	case m.MaxProcs > 0 && len(st.Threads) > m.MaxProcs:
		m.fail(st, t, pc, ErrResourceLimit, fmt.Sprintf("processes: more than the per-run limit of %d", m.MaxProcs))
	default:
		return false
	}
	return true
}

// globalsNote names the globals counted against MaxMemory, if any.
func (m *Machine) globalsNote() string {
	if m.globals == 0 {
		return ""
	}
	return fmt.Sprintf(" and %d of globals", m.globals)
}

// pushFrame enters fn in thread t; arguments must be copied by the caller
// into the new frame's parameter slots afterwards (see args).
func (m *Machine) pushFrame(st *State, t *Thread, fn *ir.Func, retDst, retN int32) bool {
	if len(t.Frames) >= m.MaxDepth {
		return false
	}
	base := int32(0)
	if n := len(t.Frames); n > 0 {
		top := &t.Frames[n-1]
		base = top.Base + int32(top.Fn.NRegs)
	}
	need := int(base) + fn.NRegs
	if need > cap(t.Regs) {
		nr := make([]uint64, need, 2*need+64)
		copy(nr, t.Regs)
		t.Regs = nr
	}
	t.Regs = t.Regs[:need]
	// A fresh frame's value slots are zero: stale values of earlier frames
	// (or earlier runs of a reused state) must not reach state hashes.
	clear(t.Regs[base : int(base)+int(fn.ConstBase)])
	copy(t.Regs[int(base)+int(fn.ConstBase):], fn.Consts)
	if m.tls != nil && t.ID != 0 {
		m.remapTLS(st, t, t.Regs[int(base)+int(fn.ConstBase):need])
	}
	t.Frames = append(t.Frames, Frame{Fn: fn, Base: base, RetDst: retDst, RetN: retN,
		AllocaMark: int32(len(t.Allocas)), Atomic: fn.Atomic})
	if fn.Atomic {
		t.Atomic++
	}
	return true
}

// Thread returns the thread with the given id, or nil.
func (st *State) Thread(id int32) *Thread {
	if id < 0 || int(id) >= len(st.Threads) {
		return nil
	}
	return st.Threads[id]
}

// Loc returns the source location of thread t's next instruction.
func (m *Machine) Loc(t *Thread) ir.SrcLoc {
	loc, _ := m.Place(t)
	return loc
}

// Place returns the source location of thread t's next instruction and
// the function it is in. A place in code the loader made (ir.Func
// Synthetic: the exit path of a program that calls atexit) is its
// caller's, the call; a process all of whose frames are such code (main
// has returned into the entry that runs the exit handlers) is at main.
func (m *Machine) Place(t *Thread) (ir.SrcLoc, string) {
	for i := len(t.Frames) - 1; i >= 0; i-- {
		fr := &t.Frames[i]
		if fr.Fn.Synthetic {
			continue
		}
		if int(fr.PC) >= len(fr.Fn.Locs) {
			return fr.Fn.SrcLoc, fr.Fn.Name
		}
		return m.Prog.Locs[fr.Fn.Locs[fr.PC]], fr.Fn.Name
	}
	if len(t.Frames) == 0 {
		return ir.SrcLoc{}, ""
	}
	if i, ok := m.Prog.FuncIdx["main"]; ok {
		return m.Prog.Funcs[i].SrcLoc, "main"
	}
	return ir.SrcLoc{}, t.Frames[0].Fn.Name
}

// Describe says in one line why a run ended.
func (st *State) Describe() string {
	switch st.Status {
	case Exited:
		return fmt.Sprintf("program exited with status %d", st.ExitCode)
	case Deadlock:
		return "deadlock: no process is enabled"
	case AssumeFailed:
		return "__VERIFIER_assume failed: the run is discarded"
	case Failed:
		if st.Err != nil {
			return "error: " + st.Err.Error()
		}
		return "error"
	case StepBound:
		return fmt.Sprintf("step bound reached after %d steps", st.Steps)
	}
	return "running"
}
