package explicit

import (
	"errors"
	"unsafe"

	"github.com/wyvernmc/wyvern/ir"
	"github.com/wyvernmc/wyvern/trace"
	"github.com/wyvernmc/wyvern/vm"
)

// maxInvisibleRun bounds the invisible steps a reduced transition runs, so a
// process spinning in a purely local loop cannot hang the search: the
// transition then ends at the bound (a real state, so nothing is lost but
// reduction).
const maxInvisibleRun = 1000

// gen generates the successors of states under a reduction. Not safe for
// concurrent use.
type gen struct {
	m         *vm.Machine
	red       Reduction
	vis       *visibility
	dead      *deadRegs // dead registers to clear (nil: none; dead.go)
	maxBranch uint64
	scr       *vm.State // the successor being built
	spare     []*vm.State
	fresh     []vm.State // new states, not yet used (take)
	sc        scripted
	nc        noChoice
	en        []int32
	flush     []int32
	// lone, when set (partial-order reduction, por.go), decides the
	// query in a state: cont runs a process alone enabled on until it
	// holds. chained says that the last cont did; othersMoved that it ran
	// processes other than the one that stepped first.
	lone                 func(*vm.State) bool
	chained, othersMoved bool
	// solo says that the successor being emitted is one step that
	// vm.Machine.SoloStep allowed (no reduction ran further steps): its
	// parts hash may be updated with vm.PartsHasher.SuccessorStep.
	solo bool
}

// newGen returns a generator whose steps have the platform behaviours b
// (each behaviour's draws enumerated as value choices are).
func newGen(m *vm.Machine, red Reduction, maxBranch uint64, b vm.Behaviours) *gen {
	g := &gen{m: m, red: red, maxBranch: maxBranch, scr: m.NewState(), sc: scripted{b: b}}
	if red != None {
		g.vis = newVisibility(m.Prog)
	}
	return g
}

// emitFn receives a successor: the state (owned by the generator: take it
// with gen.take, or clone it, to keep it), the process that moved, the
// choice values of its first step and the probability of those choices (the
// scheduler's choice excluded).
type emitFn func(st *vm.State, tid int32, choices []uint64, prob float64) error

// take hands the successor being emitted over to the caller, who then owns
// it, instead of copying it: the generator builds the next successor in a
// spare state (one given back with recycle, or a new one). Only valid
// inside an emitFn.
func (g *gen) take() *vm.State {
	st := g.scr
	if k := len(g.spare); k > 0 {
		g.scr = g.spare[k-1]
		g.spare[k-1] = nil
		g.spare = g.spare[:k-1]
	} else {
		// (states are allocated stateSlab at a time: they are never
		// freed while the search runs, but recycled)
		if len(g.fresh) == 0 {
			g.fresh = make([]vm.State, stateSlab)
		}
		g.scr = &g.fresh[0]
		g.fresh = g.fresh[1:]
	}
	st.GiveSpares(g.scr) // the queue has no use for them
	return st
}

// stateSlab is the number of states take allocates at once: as many as
// fit in vm.SlabBytes.
const stateSlab = int(vm.SlabBytes / unsafe.Sizeof(vm.State{}))

// recycle gives a state the caller no longer needs (an expanded one) to
// the generator, which reuses its buffers for the successors it builds.
// Past maxSpareStates spare states (the queue shrinks: more states are
// expanded than made) the state lets go of what it holds at once and gives
// what it alone held to the successor being built: otherwise the chunks,
// bytes and records of the states no successor reuses stay held, and the
// successors allocate new ones.
func (g *gen) recycle(st *vm.State) {
	if len(g.spare) >= maxSpareStates {
		st.DropInto(g.scr) // (its spare lists went to g.scr when it was taken)
	}
	g.spare = append(g.spare, st)
}

// maxSpareStates is the number of spare states kept whole (see recycle).
const maxSpareStates = 1024

var errInvisibleChoice = errors.New("explicit: internal error: an invisible step made a choice")

// expand calls emit for every successor of s, whose enabled processes are
// en (en must not be a buffer of g). With settle the successors in which no
// process is enabled end as the scheduler ends them (deadlock or exit); the
// exact-probability layer at the step bound leaves them running instead.
func (g *gen) expand(s *vm.State, en []int32, settle bool, emit emitFn) error {
	for _, tid := range en {
		g.sc.start(hintFor(g.m, s, s.Threads[tid]), g.maxBranch)
		for {
			g.m.CopyInto(g.scr, s)
			g.sc.begin()
			solo := g.m.StepEnabled(g.scr, tid, &g.sc) // tid is enabled in s, so in its copy
			g.solo = solo && g.red == None
			if g.sc.err != nil {
				return g.sc.err
			}
			choices, p := g.sc.done()
			g.cont(g.scr, tid, nil)
			if g.nc.asked {
				return errInvisibleChoice
			}
			if settle {
				g.m.SettleEnd(g.scr, tid)
			}
			if g.dead != nil {
				g.dead.clear(g.scr, s)
			}
			if err := emit(g.scr, tid, choices, p); err != nil {
				return err
			}
			if !g.sc.next() {
				break
			}
		}
	}
	return nil
}

// cont completes a reduced transition after process tid's step; with rec
// it records every step it takes. With g.lone (partial-order reduction,
// por.go) it goes on while one process alone is enabled.
func (g *gen) cont(st *vm.State, tid int32, rec *[]trace.Step) {
	g.chained, g.othersMoved = false, false
	if g.red == None {
		return
	}
	if !g.closure(st, tid, rec) || g.lone == nil {
		return
	}
	for n := 0; n < maxInvisibleRun && st.Status == vm.Running && !g.lone(st); n++ {
		g.flush = g.m.EnabledThreads(st, g.flush)
		if len(g.flush) != 1 {
			return
		}
		u := g.flush[0]
		if !g.loneStep(st, st.Threads[u]) {
			return
		}
		g.m.StepOnly(st, u, &g.nc)
		if rec != nil {
			*rec = append(*rec, trace.Step{Thread: u})
		}
		g.chained = true
		if !g.closure(st, u, rec) {
			return
		}
	}
}

// closure runs the invisible steps after process tid's step: its own, and
// under the global reduction every process's. It reports false when a
// process ran maxInvisibleRun invisible steps: it spins on its own state,
// and the transition ends there (the search finds the loop as a state it
// has seen).
func (g *gen) closure(st *vm.State, tid int32, rec *[]trace.Step) bool {
	if g.runInvisible(st, tid, rec) >= maxInvisibleRun {
		return false
	}
	if g.red != Global {
		return true
	}
	for rounds := 0; st.Status == vm.Running && rounds < maxInvisibleRun; rounds++ {
		g.flush = g.m.EnabledThreads(st, g.flush)
		moved := false
		for _, u := range g.flush {
			k := g.runInvisible(st, u, rec)
			if k >= maxInvisibleRun {
				return false
			}
			if k > 0 {
				if u != tid {
					g.othersMoved = true
				}
				moved = true
				break // enabledness may have changed: recompute
			}
		}
		if !moved {
			return true
		}
	}
	return true
}

// loneStep reports whether the next step of process t, alone enabled in
// st, may join a transition (cont with g.lone): it draws no value and, if
// it calls a platform function, one of those that never draw (atomic
// sections, mutexes, joins, thread exit).
func (g *gen) loneStep(st *vm.State, t *vm.Thread) bool {
	if _, draws := g.m.NextDraw(st, t, g.sc.b); draws {
		return false
	}
	_, in := g.m.Next(t)
	if in == nil {
		return false
	}
	switch in.Op {
	case ir.OpCallInd:
		// clang calls a function declared without a prototype, as
		// SV-COMP declares __VERIFIER_atomic_begin(), through a constant
		// pointer: the callee is known from the register, and the call is
		// the direct call's step
		fi := g.m.NextCalleeIndex(t)
		if fi < 0 {
			return false
		}
		if f := g.m.Prog.Funcs[fi]; f.External {
			return neverDraws(f.Builtin)
		}
		return true
	case ir.OpCallB:
		return neverDraws(ir.Builtin(in.B))
	}
	return true
}

// neverDraws reports whether a call of platform function b may join a
// lone process's run (gen.loneStep): it never draws a value or behaviour.
func neverDraws(b ir.Builtin) bool {
	switch b {
	case ir.BAtomicBegin, ir.BAtomicEnd, ir.BMutexLock, ir.BMutexUnlock, ir.BPthreadJoin, ir.BPthreadExit:
		return true
	}
	return false
}

// runInvisible runs process tid while its next instruction is invisible.
// Invisible instructions never block, so a process allowed to step stays
// allowed while it runs them.
func (g *gen) runInvisible(st *vm.State, tid int32, rec *[]trace.Step) int {
	k := 0
	for ; k < maxInvisibleRun && st.Status == vm.Running; k++ {
		t := st.Threads[tid]
		if g.vis.nextVisible(t) || !g.m.Enabled(st, t) || g.vis.ids && g.vis.renumbers(t) && othersAlive(st, tid) {
			break
		}
		g.m.StepOnly(st, tid, &g.nc)
		if rec != nil {
			*rec = append(*rec, trace.Step{Thread: tid})
		}
	}
	return k
}

// othersAlive reports whether a process other than tid has not ended: one
// that may still allocate or free a block id.
func othersAlive(st *vm.State, tid int32) bool {
	for i, u := range st.Threads {
		if int32(i) != tid && !u.Done {
			return true
		}
	}
	return false
}

// replayStep executes one recorded transition (process, choices of its
// first step) on st and appends the single steps it consists of to out.
func (g *gen) replayStep(st *vm.State, tid int32, choices []uint64, settle bool, out []trace.Step) ([]trace.Step, error) {
	ch := trace.NewReplayer(choices)
	if !g.m.StepOnly(st, tid, ch) {
		return out, trace.NotEnabled(st, tid)
	}
	if err := ch.Check(tid); err != nil {
		return out, err
	}
	out = append(out, trace.Step{Thread: tid, Choices: append([]uint64(nil), choices...)})
	g.cont(st, tid, &out)
	if settle {
		g.en = g.m.Settle(st, g.en)
	}
	if g.dead != nil {
		g.dead.clear(st, nil)
	}
	return out, nil
}
