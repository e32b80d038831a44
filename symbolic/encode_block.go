package symbolic

import (
	"github.com/wyvernmc/wyvern/ir"
)

// Critical sections as blocks in the partial-order encoding (issue 30).
//
// In the partial-order encoding every instruction that touches shared
// memory is an access group with its own clock, and every read of it gets
// a reads-from choice among the writes of its location. A critical
// section of a mutex m whose data only threads holding m touch needs
// none of that inside: only the order of the sections matters. So when
// the lockset analysis (lockset.go) establishes the premise, a section is
// one access group — one clock — from the lock of m to its unlock:
//
//   - The group begins as the lock's group (the read of m's word, the
//     owner written). While the path holds m, each following instruction
//     that is block-safe joins it: a non-memory instruction, a load or
//     store of the thread's own stack or of globals every access of which
//     outside single contexts holds m (lockset[b] ∋ m) or constant ones
//     read, an inlined call or return, an input (its counter a virtual
//     location), output, with spurious wakeups a signal (then a no-op),
//     and the unlock of m, which ends the group. Any other instruction
//     (another lock, a wait, a trylock, an unprotected access, an atomic,
//     an indirect call, the thread's return) ends the group before it and
//     runs as before; so does a join of paths that are not all in the same
//     group.
//   - Inside the group a read of a location reads the group's own last
//     write of it on the path (poRead's ite over the path guards), else
//     the value the location has at the group's clock: one read per
//     location and group (its guard the disjunction of the paths that
//     read it), with the ordinary reads-from choice. The group's writes
//     of a location are one write, its last value on each path (poWrite).
//     So the reads-from and coherence variables of the accesses inside
//     the section disappear; other threads see the section's final values
//     at its clock.
//   - The group's step count (where a witness's schedule runs the thread
//     to) is the thread's count where the group ends on the path: after
//     the unlock, before the instruction that ends it, or before the
//     instruction whose violation, end of the run or cut by the bound
//     ends the path.
//
// Premise (blockMutex): m is a constant address of a global whose word is
// touched outside single contexts by lock, unlock and condition waits
// only (the lockset analysis' bad blocks exclude stores, inits and the
// rest), no trylock anywhere may name it, and the program does not
// convert integers to pointers (the analysis applies). Otherwise the lock
// opens no block.
//
// Why it is sound (Lipton's reduction; docs/bmc.md, "Critical sections as
// blocks"). Take a vm execution E reaching a violation V (every execution
// of the spurious-wakeup semantics the encoding covers). Let a chunk be
// the steps of thread t from a lock L of m through the block-safe steps
// that follow on its path, up to the unlock U (included) or the step that
// ends the block (excluded). While t holds m (from L on) no other thread
// locks m (disabled), and no other thread touches a protected global b
// (each of its accesses outside single contexts holds m; single contexts
// — main before its first create, after joining every thread — never run
// beside t), nor m's word but by an unlock or wait of m that fails with
// the same error whether m is held by t or free (the word is not its id
// + 1); nothing else of t's chunk (its registers, its own stack, the
// input counters, which only index the witness's inputs, output) is
// observed by another thread. So:
//
//   - A chunk completed before V: each of its steps after L commutes with
//     the other threads' steps between L and it (they touch disjoint
//     state, and it completed in E), so moving them left to L makes the
//     chunk contiguous; V and every other step see the same values.
//   - A chunk in progress at V (L executed, not its last step): if V is
//     t's own step, the other threads' steps after L can be dropped (V
//     depends on t's state and the protected globals only, which they do
//     not touch) and the chunk's steps so far are contiguous, ending in V;
//     the encoding has that path with the violation inside the group
//     (the group's accesses on that path are the chunk's so far). If V is
//     another thread's, t's chunk so far can be removed from E altogether:
//     no other step observed it (above), and t's later steps come after
//     it in program order, so none of them precedes V.
//
// Repeating this for every chunk gives an execution with the same
// violation in which every chunk is contiguous or absent: a model of the
// encoding with each group at its chunk's time. Conversely every model is
// replayed in the vm before a violation is reported (bmc.go), the group
// running its thread to its step count in one context.

// blockMutex reports whether mutex address m satisfies the premise above.
func (e *encoder) blockMutex(m uint64) bool {
	if e.opts.NoBlocks {
		return false
	}
	if e.drf == nil {
		e.drf = analyseDRF(e.p)
	}
	d := e.drf
	if d.reason != "" {
		return false
	}
	b := ir.PtrBlock(m)
	if g := d.global(b); g == nil || g.ThreadLocal || d.bad[b] {
		return false
	}
	if e.poBlkOK == nil {
		e.poBlkOK = map[uint64]bool{}
	}
	if ok, seen := e.poBlkOK[m]; seen {
		return ok
	}
	ok := !e.trylocked(b)
	e.poBlkOK[m] = ok
	return ok
}

// trylocked reports whether some trylock may name a mutex in global block b.
func (e *encoder) trylocked(b uint32) bool {
	d := e.drf
	for fi, f := range e.p.Funcs {
		for pc := range f.Code {
			in := &f.Code[pc]
			bi, ok := e.choosingCall(f, in)
			if !ok || bi != ir.BMutexTrylock {
				continue
			}
			if in.Imm >= uint64(len(f.Calls)) || len(f.Calls[in.Imm].Args) == 0 {
				return true
			}
			a := f.Calls[in.Imm].Args[0]
			if c, ok := constArg(f, &f.Calls[in.Imm], 0); ok {
				if ir.PtrBlock(c) == b {
					return true
				}
				continue
			}
			if a < 0 || int(a) >= len(d.pts[fi]) {
				return true
			}
			if v := d.pts[fi][a]; v.unknown || v.globals[b] {
				return true
			}
		}
	}
	return false
}

// atomicBlk is the mutex of a block that is an atomic section
// (poSectionBlock): no mutex has that address.
const atomicBlk = ^uint64(0)

// Atomic sections as blocks. An atomic section begun by
// __VERIFIER_atomic_begin is a block too: its start mark becomes an
// access group, and the section's instructions join it while they are
// atomicSafe. No premise on the data is needed: the vm runs no other
// thread while one is inside an atomic section, so the section's steps
// are contiguous in every vm execution, and the section constraints
// (poConstraints) keep every other thread's event out of it in the
// encoding. The block ends after the __VERIFIER_atomic_end that leaves
// the section (poBlockAfter), or, as a mutex block does, before an
// instruction that may not join it (the section then goes on as access
// groups of their own, still kept apart by the section constraints) and
// where paths of different blocks join. So every vm execution is a
// model with the block at the time of the section's start, and every
// model is replayed in the vm as before.

// poSectionBlock opens a block at the start mark of the atomic section s
// has just entered (by __VERIFIER_atomic_begin).
func (e *encoder) poSectionBlock(s *pstate) {
	if e.po == nil || e.opts.NoBlocks || s.poBlk != 0 || s.atomic != 1 || s.poSec == "" || s.g == "false" {
		return
	}
	gi := len(e.po.grps) - 1
	if gi < 0 || !e.po.grps[gi].secStart || e.po.grps[gi].clk != s.poSec {
		return
	}
	e.po.grps[gi].kind = poAccess // its reads and writes are the section's
	e.poBlockOpen(s, gi, atomicBlk)
}

// atomicSafe reports whether instruction in may join an atomic section's
// block: any access of memory (no other thread runs inside the section),
// a call of a function that is not itself atomic, an inlined return, the
// platform calls a mutex block admits but unlocks, and the nested begin
// and the end of an atomic section.
func (e *encoder) atomicSafe(fn *ir.Func, in *ir.Inst) bool {
	builtin := func(b ir.Builtin) bool {
		switch b {
		case ir.BAtomicBegin, ir.BAtomicEnd:
			return true
		case ir.BMutexUnlock:
			return false
		}
		return blockBuiltin(b, in, fn, atomicBlk, e.opts.poSignalled)
	}
	switch in.Op {
	case ir.OpLoad, ir.OpStore, ir.OpLoadAgg, ir.OpStoreAgg:
		return true
	case ir.OpCallInd:
		if b, ok := e.choosingCall(fn, in); ok {
			return builtin(b)
		}
		return false
	case ir.OpCallB:
		return builtin(ir.Builtin(in.B))
	case ir.OpCall:
		if in.Imm >= uint64(len(fn.Calls)) {
			return false
		}
		c := fn.Calls[in.Imm].Callee
		if c < 0 || int(c) >= len(e.p.Funcs) {
			return false
		}
		if callee := e.p.Funcs[c]; callee.External {
			return builtin(callee.Builtin)
		}
	}
	return false
}

// blockSafe reports whether instruction in (pc of fn) may join s's open
// block of mutex m (see above).
func (e *encoder) blockSafe(fn *ir.Func, pc int32, in *ir.Inst, s *pstate, m uint64) bool {
	if m == atomicBlk && e.atomicSafe(fn, in) {
		return true
	}
	switch in.Op {
	case ir.OpLoad, ir.OpStore, ir.OpLoadAgg, ir.OpStoreAgg:
		if m == atomicBlk {
			return false
		}
		if int(in.A) < len(s.regs) && in.A >= 0 {
			if p := s.regs[in.A]; p.isConst() && e.private(p.c>>32) {
				return true // the thread's own stack
			}
		}
		return e.protectedBy(fn, pc, in, m)
	case ir.OpAtomicRMW, ir.OpCmpXchg, ir.OpCallInd:
		if in.Op == ir.OpCallInd {
			if b, ok := e.choosingCall(fn, in); ok {
				return blockBuiltin(b, in, fn, m, e.opts.poSignalled)
			}
		}
		return false
	case ir.OpStackSave, ir.OpStackRestore:
		return false
	case ir.OpRet:
		return e.depth > 0 // an inlined callee's return; the thread's own ends the block
	case ir.OpCall:
		if in.Imm >= uint64(len(fn.Calls)) {
			return false
		}
		c := fn.Calls[in.Imm].Callee
		if c < 0 || int(c) >= len(e.p.Funcs) {
			return false
		}
		callee := e.p.Funcs[c]
		if callee.External {
			return blockBuiltin(callee.Builtin, in, fn, m, e.opts.poSignalled)
		}
		return !callee.Atomic
	case ir.OpCallB:
		return blockBuiltin(ir.Builtin(in.B), in, fn, m, e.opts.poSignalled)
	}
	return !visible(in.Op) // registers, branches, allocas: the thread's own
}

// blockBuiltin reports whether platform call b may join a block of m.
func blockBuiltin(b ir.Builtin, in *ir.Inst, fn *ir.Func, m uint64, signalled bool) bool {
	switch b {
	case ir.BNondet, ir.BUniform, ir.BCoin, ir.BPrintf, ir.BPuts, ir.BPutchar:
		return true
	case ir.BCondSignal, ir.BCondBroadcast:
		return !signalled // a no-op with spurious wakeups
	case ir.BMutexUnlock:
		return blockUnlock(fn, in, m)
	}
	return false
}

// blockUnlock reports whether in is pthread_mutex_unlock(m).
func blockUnlock(fn *ir.Func, in *ir.Inst, m uint64) bool {
	if in.Imm >= uint64(len(fn.Calls)) {
		return false
	}
	c, ok := constArg(fn, &fn.Calls[in.Imm], 0)
	return ok && c == m
}

// protectedBy reports whether load or store in may touch only globals
// whose every access outside single contexts holds m (or constant
// globals, for a load), or runs where no other thread does.
func (e *encoder) protectedBy(fn *ir.Func, pc int32, in *ir.Inst, m uint64) bool {
	d := e.drf
	if d == nil || d.reason != "" || fn.Index < 0 || fn.Index >= len(d.states) || d.p.Funcs[fn.Index] != fn {
		return false
	}
	st := d.states[fn.Index][pc]
	if !st.reached || in.A < 0 || int(in.A) >= len(d.pts[fn.Index]) {
		return false
	}
	v := d.pts[fn.Index][in.A]
	if v.unknown || v.other || len(v.globals) == 0 {
		return false
	}
	load := in.Op == ir.OpLoad || in.Op == ir.OpLoadAgg
	for b := range v.globals {
		g := d.global(b)
		if g == nil || g.ThreadLocal {
			return false
		}
		if (g.Const && load) || st.single || d.isAlone(fn.Index, int(pc)) {
			continue
		}
		if !d.lockset[b][m] {
			return false
		}
	}
	return true
}

// poBlockEnter is called before instruction in runs on s: when s is in a
// block and in may join it, the block's group is made the open one and
// its index returned; otherwise the block ends before in (-1).
func (e *encoder) poBlockEnter(fn *ir.Func, pc int32, in *ir.Inst, s *pstate) int {
	if e.po == nil || s.poBlk == 0 {
		return -1
	}
	s.poPre, s.poPreOff = s.steps, s.soff
	gi := s.poBlk - 1
	if !e.blockSafe(fn, pc, in, s, s.poBlkM) {
		e.poBlockClose(s, e.inc32(s.steps, int64(s.soff)))
		return -1
	}
	bk := e.po.blocks[gi]
	e.po.cur, e.po.wrote, e.po.reads = gi, bk.wrote, bk.reads
	return gi
}

// poBlockLeave closes the open group after an instruction of a block.
func (e *encoder) poBlockLeave(gi int) {
	if gi >= 0 {
		e.po.cur, e.po.wrote, e.po.reads = -1, nil, nil
	}
}

// poBlockAfter is called on each state x an instruction left (its step
// counted): an unlock of x's block's mutex ends the block; a lock of an
// eligible mutex (its group the last one, from first on) opens one.
func (e *encoder) poBlockAfter(fn *ir.Func, in *ir.Inst, x *pstate, first int) {
	if e.po == nil || x.g == "false" {
		return
	}
	b, ok := e.choosingCall(fn, in)
	if !ok {
		return
	}
	switch b {
	case ir.BAtomicEnd:
		if x.poBlk != 0 && x.poBlkM == atomicBlk && x.atomic == 0 {
			e.poBlockClose(x, e.inc32(x.steps, int64(x.soff)))
		}
	case ir.BMutexUnlock:
		if x.poBlk != 0 && blockUnlock(fn, in, x.poBlkM) {
			e.poBlockClose(x, e.inc32(x.steps, int64(x.soff)))
		}
	case ir.BMutexLock:
		if x.poBlk != 0 || x.atomic > 0 || x.poSec != "" || in.Imm >= uint64(len(fn.Calls)) {
			return
		}
		m, ok := constArg(fn, &fn.Calls[in.Imm], 0)
		if !ok || !e.blockMutex(m) {
			return
		}
		gi := -1
		me := e.thIndex()
		for i := first; i < len(e.po.grps); i++ {
			if g := e.po.grps[i]; g.kind == poAccess && g.th == me && g.b == ir.BMutexLock {
				gi = i
			}
		}
		if gi < 0 {
			return
		}
		e.poBlockOpen(x, gi, m)
	}
}

// poBlock is an open block's state: the group's writes and reads by
// location (indices into accs).
type poBlock struct {
	wrote, reads map[poLoc]int
	m            uint64
}

// poBlockOpen makes lock group gi the block of s.
func (e *encoder) poBlockOpen(s *pstate, gi int, m uint64) {
	po := e.po
	if po.blocks == nil {
		po.blocks = map[int]*poBlock{}
	}
	if _, ok := po.blocks[gi]; !ok {
		bk := &poBlock{wrote: map[poLoc]int{}, reads: map[poLoc]int{}, m: m}
		for i, a := range po.accs {
			if a.grp != gi {
				continue
			}
			if a.write {
				bk.wrote[a.loc] = i
			} else if _, ok := bk.reads[a.loc]; !ok {
				bk.reads[a.loc] = i
			}
		}
		po.blocks[gi] = bk
		// the group's step count: where it ends on each path (poBlockClose)
		st := e.q.Declare(e.fresh("bs"), BitVec(32))
		e.terms++
		po.grps[gi].steps = st
		po.nblocks++
	}
	s.poBlk, s.poBlkM = gi+1, m
	s.poPre, s.poPreOff = s.steps, s.soff
}

// poBlockClose ends s's block where s is, its thread having taken steps.
func (e *encoder) poBlockClose(s *pstate, steps val) {
	if s.poBlk == 0 {
		return
	}
	g := e.po.grps[s.poBlk-1]
	s.poBlk, s.poBlkM = 0, 0
	if s.g == "false" {
		return
	}
	e.implies(s.g, eqT(g.steps, e.bv(steps, 32)))
	e.terms++
}

// poBlockMark: where g holds, s's path ends inside its block in the
// current instruction (a violation, an end of the run, a cut); the block
// ends there, the thread having taken its steps before the instruction.
// The path goes on where g does not (every caller narrows s's guard to
// exclude g), still in the block. The mark's clock is the block's: the
// path's chunk so far runs at once, then the mark (see above: a chunk in
// progress when the run ends needs nothing of the other threads after
// its lock).
func (e *encoder) poBlockMark(s *pstate, g Term) Term {
	gr := e.po.grps[s.poBlk-1]
	if g != "false" {
		e.implies(g, eqT(gr.steps, e.bv(e.inc32(s.poPre, int64(s.poPreOff)), 32)))
		e.terms++
	}
	return gr.clk
}

// poBlockJoin ends the blocks of states about to be merged unless they
// are all in the same one.
func (e *encoder) poBlockJoin(live []*pstate) {
	if e.po == nil || len(live) < 2 {
		return
	}
	same := true
	for _, s := range live[1:] {
		if s.poBlk != live[0].poBlk {
			same = false
		}
	}
	if same {
		return
	}
	for _, s := range live {
		if s.poBlk != 0 {
			e.poBlockClose(s, e.inc32(s.steps, int64(s.soff)))
		}
	}
}

// poOr is the defined disjunction of guards a and b, one name per pair
// (the bytes of a word read or written together keep equal guards, so
// poWords can still merge them).
func (e *encoder) poOr(a, b Term) Term {
	if a == b {
		return a
	}
	k := [2]Term{a, b}
	if t, ok := e.po.ors[k]; ok {
		return t
	}
	if e.po.ors == nil {
		e.po.ors = map[[2]Term]Term{}
	}
	t := e.defBool(or(a, b))
	e.po.ors[k] = t
	return t
}
