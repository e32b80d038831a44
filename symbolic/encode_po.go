package symbolic

import (
	"context"
	"fmt"
	"math/bits"
	"sort"
	"time"

	"github.com/wyvernmc/wyvern/ir"
	"github.com/wyvernmc/wyvern/query"
	"github.com/wyvernmc/wyvern/vm"
)

// Partial-order encoding of threaded programs (issue 30, point 1; after
// Alglave, Kroening and Tautschnig, "Partial orders for efficient bounded
// model checking of concurrent software", CAV 2013): every interleaving of
// the bounded program under sequential consistency, so that no violation
// and no execution cut by the bound is a proof.
//
// Each thread (the entry function, then each pthread_create'd function in
// the order the encoder meets the creations) is encoded once, as the
// single-threaded merged symbolic execution, with one round (no switch
// points). What other threads can see is turned into events:
//
//   - An access group is one instruction's accesses of memory no other
//     thread is excluded from (everything but the thread's own stack blocks
//     whose address does not escape, encode_tmem.go), byte by byte, and of
//     the virtual locations of the platform (the per-site input counters):
//     each access has a location (a constant byte address: block ids are
//     the encoder's constants), a guard (the path reaches it), and a value
//     (a write's is the stored byte; a read's a fresh constant). A group
//     has a clock (a 32-bit bitvector). A platform call (a mutex lock: read
//     the word, block where it is held, write the owner) is one group: its
//     reads come before its writes at one clock.
//   - Marks: a violation, the end of the run (main's return, exit, a failed
//     assumption, an error that is not the violation), a cut by the bound,
//     a thread's end, the start and the end of an atomic section. Each has
//     a clock too.
//
// A thread's clocks increase in the order the encoder emits them, which is
// program order on every path. A child's first clock is above its
// creation's. The execution is the set of events whose guard holds and
// whose clock is below a free cut clock C (a prefix of every thread: what
// lies after it never happens). Then:
//
//   - reads-from: an executed read of location l reads the value of a
//     write to l whose guard holds and whose clock is below its own, with
//     no such write of l in between; or l's initial value when no such
//     write is below it. Writes of one location by different threads have
//     different clocks, and so do groups that both read and write (two
//     lock operations). Sorting the executed events by clock (ties: pure
//     reads and marks, then groups that read and write, then pure writes,
//     the violation last) is an interleaving in which every read reads the
//     last write before it: sequential consistency.
//   - no end-of-run mark is executed (the run would have ended before the
//     violation), and a violation counts where its guard holds and its
//     clock is below C; a cut by the bound likewise (Unwound).
//   - joins: a join that goes on has a thread with the joined id whose
//     end mark is executed below the join's clock, and returns its value.
//   - atomic sections (__VERIFIER_atomic_ functions, __VERIFIER_atomic_begin
//     and _end): another thread's executed event at or after the start of
//     a section follows an executed exit of the section (its end, or the
//     thread's end inside it), so none lies inside the section, and a
//     thread stopped inside a section (by the cut clock, or a path a
//     reduction drops) holds it for good. A blocking call inside an
//     atomic section is refused (the vm runs other threads then).
//
// Every vm execution that reaches a violation within the bound is such a
// model: give each event the time of its step, the events that never run a
// clock above C, and rank the times. So unsat, with no execution cut, is a
// proof. Every model is a vm execution: the schedule of its sorted events
// (each runs its thread to the step of its instruction) is replayed in the
// vm (bmc.go), which confirms a violation before it is reported.
//
// Blocking: a thread blocks where its path stops (a held mutex read at the
// lock's clock, a join whose thread has not ended); its later events are
// not executed. Condition variables are encoded with spurious wakeups (a
// wait releases the mutex, then takes it again at a later clock, signalled
// or not; signals change nothing): POSIX's semantics, which include
// LODIN's, so a proof holds on both platforms; a violation that needs a
// spurious wakeup does not replay, and Check says incomplete. Busy waits
// and condition waits in loops are reduced (encode_spin.go,
// encode_wait.go): otherwise every bound would cut them. Shared bytes always
// accessed together are one location (encode_poword.go), and mutual
// exclusion is stated as a lemma (encode_mutex.go).
//
// Not supported (the encoding fails with an error naming it, and Check
// keeps the round-robin verdict): thread creation or joins outside the
// entry function, allocation, free or the end of an escaping stack block
// once a thread was created, pointers loaded from shared memory (their
// block is unknown), a blocking call inside an atomic section, paths in
// different atomic sections that join.

// poLoc is an event's location: a byte address, or a virtual location
// (virt: input counter k).
type poLoc struct {
	virt bool
	k    uint64
	n    int // a word of n bytes from k (poWords); 0: the byte at k
}

// poAcc is one access of an access group.
type poAcc struct {
	loc   poLoc
	w     int
	v     Term // the value written, or the read's fresh constant
	g     Term
	write bool
	grp   int
}

// group and mark kinds
const (
	poAccess = iota // an access group
	poMark          // a thread's end, a section's start or end: in the schedule, no access
	poViol          // a violation
	poHalt          // the run ends (never executed before the violation)
	poCut           // the bound cuts the execution
)

// poGrp is an access group or a mark.
type poGrp struct {
	th            int  // slot index
	clk           Term // its clock
	g             Term // it happens (the path completes its instruction); defined at its end
	steps         Term // the thread's step count once its instruction ran (a named constant; "" for marks outside the schedule)
	sec           Term // the clock of the start of the atomic section it lies in ("": none)
	kind          int
	reads, writes bool
	b             ir.Builtin // the platform call it is (BNone: a plain access, or a mark)
	wait          bool       // a pthread_cond_wait of a wait loop (encode_wait.go)
	sync          int        // poAcquire or poRelease: a mutex lock, unlock or wait's step (encode_mutex.go); 0: neither
	secStart      bool       // a mark starting an atomic section (its sec is its own clock)
	secExit       bool       // a mark where the thread leaves the atomic section sec: its end, or the thread's end inside it
}

// poInfo is the partial-order state of an encoding.
type poInfo struct {
	C     Term
	grps  []poGrp
	accs  []poAcc
	last  Term          // the current thread's last clock ("": none yet)
	cur   int           // the open group (-1: none)
	wrote map[poLoc]int // the open group's writes: their index in accs
	root  *lmap         // the initial memory
	// frozen: a thread was created; block kinds and sizes no longer change
	frozen bool
	nclk   int
	ends   map[int][]poEnd // per slot: its ends
	// waitUsed: the wait-loop reduction dropped a path (encode_wait.go)
	waitUsed bool
	// signals and waits: condition-variable events of a signalled
	// encoding (EncodeOptions.poSignalled)
	signals, waits []poSignal
	// critical sections as blocks (encode_block.go): the open block's
	// reads by location (nil outside blocks), the blocks by group, a
	// disjunction per pair of guards
	reads   map[poLoc]int
	blocks  map[int]*poBlock
	nblocks int
	ors     map[[2]Term]Term
	stats   string // poConstraints' counts (POInfo.Stats)
}

// poSignal is a signal or broadcast mark (grp), or a wait (grp: its
// reacquire, rel: its release), on condition variable cv.
type poSignal struct {
	grp, rel int
	cv       val
	bcast    bool // a broadcast
}

// poEnd is a thread's end: its mark and its result.
type poEnd struct {
	grp int
	rv  val
}

// POEvent is an event of a partial-order encoding's schedule: the names
// whose model values place it.
type POEvent struct {
	Thread  int // index into Encoding.Threads
	Clock   string
	Guard   string // a name, "true" or "false"
	Steps   string // a name (empty: allSteps for a violation)
	Order   int    // ties: 0 pure reads and marks, 1 read-and-write groups, 2 pure writes, 3 violations
	Violate bool
}

// POInfo is what a witness of a partial-order encoding needs.
type POInfo struct {
	Cut    string
	Events []POEvent
	// Clocks: the number of clock variables (events and marks; the marks
	// that end a path inside a block share its clock, encode_block.go)
	Clocks int
	// Stats: the formula's parts, for measurements (TestBlockMeasure)
	Stats string
	// Blocks: the critical sections encoded as blocks (encode_block.go)
	Blocks int
}

// poClockBits is the widest clock: the ranks of the events' times (with
// C) must fit. provePO encodes again with the narrowest width that holds
// the events (solvers bit-blast the comparisons: 8-bit clocks prove a
// two-thread mutex counter ten times faster than 12-bit ones).
const poClockBits = 12

// poBits is the encoding's clock width.
func (e *encoder) poBits() int {
	if e.opts.poBits > 0 {
		return e.opts.poBits
	}
	return poClockBits
}

// Clocks are integers where the solver decides linear integer arithmetic
// (EncodeOptions.poInt: z3 and cvc5), bitvectors otherwise (boolector).
// Only their order matters: every constraint on clocks is a comparison of
// two of them (<, <=, =, distinct), so the integer encoding and the
// bitvector one of a width that holds the events' ranks (poClockBits,
// provePO) have models with the same orders, and are equisatisfiable.
// With integers the comparisons are difference-logic atoms, which z3 and
// cvc5 decide by graph reasoning instead of bit-blasting comparators: on
// the corpus's safe threaded lines (BENCHMARKS.md, "Issue #29: integer
// clocks") z3 proves mt_condvar_ok's violation check in 0.4 CPU seconds
// instead of 12, and cvc5, which gave no answer in 60 s, in 0.5.

// clkSort is the sort of the encoding's clocks.
func (e *encoder) clkSort() Sort {
	if e.opts.poInt {
		return IntSort()
	}
	return BitVec(e.poBits())
}

// clkLT is a < b on clocks.
func (e *encoder) clkLT(a, b Term) Term {
	if e.opts.poInt {
		return IntLT(a, b)
	}
	return BVULT(a, b)
}

// clkLE is a <= b on clocks.
func (e *encoder) clkLE(a, b Term) Term {
	if e.opts.poInt {
		return IntLE(a, b)
	}
	return BVULE(a, b)
}

// clkGE is a >= b on clocks.
func (e *encoder) clkGE(a, b Term) Term {
	if e.opts.poInt {
		return IntGE(a, b)
	}
	return BVUGE(a, b)
}

// poClock is a new clock of the current thread, above its last one. An
// integer clock with no clock below it (the entry function's first) is
// at least 0, so that every clock of a model is a natural number (the
// witness reads them as such, poContexts).
func (e *encoder) poClock() Term {
	e.po.nclk++
	c := e.q.Declare(fmt.Sprintf("ck%d", e.po.nclk), e.clkSort())
	e.terms++
	if e.po.last != "" {
		e.q.Assert(e.clkLT(e.po.last, c))
		e.terms++
	} else if e.opts.poInt {
		e.q.Assert(IntLE("0", c))
		e.terms++
	}
	e.po.last = c
	return c
}

// poStepsAfter is the thread's step count once the current instruction ran.
func (e *encoder) poStepsAfter(s *pstate) Term {
	e.settle(s)
	t := e.bv(s.steps, 32)
	if e.curCallB {
		t = BVAdd(t, BV(1, 32))
	}
	name := e.q.Declare(e.fresh("ps"), BitVec(32))
	e.q.Assert(Eq(name, t))
	e.terms++
	return name
}

// poBegin opens an access group for the current instruction (a no-op
// returning false when one is open).
func (e *encoder) poBegin(s *pstate) bool {
	if e.po == nil || e.po.cur >= 0 {
		return false
	}
	e.po.grps = append(e.po.grps, poGrp{th: e.thIndex(), clk: e.poClock(), steps: e.poStepsAfter(s), sec: s.poSec, kind: poAccess})
	e.po.cur = len(e.po.grps) - 1
	e.po.wrote = map[poLoc]int{}
	return true
}

// poEnd closes the open group: it happens where s's guard holds.
func (e *encoder) poEnd(s *pstate) {
	if e.po == nil || e.po.cur < 0 {
		return
	}
	g := &e.po.grps[e.po.cur]
	if s == nil {
		g.g = "false"
	} else {
		g.g = e.defBool(s.g)
	}
	e.po.cur = -1
	e.po.wrote = nil
}

// thIndex is the current thread's slot index.
func (e *encoder) thIndex() int {
	for i, sl := range e.slots {
		if sl == e.th {
			return i
		}
	}
	return -1
}

// poMarkAt records a mark of kind k of the current thread where g holds
// (s: its path, nil outside one) and returns its index.
func (e *encoder) poMarkAt(s *pstate, g Term, k int) int {
	var clk Term
	if k != poMark && s != nil && s.poBlk != 0 {
		clk = e.poBlockMark(s, g) // the path ends inside a block: at its clock
	} else {
		clk = e.poClock()
	}
	gr := poGrp{th: e.thIndex(), clk: clk, g: e.defBool(g), kind: k}
	if s != nil {
		gr.sec = s.poSec
	}
	if k == poMark {
		gr.steps = e.poStepsAfter(s)
	}
	e.po.grps = append(e.po.grps, gr)
	return len(e.po.grps) - 1
}

// poViolation records a violation where g holds.
func (e *encoder) poViolation(s *pstate, g Term) {
	i := e.poMarkAt(s, g, poViol)
	gr := e.po.grps[i]
	e.addViol(e.defBool(e.poExec(gr.g, gr.clk)))
}

// poCutTerm is the Unwound term of a cut where g holds: in a partial-order
// encoding, the cut must be executed.
func (e *encoder) poCutTerm(s *pstate, g Term) Term {
	if e.po == nil || g == "false" {
		return g
	}
	i := e.poMarkAt(s, g, poCut)
	gr := e.po.grps[i]
	return e.defBool(e.poExec(gr.g, gr.clk))
}

// poSectionStart marks the start of an atomic section where s enters one.
func (e *encoder) poSectionStart(s *pstate) {
	if e.po == nil || s.atomic != 1 || s.poSec != "" || s.g == "false" {
		return
	}
	i := e.poMarkAt(s, s.g, poMark)
	e.po.grps[i].sec = e.po.grps[i].clk
	e.po.grps[i].secStart = true
	s.poSec = e.po.grps[i].clk
}

// poSectionEnd marks the end of the atomic section s leaves.
func (e *encoder) poSectionEnd(s *pstate) {
	if e.po == nil || s.atomic > 0 || s.poSec == "" {
		return
	}
	if s.g != "false" {
		i := e.poMarkAt(s, s.g, poMark)
		e.po.grps[i].secExit = true
	}
	s.poSec = ""
}

// executed is the Bool "event with guard g and clock c is executed".
func (e *encoder) poExec(g, c Term) Term {
	return and2(g, e.clkLT(c, e.po.C))
}

// poRead is a read of location l (w bits) by the open group.
func (e *encoder) poRead(s *pstate, l poLoc, w int) val {
	if e.po.cur < 0 {
		e.fail(fmt.Errorf("symbolic: internal error: a shared access outside an access group"))
		return cst(0, w)
	}
	var v Term
	if i, ok := e.po.reads[l]; ok && e.po.accs[i].w == w { // a block's read of l: one per group
		a := &e.po.accs[i]
		a.g = e.poOr(a.g, e.defBool(s.g))
		v = a.v
	} else {
		v = e.q.Declare(e.fresh("rd"), BitVec(w))
		e.terms++
		e.po.accs = append(e.po.accs, poAcc{loc: l, w: w, v: v, g: e.defBool(s.g), grp: e.po.cur})
		if e.po.reads != nil {
			e.po.reads[l] = len(e.po.accs) - 1
		}
	}
	e.po.grps[e.po.cur].reads = true
	if i, ok := e.po.wrote[l]; ok { // the group's own write of l comes first
		wa := e.po.accs[i]
		return e.term(ite(wa.g, wa.v, v), w)
	}
	return val{t: v, w: w}
}

// poWrite is a write of x to location l (w bits) by the open group.
func (e *encoder) poWrite(s *pstate, l poLoc, w int, x val) {
	if e.po.cur < 0 {
		e.fail(fmt.Errorf("symbolic: internal error: a shared access outside an access group"))
		return
	}
	a := poAcc{loc: l, w: w, v: e.defBV(e.bv(x, w), w), g: e.defBool(s.g), write: true, grp: e.po.cur}
	e.po.grps[e.po.cur].writes = true
	if i, ok := e.po.wrote[l]; ok { // one write of l a group: the last value
		old := e.po.accs[i]
		a.v = e.defBV(ite(a.g, a.v, old.v), w)
		if e.po.reads != nil {
			a.g = e.poOr(old.g, a.g) // a block: equal guards for a word's bytes
		} else {
			a.g = e.defBool(or(a.g, old.g))
		}
		e.po.accs[i] = a
		return
	}
	e.po.accs = append(e.po.accs, a)
	e.po.wrote[l] = len(e.po.accs) - 1
}

// poInit is location l's initial value (w bits: one byte, or the word of
// w/8 bytes from l.k, little endian, poWords).
func (e *encoder) poInit(l poLoc, w int) Term {
	if l.virt {
		return BV(0, w)
	}
	if w == 8 {
		return e.bv(e.po.root.get(l.k), 8)
	}
	bs := make([]Term, w/8)
	for i := range bs {
		bs[len(bs)-1-i] = e.bv(e.po.root.get(l.k+uint64(i)), 8)
	}
	return concatAll(bs)
}

// poShape refuses a change of block kinds or sizes once a thread exists.
func (e *encoder) poShape(id uint64) {
	if e.po != nil && e.po.frozen && !e.private(id) {
		e.fail(unsupported{fmt.Errorf("an allocation, free or end of an escaping stack block after a thread was created: not supported by the partial-order encoding yet")})
	}
}

// poThreadBuiltin is a pthread function as one access group.
func (e *encoder) poThreadBuiltin(fn *ir.Func, pc int32, s *pstate, b ir.Builtin, cs *ir.CallSite) (*pstate, error) {
	switch b {
	case ir.BPthreadCreate, ir.BPthreadJoin:
		if e.th != e.slots[0] {
			return nil, e.unsupported(fn, pc, fmt.Sprintf("%s outside the entry function in the partial-order encoding", b))
		}
	case ir.BCondWait:
		if !e.opts.Spurious {
			return nil, e.unsupported(fn, pc, "pthread_cond_wait without spurious wakeups in the partial-order encoding")
		}
	}
	switch b {
	case ir.BPthreadJoin, ir.BMutexLock, ir.BRwlockWrlock, ir.BRwlockRdlock, ir.BCondWait:
		if s.atomic > 0 {
			return nil, e.unsupported(fn, pc, fmt.Sprintf("%s inside an atomic section in the partial-order encoding", b))
		}
	case ir.BCondSignal, ir.BCondBroadcast:
		// with spurious wakeups a signal changes nothing
		e.usesCond = true
		setRet(s, cs, cst(0, retBits(cs)))
		if e.opts.poSignalled && s.g != "false" {
			i := e.poMarkAt(s, s.g, poMark)
			e.po.signals = append(e.po.signals, poSignal{grp: i, cv: arg(s, cs, 0), bcast: b == ir.BCondBroadcast})
		}
		return s, nil
	}
	first := len(e.po.grps)
	defer func() {
		wait := b == ir.BCondWait && e.waitSite(fn, pc)
		acc := 0 // the call's access groups so far
		for i := first; i < len(e.po.grps); i++ {
			g := &e.po.grps[i]
			g.b, g.wait = b, wait
			if g.kind != poAccess {
				continue
			}
			switch {
			case b == ir.BMutexLock, b == ir.BCondWait && acc == 1:
				g.sync = poAcquire
			case b == ir.BMutexUnlock, b == ir.BCondWait && acc == 0:
				g.sync = poRelease
			}
			acc++
		}
	}()
	if b == ir.BCondWait {
		e.usesCond = true
		return e.poCondWait(s, cs)
	}
	opened := e.poBegin(s) // (not when the call is inside a block: encode_block.go)
	ns, err := e.threadBuiltin(fn, pc, s, b, cs)
	if b == ir.BPthreadCreate {
		e.po.frozen = true
	}
	if opened {
		e.poEnd(ns)
	}
	return ns, err
}

// poCondWait is pthread_cond_wait with spurious wakeups: release the
// mutex (one step), then take it again (a later step).
func (e *encoder) poCondWait(s *pstate, cs *ir.CallSite) (*pstate, error) {
	tid := e.th.tid
	owner := e.inc32(tid, 1)
	cv, m := arg(s, cs, 0), arg(s, cs, 1)
	e.poBegin(s)
	v := e.loadWord(s, m)
	if s.g != "false" {
		held := eqT(e.bv(v, 32), e.bv(owner, 32))
		if v.isConst() && owner.isConst() {
			held = Bool(v.c == owner.c)
		}
		e.check(s, errCond{vm.ErrPthread, not(held)})
	}
	if s.g != "false" {
		if nz := e.nonzero(cv); nz != "true" {
			e.refuseProof("a pthread_cond_wait on a condition variable that may be null")
		}
		e.blockWhere(s, not(e.nonzero(cv)))
	}
	if s.g != "false" {
		e.tWrite(s, m, cst(0, 32), 4)
	}
	e.poEnd(s)
	if s.g == "false" {
		return s, nil
	}
	s.soff++ // the first step
	rel := len(e.po.grps) - 1
	for rel >= 0 && e.po.grps[rel].kind != poAccess {
		rel--
	}
	e.poBegin(s)
	if e.opts.poSignalled {
		e.po.waits = append(e.po.waits, poSignal{grp: e.po.cur, rel: rel, cv: cv})
	}
	v = e.loadWord(s, m)
	if s.g != "false" {
		e.blockWhere(s, not(e.isW(v, 0)))
	}
	if s.g != "false" {
		e.tWrite(s, m, owner, 4)
		setRet(s, cs, cst(0, retBits(cs)))
	}
	e.poEnd(s)
	return s, nil
}

// poJoin is the partial-order part of pthread_join of thread id t: where
// done holds, a thread with id t ended before the join's clock, and res is
// its result.
func (e *encoder) poJoin(s *pstate, t Term, done, res Term) {
	g := e.defBool(and2(s.g, done))
	me := e.thIndex()
	jc := e.po.grps[e.po.cur].clk
	e.deferred = append(e.deferred, func(int) {
		var cands []Term
		for k, sl := range e.slots {
			if k == me {
				continue
			}
			is := eqT(ZeroExt(32, e.bv(sl.tid, 32)), t)
			for _, en := range e.po.ends[k] {
				eg := e.po.grps[en.grp]
				pick := e.q.Bool(e.fresh("jp"))
				e.terms++
				e.implies(pick, and2(and2(eg.g, is), and2(e.clkLT(eg.clk, jc), eqT(res, e.bv(en.rv, 64)))))
				cands = append(cands, pick)
			}
		}
		e.implies(g, or(cands...))
	})
}

// encodePO encodes a threaded program from its initial state s as a
// partial order.
func (e *encoder) encodePO(s *pstate) error {
	e.po = &poInfo{cur: -1, root: s.tm.mem.parent, ends: map[int][]poEnd{}}
	e.po.C = e.q.Declare("poC", e.clkSort())
	e.terms++
	if e.opts.poInt {
		e.q.Assert(IntLE("0", e.po.C))
		e.terms++
	}
	main := &slot{fn: e.p.Funcs[e.p.Entry], created: "true", tid: cst(0, 32)}
	e.slots = []*slot{main}
	for i := 0; i < len(e.slots); i++ {
		sl := e.slots[i]
		e.th = sl
		e.po.last = ""
		sts := []*pstate{s}
		if i > 0 {
			if len(sl.entries) != 1 {
				return unsupported{fmt.Errorf("symbolic: encode: a thread created by more than one creation in the partial-order encoding")}
			}
			en := sl.entries[0]
			e.po.last = en.clk
			st := &pstate{g: en.g, regs: e.frameRegs(sl.fn), cnt: map[int]val{},
				rnd: cst(0, 8), steps: cst(0, 32), next: s.next, flen: cst(0, 32), halted: cst(0, 1),
				nthr: en.sh.nthr, cseq: en.sh.cseq,
				tm: &tmaps{mem: newLayer(en.sh.mem), kind: newLayer(en.sh.kind), size: newLayer(en.sh.size),
					wcv: newLayer(en.sh.wcv), wseq: newLayer(en.sh.wseq), pmem: newLayer(nil), pkind: newLayer(nil)}}
			if len(sl.fn.Params) > 0 && int(sl.fn.Params[0]) < len(st.regs) {
				st.regs[sl.fn.Params[0]] = en.arg
			}
			if sl.fn.Atomic { // a __VERIFIER_atomic_ start routine: the vm's thread starts inside its section
				st.atomic = 1
				e.poSectionStart(st)
			}
			sts = []*pstate{st}
		}
		rets, err := e.runFrom(sl.fn, sts)
		if err != nil {
			return err
		}
		for _, ret := range rets {
			if i == 0 {
				e.poMarkAt(ret, ret.g, poHalt) // main returned: the run ends
				continue
			}
			rv := cst(0, 64)
			if len(ret.ret) > 0 {
				rv = ret.ret[0]
			}
			e.finish(ret, rv)
		}
	}
	for _, f := range e.deferred {
		f(len(e.slots))
	}
	for i, sl := range e.slots {
		e.threads = append(e.threads, e.threadInfo(i, sl))
	}
	if !e.opts.poInt && e.po.nclk+2 >= 1<<e.poBits() {
		return unsupported{fmt.Errorf("symbolic: encode: %d clocks: more than the partial-order encoding's clocks hold", e.po.nclk)}
	}
	e.poConstraints()
	return nil
}

// poConstraints asserts reads-from, coherence, the end of the run and
// atomic sections over the events.
func (e *encoder) poConstraints() {
	e.poWaitCheck()
	po := e.po
	t0 := e.terms
	var nrf, ncoh int
	defer func() {
		nr := 0
		for _, a := range po.accs {
			if !a.write {
				nr++
			}
		}
		po.stats = fmt.Sprintf("%d groups (%d blocks), %d accesses (%d reads), %d terms before the constraints, %d reads-from choices, %d coherence, %d constraint terms in all",
			len(po.grps), po.nblocks, len(po.accs), nr, t0, nrf, ncoh, e.terms-t0)
	}()
	C := po.C
	accs := poWords(po)
	thOf := func(a poAcc) int { return po.grps[a.grp].th }
	clk := func(a poAcc) Term { return po.grps[a.grp].clk }
	byLoc := map[poLoc][]int{}
	var locs []poLoc
	for i, a := range accs {
		if _, ok := byLoc[a.loc]; !ok {
			locs = append(locs, a.loc)
		}
		byLoc[a.loc] = append(byLoc[a.loc], i)
	}
	// distinct clocks: writes of one location by different threads
	for _, l := range locs {
		var ws []poAcc
		for _, i := range byLoc[l] {
			if accs[i].write {
				ws = append(ws, accs[i])
			}
		}
		seen := map[[2]int]bool{}
		for i := range ws {
			for j := i + 1; j < len(ws); j++ {
				a, b := ws[i], ws[j]
				if thOf(a) == thOf(b) || seen[[2]int{a.grp, b.grp}] {
					continue
				}
				seen[[2]int{a.grp, b.grp}] = true
				e.q.Assert(Not(Eq(clk(a), clk(b))))
				e.terms++
				ncoh++
			}
		}
	}
	// and groups that read and write
	var rmw []int
	for i, g := range po.grps {
		if g.kind == poAccess && g.reads && g.writes {
			rmw = append(rmw, i)
		}
	}
	for i := range rmw {
		for j := i + 1; j < len(rmw); j++ {
			a, b := po.grps[rmw[i]], po.grps[rmw[j]]
			if a.th != b.th {
				e.q.Assert(Not(Eq(a.clk, b.clk)))
				e.terms++
				ncoh++
			}
		}
	}
	// reads-from
	for _, l := range locs {
		idx := byLoc[l]
		for _, ri := range idx {
			r := accs[ri]
			if r.write {
				continue
			}
			// the writes that may precede r: other threads', and the
			// thread's own in earlier groups
			// An own earlier write whose guard is true or r's own lies
			// between r and every own write before it whenever r is
			// executed (its clock is below r's): those cannot be read.
			last := -1
			for _, wi := range idx {
				w := accs[wi]
				if w.write && thOf(w) == thOf(r) && w.grp < r.grp && (w.g == "true" || w.g == r.g) {
					last = max(last, w.grp)
				}
			}
			var ws []poAcc
			for _, wi := range idx {
				w := accs[wi]
				if !w.write || (thOf(w) == thOf(r) && (w.grp >= r.grp || w.grp < last)) {
					continue
				}
				ws = append(ws, w)
			}
			before := func(w poAcc) Term { return and2(w.g, e.clkLT(clk(w), clk(r))) }
			var choices []Term
			s0 := e.q.Bool(e.fresh("rf"))
			e.terms++
			init := []Term{eqT(r.v, e.poInit(l, r.w))}
			for _, w := range ws {
				init = append(init, not(before(w)))
			}
			e.implies(s0, And(append(init, "true")...))
			choices = append(choices, s0)
			nrf += 1 + len(ws)
			for i, w := range ws {
				sw := e.q.Bool(e.fresh("rf"))
				e.terms++
				cs := []Term{before(w), eqT(r.v, w.v)}
				for j, w2 := range ws {
					if j == i || w2.grp == w.grp {
						continue
					}
					if thOf(w2) == thOf(w) && w2.grp < w.grp {
						continue // program order: below w
					}
					cs = append(cs, not(and2(and2(w2.g, e.clkLT(clk(w), clk(w2))), e.clkLT(clk(w2), clk(r)))))
				}
				e.implies(sw, And(append(cs, "true")...))
				choices = append(choices, sw)
			}
			e.implies(e.poExec(r.g, clk(r)), or(choices...))
		}
	}
	e.poMutexOrder(accs)
	e.poSignalOrder()
	// the run does not end before the violation (nor before a cut)
	for _, g := range po.grps {
		if g.kind == poHalt {
			e.implies(g.g, e.clkGE(g.clk, C))
		}
	}
	// atomic sections: another thread's event at or after a section's
	// start follows an executed exit of the section (its end, or the
	// thread's end inside it). This keeps every other thread's events out
	// of the section (its events precede its exits: a path leaves the
	// section there, and paths in different sections never join), and a
	// thread that stops inside a section (its events past the cut clock,
	// a path dropped by a reduction) holds it for good, as in the vm,
	// which runs no other thread until it leaves.
	for _, st := range po.grps {
		if !st.secStart {
			continue
		}
		ex := e.poExec(st.g, st.clk)
		if ex == "false" {
			continue
		}
		var exits []poGrp
		for _, x := range po.grps {
			if x.th == st.th && x.secExit && x.sec == st.clk {
				exits = append(exits, x)
			}
		}
		for _, y := range po.grps {
			if y.th == st.th || y.kind == poHalt {
				continue
			}
			ey := e.poExec(y.g, y.clk)
			if ey == "false" {
				continue
			}
			var left []Term
			for _, x := range exits {
				left = append(left, And(e.poExec(x.g, x.clk), e.clkLT(x.clk, y.clk)))
			}
			e.implies(And(ex, ey, e.clkLE(st.clk, y.clk)), or(left...))
			e.terms++
		}
	}
}

// poSchedule is the witness information of the encoding.
func (e *encoder) poSchedule() *POInfo {
	out := &POInfo{Cut: string(e.po.C), Clocks: e.po.nclk, Stats: e.po.stats, Blocks: e.po.nblocks}
	e.q.Want(string(e.po.C))
	for _, g := range e.po.grps {
		var ord int
		switch g.kind {
		case poAccess:
			switch {
			case g.reads && g.writes:
				ord = 1
			case g.writes:
				ord = 2
			}
		case poMark:
		case poViol:
			ord = 3
		default:
			continue
		}
		ev := POEvent{Thread: g.th, Clock: string(g.clk), Guard: string(g.g), Steps: string(g.steps), Order: ord, Violate: g.kind == poViol}
		want := []string{ev.Clock}
		if ev.Guard != "true" && ev.Guard != "false" {
			want = append(want, ev.Guard)
		}
		if ev.Steps != "" {
			want = append(want, ev.Steps)
		}
		e.q.Want(want...)
		out.Events = append(out.Events, ev)
	}
	return out
}

// poContexts derives a witness's schedule from a model of a partial-order
// encoding: the executed events in clock order, each running its thread
// through its instruction, up to the first violation.
func poContexts(enc *Encoding, model Model) ([]WitnessContext, error) {
	get := func(name string) (uint64, error) {
		switch name {
		case "true":
			return 1, nil
		case "false":
			return 0, nil
		}
		v, ok := model[name]
		if !ok {
			return 0, fmt.Errorf("the model has no value for %s", name)
		}
		return v.Uint64(), nil
	}
	C, err := get(enc.PO.Cut)
	if err != nil {
		return nil, err
	}
	type item struct {
		clk   uint64
		ord   int
		tid   int32
		steps uint64
	}
	var items []item
	var viol *item
	for _, ev := range enc.PO.Events {
		g, err := get(ev.Guard)
		if err != nil {
			return nil, err
		}
		c, err := get(ev.Clock)
		if err != nil {
			return nil, err
		}
		if g == 0 || c >= C {
			continue
		}
		th := enc.Threads[ev.Thread]
		tid := th.Tid
		if th.TidName != "" {
			if tid, err = get(th.TidName); err != nil {
				return nil, err
			}
		}
		it := item{clk: c, ord: ev.Order, tid: int32(tid), steps: allSteps}
		if !ev.Violate {
			if it.steps, err = get(ev.Steps); err != nil {
				return nil, err
			}
		} else if viol == nil || c < viol.clk {
			v := it
			viol = &v
		}
		if !ev.Violate {
			items = append(items, it)
		}
	}
	if viol == nil {
		return nil, fmt.Errorf("the model executes no violation")
	}
	sort.SliceStable(items, func(i, j int) bool {
		if items[i].clk != items[j].clk {
			return items[i].clk < items[j].clk
		}
		return items[i].ord < items[j].ord
	})
	var out []WitnessContext
	for _, it := range items {
		if it.clk > viol.clk {
			break
		}
		out = append(out, WitnessContext{Thread: it.tid, Steps: it.steps})
	}
	return append(out, WitnessContext{Thread: viol.tid, Steps: allSteps}), nil
}

// provePO is the partial-order check of a threaded program at unwind
// opts.Unwind, before the round-robin rounds (Check): a
// violation in any interleaving (replayed before it is reported), else
// whether the bound cuts an execution. done is false when it does (Check
// deepens); refusal says why the encoding refused the program (Check
// keeps the round-robin answer).
func provePO(ctx context.Context, p *ir.Program, q *query.Query, target query.Target, s Solver, name string,
	opts EncodeOptions, res *Result, progress func(Progress)) (verdict, reason string, done bool, refusal string, err error) {
	o := opts
	o.PartialOrder, o.Spurious, o.Complete = true, true, true
	k := o.Unwind
	t0 := time.Now()
	pe, err := poEncode(p, o, name)
	if err != nil {
		return "", "", false, err.Error(), nil
	}
	if m := pe.main(); m.Spurious && m.PO.Blocks > 0 {
		// Condition variables: no critical sections as blocks. A violation
		// whose model needs a spurious wakeup is searched for again with
		// every wait signalled (poSignalledViolation), where which model
		// the solver picks decides whether it replays under LODIN's
		// platform; with blocks (their formula, and the solver's state
		// after it) mt_condvar_if's model woke two waiters by one signal.
		// Blocks gave condition-variable programs nothing measurable
		// (mt_condvar_ok: its sections end at the wait).
		o.NoBlocks = true
		if pe, err = poEncode(p, o, name); err != nil {
			return "", "", false, err.Error(), nil
		}
	}
	enc := pe.main()
	bc := BoundCheck{Unwind: k, Terms: enc.Terms, EncodeSeconds: time.Since(t0).Seconds(), PartialOrder: true}
	res.EncodeSeconds += bc.EncodeSeconds
	record := func() {
		res.Checks = append(res.Checks, bc)
		res.SolverSeconds += bc.SolverSeconds
	}
	stop := solving(progress, Progress{Unwind: k, Terms: enc.Terms, SolverSeconds: res.SolverSeconds, Phase: "violation"})
	ans, err := s.Check(ctx, pe.query(func(enc *Encoding) Term { return enc.Violation }, true))
	stop()
	if err != nil {
		return "", "", true, "", fmt.Errorf("solver %s at unwind %d, partial order: %w", name, k, err)
	}
	enc = pe.answered(ans)
	bc.SolverSeconds += ans.Elapsed.Seconds()
	bc.Violation = ans.String()
	bc.Answered = ans.Solver
	switch ans.Status {
	case Unknown:
		record()
		return VerdictIncomplete, fmt.Sprintf("the partial-order check (every interleaving) at unwind %d got no answer from solver %s: %s", k, name, ans), true, "", nil
	case Sat:
		record()
		if err := witness(p, q, target, enc, ans.Model, res); err != nil {
			why, undef := undefNoReplay(err)
			if undef && !enc.Spurious {
				// (the round-robin rounds go on alone)
				res.Inputs, res.Schedule, res.Trace = nil, nil, nil
				return VerdictIncomplete, fmt.Sprintf("the partial-order check at unwind %d: %s", k, why), true, "", nil
			}
			if enc.Spurious {
				// (first, whether or not the run read undefined bytes:
				// it may miss the violation for want of a spurious
				// wakeup)
				res.Inputs, res.Schedule, res.Trace = nil, nil, nil
				found, err2 := poSignalledViolation(ctx, p, q, target, s, o, res)
				if err2 != nil {
					return "", "", true, "", fmt.Errorf("solver %s at unwind %d, partial order without spurious wakeups: %w", name, k, err2)
				}
				if found {
					v := VerdictSatisfied
					if target.Negated {
						v = VerdictNotSatisfied
					}
					return v, fmt.Sprintf("a violation is reachable (unwind %d, partial order, every wait woken by a signal): %s", k, res.Description), true, "", nil
				}
				return VerdictIncomplete, fmt.Sprintf("the partial-order encoding (condition variables with spurious wakeups) has a violation at unwind %d that does not replay: %v", k, err), true, "", nil
			}
			return "", "", true, "", fmt.Errorf("internal error: the partial-order model of a violation at unwind %d does not replay: %w", k, err)
		}
		v := VerdictSatisfied
		if target.Negated {
			v = VerdictNotSatisfied
		}
		return v, fmt.Sprintf("a violation is reachable (unwind %d, partial order): %s", k, res.Description), true, "", nil
	}
	stop = solving(progress, Progress{Unwind: k, Terms: enc.Terms, SolverSeconds: res.SolverSeconds + bc.SolverSeconds, Phase: "unwinding"})
	ans, err = s.Check(ctx, pe.query(func(enc *Encoding) Term { return enc.Unwound }, false))
	stop()
	if err != nil {
		return "", "", true, "", fmt.Errorf("solver %s at unwind %d, partial order: %w", name, k, err)
	}
	enc = pe.answered(ans)
	bc.SolverSeconds += ans.Elapsed.Seconds()
	bc.Unwound = ans.String()
	bc.Answered = ans.Solver
	record()
	switch ans.Status {
	case Unknown:
		return VerdictIncomplete, fmt.Sprintf("no violation in any interleaving within unwind %d; solver %s gave no answer on the unwinding assertion: %s", k, name, ans), true, "", nil
	case Sat:
		return "", "", false, "", nil
	}
	if enc.NoProof != "" {
		return VerdictIncomplete, fmt.Sprintf("no violation in any interleaving within unwind %d; no proof: %s", k, enc.NoProof), true, "", nil
	}
	v := VerdictNotSatisfied
	if target.Negated {
		v = VerdictSatisfied
	}
	return v, fmt.Sprintf("no violation in any interleaving (partial-order encoding), and every execution is complete within unwind %d", k), true, "", nil
}

// poEncodings are a partial-order check's encodings: with integer clocks
// for the solvers that take integers (ints), with bitvector clocks of the
// narrowest width that holds the events' ranks for those that do not
// (bvs, boolector). The portfolio gets both: z3 and cvc5 check the
// integer one at once, and boolector the bitvector one only when they
// have not answered within portfolioLate (portfolio.go). On the corpus's
// threaded lines boolector with bitvector clocks took 10 to 50 times the
// CPU time of z3 or cvc5 with integer clocks (BENCHMARKS.md), CPU that z3
// and cvc5 lose to it on a loaded machine (mt_condvar_ok: 2.2 CPU seconds
// with boolector in the race, 0.7 for z3 alone), and they answer there
// within the delay; where the threads' own bodies are most of the formula
// (critical sections as blocks over arrays, SV-COMP's queue_ok) boolector
// is the fast one (8.4 s against z3's 156 s). The bitvector version for a
// solver without integers attached to a query (Query.SetBVOnly) is
// supported by every solver, the portfolio included.
type poEncodings struct {
	ints, bvs *Encoding
}

// poEncode encodes the partial-order check o for solver name.
func poEncode(p *ir.Program, o EncodeOptions, name string) (poEncodings, error) {
	var pe poEncodings
	wantInts := name == Portfolio || backends[name].intLogic != ""
	wantBVs := !wantInts || name == Portfolio
	o.poBits = 0
	clocks := -1
	if wantInts {
		oi := o
		oi.poInt = true
		enc, err := Encode(p, oi)
		if err != nil {
			return pe, err
		}
		pe.ints, clocks = enc, enc.PO.Clocks
	}
	if wantBVs {
		if clocks < 0 {
			enc, err := Encode(p, o)
			if err != nil {
				return pe, err
			}
			clocks = enc.PO.Clocks
			pe.bvs = enc
		}
		// the narrowest clocks that hold the events' ranks (and C)
		if w := bits.Len(uint(clocks + 2)); w < poClockBits {
			o.poBits = max(w, 2)
		}
		if pe.bvs == nil || o.poBits != 0 {
			enc, err := Encode(p, o)
			switch {
			case err != nil && pe.ints != nil:
				// the portfolio: the integer version alone (more events
				// than bitvector clocks hold)
			case err != nil:
				return pe, err
			default:
				pe.bvs = enc
			}
		}
	}
	return pe, nil
}

// main is the encoding whose size is reported.
func (pe poEncodings) main() *Encoding {
	if pe.ints != nil {
		return pe.ints
	}
	return pe.bvs
}

// query is the check of goal (of each encoding) as one query, the
// bitvector version attached for solvers without integers.
func (pe poEncodings) query(goal func(*Encoding) Term, wantInputs bool) *Query {
	if pe.ints == nil {
		return withGoal(pe.bvs, goal(pe.bvs), wantInputs)
	}
	q := withGoal(pe.ints, goal(pe.ints), wantInputs)
	if pe.bvs != nil {
		q.SetBVOnly(withGoal(pe.bvs, goal(pe.bvs), wantInputs))
	}
	return q
}

// answered is the encoding whose constants ans's model names.
func (pe poEncodings) answered(ans Answer) *Encoding {
	if ans.BVOnly || pe.ints == nil {
		return pe.bvs
	}
	return pe.ints
}

// poSignalledViolation looks for a violation that replays when the
// partial-order encoding's violation needs a spurious wakeup: the encoding
// again with every wait woken by a signal (poSignalOrder). Only a
// violation it finds counts (replayed in the vm); its unsat proves
// nothing, since POSIX allows the spurious wakeups it leaves out.
func poSignalledViolation(ctx context.Context, p *ir.Program, q *query.Query, target query.Target, s Solver,
	opts EncodeOptions, res *Result) (bool, error) {
	o := opts
	o.poSignalled = true
	pe, err := poEncode(p, o, s.Name())
	if err != nil {
		return false, nil // refused: the spurious answer stands
	}
	ans, err := s.Check(ctx, pe.query(func(enc *Encoding) Term { return enc.Violation }, true))
	if err != nil {
		return false, err
	}
	enc := pe.answered(ans)
	res.SolverSeconds += ans.Elapsed.Seconds()
	if ans.Status != Sat {
		return false, nil
	}
	if err := witness(p, q, target, enc, ans.Model, res); err != nil {
		res.Inputs, res.Schedule, res.Trace = nil, nil, nil
		return false, nil
	}
	return true, nil
}
