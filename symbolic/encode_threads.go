package symbolic

import (
	"fmt"

	"github.com/wyvernmc/wyvern/ir"
	"github.com/wyvernmc/wyvern/vm"
)

// Threads: bounded context switches by eager round-robin sequentialisation
// (Lal and Reps, "Reducing concurrent analysis under a context bound to
// sequential analysis", 2009), on the merged symbolic execution above.
//
// A schedule is R rounds; in each round every thread runs one context (of
// zero or more steps), in creation order: the entry function first, then
// the threads in the order the encoder meets their pthread_create calls
// (a creator always comes before the threads it creates). Each thread is
// encoded once, sequentially, as in the single-threaded case; what other
// threads do between its contexts is summarised by the shared state at
// the start of each of its rounds. For the first thread, the shared state
// at the start of rounds 1..R-1 is guessed (free constants); a thread's
// round r starts where the previous thread's round r ended; and the last
// thread's round r must end in the first thread's guess for round r+1.
// So every model is a real interleaving: thread t's round r reads exactly
// what the threads before it in that round, and all threads in earlier
// rounds, left.
//
// The shared state is everything a step of one thread can change that
// another can read: memory (bytes, block kinds and sizes), the allocation
// counter and the stack of dead stack blocks (the vm reuses their ids),
// the per-call-site input counters (the k-th execution of a choosing call
// in global order gets the witness's k-th value), the number of threads,
// which have finished and what they returned, condition-variable waiters
// and their arrival order, and whether the run has ended (exit, main's
// return, an error, a failed assumption). Registers, frames and allocas are
// the thread's own.
//
// A thread may end its context before any load, store or platform call
// (outside atomic sections): a fresh Bool chooses to, and a fresh round
// number greater than the current one says where it goes on (skipping
// rounds: empty contexts). Switching only there is sound — every encoded
// schedule is a schedule of the vm — and loses nothing that matters:
// register instructions commute with the other threads' steps. A thread
// that blocks (a held mutex, a join of a running thread, a wait not yet
// signalled) or whose path ends (its return, an error, an unwinding cut)
// stops: its remaining rounds are empty. A violation counts only while
// the run has not ended. Nothing found is therefore "no violation within
// R rounds", never a proof: verdicts on threaded programs are satisfied or
// incomplete.
//
// R rounds cover every schedule of at most R context switches (the first
// switch leaves the entry function, which runs first, so at most R-1
// switches go back to an earlier thread, each starting a new round), and
// many schedules with more.
//
// Witnesses: each thread's step count at the end of each round is in the
// model, so the schedule is replayed step by step in the vm (bmc.go).

// DefaultContexts is the round bound of threaded programs when none is given.
const DefaultContexts = 3

// maxRounds bounds the round numbers (8-bit terms).
const maxRounds = 200

// ThreadInfo is one thread of a threaded encoding, in round-robin order.
type ThreadInfo struct {
	Func string
	// The vm's thread id: TidName names it in the model, else it is Tid.
	TidName string
	Tid     uint64
	// Steps[r] names the thread's step count at the end of its round-r
	// context (all of them 0 for a thread the run never creates;
	// 0xffffffff from the round it reaches the violation: run it until
	// the violation shows).
	Steps []string
}

// slot is a thread of the encoding.
type slot struct {
	fn      *ir.Func
	created Term     // the guard of its pthread_create (any entry's)
	entries []entry  // its creation, per round of the creator
	tid     val      // 32 bits
	start   []shared // per round: the shared state when its context starts
	end     []shared // per round: when its context ends
	es      []Term   // per round: its step count at the end of its context
	events  []event  // where its contexts end (defining end and es)
	// its end: fin is the round it returns in (rounds when it does not),
	// rv its result
	fin, rv Term
	ends    []event
	rvs     []val
}

// entry is a thread's creation by its creator in one round: where g
// holds, the thread starts in round round with id tid and argument arg.
type entry struct {
	g     Term
	round int
	tid   val
	arg   val
	// partial-order encodings: the creation's clock, the state then
	clk Term
	sh  shared
}

// event is the end of a context of the thread: where g holds, the context
// of round rnd ends with shared state sh after steps steps, and the
// thread goes on in round next (a switch) or never again (a stop: next
// is -1). The rounds in between are empty.
type event struct {
	g         Term
	rnd, next int
	sh        shared
	steps     Term
}

// shared is the state threads share (see above).
type shared struct {
	mem, kind, size    *lmap
	wcv, wseq          *lmap // by thread id
	halted, nthr, cseq val
	cnt                []val // by input index
}

// pthreadBuiltin reports whether b is a pthread function the threaded
// encoding handles.
func pthreadBuiltin(b ir.Builtin) bool {
	switch b {
	case ir.BPthreadCreate, ir.BPthreadJoin, ir.BPthreadExit, ir.BPthreadSelf, ir.BPthreadEqual,
		ir.BMutexInit, ir.BMutexLock, ir.BMutexTrylock, ir.BMutexUnlock, ir.BMutexDestroy,
		ir.BCondInit, ir.BCondWait, ir.BCondSignal, ir.BCondBroadcast, ir.BCondDestroy,
		ir.BRwlockInit, ir.BRwlockRdlock, ir.BRwlockWrlock, ir.BRwlockTryrdlock, ir.BRwlockTrywrlock,
		ir.BRwlockUnlock, ir.BRwlockDestroy, ir.BOnce, ir.BAttrInit:
		return true
	}
	return false
}

// Threaded reports whether p calls pthread functions: its BMC encoding is
// the threaded one, its verdicts satisfied or incomplete.
func Threaded(p *ir.Program) bool {
	for _, f := range p.Funcs {
		for i := range f.Code {
			in := &f.Code[i]
			if in.Op == ir.OpCallB && pthreadBuiltin(ir.Builtin(in.B)) {
				return true
			}
		}
	}
	return false
}

// scanThreads sets up the threaded encoding: every input site declared up
// front (the shared input counters have a fixed shape).
func (e *encoder) scanThreads() error {
	e.blk = e.p.FirstDynBlock
	e.priv, e.psize, e.privOf = map[uint32]bool{}, map[uint32]uint64{}, map[int]map[int32]bool{}
	e.tsize = map[uint32]uint64{}
	for _, g := range e.p.Globals {
		e.tsize[g.Block] = uint64(g.Size)
	}
	e.created, e.ids = map[int]*slot{}, map[int]uint32{}
	for _, f := range e.p.Funcs {
		e.atomics = e.atomics || f.Atomic
		for pc := range f.Code {
			in := &f.Code[pc]
			b, ok := e.choosingCall(f, in)
			if !ok {
				continue
			}
			switch b {
			case ir.BAtomicBegin:
				e.atomics = true
			case ir.BNondet, ir.BUniform, ir.BCoin:
				if in.Imm >= uint64(len(f.Calls)) {
					return fmt.Errorf("%s: call site %d out of range", e.where(f, int32(pc)), in.Imm)
				}
				e.declareInput(f, int32(pc), b, &f.Calls[in.Imm])
			}
		}
	}
	return nil
}

// choosingCall is the platform function a call instruction calls: a
// direct one, or one through a constant function pointer (an ILP32 module
// calls an unprototyped __VERIFIER_nondet_* so).
func (e *encoder) choosingCall(f *ir.Func, in *ir.Inst) (ir.Builtin, bool) {
	switch in.Op {
	case ir.OpCallB:
		return ir.Builtin(in.B), true
	case ir.OpCall, ir.OpCallInd:
		if in.Imm >= uint64(len(f.Calls)) {
			return 0, false
		}
		cs := &f.Calls[in.Imm]
		var callee *ir.Func
		if in.Op == ir.OpCall {
			if cs.Callee >= 0 && int(cs.Callee) < len(e.p.Funcs) {
				callee = e.p.Funcs[cs.Callee]
			}
		} else if k := cs.FnSlot - f.ConstBase; cs.FnSlot >= f.ConstBase && int(k) < len(f.Consts) {
			callee = e.funcOf(f.Consts[k])
		}
		if callee != nil && callee.External {
			return callee.Builtin, true
		}
	}
	return 0, false
}

// initThreads adds the threaded fields to the initial state.
func (e *encoder) initThreads(s *pstate) {
	s.rnd, s.steps, s.halted = cst(0, 8), cst(0, 32), cst(0, 1)
	s.nthr, s.cseq = cst(1, 32), cst(0, 32)
	for i := range e.inputs {
		s.cnt[i] = cst(0, 32)
	}
}

// sharedOf is a snapshot of s's shared state.
func (e *encoder) sharedOf(s *pstate) shared {
	e.settle(s)
	sh := shared{mem: s.tm.mem.copyOf(), kind: s.tm.kind.copyOf(), size: s.tm.size.copyOf(),
		wcv: s.tm.wcv.copyOf(), wseq: s.tm.wseq.copyOf(),
		halted: s.halted, nthr: s.nthr, cseq: s.cseq, cnt: make([]val, len(e.inputs))}
	for i := range sh.cnt {
		if v, ok := s.cnt[i]; ok {
			sh.cnt[i] = v
		} else {
			sh.cnt[i] = cst(0, 32)
		}
	}
	return sh
}

// setShared makes s go on from shared state sh (its memory a new layer
// over sh's).
func (e *encoder) setShared(s *pstate, sh shared) {
	s.tm.mem, s.tm.kind, s.tm.size = newLayer(sh.mem), newLayer(sh.kind), newLayer(sh.size)
	s.tm.wcv, s.tm.wseq = newLayer(sh.wcv), newLayer(sh.wseq)
	s.halted, s.nthr, s.cseq = sh.halted, sh.nthr, sh.cseq
	s.cnt = make(map[int]val, len(sh.cnt))
	for i, v := range sh.cnt {
		s.cnt[i] = v
	}
}

// guessShared is the guessed start of round r of the first thread.
func (e *encoder) guessShared(r int) shared {
	v := func(suffix string, w int) val {
		e.terms++
		return val{t: e.q.Declare(fmt.Sprintf("g%d%s", r, suffix), BitVec(w)), w: w}
	}
	sh := shared{halted: v("h", 1), nthr: v("t", 32), cseq: v("q", 32), cnt: make([]val, len(e.inputs))}
	sh.mem, sh.kind, sh.size, sh.wcv, sh.wseq = e.guessMaps(r)
	for i := range sh.cnt {
		sh.cnt[i] = v(fmt.Sprintf("c%d", i), 32)
	}
	return sh
}

// defineScalars defines a guess's scalars as the state b.
func (e *encoder) defineScalars(a, b shared) {
	sc := func(x, y val, w int) {
		e.q.Assert(eqT(e.bv(x, w), e.bv(y, w)))
		e.terms++
	}
	sc(a.halted, b.halted, 1)
	sc(a.nthr, b.nthr, 32)
	sc(a.cseq, b.cseq, 32)
	for i := range a.cnt {
		sc(a.cnt[i], b.cnt[i], 32)
	}
}

// iteShared is (c ? a : b), component by component; a's layers are over
// b's (or over the same parent).
func (e *encoder) iteShared(c Term, a, b shared) shared {
	out := shared{
		mem: e.iteLayer(c, a.mem, b.mem), kind: e.iteLayer(c, a.kind, b.kind),
		size: e.iteLayer(c, a.size, b.size), wcv: e.iteLayer(c, a.wcv, b.wcv), wseq: e.iteLayer(c, a.wseq, b.wseq),
		halted: e.sel(c, a.halted, b.halted), nthr: e.sel(c, a.nthr, b.nthr), cseq: e.sel(c, a.cseq, b.cseq),
		cnt: make([]val, len(a.cnt)),
	}
	for i := range out.cnt {
		out.cnt[i] = e.sel(c, a.cnt[i], b.cnt[i])
	}
	return out
}

// implies asserts g ⇒ c.
func (e *encoder) implies(g, c Term) {
	if g == "false" || c == "true" {
		return
	}
	e.q.Assert(Implies(g, c))
	e.terms++
}

// settle adds the pending step offset to the step count.
func (e *encoder) settle(s *pstate) {
	if s.soff != 0 {
		s.steps = e.inc32(s.steps, int64(s.soff))
		s.soff = 0
	}
}

// live is the Bool "the run has not ended" (always true single-threaded).
func (e *encoder) live(s *pstate) Term {
	if !e.threaded || e.po != nil {
		return "true"
	}
	if s.halted.isConst() {
		return Bool(s.halted.c == 0)
	}
	return eqT(e.bv(s.halted, 1), BV(0, 1))
}

// allSteps marks a context that runs until the violation.
const allSteps = 0xffffffff

// stop ends the current thread where g holds (its path ends, or it blocks
// for good): its current context ends with the state of s (the run ended
// too when halt), its later rounds are empty. atViolation: the context
// runs to the violation (its step count is allSteps).
func (e *encoder) stop(s *pstate, g Term, halt, atViolation bool) {
	if !e.threaded || g == "false" {
		return
	}
	if e.po != nil {
		if halt && !atViolation {
			e.poMarkAt(s, g, poHalt)
		}
		return
	}
	g = e.defBool(g)
	sh := e.sharedOf(s)
	if halt {
		sh.halted = cst(1, 1)
	}
	steps := e.bv(s.steps, 32)
	if atViolation {
		steps = BV(allSteps, 32)
	}
	e.th.events = append(e.th.events, event{g: g, rnd: int(s.rnd.c), next: -1, sh: sh, steps: steps})
}

// visible reports whether a thread may switch before in: loads, stores and
// platform calls.
func visible(op ir.Op) bool {
	switch op {
	case ir.OpLoad, ir.OpStore, ir.OpLoadAgg, ir.OpStoreAgg, ir.OpCallB:
		return true
	}
	return false
}

// switchBefore reports whether a thread may switch before in (the
// round-robin encoding's switch points): a load or store, a platform call
// — direct, or through a constant function pointer, as an unprototyped
// __VERIFIER_atomic_begin() is called in SV-COMP's files (before
// 2026-11-28 such a call was no switch point, so the rounds left out every
// schedule that switches between two atomic sections, and `--rounds-only
// --complete` proved a program whose violation needs one) —, a call of a
// __VERIFIER_atomic_ function, or main's return.
func (e *encoder) switchBefore(fn *ir.Func, in *ir.Inst) bool {
	if visible(in.Op) || e.atomicCall(fn, in) || e.mainReturn(in) {
		return true
	}
	_, platform := e.choosingCall(fn, in)
	return platform
}

// atomicCall reports whether in calls a __VERIFIER_atomic_ function,
// directly or through a constant function pointer: a switch may come
// before it (none inside).
func (e *encoder) atomicCall(fn *ir.Func, in *ir.Inst) bool {
	if (in.Op != ir.OpCall && in.Op != ir.OpCallInd) || in.Imm >= uint64(len(fn.Calls)) {
		return false
	}
	cs := &fn.Calls[in.Imm]
	if in.Op == ir.OpCallInd {
		if k := cs.FnSlot - fn.ConstBase; cs.FnSlot >= fn.ConstBase && int(k) < len(fn.Consts) {
			callee := e.funcOf(fn.Consts[k])
			return callee != nil && callee.Atomic
		}
		return false
	}
	c := cs.Callee
	return c >= 0 && int(c) < len(e.p.Funcs) && e.p.Funcs[c].Atomic
}

// mainReturn reports whether in is the return of main, which ends the
// run: the other threads may run before it.
func (e *encoder) mainReturn(in *ir.Inst) bool {
	return in.Op == ir.OpRet && e.depth == 0 && len(e.slots) > 0 && e.th == e.slots[0]
}

// ownAccess reports whether in is a load or store of the thread's own
// stack (no other thread sees it: no switch needed before it).
func (e *encoder) ownAccess(s *pstate, in *ir.Inst) bool {
	if in.Op != ir.OpLoad && in.Op != ir.OpStore {
		return false
	}
	if int(in.A) >= len(s.regs) || in.A < 0 {
		return false
	}
	p := s.regs[in.A]
	return p.isConst() && e.private(p.c>>32)
}

// switchPoint lets the current thread end its context before the next
// instruction: s goes on in its round where a fresh round number nr says
// so, and for each later round r a copy of s goes on in round r from the
// shared state that round starts with, where nr = r (the rounds between
// are empty). Rounds are constants of the path states, so the state of a
// round depends only on the starts of rounds up to it, and the guesses of
// the first thread's round starts are plain definitions. Returns the
// copies.
func (e *encoder) switchPoint(s *pstate) []*pstate {
	if !e.threaded || s.g == "false" || s.atomic > 0 {
		return nil
	}
	e.countSwitch(s)
	k := int(s.rnd.c)
	if k >= e.rounds-1 {
		return nil // the last round
	}
	e.settle(s)
	nr := e.q.Declare(e.fresh("nr"), BitVec(8))
	e.terms++
	g0 := s.g
	e.implies(g0, and2(BVULE(BV(uint64(k), 8), nr), BVULT(nr, BV(uint64(e.rounds), 8))))
	sh := e.sharedOf(s)
	steps := e.bv(s.steps, 32)
	var forks []*pstate
	for r := k + 1; r < e.rounds; r++ {
		c := e.defBool(and2(g0, eqT(nr, BV(uint64(r), 8))))
		e.th.events = append(e.th.events, event{g: c, rnd: k, next: r, sh: sh, steps: steps})
		f := s.clone()
		f.g, f.rnd = c, cst(uint64(r), 8)
		e.setShared(f, e.th.start[r])
		forks = append(forks, f)
	}
	s.g = e.defBool(and2(g0, eqT(nr, BV(uint64(k), 8))))
	return forks
}

// encodeThreads encodes a threaded program from its initial state s.
func (e *encoder) encodeThreads(s *pstate) error {
	R := e.rounds
	main := &slot{fn: e.p.Funcs[e.p.Entry], created: "true", tid: cst(0, 32)}
	main.start = make([]shared, R)
	main.start[0] = e.sharedOf(s)
	main.start[0].mem, main.start[0].kind, main.start[0].size = s.tm.mem.parent, s.tm.kind.parent, s.tm.size.parent
	main.start[0].wcv, main.start[0].wseq = s.tm.wcv.parent, s.tm.wseq.parent
	for r := 1; r < R; r++ {
		main.start[r] = e.guessShared(r)
	}
	e.slots = []*slot{main}
	for i := 0; i < len(e.slots); i++ {
		sl := e.slots[i]
		sl.fin = e.q.Declare(fmt.Sprintf("fin%d", i), BitVec(8))
		sl.rv = e.q.Declare(fmt.Sprintf("rv%d", i), BitVec(64))
		e.terms += 2
		if i > 0 {
			sl.start = e.slots[i-1].end
		}
		e.th = sl
		sts := []*pstate{s}
		if i > 0 {
			sts = nil
			for _, en := range sl.entries {
				st := &pstate{g: en.g, regs: e.frameRegs(sl.fn), cnt: map[int]val{},
					rnd: cst(uint64(en.round), 8), steps: cst(0, 32), next: s.next, flen: cst(0, 32),
					tm: &tmaps{pmem: newLayer(nil), pkind: newLayer(nil)}}
				e.setShared(st, sl.start[en.round])
				if len(sl.fn.Params) > 0 && int(sl.fn.Params[0]) < len(st.regs) {
					st.regs[sl.fn.Params[0]] = en.arg
				}
				if sl.fn.Atomic { // a __VERIFIER_atomic_ start routine: the vm's thread starts inside its section
					st.atomic = 1
				}
				sts = append(sts, st)
			}
		}
		rets, err := e.runFrom(sl.fn, sts)
		if err != nil {
			return err
		}
		for _, ret := range rets {
			if i == 0 {
				e.stop(ret, ret.g, true, false) // main returned: the run ends
				continue
			}
			rv := cst(0, 64)
			if len(ret.ret) > 0 {
				rv = ret.ret[0]
			}
			e.finish(ret, rv)
			e.stop(ret, ret.g, false, false)
		}
		e.contextEnds(sl, i)
	}
	// The guesses are definitions: round r of any thread depends only on
	// the starts of rounds up to r.
	last := e.slots[len(e.slots)-1]
	for r := 1; r < R; r++ {
		e.defineScalars(main.start[r], last.end[r-1])
	}
	e.defineGuesses()
	if e.usesCond && len(e.slots) > condThreads {
		return fmt.Errorf("symbolic: encode: %d threads and condition variables: at most %d are supported by the BMC encoder yet", len(e.slots), condThreads)
	}
	for _, f := range e.deferred {
		f(len(e.slots))
	}
	for i, sl := range e.slots {
		ti := e.threadInfo(i, sl)
		for _, t := range sl.es {
			ti.Steps = append(ti.Steps, string(t))
			e.q.Want(string(t))
		}
		e.threads = append(e.threads, ti)
	}
	return nil
}

// contextEnds defines a thread's shared state and step count at the end
// of each round from its events: the state of the event that ends its
// context in that round, else (the thread does not run then: not created
// yet or at all, a skipped round, after its end) the state it started in;
// the step count of the event whose context ends in or before that round
// and goes on after it, else 0. And the round it finished in, and its
// result.
func (e *encoder) contextEnds(sl *slot, i int) {
	R := e.rounds
	sl.end = make([]shared, R)
	sl.es = make([]Term, R)
	for r := 0; r < R; r++ {
		sh := sl.start[r]
		steps := BV(0, 32)
		for k := len(sl.events) - 1; k >= 0; k-- {
			ev := &sl.events[k]
			if ev.rnd == r {
				sh = e.iteShared(ev.g, ev.sh, sh)
			}
			if ev.rnd <= r && (ev.next < 0 || r < ev.next) {
				steps = ite(ev.g, ev.steps, steps)
			}
		}
		sl.end[r] = sh
		name := fmt.Sprintf("es%d_%d", i, r)
		e.q.Declare(name, BitVec(32))
		e.q.Assert(Eq(Term(name), steps))
		e.terms++
		sl.es[r] = Term(name)
	}
	fin, rv := BV(uint64(R), 8), BV(0, 64)
	for k, ev := range sl.ends {
		fin = ite(ev.g, BV(uint64(ev.rnd), 8), fin)
		rv = ite(ev.g, e.bv(sl.rvs[k], 64), rv)
	}
	e.q.Assert(Eq(sl.fin, fin))
	e.q.Assert(Eq(sl.rv, rv))
	e.terms += 2
	sl.events = nil
}

// finish records the current thread's end (where s.g holds) and result.
func (e *encoder) finish(s *pstate, rv val) {
	if s.g == "false" {
		return
	}
	if e.po != nil {
		saved := e.curCallB
		e.curCallB = false // the thread's last step is counted
		i := e.poMarkAt(s, s.g, poMark)
		e.po.grps[i].secExit = e.po.grps[i].sec != "" // a thread that ends inside a section leaves it (the vm runs the others)
		e.curCallB = saved
		e.po.ends[e.thIndex()] = append(e.po.ends[e.thIndex()], poEnd{grp: i, rv: rv})
	}
	e.th.ends = append(e.th.ends, event{g: e.defBool(s.g), rnd: int(s.rnd.c)})
	e.th.rvs = append(e.th.rvs, rv)
}

// condWrite stores the n bytes of v at p where c holds (with the vm's
// checks of the store there), leaving memory as it is elsewhere.
func (e *encoder) condWrite(s *pstate, c Term, p val, v Term, n int) {
	if c == "false" {
		return
	}
	if c == "true" {
		e.access(s, p, BV(uint64(n), 64), true)
		if s.g != "false" {
			e.writeBytes(s, p, v, n)
		}
		return
	}
	skip := s.clone()
	skip.g = e.defBool(and2(s.g, not(c)))
	s.g = e.defBool(and2(s.g, c))
	e.access(s, p, BV(uint64(n), 64), true)
	if s.g != "false" {
		e.writeBytes(s, p, v, n)
	}
	m, err := e.merge([]*pstate{s, skip})
	if err != nil {
		e.fail(err)
		return
	}
	if m != nil {
		*s = *m
	} else {
		s.g = "false"
	}
}

// blockWhere ends the current thread for good where c holds (it waits for
// something that will not come within the rounds left); the path goes on
// where it does not.
func (e *encoder) blockWhere(s *pstate, c Term) { e.blockOn(s, c, nil) }

// parkKey is the key of the shared wcv map (encode_tmem.go) under which
// the round-robin encoding keeps the address of the lock a thread blocked
// inside an atomic section waits for (0: none); thread ids, the other
// keys, are below 2^32.
const parkKey = 1 << 40

// blockOn is blockWhere; lock, where not nil, is the word of the mutex or
// rwlock the thread waits for.
//
// Ending a blocked thread's rounds is not scheduling it again, which the
// vm's scheduler may do, except inside an atomic section: the vm runs the
// others while the thread is blocked there, but the thread alone once it
// can go on (vm.Machine.EnabledThreads). So in the round-robin encoding a
// thread blocked inside a section waiting for a lock parks: its address
// goes under parkKey in the shared state, the others go on, and the run
// ends (nothing after counts) at the next unlock of that address
// (atomicWake), where the vm would resume the parked thread. Any other
// block inside a section (a join, a condition wait, a second parked
// thread) ends the run at once. Either way the executions after are not
// followed, so no proof is claimed (encoder/mt_atomic_lock_after.c).
// Before 2026-11-29 the thread just stopped, the others going on after
// the unlock as if the vm could leave it blocked, and --complete proved
// encoder/mt_atomic_lock_resume.c, whose error needs the parked thread
// to resume, wrongly. (The partial-order encoding refuses a blocking call
// inside a section.)
func (e *encoder) blockOn(s *pstate, c Term, lock *val) {
	if c == "false" {
		return
	}
	g := and2(s.g, c)
	if !e.threaded || e.po != nil || s.atomic == 0 || g == "false" {
		e.stop(s, g, false, false)
		s.g = e.defBool(and2(s.g, not(c)))
		return
	}
	e.refuseProof("a thread may block inside an atomic section, where the vm runs it again as soon as it can go on: the round-robin rounds end the run there")
	g = e.defBool(g)
	if lock == nil {
		e.stop(s, g, true, false)
		s.g = e.defBool(and2(s.g, not(c)))
		return
	}
	old := s.tm.wcv.get(parkKey)
	free := eqT(e.bv(old, 64), BV(0, 64))
	if old.isConst() {
		free = Bool(old.c == 0)
	}
	e.stop(s, and2(g, not(free)), true, false) // another thread is parked
	park := e.defBool(and2(g, free))
	if park != "false" {
		saved := s.tm.wcv.own[parkKey]
		_, had := s.tm.wcv.own[parkKey]
		s.tm.wcv.own[parkKey] = e.sel(park, val{t: e.bv(*lock, 64), w: 64}, old)
		e.stop(s, park, false, false)
		if had {
			s.tm.wcv.own[parkKey] = saved
		} else {
			delete(s.tm.wcv.own, parkKey)
		}
	}
	s.g = e.defBool(and2(s.g, not(c)))
}

// atomicWake ends the run after an unlock (a wait's release, an init) of
// the lock at p (s: after its write) where a thread parked inside an
// atomic section waits for it (blockOn): the vm runs that thread next. A
// plain store to the lock's word is not looked at: a model going on past
// one that frees the lock would not replay (an internal error, never a
// verdict: no proof is claimed).
func (e *encoder) atomicWake(s *pstate, p val) {
	if !e.threaded || e.po != nil || !e.atomics || s.g == "false" {
		return
	}
	pk := s.tm.wcv.get(parkKey)
	if pk.isConst() && pk.c == 0 {
		return
	}
	t := e.bv(pk, 64)
	wake := e.defBool(and2(s.g, and2(not(eqT(t, BV(0, 64))), eqT(t, e.bv(p, 64)))))
	s.halted = e.sel(wake, cst(1, 1), s.halted)
}

// loadWord checks a load of the 4-byte word at p and returns it.
func (e *encoder) loadWord(s *pstate, p val) val {
	e.access(s, p, BV(4, 64), false)
	if s.g == "false" {
		return cst(0, 32)
	}
	return e.tRead(s, p, 4)
}

// isW is the Bool v == c for a 32-bit word.
func (e *encoder) isW(v val, c uint64) Term {
	if v.isConst() {
		return Bool(v.c&0xffffffff == c)
	}
	return eqT(e.bv(v, 32), BV(c, 32))
}

const eBusy = 16 // EBUSY, as the vm returns it

// threadBuiltin encodes the pthread functions (vm/platform.go) for the
// current thread.
func (e *encoder) threadBuiltin(fn *ir.Func, pc int32, s *pstate, b ir.Builtin, cs *ir.CallSite) (*pstate, error) {
	tid := e.th.tid
	owner := e.inc32(tid, 1) // a held mutex word: owner's id + 1
	ret := func(v val) { setRet(s, cs, v) }
	zero := cst(0, retBits(cs))
	switch b {
	case ir.BPthreadCreate:
		fp := arg(s, cs, 2)
		if !fp.isConst() {
			return nil, e.unsupported(fn, pc, "pthread_create of a start routine that is not a constant function pointer")
		}
		callee := e.funcOf(fp.c)
		if callee == nil || callee.External {
			e.check(s, errCond{vm.ErrInvalidCall, "true"})
			return s, nil
		}
		newTid := s.nthr
		s.nthr = e.inc32(s.nthr, 1)
		p := arg(s, cs, 0)
		if e.p.DataModel == ir.ILP32 {
			e.condWrite(s, e.nonzero(p), p, e.bv(newTid, 32), 4) // a 32-bit pthread_t
		} else {
			e.condWrite(s, e.nonzero(p), p, ZeroExt(32, e.bv(newTid, 32)), 8)
		}
		if s.g == "false" {
			return s, nil
		}
		if len(e.slots) >= maxThreads {
			return nil, fmt.Errorf("%s: more than %d thread creations in the unrolled program (lower the unwind bound or the contexts)", e.where(fn, pc), maxThreads)
		}
		en := entry{g: s.g, round: int(s.rnd.c), tid: newTid, arg: arg(s, cs, 3)}
		if e.po != nil {
			en.g = e.defBool(s.g)
			en.clk, en.sh = e.po.grps[e.po.cur].clk, e.sharedOf(s)
		}
		if sl := e.created[e.instance]; sl != nil && sl.fn == callee {
			// the same creation in another round of the creator: one
			// thread, started in the creator's round
			sl.entries = append(sl.entries, en)
			sl.created = e.defBool(or(sl.created, en.g))
			if !sl.tid.same(newTid) {
				t := e.q.Declare(e.fresh("stid"), BitVec(32))
				e.terms++
				for _, x := range sl.entries {
					e.implies(x.g, eqT(t, e.bv(x.tid, 32)))
				}
				sl.tid = val{t: t, w: 32}
			}
		} else {
			sl := &slot{fn: callee, created: s.g, entries: []entry{en}, tid: newTid}
			e.created[e.instance] = sl
			e.slots = append(e.slots, sl)
		}
		ret(zero)
	case ir.BPthreadJoin:
		t := e.bv(arg(s, cs, 0), 64)
		invalid := or(BVUGE(t, ZeroExt(32, e.bv(s.nthr, 32))), eqT(t, ZeroExt(32, e.bv(tid, 32))))
		e.check(s, errCond{vm.ErrPthread, invalid})
		if s.g == "false" {
			return s, nil
		}
		r, me := int(s.rnd.c), e.thIndex()
		// the vm's next check: a target joined already (it has ended) is
		// an error (joinedBefore)
		again, ji := e.joinedBefore(joinRec{th: me, rnd: r, t: t})
		e.check(s, errCond{vm.ErrPthread, again})
		if s.g == "false" {
			return s, nil
		}
		// Whether the target has finished is decided once every thread is
		// known: some thread with its id returned in an earlier round, or
		// earlier in this round (before this thread's context).
		done := e.q.Bool(e.fresh("jd"))
		res := e.q.Declare(e.fresh("jr"), BitVec(64))
		e.terms += 2
		g := e.defBool(and2(s.g, done))
		e.joins[ji].g = g
		if e.po != nil {
			e.poJoin(s, t, done, res)
		} else {
			e.deferred = append(e.deferred, func(int) {
				var cands []Term
				for k, sl := range e.slots {
					if k == me {
						continue
					}
					is := and2(sl.created, eqT(ZeroExt(32, e.bv(sl.tid, 32)), t))
					fin := BVULT(sl.fin, BV(uint64(r), 8))
					if k < me {
						fin = BVULE(sl.fin, BV(uint64(r), 8))
					}
					cands = append(cands, and2(is, fin))
					e.implies(and2(g, is), eqT(res, sl.rv))
				}
				e.implies(g, or(cands...))
			})
		}
		e.blockWhere(s, not(done))
		if s.g == "false" {
			return s, nil
		}
		p := arg(s, cs, 1)
		if e.p.DataModel == ir.ILP32 {
			// the result's 32-bit form (ResourceLimit where it has none)
			c := e.nonzero(p)
			x := e.toPtr32If(s, c, val{t: res, w: 64})
			if s.g == "false" {
				return s, nil
			}
			e.condWrite(s, c, p, e.bv(x, 32), 4)
		} else {
			e.condWrite(s, e.nonzero(p), p, res, 8)
		}
		ret(zero)
	case ir.BPthreadExit:
		if e.depth > 0 {
			return nil, e.unsupported(fn, pc, "pthread_exit outside the thread's start routine")
		}
		for i := len(s.allocas) - 1; i >= 0; i-- {
			e.setDead(s, s.allocas[i])
		}
		s.allocas = nil
		s.soff++ // the call is the thread's last step
		if e.th == e.slots[0] {
			e.stop(s, s.g, false, false) // main ends, the others go on
		} else {
			e.finish(s, arg(s, cs, 0))
			e.stop(s, s.g, false, false)
		}
		s.g = "false"
	case ir.BPthreadSelf:
		ret(e.term(ZeroExt(retBits(cs)-32, e.bv(tid, 32)), retBits(cs)))
	case ir.BPthreadEqual:
		a, b := e.bv(arg(s, cs, 0), 64), e.bv(arg(s, cs, 1), 64)
		ret(e.term(ite(eqT(a, b), BV(1, retBits(cs)), BV(0, retBits(cs))), retBits(cs)))
	case ir.BMutexInit, ir.BRwlockInit:
		e.access(s, arg(s, cs, 0), BV(4, 64), true)
		if s.g == "false" {
			return s, nil
		}
		e.tWrite(s, arg(s, cs, 0), cst(0, 32), 4)
		e.atomicWake(s, arg(s, cs, 0))
		ret(zero)
	case ir.BMutexDestroy, ir.BRwlockDestroy:
		v := e.loadWord(s, arg(s, cs, 0))
		if s.g == "false" {
			return s, nil
		}
		e.check(s, errCond{vm.ErrPthread, not(e.isW(v, 0))})
		ret(zero)
	case ir.BMutexLock, ir.BMutexTrylock, ir.BRwlockWrlock, ir.BRwlockTrywrlock, ir.BRwlockRdlock, ir.BRwlockTryrdlock:
		p := arg(s, cs, 0)
		v := e.loadWord(s, p)
		if s.g == "false" {
			return s, nil
		}
		var busy Term
		var nv val
		switch b {
		case ir.BMutexLock, ir.BMutexTrylock:
			busy, nv = not(e.isW(v, 0)), owner
		case ir.BRwlockWrlock, ir.BRwlockTrywrlock:
			busy, nv = not(e.isW(v, 0)), cst(0xffffffff, 32)
		default:
			busy, nv = BVSLT(e.bv(v, 32), BV(0, 32)), e.inc32(v, 1)
			if v.isConst() {
				busy = Bool(int32(v.c) < 0)
			}
		}
		busy = e.defBool(busy)
		if b == ir.BMutexLock || b == ir.BRwlockWrlock || b == ir.BRwlockRdlock {
			e.blockOn(s, busy, &p)
			if s.g == "false" {
				return s, nil
			}
			e.tWrite(s, p, nv, 4)
			ret(zero)
			break
		}
		e.condWrite(s, not(busy), p, e.bv(nv, 32), 4)
		ret(e.term(ite(busy, BV(eBusy, retBits(cs)), BV(0, retBits(cs))), retBits(cs)))
	case ir.BMutexUnlock:
		p := arg(s, cs, 0)
		v := e.loadWord(s, p)
		if s.g == "false" {
			return s, nil
		}
		mine := eqT(e.bv(v, 32), e.bv(owner, 32))
		if v.isConst() && owner.isConst() {
			mine = Bool(v.c == owner.c)
		}
		e.check(s, errCond{vm.ErrPthread, not(mine)})
		if s.g == "false" {
			return s, nil
		}
		e.tWrite(s, p, cst(0, 32), 4)
		e.atomicWake(s, p)
		ret(zero)
	case ir.BRwlockUnlock:
		p := arg(s, cs, 0)
		v := e.loadWord(s, p)
		if s.g == "false" {
			return s, nil
		}
		e.check(s, errCond{vm.ErrPthread, e.isW(v, 0)})
		if s.g == "false" {
			return s, nil
		}
		vt := e.bv(v, 32)
		e.tWrite(s, p, e.term(ite(BVSLT(vt, BV(0, 32)), BV(0, 32), BVSub(vt, BV(1, 32))), 32), 4)
		e.atomicWake(s, p)
		ret(zero)
	case ir.BAttrInit, ir.BCondInit, ir.BCondDestroy:
		ret(zero)
	case ir.BCondWait:
		e.usesCond = true
		return e.condWait(s, cs, tid, owner)
	case ir.BCondSignal, ir.BCondBroadcast:
		e.usesCond = true
		e.condWake(s, arg(s, cs, 0), b == ir.BCondBroadcast)
		ret(zero)
	default:
		return nil, fmt.Errorf("%s: call of %s in a threaded program: %w", e.where(fn, pc), b, errNoEncoding)
	}
	return s, nil
}

// maxThreads bounds the thread creations of an encoding.
const maxThreads = 64

// funcOf is the function a constant pointer designates (vm.Machine.funcOf).
func (e *encoder) funcOf(p uint64) *ir.Func {
	id := uint32(p >> ir.PtrBlockShift)
	if ir.PtrOff(p) != 0 || id < e.p.FirstFuncBlock || id >= e.p.FirstFuncBlock+uint32(len(e.p.Funcs)) {
		return nil
	}
	return e.p.Funcs[id-e.p.FirstFuncBlock]
}

// staticID is a new block id of a threaded encoding: each allocation of
// the unrolled program has its own, a constant (encode_tmem.go). The vm
// numbers blocks in the order a run allocates them and reuses dead stack
// blocks' ids; with threads that order depends on the schedule. Ids only
// matter to a program that looks at pointer bits (ptrtoint, comparing
// pointers into different blocks), and its witness then fails to replay:
// an internal error, never a verdict.
func (e *encoder) staticID() val {
	// the states of one instruction execution (one per round) are
	// different paths: they share the id
	if id, ok := e.ids[e.instance]; ok {
		return cst(uint64(id), 32)
	}
	id := e.blk
	e.blk++
	e.ids[e.instance] = id
	return cst(uint64(id), 32)
}

// setDead marks a returned frame's stack block dead.
func (e *encoder) setDead(s *pstate, id val) {
	if e.threaded {
		e.tSetKind(s, id.c, cst(kDead, 8))
		return
	}
	s.kind = e.def(Store(s.kind, e.bv(id, 32), BV(kDead, 8)), ArraySort(32, 8), "k")
}

// tFree is free for threaded encodings (vm.Memory.free).
func (e *encoder) tFree(s *pstate, p val) {
	nonNull := e.nonzero(p)
	if p.isConst() && p.c == 0 {
		return
	}
	cases := e.tResolve(s, p)
	if s.g == "false" {
		return
	}
	var conds []errCond
	for _, cs := range cases {
		offOK := Bool(cs.coff == 0)
		if cs.off != "" {
			offOK = eqT(cs.off, BV(0, 32))
		}
		k := BV(kNone, 8)
		if cs.id != 0 {
			k = e.bv(e.tKind(s, cs.id), 8)
		}
		isHeap, isFreed := eqT(k, BV(kHeap, 8)), eqT(k, BV(kFreed, 8))
		conds = append(conds,
			errCond{vm.ErrInvalidFree, and2(cs.c, and2(nonNull, or(not(offOK), and2(not(isHeap), not(isFreed)))))},
			errCond{vm.ErrDoubleFree, and2(cs.c, and2(nonNull, and2(offOK, isFreed)))})
	}
	e.check(s, mergeConds(conds)...)
	if s.g == "false" {
		return
	}
	for _, cs := range cases {
		if cs.id != 0 {
			e.tSetKind(s, cs.id, e.sel(and2(cs.c, nonNull), cst(kFreed, 8), e.tKind(s, cs.id)))
		}
	}
}

// condThreads bounds the thread ids of a program using condition
// variables: signals read every thread's waiting state, by id.
const condThreads = 16

// byTid reads m's entry of thread id tid (a case split when tid is a term).
func (e *encoder) byTid(m *lmap, tid val) val {
	if tid.isConst() {
		return m.get(tid.c)
	}
	v := m.get(condThreads - 1)
	for k := condThreads - 2; k >= 0; k-- {
		v = e.sel(eqT(e.bv(tid, 32), BV(uint64(k), 32)), m.get(uint64(k)), v)
	}
	return v
}

// setByTid writes m's entry of thread id tid.
func (e *encoder) setByTid(m *lmap, tid, v val) {
	if tid.isConst() {
		m.own[tid.c] = v
		return
	}
	for k := 0; k < condThreads; k++ {
		m.own[uint64(k)] = e.sel(eqT(e.bv(tid, 32), BV(uint64(k), 32)), v, m.get(uint64(k)))
	}
}

// condWait is pthread_cond_wait's two steps (vm/platform.go condWait):
// with the mutex held by the thread, release it and wait on the condition
// variable (arrival order cseq); then — signalled and the mutex free, in
// this context or a later one — reacquire it.
func (e *encoder) condWait(s *pstate, cs *ir.CallSite, tid, owner val) (*pstate, error) {
	cv := arg(s, cs, 0)
	m := arg(s, cs, 1)
	v := e.loadWord(s, m)
	if s.g == "false" {
		return s, nil
	}
	held := eqT(e.bv(v, 32), e.bv(owner, 32))
	if v.isConst() && owner.isConst() {
		held = Bool(v.c == owner.c)
	}
	e.check(s, errCond{vm.ErrPthread, not(held)})
	if s.g == "false" {
		return s, nil
	}
	// 0 marks "not waiting": a wait on a null condition variable (which
	// the vm allows) blocks here for good, an under-approximation
	if nz := e.nonzero(cv); nz != "true" {
		e.refuseProof("a pthread_cond_wait on a condition variable that may be null")
	}
	e.blockWhere(s, not(e.nonzero(cv)))
	if s.g == "false" {
		return s, nil
	}
	e.tWrite(s, m, cst(0, 32), 4)
	e.atomicWake(s, m)
	s.cseq = e.inc32(s.cseq, 1)
	e.setByTid(s.tm.wcv, tid, val{t: e.bv(cv, 64), w: 64})
	e.setByTid(s.tm.wseq, tid, s.cseq)
	s.soff++ // the first step
	if s.atomic > 0 {
		// the thread waits inside an atomic section: the vm runs the
		// others, and this one alone once it is woken and the mutex is
		// free; the run ends here (blockOn)
		e.refuseProof("a thread may block inside an atomic section, where the vm runs it again as soon as it can go on: the round-robin rounds end the run there")
		e.stop(s, s.g, true, false)
		s.g = "false"
		return s, nil
	}
	relock := func(s *pstate) {
		w := e.byTid(s.tm.wcv, tid)
		e.blockWhere(s, not(e.woken(w)))
		if s.g == "false" {
			return
		}
		v := e.loadWord(s, m)
		if s.g == "false" {
			return
		}
		e.blockWhere(s, not(e.isW(v, 0)))
		if s.g == "false" {
			return
		}
		e.tWrite(s, m, owner, 4)
		if e.opts.Spurious { // no longer waiting, woken or not
			e.setByTid(s.tm.wcv, tid, cst(0, 64))
		}
		setRet(s, cs, cst(0, retBits(cs)))
	}
	e.cinfo.sub = 1
	forks := e.switchPoint(s)
	e.cinfo.sub = 0
	relock(s)
	for _, f := range forks {
		relock(f)
	}
	e.extra = append(e.extra, forks...)
	return s, nil
}

// condWake is pthread_cond_signal (wakes the waiter that arrived first)
// and pthread_cond_broadcast (every waiter) on condition variable cv.
func (e *encoder) condWake(s *pstate, cv val, all bool) {
	if s.g == "false" {
		return
	}
	c := e.defBV(e.bv(cv, 64), 64)
	n := e.bv(s.nthr, 32)
	waits := make([]Term, condThreads)
	seqs := make([]Term, condThreads)
	for k := range waits {
		exists := BVULT(BV(uint64(k), 32), n)
		if s.nthr.isConst() {
			exists = Bool(uint64(k) < s.nthr.c)
		}
		waits[k] = e.defBool(and2(exists, eqT(e.bv(s.tm.wcv.get(uint64(k)), 64), c)))
		seqs[k] = e.bv(s.tm.wseq.get(uint64(k)), 32)
	}
	for k := range waits {
		wake := waits[k]
		if !all { // the first to arrive (arrival numbers are distinct)
			for j := range waits {
				if j != k {
					wake = and2(wake, or(not(waits[j]), BVULT(seqs[k], seqs[j])))
				}
			}
		}
		if wake == "false" {
			continue
		}
		s.tm.wcv.own[uint64(k)] = e.sel(e.defBool(wake), cst(0, 64), s.tm.wcv.get(uint64(k)))
	}
}

// threadInfo is slot i's ThreadInfo without its steps: its function and
// its vm thread id, a constant or named in the model.
func (e *encoder) threadInfo(i int, sl *slot) ThreadInfo {
	ti := ThreadInfo{Func: sl.fn.Name}
	if sl.tid.isConst() {
		ti.Tid = sl.tid.c
		return ti
	}
	name := fmt.Sprintf("tid%d", i)
	e.q.Declare(name, BitVec(32))
	e.q.Assert(Eq(Term(name), e.bv(sl.tid, 32)))
	ti.TidName = name
	e.q.Want(name)
	return ti
}

// joinRec is a pthread_join call of the encoding: thread th (a slot
// index) joins the thread with id t in round rnd and goes on where g holds
// (the target had ended and had not been joined before).
type joinRec struct {
	th, rnd int
	t       Term // 64 bits
	g       Term
}

// joinedBefore records the join j (its g still to come: "false" until the
// caller sets e.joins[i].g) and returns the Bool "an earlier join of the
// same id went on" and i: in the vm the target is then joined already, and the join
// fails with PthreadMisuse (vm/platform.go; before 2026-11-29 the
// encodings let a second join of a thread succeed,
// encoder/mt_join_alias.c). Earlier is the encoding's order of the
// program's steps: an earlier round, an earlier thread in the same round
// (round-robin), or the same thread and round, encoded earlier (program
// order on a path). In round 0 and in the partial-order encoding (joins
// in the entry function only, one round) every earlier join is encoded
// already; a later round's join gets a variable defined once every thread
// is. The encodings number threads in creation order where the vm reuses
// a joined thread's id (reuse.go): an id held from before such a reuse
// names another thread there, and no proof is claimed for such programs.
func (e *encoder) joinedBefore(j joinRec) (Term, int) {
	j.g = "false"
	e.joins = append(e.joins, j)
	i := len(e.joins) - 1
	earlier := func() Term {
		j := e.joins[i]
		var ts []Term
		for k, o := range e.joins {
			if k == i || o.g == "false" {
				continue
			}
			if o.rnd < j.rnd || o.rnd == j.rnd && (o.th < j.th || o.th == j.th && k < i) {
				ts = append(ts, and2(o.g, eqT(o.t, j.t)))
			}
		}
		return or(ts...)
	}
	if e.po != nil || j.rnd == 0 {
		return e.defBool(earlier()), i
	}
	again := e.q.Bool(e.fresh("jj"))
	e.terms++
	e.deferred = append(e.deferred, func(int) {
		e.q.Assert(Eq(again, earlier()))
		e.terms++
	})
	return again, i
}
