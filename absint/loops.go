package absint

import (
	"strconv"

	"github.com/wyvernmc/wyvern/ir"
)

// A counted loop of main: every cycle through head adds step >= 1 to the
// promoted cell of main, and the loop goes on only while the cell is at
// most max (tested at head, its only way out). Its iterations are then at
// most max - lo + 1, lo the cell's least value at head.
type countedLoop struct {
	head   int
	br     int          // the head's branch
	body   map[int]bool // the pcs on cycles through head
	cell   int
	slot   int32 // the cell's alloca slot
	max    int64
	step   int64
	inc    int // the increment's store
	exit   int // where head leaves the loop
	onlyEx bool
}

// reaches reports whether to can be reached from from in main's CFG by
// a path of at least one edge that passes no pc of avoid (to excepted)
// and not the edge cut (from cut[0] to cut[1]).
func (a *analysis) reaches(fi *fninfo, from, to int, avoid map[int]bool, cut [2]int) bool {
	n := len(fi.f.Code)
	seen := make([]bool, n+1)
	stack := []int{from}
	for len(stack) > 0 {
		q := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, s := range a.succs(fi.f, q) {
			if q == cut[0] && s == cut[1] {
				continue
			}
			if s == to {
				return true
			}
			if s < n && !seen[s] && !avoid[s] {
				seen[s] = true
				stack = append(stack, s)
			}
		}
	}
	return false
}

// loopOf finds the counted loop whose head is h (nil: none).
func (a *analysis) loopOf(h int) *countedLoop {
	if l, ok := a.loops[h]; ok {
		return l
	}
	a.loops[h] = nil
	fi := a.fns[a.prog.Entry]
	f := fi.f
	n := len(f.Code)
	none := [2]int{-1, -1}
	// the pcs reachable from h and reaching h
	fwd := make([]bool, n)
	stack := []int{h}
	fwd[h] = true
	pred := make([][]int, n)
	for q := range f.Code {
		for _, s := range a.succs(f, q) {
			if s < n {
				pred[s] = append(pred[s], q)
			}
		}
	}
	for len(stack) > 0 {
		q := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, s := range a.succs(f, q) {
			if s < n && !fwd[s] {
				fwd[s] = true
				stack = append(stack, s)
			}
		}
	}
	bwd := make([]bool, n)
	stack = []int{h}
	bwd[h] = true
	for len(stack) > 0 {
		q := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, p := range pred[q] {
			if !bwd[p] {
				bwd[p] = true
				stack = append(stack, p)
			}
		}
	}
	body := map[int]bool{}
	for q := 0; q < n; q++ {
		if fwd[q] && bwd[q] {
			body[q] = true
		}
	}
	// the head's block ends in a branch on "load cell" compared with a constant
	br := h
	for br < n && !isTerm(f.Code[br].Op) {
		br++
	}
	if br >= n || f.Code[br].Op != ir.OpBr || !body[br] {
		return nil
	}
	in := f.Code[br]
	stayTrue := body[int(in.B)] && !body[int(in.C)]
	stayFalse := body[int(in.C)] && !body[int(in.B)]
	if !stayTrue && !stayFalse {
		return nil
	}
	d := defIn(fi, br, in.A)
	if d < 0 {
		return nil
	}
	cmp := f.Code[d]
	op := cmp.Op
	if stayFalse {
		op = negate(op)
	}
	k, ok := a.constSlot(f, cmp.B, cmp.W)
	if !ok {
		return nil
	}
	var maxv int64
	switch op {
	case ir.OpSlt:
		maxv = k - 1
	case ir.OpSle:
		maxv = k
	default:
		return nil
	}
	ld := defIn(fi, d, cmp.A)
	if ld < 0 || f.Code[ld].Op != ir.OpLoad || storesTo(fi, ld, br, f.Code[ld].A) {
		return nil
	}
	slot := f.Code[ld].A
	cell, ok := fi.cellOf[slot]
	if !ok {
		return nil
	}
	// one store to the cell in the loop: cell = load cell + step (nsw, or
	// one that never wraps: below)
	inc, load := -1, -1
	var step int64
	var wraps bool // the add has no nsw (ir.Program.WrapOverflow)
	var w uint8    // its width
	for q := range body {
		st := f.Code[q]
		if (st.Op != ir.OpStore && st.Op != ir.OpStoreAgg) || st.A != slot {
			continue
		}
		if inc >= 0 || st.Op != ir.OpStore {
			return nil
		}
		inc = q
		ad := defIn(fi, q, st.B)
		if ad < 0 || f.Code[ad].Op != ir.OpAdd || f.Code[ad].Flags&ir.FlagLax != 0 {
			return nil
		}
		add := f.Code[ad]
		s, ok := a.constSlot(f, add.B, add.W)
		x := defIn(fi, ad, add.A)
		if !ok || s < 1 || x < 0 || f.Code[x].Op != ir.OpLoad || f.Code[x].A != slot || storesTo(fi, x, q, slot) {
			return nil
		}
		step, load, wraps, w = s, x, add.Flags&ir.FlagNSW == 0, add.W
	}
	if inc < 0 {
		return nil
	}
	if wraps && a.mainIn != nil && a.mainIn[load] != nil {
		// Without nsw an overflow wraps around instead of being an error:
		// the counter must never wrap at the increment, checked of main's
		// states at its load as the overflow check of an nsw add is (a
		// failure in the checking round, on the fixpoint: every run's
		// first wrap would be in those states).
		v := a.mainIn[load].cells[cell]
		if _, hi := v.sview(w); len(v.p) > 0 || v.hasInt && hi > int64(1)<<(w-1)-1-step {
			a.fail("%s: the loop counter may wrap around", a.where(fi, load))
		}
	}
	// every cycle through the head passes the increment
	if a.reaches(fi, h, h, map[int]bool{inc: true}, none) {
		return nil
	}
	exit := int(in.C)
	if stayFalse {
		exit = int(in.B)
	}
	// does the loop leave only at its head?
	only := true
	for q := range body {
		for _, s := range a.succs(f, q) {
			if !body[s] && q != br {
				only = false
			}
		}
	}
	l := &countedLoop{head: h, br: br, body: body, cell: cell, slot: slot, max: maxv, step: step, inc: inc, exit: exit, onlyEx: only}
	a.loops[h] = l
	return l
}

// constSlot reads a constant operand at width w (signed).
func (a *analysis) constSlot(f *ir.Func, s int32, w uint8) (int64, bool) {
	if s < f.ConstBase || s >= f.ConstBase+int32(len(f.Consts)) {
		return 0, false
	}
	lo, hi := sview(itv{f.Consts[s-f.ConstBase], f.Consts[s-f.ConstBase]}, w)
	return lo, lo == hi
}

// loopAround finds the counted loop whose iterations bound the executions
// of pc: pc lies on its cycles and on no cycle that avoids its head.
func (a *analysis) loopAround(pc int) *countedLoop {
	fi := a.fns[a.prog.Entry]
	none := [2]int{-1, -1}
	for h := range fi.f.Code {
		if !fi.loopHead[h] {
			continue
		}
		l := a.loopOf(h)
		if l == nil || !l.body[pc] {
			continue
		}
		if pc != h && a.reaches(fi, pc, pc, map[int]bool{h: true}, none) {
			continue
		}
		return l
	}
	return nil
}

// headLow is the least value of the loop's counter at its head (signed
// 32-bit or wider view of main's final state there).
func (a *analysis) headLow(l *countedLoop) (int64, bool) {
	if a.mainIn == nil || a.mainIn[l.head] == nil {
		return 0, false
	}
	v := a.mainIn[l.head].cells[l.cell]
	if len(v.p) > 0 || !v.hasInt {
		return 0, false
	}
	w := uint8(a.objs[a.fns[a.prog.Entry].cellObj[l.cell]].size * 8)
	lo, _ := v.sview(w)
	return lo, true
}

// executions bounds how often pc of main runs (false: no bound found).
func (a *analysis) executions(pc int) (int64, bool) {
	fi := a.fns[a.prog.Entry]
	if !fi.inCycle[pc] {
		return 1, true
	}
	l := a.loopAround(pc)
	if l == nil {
		return 0, false
	}
	lo, ok := a.headLow(l)
	if !ok || lo < -1<<40 || l.max > 1<<40 {
		return 0, false // (no bound worth the name, and no overflow below)
	}
	// stay visits see distinct values in [lo, max]; one more run of pc
	// for an entry into the loop's body that avoids the head
	return max(0, l.max-lo+1) + 1, true
}

// fills reports whether loop l writes every element of the array object
// o through the store (or pthread_create) at pc: the counter starts at 0
// on every entry, steps by 1, the loop leaves only at its head, every
// cycle passes pc, and the address is &o[counter] with o holding exactly
// max+1 elements of size bytes.
func (a *analysis) fills(l *countedLoop, pc int, addr int32, o int32, size int64) bool {
	fi := a.fns[a.prog.Entry]
	f := fi.f
	none := [2]int{-1, -1}
	if l.step != 1 || !l.onlyEx || a.reaches(fi, l.head, l.head, map[int]bool{pc: true}, none) {
		return false
	}
	// each iteration runs pc once, then the increment once: pc sees the
	// counter's value at the head of its iteration
	if a.reaches(fi, l.head, l.inc, map[int]bool{pc: true}, none) || a.reaches(fi, l.inc, l.inc, map[int]bool{l.head: true}, none) {
		return false
	}
	if l.max < 0 || l.max > 1<<40 || a.objs[o].size != (l.max+1)*size {
		return false
	}
	// the loop is entered at its head only: pc runs in its iterations only
	for q := range f.Code {
		if l.body[q] {
			continue
		}
		for _, s := range a.succs(f, q) {
			if l.body[s] && s != l.head {
				return false
			}
		}
	}
	// entries into the head from outside the loop carry the counter 0
	for q := range f.Code {
		if l.body[q] || a.mainIn[q] == nil {
			continue
		}
		for _, s := range a.succs(f, q) {
			if s == l.head {
				if c := a.mainIn[q].cells[l.cell]; len(c.p) > 0 || !c.hasInt || c.i != (itv{}) || f.Code[q].Op != ir.OpJmp {
					return false
				}
			}
		}
	}
	if a.mainIn[pc] == nil {
		return false
	}
	// the address register is &o[0] + counter * size, the counter as loaded
	// since its last store
	var base uint64
	for k, c := range f.Consts {
		if int32(ir.PtrBlock(c)) == o && ir.PtrOff(c) == 0 && ir.PtrBlock(c) >= 1 && uint32(c) >= ir.PtrBase(ir.PtrBlock(c)) {
			base = c
			_ = k
		}
	}
	if base == 0 {
		return false
	}
	sym := a.symAt(pc, addr)
	ctr := "#c" + strconv.Itoa(l.cell) + "#"
	w := strconv.Itoa(int(a.objs[fi.cellObj[l.cell]].size * 8))
	for _, idx := range []string{ctr, "sx(" + ctr + "," + w + ")"} {
		for _, gw := range []string{w, "64"} {
			if sym == "g1(k"+strconv.FormatUint(base, 10)+","+idx+","+gw+","+strconv.FormatInt(size, 10)+")" {
				return true
			}
		}
	}
	return false
}

// arrayFilled reports whether main, where it runs q, has written every
// element of o in a counted loop that it has left for good.
func (a *analysis) arrayFilled(o int32, q int) bool {
	fi := a.fns[a.prog.Entry]
	f := fi.f
	if q == 0 {
		return false
	}
	for p, in := range f.Code {
		var addr int32
		var size int64
		switch {
		case in.Op == ir.OpCallB && ir.Builtin(in.B) == ir.BPthreadCreate:
			addr, size = f.Calls[in.Imm].Args[0], a.tidSize()
		case in.Op == ir.OpStore:
			addr, size = in.A, int64(in.W)
		default:
			continue
		}
		l := a.loopAround(p)
		if l == nil || !a.fills(l, p, addr, o, size) {
			continue
		}
		if !a.reaches(fi, 0, q, nil, [2]int{l.br, l.exit}) {
			return true
		}
	}
	return false
}

// symAt is the symbol of slot s where pc runs (main's final state).
func (a *analysis) symAt(pc int, s int32) string {
	st := a.mainIn[pc]
	if st == nil {
		return ""
	}
	return st.syms[s]
}

// allJoinedBefore reports whether every thread main may have created has
// been joined on every path to pc of main (false: the create site p of a
// thread that may not have been).
func (a *analysis) allJoinedBefore(pc int) (p int, ok bool) {
	fi := a.fns[a.prog.Entry]
	f := fi.f
	for p, in := range f.Code {
		if in.Op != ir.OpCallB || ir.Builtin(in.B) != ir.BPthreadCreate || a.mainIn[p] == nil {
			continue
		}
		if !a.joinedBefore(p, pc) {
			return p, false
		}
	}
	return 0, true
}

// joinedBefore: the thread(s) of create site p are joined on every path
// to pc. The create writes the thread id into an object no other store
// writes; either p runs once and a join of that object lies on every
// path to pc, or p fills an array in a counted loop and a counted loop
// that joins each element of the array has ended on every path to pc.
func (a *analysis) joinedBefore(p, pc int) bool {
	fi := a.fns[a.prog.Entry]
	f := fi.f
	addr := f.Calls[f.Code[p].Imm].Args[0]
	tv := a.mainIn[p].regs[addr]
	if tv.hasInt || len(tv.p) != 1 {
		return false
	}
	var o int32
	for k := range tv.p {
		o = k
	}
	if sites := a.stores[o]; len(sites) != 1 || !sites[[2]int{a.prog.Entry, p}] {
		return false
	}
	none := [2]int{-1, -1}
	// the join sites of o: pthread_join(load of o's element)
	for j, in := range f.Code {
		if in.Op != ir.OpCallB || ir.Builtin(in.B) != ir.BPthreadJoin || a.mainIn[j] == nil {
			continue
		}
		ld := defIn(fi, j, f.Calls[in.Imm].Args[0])
		if ld < 0 || (f.Code[ld].Op != ir.OpLoad && f.Code[ld].Op != ir.OpLoadAgg) {
			continue
		}
		lv := a.mainIn[ld].regs[f.Code[ld].A]
		if lv.hasInt || len(lv.p) != 1 {
			continue
		}
		if _, ok := lv.p[o]; !ok {
			continue
		}
		if !fi.inCycle[p] {
			// one thread; o is one element: every path to pc joins it
			if a.objs[o].size == a.tidSize() && lv.p[o] == (off{}) && !a.reaches(fi, 0, pc, map[int]bool{j: true}, none) {
				return true
			}
			continue
		}
		l1 := a.loopAround(p)
		l2 := a.loopAround(j)
		if l1 == nil || l2 == nil || l1 == l2 || !a.fills(l1, p, addr, o, a.tidSize()) {
			continue
		}
		// the join loop visits every element (as fills checks of a write)
		if a.fills(l2, ld, f.Code[ld].A, o, a.tidSize()) && !a.reaches(fi, 0, pc, nil, [2]int{l2.br, l2.exit}) {
			return true
		}
	}
	return false
}
