package symbolic

import (
	"fmt"

	"github.com/wyvernmc/wyvern/ir"
	"github.com/wyvernmc/wyvern/vm"
)

// Library functions of variable extent (single-threaded encoding): memcpy,
// memmove and memset of a variable length, realloc, strlen. Each is the
// vm's loop over bytes unrolled to a cap, like a loop of the program: a
// path on which the length exceeds the cap is cut, its guard joining
// Unwound (so nothing found is incomplete, never a proof, and a larger
// --unwind raises the cap). The vm's checks are made on the whole extent
// first, as the vm does (vm/platform.go: memcpy, memset, realloc;
// Machine.strlen reads byte by byte, which fails on the same first bad
// byte as a check of the extent up to the terminator).

// minLibCap is the least number of bytes a variable-extent function is
// unrolled to; the cap is the larger of it and the unwinding bound.
const minLibCap = 64

func (e *encoder) libCap() int { return max(minLibCap, e.opts.Unwind) }

// noteSize records a block of size n allocated at id (sizeAt).
func (e *encoder) noteSize(id, n val) {
	if !id.isConst() {
		e.anyBlock = e.anyBlock || !n.isConst()
		// a symbolic id may be any id at or above the first dynamic one
		e.symID = true
		e.symMax = max(e.symMax, sizeOr(n))
		return
	}
	if e.sizeAt == nil {
		e.sizeAt = map[uint64]uint64{}
	}
	e.sizeAt[id.c] = max(e.sizeAt[id.c], sizeOr(n))
}

// sizeOr is n's value as a block size bound (^0: unknown).
func sizeOr(n val) uint64 {
	if n.isConst() {
		return min(n.c, 1<<31)
	}
	return ^uint64(0)
}

// boundAt bounds the bytes from p to the end of its block: p is a
// constant pointer into a block whose sizes are all known.
func (e *encoder) boundAt(p val) (uint64, bool) {
	if !p.isConst() || e.symID {
		return 0, false
	}
	sz, ok := e.sizeAt[uint64(ir.PtrBlock(p.c))]
	off := uint64(ir.PtrOff(p.c))
	if !ok || sz == ^uint64(0) {
		return 0, false
	}
	if off > sz {
		return 0, true
	}
	return sz - off, true
}

// libBound is the number of bytes a variable-extent function is unrolled
// to, and whether longer extents must be cut: where every block allocated
// so far has a known size, no longer extent passes the vm's checks (a
// pointer can only designate a block allocated earlier, which the encoder
// has met), so the largest size is enough and nothing is cut.
func (e *encoder) libBound(ps ...val) (k int, cut bool) {
	best, known := uint64(0), len(ps) > 0
	for _, p := range ps {
		b, ok := e.boundAt(p)
		if !ok {
			known = false
			break
		}
		best = max(best, b)
	}
	if known && best < uint64(e.libCap()) {
		return int(best), false
	}
	if !e.anyBlock && e.maxBlock < uint64(e.libCap()) {
		return int(e.maxBlock), false
	}
	return e.libCap(), true
}

// cutIf cuts the path where c holds (the bound of a library loop).
func (e *encoder) cutIf(s *pstate, c Term) {
	c = and2(s.g, c)
	if c == "false" {
		return
	}
	e.unwound = append(e.unwound, e.poCutTerm(s, e.defBool(c)))
	s.g = e.defBool(and2(s.g, not(c)))
}

// copyVar stores the n bytes (64-bit term) of mem0 at src to s.mem at d,
// for the first libCap bytes; longer copies are cut.
func (e *encoder) copyVar(s *pstate, mem0 Term, d, src val, n Term) {
	k, cut := e.libBound(d)
	if cut {
		e.cutIf(s, BVUGT(n, BV(uint64(k), 64)))
		if s.g == "false" {
			return
		}
	}
	m := s.mem
	for i := 0; i < k; i++ {
		at := e.bv(e.add64(d, cst(uint64(i), 64)), 64)
		b := Select(mem0, e.bv(e.add64(src, cst(uint64(i), 64)), 64))
		// m is a name: the old byte's select does not copy the chain
		m = e.def(Store(m, at, ite(BVULT(BV(uint64(i), 64), n), b, Select(m, at))), Memory(), "m")
	}
	s.mem = m
}

// memVar encodes memcpy, memmove (src valid) and memset (c valid) of a
// variable length n.
func (e *encoder) memVar(fn *ir.Func, pc int32, s *pstate, b ir.Builtin, d, src, c val, n val) error {
	if e.threaded {
		return e.unsupported(fn, pc, fmt.Sprintf("%s of a variable length in a threaded program", b))
	}
	nt := e.bv(n, 64)
	e.check(s, errCond{vm.ErrOutOfBounds, BVUGT(nt, BV(1<<31, 64))})
	if s.g == "false" {
		return nil
	}
	if b != ir.BMemset {
		e.access(s, src, nt, false)
		if s.g == "false" {
			return nil
		}
	}
	e.access(s, d, nt, true)
	if s.g == "false" {
		return nil
	}
	if e.obj {
		if b == ir.BMemset {
			e.oMemsetVar(s, d, c, nt)
		} else {
			e.oCopyVar(s, d, src, nt)
		}
		return nil
	}
	if b == ir.BMemset {
		k, cut := e.libBound(d)
		if cut {
			e.cutIf(s, BVUGT(nt, BV(uint64(k), 64)))
			if s.g == "false" {
				return nil
			}
		}
		ct := e.bv(c, 8)
		m := s.mem
		for i := 0; i < k; i++ {
			at := e.bv(e.add64(d, cst(uint64(i), 64)), 64)
			m = e.def(Store(m, at, ite(BVULT(BV(uint64(i), 64), nt), ct, Select(m, at))), Memory(), "m")
		}
		s.mem = m
		return nil
	}
	e.copyVar(s, s.mem, d, src, nt)
	return nil
}

// realloc encodes realloc(p, n) as the vm's: null p is malloc(n); a
// pointer that is not a live heap block's start fails (use after free for a
// freed block, invalid free otherwise); n = 0 frees p and returns null;
// else a new block (none, and null, above 2^31 bytes, p kept) receives
// min(old size, n) bytes of p, and p is freed.
func (e *encoder) realloc(fn *ir.Func, pc int32, s *pstate, p, n val) (val, error) {
	if e.threaded {
		return val{}, e.unsupported(fn, pc, "realloc in a threaded program")
	}
	if e.obj {
		return e.oRealloc(s, p, n), nil
	}
	pt, nt := e.bv(p, 64), e.bv(n, 64)
	isNull := e.defBool(eqT(pt, BV(0, 64)))
	if p.isConst() {
		isNull = Bool(p.c == 0)
	}
	id, off := e.ptrParts(p)
	k := e.kindOf(s, id)
	isFreed := eqT(k, BV(kFreed, 8))
	bad := e.defBool(and2(not(isNull), or(not(eqT(off, BV(0, 32))), not(eqT(k, BV(kHeap, 8))))))
	e.check(s,
		errCond{vm.ErrUseAfterFree, and2(bad, isFreed)},
		errCond{vm.ErrInvalidFree, and2(bad, not(isFreed))})
	if s.g == "false" {
		return cst(0, 64), nil
	}
	old := ZeroExt(32, Select(s.size, id))
	zero := e.defBool(eqT(nt, BV(0, 64)))
	if n.isConst() {
		zero = Bool(n.c == 0)
	}
	mem0 := s.mem
	q, got := e.mallocIf(s, n, or(isNull, not(zero)), false)
	// copy min(old, n) bytes where a block was got for a live p
	copyLen := ite(and2(got, not(isNull)), ite(BVULT(old, nt), old, nt), BV(0, 64))
	e.copyVar(s, mem0, q, p, e.defBV(copyLen, 64))
	if s.g == "false" {
		return cst(0, 64), nil
	}
	// p is freed where it was not null and either n = 0 or a block was got
	freeIt := e.defBool(and2(not(isNull), or(zero, got)))
	s.kind = e.def(ite(freeIt, Store(s.kind, id, BV(kFreed, 8)), s.kind), ArraySort(32, 8), "k")
	return e.sel(and2(not(isNull), zero), cst(0, 64), q), nil
}

// strcmp encodes strcmp(p, q), and strncmp(p, q, n) when limit is set:
// the vm's loop (vm/platform.go, strcmp). At the first index j (below the
// limit) where the bytes differ or p's is NUL the result is their
// difference as unsigned chars, else 0; the bytes of both strings up to j
// (or up to the limit) are checked first. A comparison that runs past the
// cap without stopping is cut.
func (e *encoder) strcmp(fn *ir.Func, pc int32, s *pstate, p, q val, limit *val) (val, error) {
	if e.threaded {
		return val{}, e.unsupported(fn, pc, "strcmp and strncmp in a threaded program")
	}
	k, cut := e.libBound(p, q)
	read := func(ptr val, i int) Term {
		a := e.add64(ptr, cst(uint64(i), 64))
		if e.obj {
			return e.bv(e.oRead(s, a, 1), 8)
		}
		return Select(s.mem, e.bv(a, 64))
	}
	var lim Term
	if limit != nil {
		lim = e.bv(*limit, 64)
	}
	j := BV(uint64(k), 64) // the index it stops at (k: none within the cap)
	r := BV(0, 64)
	for i := k - 1; i >= 0; i-- {
		x, y := read(p, i), read(q, i)
		stop := or(not(eqT(x, y)), eqT(x, BV(0, 8)))
		if limit != nil {
			stop = and2(stop, BVULT(BV(uint64(i), 64), lim))
		}
		j = ite(stop, BV(uint64(i), 64), j)
		r = ite(stop, BVSub(ZeroExt(56, x), ZeroExt(56, y)), r)
	}
	jt := e.defBV(j, 64)
	stopped := BVULT(jt, BV(uint64(k), 64))
	// bytes read of each string: up to the stop; without one within the
	// k bytes, k + 1 (the vm goes on to byte k, past the blocks when k is
	// their bound: the access fails) or the limit when that is smaller
	kt := BV(uint64(k), 64)
	read1 := ite(stopped, BVAdd(jt, BV(1, 64)), BVAdd(kt, BV(1, 64)))
	past := Term("true") // no stop within the cap or the limit
	if limit != nil {
		read1 = ite(stopped, BVAdd(jt, BV(1, 64)), ite(BVULE(lim, kt), lim, BVAdd(kt, BV(1, 64))))
		past = BVUGT(lim, kt)
	}
	nt := e.defBV(read1, 64)
	e.access(s, p, nt, false)
	e.access(s, q, nt, false)
	if s.g == "false" {
		return cst(0, 64), nil
	}
	if cut {
		e.cutIf(s, and2(not(stopped), past))
	}
	return val{t: e.defBV(r, 64), w: 64}, nil
}

// strlen encodes strlen(p): the index of the first NUL byte, with the vm's
// checks of every byte up to it; a string longer than the cap is cut.
func (e *encoder) strlen(fn *ir.Func, pc int32, s *pstate, p val) (val, error) {
	if e.threaded {
		return val{}, e.unsupported(fn, pc, "strlen in a threaded program")
	}
	if e.obj {
		return e.oStrlen(s, p), nil
	}
	k, cut := e.libBound(p)
	n := BV(uint64(k), 64) // no NUL in the first k bytes
	for i := k - 1; i >= 0; i-- {
		b := Select(s.mem, e.bv(e.add64(p, cst(uint64(i), 64)), 64))
		n = ite(eqT(b, BV(0, 8)), BV(uint64(i), 64), n)
	}
	nt := e.defBV(n, 64)
	// the vm reads the bytes up to the NUL (or fails on the first bad one)
	e.access(s, p, BVAdd(nt, BV(1, 64)), false)
	if s.g == "false" {
		return cst(0, 64), nil
	}
	if cut {
		e.cutIf(s, eqT(nt, BV(uint64(k), 64)))
	}
	return val{t: nt, w: 64}, nil
}
