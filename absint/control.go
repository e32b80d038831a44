package absint

import (
	"slices"

	"github.com/wyvernmc/wyvern/ir"
)

// defIn finds the instruction of the current basic block before pc that
// last writes slot s (-1: none).
func defIn(fi *fninfo, pc int, s int32) int {
	for q := pc - 1; q >= 0; q-- {
		in := fi.f.Code[q]
		if writesDst(in.Op) && in.Dst == s {
			return q
		}
		if in.Op == ir.OpCall || in.Op == ir.OpCallB {
			if c := fi.f.Calls[in.Imm]; c.Ret >= 0 && s >= c.Ret && s < c.Ret+max(c.RetSlots, 1) {
				return -1
			}
		}
		if fi.leader[q] {
			return -1
		}
	}
	return -1
}

// condition refines st under the condition slot c being taken (non-zero)
// or not; false when that is impossible.
func (a *analysis) condition(fi *fninfo, pc int, st *state, c int32, taken bool) bool {
	cv := st.regs[c]
	if cv.bot() {
		return false
	}
	if len(cv.p) == 0 {
		if taken && cv.i.hi == 0 {
			return false
		}
		if !taken && cv.i.lo == cv.i.hi && cv.i.lo&1 == 1 {
			return false
		}
	}
	cs := c
	d := defIn(fi, pc, c)
	for d >= 0 && fi.f.Code[d].Op == ir.OpMov {
		// a zero extension of the comparison (assume's int argument)
		cs = fi.f.Code[d].A
		d = defIn(fi, d, cs)
	}
	if d < 0 {
		if ok, handled := a.conditionPhi(fi, pc, st, cs, taken); handled {
			return ok
		}
		return true
	}
	in := fi.f.Code[d]
	if in.Op < ir.OpEq || in.Op > ir.OpSge {
		return true
	}
	x, y := st.regs[in.A], st.regs[in.B]
	nx, okx := refine(in.Op, in.W, x, y, taken)
	ny, oky := refine(swap(in.Op), in.W, y, x, taken)
	if !okx || !oky {
		return false
	}
	for _, r := range []struct {
		s int32
		v val
	}{{in.A, nx}, {in.B, ny}} {
		if r.s >= fi.f.ConstBase && r.s < fi.f.ConstBase+int32(len(fi.f.Consts)) {
			continue
		}
		// a register loaded from a promoted cell in this block, with no
		// store to the cell since, refines the cell too
		if ld := defIn(fi, d, r.s); ld >= 0 && fi.f.Code[ld].Op == ir.OpLoad {
			if cell, ok := fi.cellOf[fi.f.Code[ld].A]; ok && !storesTo(fi, ld, pc, fi.f.Code[ld].A) {
				st.cells[cell], _ = intersectVal(st.cells[cell], r.v)
				// a cell that holds a parameter's value refines the
				// parameter (paramRet: assume_abort_if_not(c))
				if pcp, ok := fi.cellParam[cell]; ok && ld > pcp.pc {
					ps := fi.f.Params[pcp.param]
					st.regs[ps], _ = intersectVal(st.regs[ps], r.v)
				}
			}
		}
		st.regs[r.s] = r.v
	}
	return true
}

// conditionPhi refines st, the state at pc, under the condition that
// slot c, a phi of pc's block (written by the copies of its incoming
// edges, read through moves only), is taken (non-zero) or not: the state
// becomes the join, over the block's incoming edges, of the edge's state
// refined in its predecessor under the same condition on the value the
// edge copies into c (an infeasible edge drops out), then copied and run
// through the block up to pc. This is how && and || reach a branch or
// an assume at -O0: a phi of false from the edges that decided early and
// of the last comparison from the one that did not. handled is false
// where the block is not of that form (then st stays as it is): an
// incoming edge without a copy into c, an instruction before pc other
// than a move, a truncation, an extension, a comparison or plain
// arithmetic, or a nested use (the edge's own condition is refined
// without it).
func (a *analysis) conditionPhi(fi *fninfo, pc int, st *state, c int32, taken bool) (ok, handled bool) {
	if a.edgeSt == nil || a.phiDepth > 0 {
		return true, false
	}
	f := fi.f
	l := pc
	for l > 0 && !fi.leader[l] {
		l--
	}
	for q := l; q < pc; q++ {
		in := f.Code[q]
		switch {
		case in.Op == ir.OpMov, in.Op == ir.OpTrunc, in.Op == ir.OpSExt, in.Op == ir.OpNop:
		case in.Op >= ir.OpEq && in.Op <= ir.OpSge:
		case in.Op >= ir.OpAdd && in.Op <= ir.OpXor && in.Flags == 0:
		default:
			return true, false
		}
		if in.Dst == c {
			return true, false
		}
	}
	// the incoming edges of l: each an edge with copies, the last into c
	type inEdge struct {
		from, e int
		src     int32
	}
	var ins []inEdge
	for q := range f.Code {
		op := f.Code[q].Op
		var es []int32
		switch op {
		case ir.OpJmpE:
			es = []int32{int32(f.Code[q].Imm)}
		case ir.OpBrE:
			es = []int32{f.Code[q].B, f.Code[q].C}
		case ir.OpSwitch:
			sw := f.Switches[f.Code[q].Imm]
			es = append([]int32{sw.Default}, sw.Targets...)
		default:
			if slices.Contains(a.succs(f, q), l) {
				return true, false // an edge without copies
			}
			continue
		}
		for _, e := range es {
			ed := f.Edges[e]
			if int(ed.PC) != l {
				continue
			}
			// the slot whose value (before the copies) the edge copies into c
			src := int32(-1)
			from := map[int32]int32{}
			for _, m := range ed.Moves {
				o := m.Src
				if x, ok := from[m.Src]; ok {
					o = x
				}
				from[m.Dst] = o
			}
			if x, ok := from[c]; ok {
				src = x
			}
			if src < 0 {
				return true, false
			}
			ins = append(ins, inEdge{q, int(e), src})
		}
	}
	if len(ins) == 0 {
		return true, false
	}
	saved := a.pc
	defer func() { a.pc = saved }()
	var out *state
	for _, ie := range ins {
		es := a.edgeSt[[2]int{ie.from, ie.e}]
		if es == nil {
			continue // (not reached yet: a later state requeues the block)
		}
		s := es.clone()
		a.phiDepth++
		feasible := a.condition(fi, ie.from, s, ie.src, taken)
		a.phiDepth--
		if !feasible {
			continue
		}
		moves(f.Edges[ie.e], s)
		for q := l; q < pc; q++ {
			nx := a.step(fi.idx, q, s)
			if len(nx) != 1 || nx[0].pc != q+1 {
				return true, false
			}
			s = nx[0].st
		}
		if out == nil {
			out = s
		} else {
			joinState(out, s, false, a.th)
		}
	}
	if out == nil {
		return false, true
	}
	*st = *out
	return true, true
}

func intersectVal(x, v val) (val, bool) {
	if len(x.p) > 0 || len(v.p) > 0 || !x.hasInt || !v.hasInt {
		return v, true
	}
	return intersect(x, v)
}

func storesTo(fi *fninfo, from, to int, addr int32) bool {
	for q := from + 1; q < to; q++ {
		in := fi.f.Code[q]
		if (in.Op == ir.OpStore || in.Op == ir.OpStoreAgg) && in.A == addr {
			return true
		}
	}
	return false
}

func (a *analysis) branch(fi *fninfo, pc int, st *state, succ func(bool, *state) edge) []edge {
	c := fi.f.Code[pc].A
	var out []edge
	for _, taken := range []bool{true, false} {
		s := st.clone()
		if a.condition(fi, pc, s, c, taken) {
			out = append(out, succ(taken, s))
		}
	}
	return out
}

// callInd resolves a call through a pointer that is one known function
// (as clang calls a function declared without a prototype).
func (a *analysis) callInd(fidx, pc int, st *state) []edge {
	fi := a.fns[fidx]
	c := fi.f.Calls[fi.f.Code[pc].Imm]
	fv := st.regs[c.FnSlot]
	if fv.bot() {
		return nil
	}
	k := -1
	if !fv.hasInt && len(fv.p) == 1 {
		for o, x := range fv.p {
			if x == (off{}) {
				k = int(o) - int(a.prog.FirstFuncBlock)
			}
		}
	}
	if k < 0 || k >= len(a.fns) {
		refuse("%s: indirect call of an unknown function", a.where(fi, pc))
	}
	f := a.prog.Funcs[k]
	if !f.External {
		refuse("%s: indirect call of %s", a.where(fi, pc), f.Name)
	}
	switch f.Builtin {
	case ir.BNondet, ir.BAssume, ir.BAtomicBegin, ir.BAtomicEnd, ir.BAbort, ir.BExit:
		// none blocks: the vm runs them through a pointer as directly
		return a.builtin(fidx, pc, st, f.Builtin)
	case ir.BReachError, ir.BVerifierError, ir.BAssertFail:
		a.fail("%s: an error call may be reached", a.where(fi, pc))
		return nil
	}
	refuse("%s: indirect call of %s", a.where(fi, pc), f.Name)
	return nil
}

// call joins the arguments into the callee's entry and continues with its
// return summary (context-insensitive).
func (a *analysis) call(fidx, pc int, st *state) []edge {
	fi := a.fns[fidx]
	in := fi.f.Code[pc]
	c := fi.f.Calls[in.Imm]
	if c.Callee < 0 {
		refuse("%s: indirect call", a.where(fi, pc))
	}
	if a.errFuncs[int(c.Callee)] {
		a.fail("%s: the error function %s may be called", a.where(fi, pc), a.prog.Funcs[c.Callee].Name)
		return nil
	}
	callee := a.fns[c.Callee]
	if callee.f.External {
		refuse("%s: call of %s", a.where(fi, pc), callee.f.Name)
	}
	if callee.f.Variadic || len(c.Args) != len(callee.f.Params) || callee.f.HasByval {
		refuse("%s: call of %s with a variadic, byval or mismatched argument list", a.where(fi, pc), callee.f.Name)
	}
	a.reach(callee)
	for k, s := range c.Args {
		if c.ArgSlots[k] != 1 {
			refuse("%s: an aggregate argument", a.where(fi, pc))
		}
		a.joinArg(callee, k, st.regs[s])
	}
	if c.Ret >= 0 {
		if c.RetSlots > 1 {
			refuse("%s: an aggregate result", a.where(fi, pc))
		}
		if callee.ret.bot() {
			return nil // the callee does not return (yet)
		}
	} else if callee.ret.bot() {
		return nil
	}
	// the call returns with arguments the callee returns with: one that
	// cannot be 0 there is assumed non-zero (assume_abort_if_not(c),
	// conditions refined as __VERIFIER_assume's)
	for k, s := range c.Args {
		pv := callee.paramRet[k]
		if pv.bot() {
			return nil
		}
		if pv.hasInt && len(pv.p) == 0 && pv.i.lo >= 1 && !slices.Contains(c.Args[:k], s) && s != c.Ret {
			if !a.condition(fi, pc, st, s, true) {
				return nil
			}
		}
	}
	if c.Ret >= 0 {
		st.regs[c.Ret], st.syms[c.Ret] = callee.ret, ""
	}
	return []edge{{pc + 1, st}}
}

func (a *analysis) reach(fi *fninfo) {
	if !fi.reached {
		fi.reached, a.changed = true, true
	}
}

func (a *analysis) joinArg(fi *fninfo, k int, v val) {
	nv := fi.args[k].join(v)
	if a.round > widenAfter {
		nv = widen(fi.args[k], nv, a.th)
	}
	if !nv.eq(fi.args[k]) {
		fi.args[k], a.changed = nv, true
	}
}

// builtin models the platform functions the analysis knows.
func (a *analysis) builtin(fidx, pc int, st *state, b ir.Builtin) []edge {
	fi := a.fns[fidx]
	in := fi.f.Code[pc]
	c := fi.f.Calls[in.Imm]
	at := func() string { return a.where(fi, pc) }
	arg := func(k int) val {
		if k >= len(c.Args) {
			refuse("%s: missing argument", at())
		}
		return st.regs[c.Args[k]]
	}
	next := []edge{{pc + 1, st}}
	ret := func(v val) {
		if c.Ret >= 0 {
			st.regs[c.Ret], st.syms[c.Ret] = v, ""
		}
	}
	isMain := fidx == a.prog.Entry
	switch b {
	case ir.BReachError, ir.BVerifierError, ir.BAssertFail:
		a.fail("%s: an error call may be reached", at())
		return nil
	case ir.BAbort, ir.BExit:
		return nil
	case ir.BNondet:
		w := c.RetBits
		if w == 0 || w > 64 {
			w = 64
		}
		ret(topW(w))
	case ir.BAssume:
		s := st.clone()
		if !a.condition(fi, pc, s, c.Args[0], true) {
			return nil
		}
		return []edge{{pc + 1, s}}
	case ir.BAtomicBegin, ir.BAtomicEnd, ir.BYield, ir.BAttrInit:
		ret(constVal(0))
	case ir.BPthreadSelf:
		if a.opts.UnboundedThreads {
			ret(topW(8 * uint8(a.tidSize())))
			break
		}
		ret(intVal(0, maxThreadID))
	case ir.BMutexInit:
		if !isMain {
			refuse("%s: pthread_mutex_init outside main", at())
		}
		if a.createsBefore(fi, pc) {
			refuse("%s: pthread_mutex_init after a thread may have started", at())
		}
		a.mutexAccess(arg(0), at)
		if v := arg(1); v.hasInt && (len(v.p) > 0 || v.i != itv{}) {
			a.fail("%s: mutex attributes", at())
		}
		st.locks = nil
		ret(constVal(0))
	case ir.BMutexLock:
		a.mutexAccess(arg(0), at)
		s := st.syms[c.Args[0]]
		if s != "" && !slices.Contains(st.locks, s) {
			st.locks = append(st.locks, s)
			slices.Sort(st.locks)
		}
		if s == "" {
			s = "?"
		}
		if !slices.Contains(st.may, s) {
			st.may = append(st.may, s)
			slices.Sort(st.may)
		}
		ret(constVal(0))
	case ir.BMutexUnlock:
		a.mutexAccess(arg(0), at)
		s := st.syms[c.Args[0]]
		if s == "" || !slices.Contains(st.locks, s) {
			a.fail("%s: unlock of a mutex the thread may not hold", at())
		}
		st.locks = slices.DeleteFunc(st.locks, func(l string) bool { return l == s })
		st.may = slices.DeleteFunc(st.may, func(l string) bool { return l == s })
		ret(constVal(0))
	case ir.BPthreadCreate:
		if !isMain {
			refuse("%s: pthread_create outside main (the number of threads is not bounded)", at())
		}
		if v := arg(1); v.hasInt && (len(v.p) > 0 || v.i != itv{}) || !v.hasInt {
			a.fail("%s: thread attributes", at())
		}
		fn := arg(2)
		if fn.hasInt || len(fn.p) == 0 {
			a.fail("%s: the start routine is not a known function", at())
		}
		av := arg(3)
		for o := range av.p {
			if ob := a.objs[o]; ob != nil && ob.fn >= 0 && ob.fn != a.prog.Entry {
				a.fail("%s: a thread gets the address of a local variable of %s", at(), a.fns[ob.fn].f.Name)
			}
		}
		for o := range fn.p {
			k := int(o) - int(a.prog.FirstFuncBlock)
			if k < 0 || k >= len(a.fns) || a.fns[k].f.External || len(a.fns[k].f.Params) != 1 || k == a.prog.Entry {
				a.fail("%s: the start routine is not a defined function of one parameter", at())
				continue
			}
			a.reach(a.fns[k])
			a.joinArg(a.fns[k], 0, av)
		}
		a.store(fidx, arg(0), val{p: map[int32]off{threadObj: {0, 0, 0}}}, a.tidSize(), at)
		ret(constVal(0))
	case ir.BPthreadJoin:
		if !isMain {
			refuse("%s: pthread_join outside main", at())
		}
		t := arg(0)
		if t.hasInt || len(t.p) != 1 || t.p[threadObj] != (off{}) {
			a.fail("%s: pthread_join of a value that may not be a started thread", at())
		}
		if v := arg(1); v.hasInt && (len(v.p) > 0 || v.i != itv{}) || !v.hasInt {
			a.fail("%s: pthread_join with a result pointer", at())
		}
		ret(constVal(0))
	case ir.BPthreadExit:
		if isMain || fi.fromMain {
			refuse("%s: main's thread may call pthread_exit (its locals die while threads run)", at())
		}
		if len(st.may) > 0 || fi.called {
			// (a function that others call may exit its thread while
			// its callers hold mutexes)
			a.leaksLock = true
		}
		return nil
	case ir.BMutexDestroy:
		// the word must be 0: no thread holds the mutex (final checks that
		// every thread has been joined and none ends holding a mutex)
		if !isMain {
			refuse("%s: pthread_mutex_destroy outside main", at())
		}
		a.mutexAccess(arg(0), at)
		if len(st.may) > 0 {
			a.fail("%s: main may hold a mutex it destroys", at())
		}
		a.destroys = append(a.destroys, pc)
		ret(constVal(0))
	default:
		refuse("%s: platform function %s is not modelled", at(), b)
	}
	return next
}

// createsBefore reports whether a pthread_create of main may run before pc.
func (a *analysis) createsBefore(fi *fninfo, pc int) bool {
	n := len(fi.f.Code)
	seen := make([]bool, n)
	var stack []int
	for q, in := range fi.f.Code {
		if in.Op == ir.OpCallB && ir.Builtin(in.B) == ir.BPthreadCreate {
			stack = append(stack, q)
		}
		if in.Op == ir.OpCall {
			refuseIfCreates := a.callsCreate(int(fi.f.Calls[in.Imm].Callee))
			if refuseIfCreates {
				stack = append(stack, q)
			}
		}
	}
	for len(stack) > 0 {
		q := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, s := range a.succs(fi.f, q) {
			if s == pc {
				return true
			}
			if s < n && !seen[s] {
				seen[s] = true
				stack = append(stack, s)
			}
		}
	}
	return false
}

func (a *analysis) callsCreate(f int) bool {
	if f < 0 {
		return true
	}
	for _, in := range a.prog.Funcs[f].Code {
		if in.Op == ir.OpCallB && ir.Builtin(in.B) == ir.BPthreadCreate {
			return true
		}
	}
	return false
}

// mutexAccess checks the word a mutex operation reads and writes.
func (a *analysis) mutexAccess(p val, at func() string) {
	if p.hasInt || len(p.p) == 0 {
		a.fail("%s: the mutex may be null or not a pointer", at())
	}
	for o, x := range p.p {
		ob := a.objs[o]
		if ob == nil || ob.isFn || x.lo < 0 || x.hi+4 > ob.size {
			a.fail("%s: the mutex may be out of bounds", at())
			continue
		}
		// (words at multiples of 4 are equal or disjoint: a lock of one
		// never changes another's, which the must-hold sets rest on)
		if x.lo%4 != 0 || x.stride%4 != 0 || (x.lo != x.hi && x.stride == 0) {
			a.fail("%s: a mutex word not at a multiple of 4 bytes", at())
			continue
		}
		ob.mutex = true
	}
}

// final checks what only the whole program shows.
func (a *analysis) final() {
	for _, ob := range a.objs {
		if ob.mutex && ob.plain {
			refuse("%s is used both as a mutex and as plain memory", ob.name)
		}
		if ob.mutex && ob.glob != nil && slices.ContainsFunc(ob.glob.Init, func(b byte) bool { return b != 0 }) {
			refuse("mutex %s has a non-zero initialiser", ob.name)
		}
	}
	if len(a.destroys) > 0 {
		if a.leaksLock {
			refuse("pthread_mutex_destroy: a function may return, or a thread end, holding a mutex")
		}
		for _, d := range a.destroys {
			if p, ok := a.allJoinedBefore(d); !ok {
				refuse("%s: the thread of %s may not have been joined", a.where(a.fns[a.prog.Entry], d), a.where(a.fns[a.prog.Entry], p))
			}
		}
	}
	// threads and their stacks stay within the machine's limits
	var bytes, blocks int64
	for _, ob := range a.objs {
		if ob.fn >= 0 {
			bytes += ob.size
			blocks++
		}
	}
	var procs int64 = 1
	for pc, in := range a.prog.Funcs[a.prog.Entry].Code {
		if in.Op == ir.OpCallB && ir.Builtin(in.B) == ir.BPthreadCreate && a.mainIn != nil && a.mainIn[pc] != nil {
			n, ok := a.executions(pc)
			if !ok && a.opts.UnboundedThreads {
				a.threads = -1 // (the C program's threads: no bound to check)
				return
			}
			if !ok {
				refuse("%s: pthread_create in a loop without a bound on its iterations", a.where(a.fns[a.prog.Entry], pc))
			}
			procs += n
		}
	}
	a.threads = int(procs - 1)
	if a.opts.UnboundedThreads {
		return // (the vm's limits are no errors of the C program)
	}
	// (margins below the vm's defaults, MaxProcs 1000 and MaxMemory 512
	// MiB, which the portfolio's machines keep)
	if procs > 900 || bytes*procs > 256<<20 {
		refuse("the threads' stacks may pass the machine's limits")
	}
	if a.prog.DataModel == ir.ILP32 && int64(a.prog.FirstDynBlock)+blocks*procs > ir.Ptr32MaxBlock-64 {
		refuse("the program's blocks may pass ILP32's pointer form")
	}
}
