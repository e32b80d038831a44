package vm

import (
	"math/bits"

	"github.com/wyvernmc/wyvern/ir"
)

// Rand is a counter-based pseudo-random generator: the n-th draw is a strong
// mix of (key, n), and the key is derived from (experiment seed, trace index).
// Any trace can therefore be replayed from its (seed, index) alone, whatever
// worker produced it.
type Rand struct {
	key uint64
	ctr uint64
	b   Behaviours // the runs' behaviours (Reset keeps them)
}

// Behaviours returns the behaviours of the generator's runs: the zero
// value (LODIN's platform) until SetBehaviours.
func (r *Rand) Behaviours() Behaviours { return r.b }

// SetBehaviours sets the behaviours of the generator's runs.
func (r *Rand) SetBehaviours(b Behaviours) { r.b = b }

func mix64(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// Mix64 is the SplitMix64 finaliser every seed derivation uses (trace
// generators here, splitting's (replication, stage) seeds): one mixer, so
// that every derived stream is as independent as the others.
func Mix64(z uint64) uint64 { return mix64(z) }

// NewRand returns the generator of trace index under seed.
func NewRand(seed, index uint64) *Rand {
	r := &Rand{}
	r.Reset(seed, index)
	return r
}

// Reset rekeys the generator for (seed, index) and restarts its counter.
func (r *Rand) Reset(seed, index uint64) {
	r.key = mix64(mix64(seed^0x6a09e667f3bcc908) ^ (index * 0x9e3779b97f4a7c15))
	r.ctr = 0
}

// Uint64 returns the next 64 random bits.
func (r *Rand) Uint64() uint64 {
	r.ctr++
	return mix64(r.key ^ mix64(r.ctr*0x9e3779b97f4a7c15))
}

// masks reports whether Choose(n) is Uint64() & (n-1), which the
// interpreter's draws inline: n a power of two, or 0 (64 bits) unless the
// inputs are InputsEdges.
func (r *Rand) masks(n uint64) bool {
	return n&(n-1) == 0 && (n != 0 || r.b.Inputs == InputsUniform)
}

// Choose returns a uniform value in [0, n) (n == 0: any 64-bit value),
// without modulo bias (Lemire's method).
//
// Under Behaviours.Inputs = InputsEdges, Choose(0) returns one of
// EdgeValues with probability 1/2 (one draw decides which, or that it is a
// uniform value, drawn next): still one value a call, so a recorded trace
// replays it as it replays any draw.
func (r *Rand) Choose(n uint64) uint64 {
	if n == 0 {
		if r.b.Inputs == InputsEdges {
			if x := r.Uint64(); x>>63 == 0 {
				return EdgeValues[(x>>32)%uint64(len(EdgeValues))]
			}
		}
		return r.Uint64()
	}
	if n&(n-1) == 0 {
		return r.Uint64() & (n - 1)
	}
	hi, lo := bits.Mul64(r.Uint64(), n)
	if lo < n {
		thresh := -n % n
		for lo < thresh {
			hi, lo = bits.Mul64(r.Uint64(), n)
		}
	}
	return hi
}

// Enabled reports whether thread t can take a step in st: it is not finished,
// not waiting on a condition variable, and its next instruction is not a
// blocking platform call whose condition (its table entry's enabled) fails.
func (m *Machine) Enabled(st *State, t *Thread) bool {
	if st.Status != Running && st.Status != StepBound {
		return false // the run has ended: nobody steps
	}
	if !mayStep(t) {
		return false
	}
	fr := &t.Frames[len(t.Frames)-1]
	in := &fr.Fn.Code[fr.PC]
	return in.Op != ir.OpCallB || m.callEnabled(st, t, fr, in)
}

// mayStep reports whether thread t has a next instruction that may be
// enabled: it is not finished and does not wait on a condition variable.
func mayStep(t *Thread) bool { return !t.Done && len(t.Frames) > 0 && t.Wait != waitCond }

// callEnabled is Enabled for thread t of a running state that mayStep,
// whose next instruction in, of its innermost frame fr, is a platform call.
func (m *Machine) callEnabled(st *State, t *Thread, fr *Frame, in *ir.Inst) bool {
	p := &platform[in.B]
	if p.enabled == nil {
		return true
	}
	return p.enabled(call{m: m, st: st, t: t, b: ir.Builtin(in.B)},
		args{cs: &fr.Fn.Calls[in.Imm], r: t.Regs[fr.Base:]})
}

// EnabledThreads appends the ids of the enabled threads to buf. While a
// thread is inside an atomic section and enabled, it alone is enabled.
func (m *Machine) EnabledThreads(st *State, buf []int32) []int32 {
	buf, _ = m.enabledThreads(st, buf)
	return buf
}

// enabledThreads is EnabledThreads that also reports whether some process
// waits at a blocking platform call whose enabledness reads memory (a
// mutex, a semaphore...): a plain store of another process can change it.
func (m *Machine) enabledThreads(st *State, buf []int32) (_ []int32, memGuard bool) {
	buf = buf[:0]
	for _, t := range st.Threads {
		if t.Atomic > 0 && m.Enabled(st, t) {
			return append(buf, t.ID), m.memGuarded(st)
		}
	}
	for _, t := range st.Threads {
		if m.Enabled(st, t) {
			buf = append(buf, t.ID)
		}
		if !memGuard && guardAt(t) == guardMemory {
			memGuard = true
		}
	}
	return buf, memGuard
}

func (m *Machine) memGuarded(st *State) bool {
	for _, t := range st.Threads {
		if guardAt(t) == guardMemory {
			return true
		}
	}
	return false
}

// Kinds of the condition under which a process's next instruction can
// step.
const (
	guardNone   = iota // always (or the process has finished)
	guardProcs         // a blocking platform call reading process states only
	guardMemory        // a blocking platform call reading memory
)

// guardAt classifies the next instruction of t.
func guardAt(t *Thread) int {
	if t.Done || len(t.Frames) == 0 {
		return guardNone
	}
	fr := &t.Frames[len(t.Frames)-1]
	return guardOf(&fr.Fn.Code[fr.PC])
}

// guardOf classifies instruction in (of a function's own code).
func guardOf(in *ir.Inst) int {
	if in.Op != ir.OpCallB {
		return guardNone
	}
	p := &platform[in.B]
	switch {
	case p.enabled == nil:
		return guardNone
	case p.procGuard:
		return guardProcs
	}
	return guardMemory
}

// Run executes st until it ends or has taken maxSteps steps in total. At
// each step the process is chosen uniformly among the enabled ones with ch;
// while only one process is enabled it runs without drawing.
func (m *Machine) Run(st *State, maxSteps uint64, ch Chooser) {
	m.runObserved(st, maxSteps, ch, nil, Watch{})
}

// Visitor sees one state of a run: t is the process the scheduler picked to
// step from it, nil for the state the run ended in. Returning true stops
// the run there (its status stays Running).
type Visitor func(st *State, t *Thread) bool

// Observe runs st until it ends, has taken maxSteps steps in total, or
// visit stops it, and shows visit every state of the run exactly once, in
// order: each state a step is taken from (after the scheduler's draw, with
// the process that steps), then — unless visit stopped the run — the state
// the run ended in (exit, deadlock, error, failed assumption, step bound),
// with a nil process. The start state is the first one seen (or, for a run
// that cannot take a step, the final one). It reports whether visit
// stopped the run.
//
// This is the one rule of which states a run observes: Pr, Estimate and
// EnumStatesSMC traces, splitting segments and replays all use it, and
// explicit's exact probabilities follow it layer by layer. A state stopped
// at an earlier step bound resumes.
func (m *Machine) Observe(st *State, maxSteps uint64, ch Chooser, visit Visitor) (stopped bool) {
	return m.ObserveWatch(st, maxSteps, ch, Watch{All: true}, visit)
}

// Watch names the parts of a state an observer reads, so that a run can
// skip showing it the states where none of them can have changed.
type Watch struct {
	// All: the observer reads something any step can change (memory,
	// the next instructions of every process...): it sees every state.
	All bool
	// Procs: bit i, the observer reads the control state of process i
	// (its frames, program counter, registers; i < 64). Besides these, an
	// observer may read the processes' finished, waiting and enabled flags
	// at non-blocking calls (which change only at platform calls and when
	// a process finishes) and the run's status (which changes only when the
	// run ends).
	Procs uint64
	// Calls: bit i, the observer reads of process i only the function
	// its next instruction calls, if it is a call ([i.f]): it sees the
	// state after a step of i when i's next instruction is a call or was
	// one before the step (i < 64; a process also in Procs is seen after
	// every step).
	Calls uint64
}

// follows reports whether the observer reads anything of process id's
// control state (Sees, or only its next call).
func (w Watch) follows(id int32) bool {
	return w.Sees(id) || id >= 64 && w.Calls != 0 || id < 64 && w.Calls>>uint(id)&1 != 0
}

// isCall reports whether in (of a function's own code) is a call.
func isCall(in *ir.Inst) bool {
	return in.Op == ir.OpCall || in.Op == ir.OpCallB || in.Op == ir.OpCallInd
}

// Sees reports whether the observer reads the control state of process id.
func (w Watch) Sees(id int32) bool {
	return w.All || id >= 64 && w.Procs != 0 || id < 64 && w.Procs>>uint(id)&1 != 0
}

// ObserveWatch is Observe for an observer that reads only what w names:
// visit sees the start state, the state the run ended in, and every state
// after a step that can have changed something w names (a step of a
// watched process, a platform call, a process finishing, an atomic section
// entered or left). Every state it skips equals the last one it saw in all
// that w names. The run itself — the scheduler's draws, the trace — is
// exactly Observe's: the same (seed, index) gives the same run.
func (m *Machine) ObserveWatch(st *State, maxSteps uint64, ch Chooser, w Watch, visit Visitor) (stopped bool) {
	m.runObserved(st, maxSteps, ch, func(st *State, t *Thread) bool {
		stopped = visit(st, t)
		return stopped
	}, w)
	if !stopped && st.Status != Running {
		stopped = visit(st, nil)
	}
	return stopped
}

// runObserved is Run with obs called before the steps that w says it must
// see (nil: none).
//
// The enabled set is computed once and kept across the steps that cannot
// change it: a step changes which processes are enabled only by a platform
// call, by a process finishing, by entering or leaving an atomic section
// (exec returns at each), by the stepping process reaching a blocking
// call, or — for a process waiting at a call whose enabledness reads
// memory — by a store. The draws are the same as recomputing it at every
// step.
func (m *Machine) runObserved(st *State, maxSteps uint64, ch Chooser, obs Visitor, w Watch) {
	if st.Status == StepBound {
		st.Status = Running
	}
	st.ownAll() // a CopyInto copy shares its processes (share.go); once per run
	rr, _ := ch.(*Rand)
	var buf [16]int32
	en := buf[:0]
	known, memGuard := false, false
	see := true
	slice := false // exec may go on with the next draw itself (see slicer)
	sl := slicer{rr: rr, obs: obs, dist: m.straight, distDef: m.straightDef}
	if obs != nil {
		sl.stop, sl.stopHigh = w.Procs, w.All || w.Procs != 0 || w.Calls != 0
		sl.calls = w.Calls &^ w.Procs
		if w.All {
			sl.stop = ^uint64(0)
		}
		sl.watch = sl.stop | sl.calls
	}
	slices := ^uint64(0) // steps between checks of st.Interrupt
	if st.Interrupt != nil {
		slices = interruptSlice
	}
	for st.Status == Running {
		if st.Steps >= maxSteps {
			st.Status = StepBound
			return
		}
		if st.Interrupt != nil && st.Interrupt.Load() {
			return
		}
		if !known {
			en, memGuard = m.enabledThreads(st, en)
			if len(en) == 0 {
				if m.endNoEnabled(st); st.Status == Running {
					continue // exit(0) started for the exit handlers
				}
				return
			}
			// exec draws the next process itself while several are
			// enabled, and shows the observer the states it must see
			// (a lone watched process then runs on in one call too)
			slice = !memGuard && (len(en) > 1 || obs != nil && w.follows(en[0]))
		}
		var t *Thread
		budget := uint64(1)
		if len(en) == 1 {
			t = st.Threads[en[0]]
			// Alone, it runs on until a scheduling point — unless a
			// waiting process's enabledness reads memory it may store to.
			if !memGuard && (obs == nil || !w.follows(t.ID)) {
				budget = min(maxSteps-st.Steps, slices)
			}
		} else if rr != nil {
			t = st.Threads[en[rr.Choose(uint64(len(en)))]] // ch.Choose, called directly
		} else {
			t = st.Threads[en[ch.Choose(uint64(len(en)))]]
		}
		if obs != nil && see {
			copies := st.copies
			if obs(st, t) {
				return
			}
			if st.copies != copies {
				// The observer copied st (CopyInto shares the process
				// records): take them back before writing them.
				st.ownAll()
				t = st.Threads[t.ID]
			}
		}
		syncs, atomic := st.syncs, t.Atomic
		var n uint64
		if slice {
			sl.en, sl.limit, sl.steps0 = en, min(maxSteps-st.Steps, slices), st.Steps
			switch k := len(en); {
			case k == 1:
				sl.mode = runAlone
			case rr != nil && k&(k-1) == 0:
				sl.mode = runDrawn
			default:
				sl.mode = runOne
			}
			if sl.calls != 0 {
				sl.callAt = 0 // which of the processes followed by call are at one
				for _, id := range en {
					// (an enabled process has a frame)
					if u := st.Threads[id]; id < 64 && sl.calls>>uint(id)&1 != 0 {
						if fr := &u.Frames[len(u.Frames)-1]; isCall(&fr.Fn.Code[fr.PC]) {
							sl.callAt |= 1 << uint(id)
						}
					}
				}
			}
			sl.cur, sl.base, sl.syncs, sl.atomic, sl.run = t.ID, 0, st.syncs, t.Atomic, 1
			sl.drawn = 0
			total := m.exec(st, t, budget, ch, &sl)
			if sl.drawn >= total && sl.drawn != 0 || sl.pend != 0 {
				if st.Status == Running {
					panic("vm: exec stopped inside a pre-drawn run")
				}
				sl.unread(total)
			}
			if sl.stopped {
				return // the observer stopped the run at a state exec showed
			}
			t, syncs, atomic = st.Threads[sl.cur], sl.syncs, sl.atomic
			st.Steps = sl.steps0 + sl.base // the steps before the last draw
			n = total - sl.base
		} else {
			n = m.exec(st, t, budget, ch, nil)
		}
		st.Steps += n
		st.LastThread = t.ID
		if m.Leaks != 0 {
			m.checkLeaks(st, t)
		}
		if n == 0 && st.Status == Running {
			// Only a blocking platform function reached through a function
			// pointer can refuse to step here: Enabled cannot see it.
			m.fail(st, t, t.Frames[len(t.Frames)-1].PC, ErrPthread,
				"blocking pthread function called through a function pointer")
			return
		}
		synced := st.syncs != syncs || t.Atomic != atomic
		known = !synced && !memGuard && guardAt(t) == guardNone
		see = synced || w.follows(t.ID)
	}
}

// interruptSlice is the most steps a run takes between two looks at its
// State.Interrupt (a variable: tests slice runs finely to show that
// slicing changes nothing).
var interruptSlice uint64 = 1 << 16

// slicer carries the scheduler loop into exec (runObserved's steps with
// several processes enabled, one step per draw, or of a lone process the
// observer watches, one step per state that may be shown: see next's
// s.run): after a step that changed
// nothing the loop would recompute — no platform call counted in syncs, no
// atomic section entered or left, the process not at a blocking call, the
// step bound not reached — exec draws the next process from the same
// enabled set with the same chooser (none while one process is enabled)
// and, when the observer watches the process that stepped, shows it the
// state with the process drawn, exactly as the loop would after
// returning, and runs that process without returning. Returning costs
// more than a step (an interpreter call per step was most of a
// multi-threaded run).
type slicer struct {
	en  []int32
	rr  *Rand   // the chooser, when it is a *Rand (called directly)
	obs Visitor // the observer (nil: none)
	// stop: bit i, process i (i < 64) is one the observer watches;
	// stopHigh: so are the processes from 64 on.
	stop     uint64
	stopHigh bool
	// calls: bit i, the observer follows only process i's next call
	// (Watch.Calls); callAt: bit i, process i's next instruction is a call.
	calls  uint64
	callAt uint64
	watch  uint64 // stop | calls: the processes next hands to see
	limit  uint64 // the steps the call may take in all
	steps0 uint64 // st.Steps when the call began
	// cur is the process drawn last, base the steps exec had taken before
	// that draw, syncs and atomic st.syncs and cur.Atomic at that draw.
	cur    int32 // (an id, not a *Thread: en's buffer stays on the stack)
	base   uint64
	syncs  uint64
	atomic int32
	// stopped: the observer stopped the run at a state next showed it;
	// flush: the observer copied the state (exec must drop its cache).
	stopped bool
	flush   bool
	// run: the steps exec may take with cur before it calls next again
	// (see next).
	run uint64
	// dist: the machine's straight distances (straightDists), by function.
	dist [][]uint16
	// distDef: those of states without undefined bytes (nil: dist holds
	// every state's; straightProgram)
	distDef [][]uint16
	// pend: 1 + the process next drew after the last step of the current
	// run, 0 if none (next takes it instead of drawing). drawn: the steps
	// of the call after which next made its last draw in advance (0: none
	// since the call began).
	pend  int32
	mode  uint8 // runOne, runAlone or runDrawn: which runs next gives
	drawn uint64
}

// next is called by exec after the last step it may take for the current
// process t (n steps taken in all; ch the run's chooser; at, t's next
// instruction in its function's own code): it returns the process to go on
// with (t itself while it runs alone), or nil where the scheduler loop
// must look again or the observer stopped the run (s.stopped). s.run is
// then the steps exec may take with it before it calls next again: one,
// or, for a process the observer does not watch at every step (Watch.Procs,
// Watch.All), its straight run: at most its straight distance from its pc
// (straightDists: the least number of instructions, along any path, up to
// the first call, excluded, or return, included), as many as the limit
// leaves. The states after all but the last of them are ones the observer
// does not see (the process is not at a call and was not at one before the
// step), and none of those steps changes which processes are enabled (no
// platform call, no atomic section entered or left, no process finishing,
// no blocking call reached, and the scheduler loop slices only while no
// waiting process's enabledness reads memory). A process alone runs all of it. Among several
// processes, with a *Rand over a power-of-two number of them, next makes
// at once the draws the scheduler would make after each of its steps: the
// run goes on while they draw the process again, and the first draw of
// another one ends it and is pending: the next call takes it instead of
// drawing (the run ends before the straight distance, so nothing above
// can make that call return nil). Those are the same draws in the same
// order, since nothing else draws in a straight run (a draw is a call).
// When exec stops inside a run (an error), runObserved takes back the
// draws made for the steps not taken (see unread).
func (s *slicer) next(st *State, t *Thread, n uint64, ch Chooser, at *ir.Inst) *Thread {
	var u *Thread
	if s.pend != 0 {
		// t's run ended before its straight distance, at a draw of u:
		// nothing changed that the checks below look at, and t is not
		// at a call and was not at one (nor shown before a step, not
		// being watched at every step): no state to show
		u, s.pend = st.Threads[s.pend-1], 0
	} else {
		if n >= s.limit || st.syncs != s.syncs || t.Atomic != s.atomic || guardOf(at) != guardNone {
			return nil
		}
		u = t
		if k := uint64(len(s.en)); k > 1 {
			if r := s.rr; r != nil && k&(k-1) == 0 {
				u = st.Threads[s.en[r.Uint64()&(k-1)]] // r.Choose(k), inlined
			} else if r != nil {
				u = st.Threads[s.en[r.Choose(k)]]
			} else {
				u = st.Threads[s.en[ch.Choose(uint64(len(s.en)))]]
			}
		}
		if id := uint32(t.ID); id < 64 && s.watch>>id&1 != 0 || id >= 64 && s.stopHigh {
			show := true
			if id < 64 && s.stop>>id&1 == 0 {
				// id in s.calls: the observer reads t's next call: it sees
				// the state when t is at a call or was before this step
				show = s.callAt>>id&1 != 0
				if isCall(at) {
					s.callAt |= 1 << id
					show = true
				} else {
					s.callAt &^= 1 << id
				}
			}
			if show {
				// the observer watches t: it sees this state, as
				// runObserved shows it (after the draw, with the
				// process drawn)
				st.Steps, st.LastThread = s.steps0+n, t.ID
				copies, epoch := st.copies, st.Mem.epoch
				if s.obs(st, u) {
					s.stopped = true
					return nil
				}
				if st.copies != copies {
					// it copied st (CopyInto shares the process
					// records): take them back before writing them
					st.ownAll()
					u = st.Threads[u.ID]
					s.flush = true
				}
				if st.Mem.epoch != epoch {
					s.flush = true // the memory shares what it owned
				}
			}
		}
	}
	s.cur, s.base, s.atomic = u.ID, n, u.Atomic
	s.run = 1
	if id := uint32(u.ID); s.mode != runOne && id < 64 && s.stop>>id&1 == 0 {
		// u's straight run (u != t only among several processes)
		fr := &u.Frames[len(u.Frames)-1]
		h := uint64(1) // (a machine without a table: one step, a lower bound)
		dist := s.dist
		if st.Mem.undef == 0 && s.distDef != nil {
			dist = s.distDef // (no load draws before an alloca makes undefined bytes)
		}
		if f := uint(fr.Fn.Index); f < uint(len(dist)) {
			h = uint64(dist[f][fr.PC])
		}
		h = min(h, s.limit-n)
		if s.mode == runAlone {
			s.run = max(h, 1)
		} else if h > 1 {
			// the draws after each of its steps but the last
			r, k, run := s.rr, uint64(len(s.en)-1), uint64(1)
			for ; run < h; run++ {
				if v := s.en[r.Uint64()&k]; v != u.ID {
					s.pend = v + 1
					s.run, s.drawn = run, n+run
					return u
				}
			}
			s.run, s.drawn = run, n+run-1
		}
	}
	return u
}

// The slicer's modes (next's runs): runOne, every process runs one step
// per call of next; runAlone, a lone process runs its straight runs;
// runDrawn, several processes, drawn by a *Rand over a power-of-two
// number of them, run straight runs with their draws made at once.
const (
	runOne = iota
	runAlone
	runDrawn
)

// unread takes back, when exec stopped after total steps inside a run whose
// draws next made at once (an error), the draws for the steps after the
// last one taken: the generator is left as the scheduler, drawing after
// each step, would leave it.
func (s *slicer) unread(total uint64) {
	s.pend = 0
	if s.drawn < total || s.drawn == 0 {
		return
	}
	// The draws were made after each step up to drawn (one each, with a
	// power-of-two number of processes); the scheduler made those before
	// step total only.
	s.rr.ctr -= s.drawn - total + 1
	s.drawn = 0
}

// Step executes exactly one step of thread tid (for explicit-state search and
// replay). It returns false if the thread is not enabled.
func (m *Machine) Step(st *State, tid int32, ch Chooser) bool {
	t := st.Thread(tid)
	if t == nil || st.Status != Running || !m.Enabled(st, t) {
		return false
	}
	st.ownAll() // a CopyInto copy shares its processes (share.go)
	t = st.Threads[tid]
	n := m.exec(st, t, 1, ch, nil)
	st.Steps += n
	st.LastThread = tid
	if m.Leaks != 0 {
		m.checkLeaks(st, t)
	}
	if st.Status == Running {
		if len(m.EnabledThreads(st, nil)) == 0 {
			m.endNoEnabled(st)
		}
	}
	return n > 0
}

// exitHandlers starts, in a new process, exit(0) when the last process
// has ended after main called pthread_exit and exit handlers are
// registered (POSIX: as if exit(0) were called at the last thread's
// termination), and reports whether it did: the run goes on.
func (m *Machine) exitHandlers(st *State) bool {
	if m.atexitExit == nil {
		return false
	}
	if n, e := st.Mem.Load(m.atexitCount, 4); e != ErrNone || n == 0 {
		return false
	}
	t := st.spawnThread()
	if !m.pushFrame(st, t, m.atexitExit, -1, 0) { // (a depth of 1)
		return false
	}
	t.Regs[m.atexitExit.Params[0]] = 0
	st.syncs++
	if m.tls != nil {
		m.newTLS(call{m: m, st: st, t: t}, t) // (failing, it fails the run at t's first instruction)
	}
	return true
}

func (m *Machine) endNoEnabled(st *State) {
	for _, t := range st.Threads {
		if !t.Done {
			st.Status = Deadlock
			return
		}
	}
	// every process finished (main called pthread_exit)
	if m.exitHandlers(st) {
		return
	}
	st.Status = Exited
	st.ExitCode = 0
	if m.Leaks != 0 {
		m.checkLeaks(st, st.Threads[0])
	}
}
