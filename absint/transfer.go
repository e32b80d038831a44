package absint

import (
	"math"
	"math/bits"
	"slices"
	"strconv"
	"strings"

	"github.com/wyvernmc/wyvern/ir"
)

// step executes the instruction at pc on st and returns the states of its
// successors.
func (a *analysis) step(fidx, pc int, st *state) []edge {
	fi := a.fns[fidx]
	f := fi.f
	in := f.Code[pc]
	a.pc = pc
	at := func() string { return a.where(fi, pc) }
	set := func(v val, sym string) {
		st.regs[in.Dst], st.syms[in.Dst] = v, sym
	}
	next := []edge{{pc + 1, st}}
	lax := in.Flags&ir.FlagLax != 0
	switch {
	case in.Op >= ir.OpAdd && in.Op <= ir.OpXor, in.Op >= ir.OpSMin && in.Op <= ir.OpUMax:
		set(a.arith(in, st.regs[in.A], st.regs[in.B], at), "")
		return next
	case in.Op >= ir.OpEq && in.Op <= ir.OpSge:
		set(compare(in, st.regs[in.A], st.regs[in.B]), "")
		return next
	}
	switch in.Op {
	case ir.OpNop, ir.OpFence:
	case ir.OpMov:
		set(st.regs[in.A], st.syms[in.A])
	case ir.OpTrunc:
		v := st.regs[in.A]
		switch {
		case len(v.p) > 0:
			set(intVal(0, in.Imm), "")
		case v.i.hi <= in.Imm:
			set(v, wrap("tr(", st.syms[in.A], ")"))
		default:
			set(intVal(0, in.Imm), "")
		}
	case ir.OpSExt:
		v := st.regs[in.A]
		dw := uint8(bits.OnesCount64(in.Imm))
		if len(v.p) > 0 {
			set(intVal(0, in.Imm), "")
			break
		}
		lo, hi := v.sview(in.W)
		r, _ := fromSigned(lo, hi, dw)
		set(r, wrap("sx(", st.syms[in.A], ","+strconv.Itoa(int(in.W))+")"))
	case ir.OpPtrToInt, ir.OpIntToPtr:
		v := st.regs[in.A]
		if in.Op == ir.OpPtrToInt && in.Aux == ir.AuxPtr32 {
			a.ptr32Check(v, true, at)
		}
		if len(v.p) > 0 || in.Aux != 0 {
			set(intVal(0, math.MaxUint64), "")
			break
		}
		set(v, "")
	case ir.OpSelect:
		c := st.regs[in.A]
		switch {
		case c.hasInt && len(c.p) == 0 && c.i.hi&1 == 0 && c.i.lo == c.i.hi:
			set(st.regs[in.C], "")
		case c.hasInt && len(c.p) == 0 && c.i.lo == c.i.hi:
			set(st.regs[in.B], "")
		default:
			set(st.regs[in.B].join(st.regs[in.C]), "")
		}
	case ir.OpAlloca:
		if c, ok := fi.cellOf[in.Dst]; ok {
			st.cells[c] = undefVal(a.objs[fi.cellObj[c]].size)
			st.regs[in.Dst], st.syms[in.Dst] = val{}, ""
			a.killCell(st, c)
		} else {
			o := fi.allocaObj[pc]
			set(val{p: map[int32]off{o: {0, 0, 0}}}, "a"+strconv.Itoa(int(o)))
		}
	case ir.OpGEPC:
		set(a.gep(st.regs[in.A], []val{constVal(1)}, []int64{int64(in.Imm)}, []uint8{64}, at), wrap("gc(", st.syms[in.A], ","+strconv.FormatUint(in.Imm, 10)+")"))
	case ir.OpGEP1:
		sym := ""
		if st.syms[in.A] != "" && st.syms[in.B] != "" {
			sym = "g1(" + st.syms[in.A] + "," + st.syms[in.B] + "," + strconv.Itoa(int(in.W)) + "," + strconv.FormatUint(in.Imm, 10) + ")"
		}
		set(a.gep(st.regs[in.A], []val{st.regs[in.B]}, []int64{int64(in.Imm)}, []uint8{in.W}, at), sym)
	case ir.OpGEPN:
		g := f.GEPs[in.Imm]
		idx := []val{constVal(1)}
		sc := []int64{g.Off}
		ws := []uint8{64}
		for k, s := range g.Idx {
			idx = append(idx, st.regs[s])
			sc = append(sc, g.Scale[k])
			ws = append(ws, g.Width[k])
		}
		set(a.gep(st.regs[g.Base], idx, sc, ws, at), "")
	case ir.OpLoad, ir.OpLoadAgg:
		size := int64(in.W)
		if in.Op == ir.OpLoadAgg {
			size = a.aggSize(f, in, at)
		}
		if c, ok := fi.cellOf[in.A]; ok {
			set(st.cells[c], "#c"+strconv.Itoa(c)+"#")
			break
		}
		if in.Op == ir.OpLoadAgg && a.prog.DataModel == ir.ILP32 && len(f.Aggs[in.Imm].Ptr32) > 0 {
			for o := range st.regs[in.A].p {
				if ob := a.objs[o]; ob != nil && ob.glob != nil && slices.ContainsFunc(ob.glob.Init, func(b byte) bool { return b != 0 }) {
					refuse("%s: a pointer loaded from the initialised global %s", at(), ob.name)
				}
			}
		}
		set(a.load(fidx, st.regs[in.A], size, at), "")
	case ir.OpStore, ir.OpStoreAgg:
		size := int64(in.W)
		if in.Op == ir.OpStoreAgg {
			size = a.aggSize(f, in, at)
		}
		v := st.regs[in.B]
		if in.Op == ir.OpStore && len(v.p) > 0 && size < 8 {
			v = intVal(0, mask(uint8(size*8)))
		} else if v.hasInt && v.i.hi > mask(uint8(size*8)) {
			v = val{hasInt: true, i: itv{0, mask(uint8(size * 8))}, p: v.p}
		}
		if in.Op == ir.OpStoreAgg && a.prog.DataModel == ir.ILP32 {
			// (main's argv, a pointer the analysis does not follow, has a
			// 32-bit form)
			ag := f.Aggs[in.Imm]
			argv := fidx == a.prog.Entry && slices.Contains(f.Params, in.B)
			a.ptr32Check(v, len(ag.Ptr32) > 0 && ag.Ptr32[0] && !argv, at)
		}
		if c, ok := fi.cellOf[in.A]; ok {
			a.escapeCheck(fidx, v, -1, at)
			st.cells[c] = v
			a.killCell(st, c)
			break
		}
		a.store(fidx, st.regs[in.A], v, size, at)
	case ir.OpJmp:
		return []edge{{int(in.Imm), st}}
	case ir.OpJmpE:
		return []edge{a.takeEdge(f, int(in.Imm), st)}
	case ir.OpBr, ir.OpBrE:
		t, e := int(in.B), int(in.C)
		return a.branch(fi, pc, st, func(taken bool, s *state) edge {
			if in.Op == ir.OpBr {
				if taken {
					return edge{t, s}
				}
				return edge{e, s}
			}
			if taken {
				return a.takeEdge(f, t, s)
			}
			return a.takeEdge(f, e, s)
		})
	case ir.OpSwitch:
		sw := f.Switches[in.Imm]
		var out []edge
		for _, t := range append([]int32{sw.Default}, sw.Targets...) {
			out = append(out, a.takeEdge(f, int(t), st.clone()))
		}
		return out
	case ir.OpRet:
		if len(st.may) > 0 {
			a.leaksLock = true
		}
		if in.A >= 0 {
			if in.Imm != 1 {
				refuse("%s: returns an aggregate", at())
			}
			v := st.regs[in.A]
			for o := range v.p {
				if ob := a.objs[o]; ob != nil && ob.fn >= 0 && ob.fn != a.prog.Entry {
					a.fail("%s: returns a pointer to a local variable", at())
				}
			}
			a.setRet(fi, v)
		} else {
			a.setRet(fi, constVal(0))
		}
		for k, ps := range f.Params {
			nv := fi.paramRet[k].join(st.regs[ps])
			if a.round > widenAfter {
				nv = widen(fi.paramRet[k], nv, a.th)
			}
			if !nv.eq(fi.paramRet[k]) {
				fi.paramRet[k], a.changed = nv, true
			}
		}
		return nil
	case ir.OpUnreachable:
		a.fail("%s: an unreachable instruction may be reached", at())
		return nil
	case ir.OpCall:
		return a.call(fidx, pc, st)
	case ir.OpCallB:
		return a.builtin(fidx, pc, st, ir.Builtin(in.B))
	case ir.OpCallInd:
		return a.callInd(fidx, pc, st)
	default:
		_ = lax
		refuse("%s: instruction %s is not modelled", at(), in.Op)
	}
	return next
}

func (a *analysis) setRet(fi *fninfo, v val) {
	nv := fi.ret.join(v)
	if a.round > widenAfter {
		nv = widen(fi.ret, nv, a.th)
	}
	if !nv.eq(fi.ret) {
		fi.ret, a.changed = nv, true
	}
}

func (a *analysis) aggSize(f *ir.Func, in ir.Inst, at func() string) int64 {
	ag := f.Aggs[in.Imm]
	if len(ag.Offs) != 1 || ag.Offs[0] != 0 {
		refuse("%s: aggregate load or store", at())
	}
	return int64(ag.Sizes[0])
}

func (a *analysis) takeEdge(f *ir.Func, e int, st *state) edge {
	ed := f.Edges[e]
	if len(ed.Moves) > 0 && a.edgeSt != nil {
		// the state along each edge with phi copies, before them, joined
		// over the function's analysis (conditionPhi); a change requeues
		// the target
		k := [2]int{a.pc, e}
		if old := a.edgeSt[k]; old == nil {
			a.edgeSt[k], a.dirty[int(ed.PC)] = st.clone(), true
		} else if joinState(old, st, false, a.th) {
			a.dirty[int(ed.PC)] = true
		}
	}
	moves(ed, st)
	return edge{int(ed.PC), st}
}

// moves runs an edge's phi copies on st.
func moves(ed ir.Edge, st *state) {
	for _, m := range ed.Moves {
		st.regs[m.Dst], st.syms[m.Dst] = st.regs[m.Src], st.syms[m.Src]
	}
}

// killCell forgets what mentions cell c: the symbols of registers loaded
// from it and the locks named through them.
func (a *analysis) killCell(st *state, c int) {
	tok := "#c" + strconv.Itoa(c) + "#"
	for k, s := range st.syms {
		if strings.Contains(s, tok) {
			st.syms[k] = ""
		}
	}
	st.locks = slices.DeleteFunc(st.locks, func(l string) bool { return strings.Contains(l, tok) })
	for k, l := range st.may {
		if strings.Contains(l, tok) {
			st.may[k] = "?"
		}
	}
	st.may = slices.Compact(slices.Sorted(slices.Values(st.may)))
}

// gep adds sum(sext(idx[k], w[k]) * scale[k]) to the pointers of base.
func (a *analysis) gep(base val, idx []val, scale []int64, ws []uint8, at func() string) val {
	var lo, hi, stride int64
	for k, v := range idx {
		if len(v.p) > 0 || !v.hasInt {
			if !v.hasInt && len(v.p) == 0 {
				return val{}
			}
			return intVal(0, math.MaxUint64)
		}
		var l, h int64
		if ws[k] == 64 && v.i.lo == v.i.hi {
			l, h = int64(v.i.lo), int64(v.i.lo)
		} else {
			l, h = v.sview(ws[k])
		}
		const big = 1 << 40
		x, ok1 := mulChecked(l, scale[k])
		y, ok2 := mulChecked(h, scale[k])
		if !ok1 || !ok2 || min(x, y) < -big || max(x, y) > big {
			return intVal(0, math.MaxUint64) // an offset the analysis does not follow: no pointer
		}
		lo += min(x, y)
		hi += max(x, y)
		if l != h {
			stride = gcd(stride, scale[k])
		}
	}
	out := val{}
	if base.hasInt {
		out.hasInt, out.i = true, itvTop // an integer plus an offset: no object
	}
	if len(base.p) > 0 {
		out.p = map[int32]off{}
		for o, x := range base.p {
			s := gcd(x.stride, stride)
			if x.lo != x.hi && x.stride == 0 {
				s = 1
			}
			out.p[o] = off{x.lo + lo, x.hi + hi, s}
		}
	}
	return out
}

// access checks a load or store of size bytes through pointer v.
func (a *analysis) access(fidx int, v val, size int64, store bool, at func() string) {
	if v.hasInt {
		a.fail("%s: the address may be null, an integer or an offset the analysis does not follow", at())
	}
	for o, x := range v.p {
		ob := a.objs[o]
		if ob == nil || ob.isFn {
			a.fail("%s: the address may be a function or a thread id", at())
			continue
		}
		if x.lo < 0 || x.hi+size > ob.size {
			a.fail("%s: the access may be out of bounds of %s (offsets %d..%d, %d bytes of %d)", at(), ob.name, x.lo, x.hi, size, ob.size)
		}
		if ob.elem == 0 {
			ob.elem = size
		}
		if ob.elem != size || x.lo%size != 0 || x.stride%size != 0 || (x.lo != x.hi && x.stride == 0) {
			a.fail("%s: accesses of %s of different sizes or alignments", at(), ob.name)
		}
		if store && ob.glob != nil && ob.glob.Const {
			a.fail("%s: a store to the constant %s", at(), ob.name)
		}
		if ob.glob != nil && ob.glob.ThreadLocal {
			a.fail("%s: thread-local %s", at(), ob.name)
		}
		ob.plain = true
	}
}

func (a *analysis) initial(o int32, size int64) val {
	ob := a.objs[o]
	if ob.glob == nil {
		if ob.fn >= 0 && !ob.isFn {
			return undefVal(size) // a local's
		}
		return constVal(0)
	}
	var v val
	for k := int64(0); k+size <= int64(len(ob.glob.Init)); k += size {
		var x uint64
		for j := size - 1; j >= 0; j-- {
			x = x<<8 | uint64(ob.glob.Init[k+j])
		}
		if size == 8 && a.prog.DataModel != ir.ILP32 {
			v = v.join(a.constant(x)) // a pointer's bytes are its address
		} else {
			// ILP32 pointers have another form in memory: loads of
			// pointers from initialised globals are refused (load)
			v = v.join(constVal(x))
		}
		if v.hasInt && len(v.p) == 0 && v.i.lo == 0 && v.i.hi == mask(uint8(size*8)) {
			break
		}
	}
	if v.bot() {
		v = constVal(0)
	}
	return v
}

func (a *analysis) cell(o int32, size int64) val {
	v, ok := a.mem[o]
	if !ok {
		v = a.initial(o, size)
		a.mem[o] = v
	}
	return v
}

func (a *analysis) load(fidx int, p val, size int64, at func() string) val {
	a.access(fidx, p, size, false, at)
	var out val
	for o := range p.p {
		if a.overwritten(fidx, o, size) || fidx != a.prog.Entry && a.initialHidden(o, size) {
			out = out.join(a.stored[o])
			continue
		}
		out = out.join(a.cell(o, size))
	}
	return out
}

// initialHidden reports whether no code but main's reads the initial
// (undefined) value of object o, accessed whole: o is a local of main
// that main overwrites whole before every call and thread creation, where
// all other code starts (main's locals are allocated once: main is not
// called and has no alloca in a loop), so that a load outside main reads
// a stored value. (main's own loads: overwritten.)
func (a *analysis) initialHidden(o int32, size int64) bool {
	if h, ok := a.hidden[o]; ok {
		return h
	}
	ob := a.objs[o]
	h := ob != nil && ob.fn == a.prog.Entry && !ob.isFn && ob.glob == nil && ob.size == size
	for pc, in := range a.fns[a.prog.Entry].f.Code {
		if !h {
			break
		}
		if in.Op == ir.OpCall || in.Op == ir.OpCallInd || in.Op == ir.OpCallB && ir.Builtin(in.B) == ir.BPthreadCreate {
			// (static: strong stores of a whole object, decideOverwritten)
			h = a.decideOverwritten(o, pc, size)
		}
	}
	a.hidden[o] = h
	return h
}

// overwritten reports whether the load of main at a.pc from the
// one-element object o follows, on every path, a store of main that
// overwrites o whole: its initial value is then not what it reads.
func (a *analysis) overwritten(fidx int, o int32, size int64) bool {
	if fidx != a.prog.Entry {
		return false
	}
	key := [2]int{int(o), a.pc}
	if v, ok := a.covered[key]; ok {
		return v
	}
	v := a.decideOverwritten(o, a.pc, size)
	a.covered[key], a.loadSize[key] = v, size
	return v
}

func (a *analysis) decideOverwritten(o int32, q int, size int64) bool {
	if a.objs[o].size != size {
		return a.mainIn != nil && a.arrayFilled(o, q)
	}
	pcs := a.strongStores(o)
	if len(pcs) == 0 {
		return false
	}
	fi := a.fns[a.prog.Entry]
	n := len(fi.f.Code)
	seen := make([]bool, n+1)
	for _, p := range pcs {
		seen[p] = true
	}
	stack := []int{0}
	reached := false
	for len(stack) > 0 && !reached {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if p == q {
			reached = true
			break
		}
		if p >= n || seen[p] {
			continue
		}
		seen[p] = true
		stack = append(stack, a.succs(fi.f, p)...)
	}
	return !reached
}

// strongStores are the pcs of main whose store (or pthread_create's
// thread id) writes object o whole, by its address as such: an alloca's
// own slot or a constant pointer to the global.
func (a *analysis) strongStores(o int32) []int {
	if pcs, ok := a.strong[o]; ok {
		return pcs
	}
	fi := a.fns[a.prog.Entry]
	f := fi.f
	var pcs []int
	isO := func(s int32) bool {
		if s >= f.ConstBase && s < f.ConstBase+int32(len(f.Consts)) {
			c := f.Consts[s-f.ConstBase]
			return int32(ir.PtrBlock(c)) == o && ir.PtrOff(c) == 0 && a.objs[o].glob != nil
		}
		for pc, obj := range fi.allocaObj {
			if obj == o && f.Code[pc].Dst == s && !fi.inCycle[pc] {
				return true
			}
		}
		return false
	}
	for pc, in := range f.Code {
		switch {
		case in.Op == ir.OpStore && int64(in.W) == a.objs[o].size && isO(in.A):
			pcs = append(pcs, pc)
		case in.Op == ir.OpStoreAgg && isO(in.A) && a.aggSize(f, in, func() string { return f.Name }) == a.objs[o].size:
			pcs = append(pcs, pc)
		case in.Op == ir.OpCallB && ir.Builtin(in.B) == ir.BPthreadCreate && isO(f.Calls[in.Imm].Args[0]) && a.objs[o].size == a.tidSize():
			pcs = append(pcs, pc)
		}
	}
	a.strong[o] = pcs
	return pcs
}

func (a *analysis) store(fidx int, p, v val, size int64, at func() string) {
	a.access(fidx, p, size, true, at)
	for o := range p.p {
		if a.stores[o] == nil {
			a.stores[o] = map[[2]int]bool{}
		}
		a.stores[o][[2]int{fidx, a.pc}] = true
		a.escapeCheck(fidx, v, o, at)
		sv := a.stored[o].join(v)
		if a.memSeen[o] > widenAfter {
			sv = widen(a.stored[o], sv, a.th)
		}
		if !sv.eq(a.stored[o]) {
			a.stored[o], a.changed = sv, true
		}
		old := a.cell(o, size)
		nv := old.join(v)
		if a.memSeen[o] > widenAfter {
			nv = widen(old, nv, a.th)
		}
		if !nv.eq(old) {
			a.mem[o] = nv
			a.memSeen[o]++
			a.changed = true
		}
	}
}

// escapeCheck refuses a pointer to a local variable of a function other
// than main stored where it may outlive its frame: into any object but a
// local of the same function (dst -1: a promoted cell of the running
// function, which dies first).
func (a *analysis) escapeCheck(fidx int, v val, dst int32, at func() string) {
	for o := range v.p {
		ob := a.objs[o]
		if ob == nil || ob.fn < 0 || ob.fn == a.prog.Entry {
			continue
		}
		if dst == -1 {
			continue
		}
		if d := a.objs[dst]; d.fn == ob.fn {
			continue
		}
		a.fail("%s: the address of a local variable of %s escapes", at(), a.fns[ob.fn].f.Name)
	}
}

// tidSize is the size of pthread_t.
func (a *analysis) tidSize() int64 {
	if a.prog.DataModel == ir.ILP32 {
		return 4
	}
	return 8
}

// wrap builds a symbol around an operand's: none when the operand has none.
func wrap(pre, inner, post string) string {
	if inner == "" {
		return ""
	}
	return pre + inner + post
}

// ptr32Check fails where the vm may find no ILP32 pointer form for v (a
// ResourceLimit error): a pointer offset outside the form's range, or,
// for a pointer leaf (asPtr), an integer at or above 1 MiB (block 0's).
func (a *analysis) ptr32Check(v val, asPtr bool, at func() string) {
	for _, o := range v.p {
		if o.lo < -ir.Ptr32Bias || o.hi >= 1<<ir.Ptr32BlockShift-ir.Ptr32Bias {
			a.fail("%s: a pointer offset may not fit ILP32's pointer form", at())
		}
	}
	if asPtr && v.hasInt && v.i.hi >= 1<<ir.Ptr32BlockShift {
		a.fail("%s: an integer stored or converted as a pointer may not fit ILP32's pointer form", at())
	}
}
