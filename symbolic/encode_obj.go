package symbolic

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/wyvernmc/wyvern/ir"
	"github.com/wyvernmc/wyvern/vm"
)

// Object memory of single-threaded encodings (issue 29; docs/bmc.md, "The
// encoding"). Memory is not one SMT array: as in the threaded encoding
// (encode_tmem.go), it is a map from constant byte addresses (the vm's
// block id << 32 | offset) to bitvector values, and block kinds and sizes
// maps from block ids to values, merged with ite at joins and folded where
// constant. Pointers stay the vm's 64-bit integers (so ptrtoint, inttoptr
// and comparisons are the vm's, bit for bit), but each value carries a
// value set, computed during the symbolic execution:
//
//   - cs, the constants a value can take: a constant's own; the union at an
//     ite or a join (an exact set: the value is an ite over them); sums
//     of sets in pointer arithmetic; a pointer loaded back from memory
//     keeps the set it was stored with (a byte remembers the value it is
//     part of, and a load of all of its bytes gives the value back);
//   - pts, where cs is not known: the blocks a pointer may point into (a
//     pointer plus a symbolic index).
//
// A load, store or free through a pointer is a case split over its set
// (points-to resolution, as CBMC's value_set_dereference): under p = c
// for each constant c, the bytes at c's block and offset — field values,
// no address arithmetic reaches the solver; under block(p) = b for each
// block of pts, the bytes of b at the symbolic offset (a case split over
// b's bytes, b of a known size of at most maxSymbolicBlock bytes), and
// where p is in none of its blocks the path is cut (an unwinding
// condition: incomplete, never a wrong verdict). The vm's checks are made
// on the resolved block's kind and size (null, freed, dead, out of bounds,
// invalid and double frees: the same error kinds).
//
// Block ids are the vm's (allocation order, dead stack blocks reused last
// first), values with sets where paths allocated differently: an
// allocation at a symbolic id updates each id of its set under its guard.
//
// Where a program needs more (a pointer whose set is unknown, e.g. built
// from an integer of unknown value; a symbolic offset into a block of
// unknown or large size; a symbolic id without a set), the encoder starts
// again with the flat array (errFlat), so object memory changes how a
// program is encoded, never what it means.

// errFlat makes Encode fall back to the flat memory array.
var errFlat = errors.New("object memory cannot encode this access (the flat memory array is used)")

// maxCases bounds value sets.
const maxCases = 16

// maxObjBlock bounds the blocks object memory allocates (their bytes are
// values of every path state, copied at branches and merged at joins).
const maxObjBlock = 16 << 10

// csOf is the set of constants v can take (nil: not known).
func csOf(v val) []uint64 {
	if v.bad != "" {
		return nil
	}
	if v.t == "" {
		return []uint64{v.c}
	}
	return v.cs
}

// ptsOf is the set of blocks pointer v may point into (nil: not known).
func ptsOf(v val) []uint32 {
	if cs := csOf(v); cs != nil {
		var out []uint32
		for _, c := range cs {
			out = addBlock(out, ir.PtrBlock(c))
		}
		return out
	}
	return v.pts
}

func addBlock(s []uint32, b uint32) []uint32 {
	if i, ok := slices.BinarySearch(s, b); !ok {
		s = slices.Insert(s, i, b)
	}
	return s
}

// unionCS is the union of constant sets (nil if one is unknown or the
// union too large).
func unionCS(sets ...[]uint64) []uint64 {
	var out []uint64
	for _, s := range sets {
		if s == nil {
			return nil
		}
		for _, c := range s {
			if i, ok := slices.BinarySearch(out, c); !ok {
				out = slices.Insert(out, i, c)
			}
		}
	}
	if len(out) > maxCases {
		return nil
	}
	return out
}

// unionPts is the union of block sets (nil if one is unknown or the union
// too large).
func unionPts(sets ...[]uint32) []uint32 {
	var out []uint32
	for _, s := range sets {
		if s == nil {
			return nil
		}
		for _, b := range s {
			out = addBlock(out, b)
		}
	}
	if len(out) > maxCases {
		return nil
	}
	return out
}

// withSets gives the symbolic v (an ite over the values vs) the union of
// their sets, masked to v's width.
func withSets(v val, vs ...val) val {
	if v.t == "" || v.bad != "" {
		return v
	}
	// v is one of vs (resized): its significant bits are at most theirs
	// (encode_narrow.go)
	if len(vs) > 0 {
		nz := 0
		for _, x := range vs {
			nz = max(nz, bitsOf(x))
		}
		if v = withBits(v, nz); v.t == "" {
			return v
		}
	}
	var sets [][]uint64
	guess := false
	for _, x := range vs {
		if c := csOf(x); c != nil {
			sets = append(sets, c)
			guess = guess || x.guess
		} else {
			guess = true // a guess: what is known of the others
		}
	}
	if cs := unionCS(sets...); cs != nil {
		v.guess = guess
		if v.w > 0 && v.w < 64 {
			for i := range cs {
				cs[i] &= ir.Mask(uint8(v.w))
			}
			cs = unionCS(cs)
		}
		v.cs = cs
		return v
	}
	if v.w != 64 {
		return v
	}
	ps := make([][]uint32, len(vs))
	for i, x := range vs {
		ps[i] = ptsOf(x)
	}
	v.pts = unionPts(ps...)
	return v
}

// intish: a set that is an integer's rather than a pointer's (unknown, or
// block 0 only).
func intish(p []uint32) bool { return p == nil || len(p) == 1 && p[0] == 0 }

// addSets gives v = a + b (64 bits) its value set.
func addSets(v, a, b val) val {
	if v.t == "" {
		return v
	}
	if ca, cb := csOf(a), csOf(b); ca != nil && cb != nil && len(ca)*len(cb) <= maxCases {
		var out []uint64
		for _, x := range ca {
			for _, y := range cb {
				out = append(out, x+y)
			}
		}
		v.cs = unionCS(out)
		v.guess = a.guess || b.guess
		return v
	}
	pa, pb := ptsOf(a), ptsOf(b)
	switch {
	case intish(pb) || b.isConst():
		v.pts = pa
	case intish(pa) || a.isConst():
		v.pts = pb
	}
	return v
}

// ocase is one block a pointer may designate: where g holds, the pointer
// is at offset coff (off == "") or off of block blk.
type ocase struct {
	g    Term
	blk  uint64
	coff uint64
	off  Term
}

func (c ocase) offT() Term {
	if c.off == "" {
		return BV(c.coff, 32)
	}
	return c.off
}

// oResolve is the points-to resolution of pointer p: its cases, by its
// value set. Where p is in none of the blocks of a guessed set (pts), the
// path is cut. An unknown set falls back to the flat array (errFlat).
func (e *encoder) oResolve(s *pstate, p val) []ocase {
	if p.isConst() {
		return []ocase{{g: "true", blk: uint64(ir.PtrBlock(p.c)), coff: uint64(ir.PtrOff(p.c))}}
	}
	pt := e.bv(p, 64)
	if cs := csOf(p); cs != nil {
		out := make([]ocase, 0, len(cs))
		var gs []Term
		for _, c := range cs {
			var g Term = "true"
			if len(cs) > 1 || p.guess {
				g = e.defBool(eqT(pt, BV(c, 64)))
			}
			out = append(out, ocase{g: g, blk: uint64(ir.PtrBlock(c)), coff: uint64(ir.PtrOff(c))})
			gs = append(gs, g)
		}
		if p.guess {
			e.cutIf(s, not(or(gs...)))
		}
		return out
	}
	pts := p.pts
	if pts == nil {
		e.fail(fmt.Errorf("%w: a pointer of unknown provenance", errFlat))
		return nil
	}
	id := e.defBV(Extract(63, 32, pt), 32)
	var out []ocase
	var gs []Term
	for _, b := range pts {
		g := e.defBool(eqT(id, BV(uint64(b), 32)))
		off := e.defBV(BVSub(Extract(31, 0, pt), BV(uint64(ir.PtrBase(b)), 32)), 32)
		out = append(out, ocase{g: g, blk: uint64(b), off: off})
		gs = append(gs, g)
	}
	e.cutIf(s, not(or(gs...)))
	return out
}

// chain is the ite over the cases' terms (the last one where no other
// case holds).
func chain(cs []ocase, get func(c ocase) Term) Term {
	t := get(cs[len(cs)-1])
	for i := len(cs) - 2; i >= 0; i-- {
		t = ite(cs[i].g, get(cs[i]), t)
	}
	return t
}

// oKind is the kind of block blk.
func (e *encoder) oKind(s *pstate, blk uint64) Term { return e.bv(s.tm.kind.get(blk), 8) }

// oAccess is access for object memory: the vm's checks on the resolved
// blocks.
func (e *encoder) oAccess(s *pstate, p val, n Term, write bool) {
	cs := e.oResolve(s, p)
	if len(cs) == 0 || s.g == "false" {
		return
	}
	id := e.defBV(chain(cs, func(c ocase) Term { return BV(c.blk, 32) }), 32)
	off := e.defBV(chain(cs, ocase.offT), 32)
	k := e.defBV(chain(cs, func(c ocase) Term { return e.oKind(s, c.blk) }), 8)
	size := e.defBV(chain(cs, func(c ocase) Term { return e.bv(s.tm.size.get(c.blk), 32) }), 32)
	e.checkAccess(s, id, off, k, size, n, write)
}

// oSize bounds the size of block blk (-1: unknown).
func (e *encoder) oSize(s *pstate, blk uint64) int64 {
	z := s.tm.size.get(blk)
	cs := csOf(z)
	if cs == nil || z.guess {
		return -1
	}
	return int64(slices.Max(cs))
}

// readAt reads n bytes at the constant offset off of block blk.
func (e *encoder) readAt(s *pstate, blk, off uint64, n int) val {
	bytes := make([]val, n)
	for i := range bytes {
		bytes[i] = s.tm.mem.get(blk<<32 | (off+uint64(i))&0xffffffff)
	}
	return e.assemble(bytes)
}

// assemble is the little-endian value of bytes: the stored value itself
// when they are all of its bytes in order.
func (e *encoder) assemble(bytes []val) val {
	n := len(bytes)
	if src := bytes[0].src; src != nil && src.w == 8*n {
		whole := true
		for i, b := range bytes {
			if b.src == nil || b.idx != i || !b.src.same(*src) {
				whole = false
				break
			}
		}
		if whole {
			return *src
		}
	}
	all := true
	var c uint64
	for i := n - 1; i >= 0; i-- {
		if !bytes[i].isConst() {
			all = false
			break
		}
		c = c<<8 | bytes[i].c&0xff
	}
	if all {
		return cst(c, 8*n)
	}
	parts := make([]Term, n)
	for i := range bytes {
		parts[n-1-i] = e.bv(bytes[i], 8)
	}
	return e.term(concat(parts), 8*n)
}

// fails reports whether every access to block blk fails in s: a
// constant kind that is not a live block's (null, never allocated, freed,
// dead, a function; constant memory for a write). Its bytes do not matter.
func (e *encoder) fails(s *pstate, blk uint64, write bool) bool {
	if blk == 0 {
		return true
	}
	k := s.tm.kind.get(blk)
	if !k.isConst() {
		return false
	}
	switch k.c {
	case kGlobal, kStack, kHeap:
		return false
	case kConst:
		return write
	}
	return true
}

// oRead reads n bytes at p (after oAccess).
func (e *encoder) oRead(s *pstate, p val, n int) val {
	all := e.oResolve(s, p)
	if len(all) == 0 {
		return val{bad: "unresolved pointer"}
	}
	// cases where the access fails give no value
	var cs []ocase
	for _, c := range all {
		if !e.fails(s, c.blk, false) {
			cs = append(cs, c)
		}
	}
	if len(cs) == 0 {
		cs = all
	}
	v := e.readCase(s, cs[len(cs)-1], n)
	for i := len(cs) - 2; i >= 0; i-- {
		v = e.sel(cs[i].g, e.readCase(s, cs[i], n), v)
	}
	return v
}

// readCase reads n bytes in one case of a resolution.
func (e *encoder) readCase(s *pstate, c ocase, n int) val {
	if c.off == "" {
		return e.readAt(s, c.blk, c.coff, n)
	}
	size := e.oSize(s, c.blk)
	if size < 0 || size > maxSymbolicBlock {
		e.fail(fmt.Errorf("%w: a variable offset in a block of unknown or more than %d bytes", errFlat, maxSymbolicBlock))
		return val{bad: "unresolved pointer"}
	}
	last := max(size-int64(n), 0)
	v := e.readAt(s, c.blk, uint64(last), n)
	for j := last - 1; j >= 0; j-- {
		v = e.sel(e.defBool(eqT(c.off, BV(uint64(j), 32))), e.readAt(s, c.blk, uint64(j), n), v)
	}
	return v
}

// byteOf is byte i of the n-byte value v, remembering v.
func (e *encoder) byteOf(v val, i, n int) val {
	if v.isConst() {
		b := cst(v.c>>(8*i), 8)
		src := cst(v.c, 8*n)
		b.src, b.idx = &src, i
		return b
	}
	src := v
	if v.w != 8*n {
		src = withSets(val{t: e.bv(v, 8*n), w: 8 * n}, v)
	}
	return val{t: Extract(8*i+7, 8*i, src.t), w: 8, src: &src, idx: i}
}

// setByte sets the byte at addr to b where g holds.
func (e *encoder) setByte(s *pstate, g Term, addr uint64, b val) {
	if g != "true" {
		b = e.sel(g, b, s.tm.mem.get(addr))
	}
	s.tm.mem.own[addr] = b
}

// oWrite stores the n bytes of v at p (after oAccess).
func (e *encoder) oWrite(s *pstate, p val, v val, n int) { e.oWriteIf(s, "true", p, v, n) }

// oWriteIf is oWrite where when holds (memory is unchanged elsewhere).
func (e *encoder) oWriteIf(s *pstate, when Term, p val, v val, n int) {
	cs := e.oResolve(s, p)
	if len(cs) == 0 {
		return
	}
	if !v.isConst() && v.w != 8*n {
		v = withSets(val{t: e.bv(v, 8*n), w: 8 * n}, v)
	}
	for _, c := range cs {
		if e.fails(s, c.blk, true) {
			continue // the access failed
		}
		c.g = e.defBool(and2(c.g, when))
		if c.g == "false" {
			continue
		}
		if c.off == "" {
			e.writeAt(s, c.blk, c.coff, e.sel(c.g, v, e.readAt(s, c.blk, c.coff, n)), n)
			continue
		}
		size := e.oSize(s, c.blk)
		if size < 0 || size > maxSymbolicBlock {
			e.fail(fmt.Errorf("%w: a variable offset in a block of unknown or more than %d bytes", errFlat, maxSymbolicBlock))
			return
		}
		// one conditional write per position (exclusive conditions, so
		// applying them in turn is exact)
		for j := int64(0); j+int64(n) <= size; j++ {
			at := e.defBool(and2(c.g, eqT(c.off, BV(uint64(j), 32))))
			e.writeAt(s, c.blk, uint64(j), e.sel(at, v, e.readAt(s, c.blk, uint64(j), n)), n)
		}
	}
}

// writeAt stores the n bytes of v at the constant offset off of block blk.
func (e *encoder) writeAt(s *pstate, blk, off uint64, v val, n int) {
	if !v.isConst() && v.w != 8*n {
		v = withSets(val{t: e.bv(v, 8*n), w: 8 * n}, v)
	}
	for i := 0; i < n; i++ {
		s.tm.mem.own[blk<<32|(off+uint64(i))&0xffffffff] = e.byteOf(v, i, n)
	}
}

// oFree is free for object memory (vm.Memory.free).
func (e *encoder) oFree(s *pstate, p val) {
	if p.isConst() && p.c == 0 {
		return
	}
	nonNull := e.defBool(e.nonzero(p))
	cs := e.oResolve(s, p)
	if len(cs) == 0 || s.g == "false" {
		return
	}
	offOK := e.defBool(chain(cs, func(c ocase) Term { return eqT(c.offT(), BV(0, 32)) }))
	k := e.defBV(chain(cs, func(c ocase) Term { return e.oKind(s, c.blk) }), 8)
	isHeap, isFreed := eqT(k, BV(kHeap, 8)), eqT(k, BV(kFreed, 8))
	e.check(s,
		errCond{vm.ErrInvalidFree, and2(nonNull, or(not(offOK), and2(not(isHeap), not(isFreed))))},
		errCond{vm.ErrDoubleFree, and2(nonNull, and2(offOK, isFreed))})
	if s.g == "false" {
		return
	}
	for _, c := range cs {
		if c.blk == 0 {
			continue
		}
		g := e.defBool(and2(c.g, nonNull))
		s.tm.kind.own[c.blk] = e.sel(g, cst(kFreed, 8), s.tm.kind.get(c.blk))
	}
}

// idCases are the constant ids id may be, each with its guard; an id
// without a set falls back to the flat array.
func (e *encoder) idCases(id val) (ids []uint64, gs []Term) {
	if id.isConst() {
		return []uint64{id.c}, []Term{"true"}
	}
	cs := csOf(id)
	if cs == nil || id.guess {
		e.fail(fmt.Errorf("%w: a block id of unknown value", errFlat))
		return nil, nil
	}
	t := e.bv(id, 32)
	for _, c := range cs {
		ids = append(ids, c)
		gs = append(gs, e.defBool(eqT(t, BV(c, 32))))
	}
	return ids, gs
}

// oSetBlock sets the kind (and, if size is set, the size) of block id
// where when holds, and clears its first n bytes (n < 0: forgets them);
// undef: makes them undefined instead (a fresh heap block,
// encode_undef.go).
func (e *encoder) oSetBlock(s *pstate, when Term, id val, kind val, size *val, n int64, undef bool) {
	e.oSetBlockTo(s, when, id, kind, size, n, undef, nil)
}

// oSetBlockBytes is oSetBlock of a block whose bytes become b (a fresh
// stack block's undefined bytes, encode_undef.go).
func (e *encoder) oSetBlockBytes(s *pstate, id val, kind val, size *val, b []val) {
	e.oSetBlockTo(s, "true", id, kind, size, int64(len(b)), false, b)
}

// oSetBlockTo is oSetBlock, or oSetBlockBytes where bytes is set.
func (e *encoder) oSetBlockTo(s *pstate, when Term, id val, kind val, size *val, n int64, undef bool, bytes []val) {
	if n > maxObjBlock {
		// every path state holds a block's bytes: large ones are the
		// flat array's business
		e.fail(fmt.Errorf("%w: a block of %d bytes", errFlat, n))
		return
	}
	if undef {
		e.undefHeap = true
	}
	ids, gs := e.idCases(id)
	for i, b := range ids {
		g := e.defBool(and2(when, gs[i]))
		if g == "false" {
			continue
		}
		// the bytes of a block that is not live do not matter (mergeByte):
		// clear them whatever the guard
		gb := g
		if e.fails(s, b, false) {
			gb = "true"
		}
		s.tm.kind.own[b] = e.sel(g, kind, s.tm.kind.get(b))
		if size != nil {
			s.tm.size.own[b] = e.sel(g, *size, s.tm.size.get(b))
		}
		for j := int64(0); j < n; j++ {
			k := b<<32 | uint64(j)
			switch {
			case bytes != nil:
				e.setByte(s, gb, k, bytes[j])
			case !undef:
				e.setByte(s, gb, k, cst(0, 8))
			case heldAbove(s.tm.mem, k):
				// what another path stored there (merged in where the
				// block was not live here)
				e.setByte(s, gb, k, e.undefByte(k))
			}
			// (else the root gives the key's undefined byte: rootMaps)
		}
		if n < 0 { // forget the block's bytes
			for k := range s.tm.mem.own {
				if k>>32 == b {
					e.setByte(s, g, k, e.undefByte(k))
				}
			}
		}
	}
}

// mergeObj merges the object memories of joining states (their layers
// have the same parent, the initial image): byte by byte, except that the
// bytes of stored values merge as the values (with their value sets).
func (e *encoder) mergeObj(live []*pstate, vals func(get func(s *pstate) val, w int) val) *tmaps {
	first := live[0].tm
	one := func(get func(t *tmaps) *lmap, w int, bytes bool) *lmap {
		parent := get(first).parent
		keys := map[uint64]bool{}
		for _, s := range live {
			for k := range get(s.tm).own {
				keys[k] = true
			}
		}
		out := newLayer(parent)
		srcs := map[string]*val{}
		for k := range keys {
			if bytes {
				if b, ok := e.mergeByte(live, k, srcs); ok {
					out.own[k] = b
					continue
				}
			}
			out.own[k] = vals(func(s *pstate) val { return get(s.tm).get(k) }, w)
		}
		return out
	}
	t := *first
	t.mem = one(func(t *tmaps) *lmap { return t.mem }, 8, true)
	t.kind = one(func(t *tmaps) *lmap { return t.kind }, 8, false)
	t.size = one(func(t *tmaps) *lmap { return t.size }, 32, false)
	return &t
}

// mergeByte merges byte k of the states where each is byte i of a stored
// value of the same width: it is byte i of the merged value (one per
// combination of values, in srcs).
func (e *encoder) mergeByte(all []*pstate, k uint64, srcs map[string]*val) (val, bool) {
	// states where the block is not live do not matter (its bytes are
	// cleared, made undefined or written before any access succeeds: see
	// mallocIf and oSetBlock)
	var live []*pstate
	var key strings.Builder // the states merged and their values
	for i, s := range all {
		if !e.fails(s, k>>32, false) {
			live = append(live, s)
			fmt.Fprintf(&key, "%d,", i)
		}
	}
	if len(live) == 0 || len(live) == len(all) && len(all) < 2 {
		return val{}, false
	}
	bs := make([]val, len(live))
	for i, s := range live {
		bs[i] = s.tm.mem.get(k)
	}
	b0 := bs[0]
	same := true
	for _, b := range bs {
		if !b.same(b0) || (b.src == nil) != (b0.src == nil) ||
			b.src != nil && (b.idx != b0.idx || b.src.w != b0.src.w || !b.src.same(*b0.src)) {
			same = false
		}
	}
	if same {
		return b0, true
	}
	// the reference: a byte of a stored value
	ref := -1
	for i, b := range bs {
		if b.src != nil {
			ref = i
			break
		}
	}
	if ref < 0 {
		return val{}, false
	}
	idx, w := bs[ref].idx, bs[ref].src.w
	srcOf := make([]val, len(bs))
	for i, b := range bs {
		switch {
		case b.src != nil && b.idx == idx && b.src.w == w:
			srcOf[i] = *b.src
		case b.isConst() && k&0xffffffff >= uint64(idx):
			// constant bytes (cleared, or a constant stored): the
			// constant value at the same place, if they all are
			v := e.readAt(live[i], k>>32, k&0xffffffff-uint64(idx), w/8)
			if !v.isConst() {
				return val{}, false
			}
			srcOf[i] = v
		default:
			return val{}, false
		}
		fmt.Fprintf(&key, "%s/%d;", srcOf[i].t, srcOf[i].c)
	}
	m, ok := srcs[key.String()]
	if !ok {
		gs := make([]Term, len(live))
		for i, s := range live {
			gs[i] = s.g
		}
		v := e.merged(gs, srcOf, w)
		m = &v
		srcs[key.String()] = m
	}
	return e.byteOf(*m, idx, w/8), true
}

// oStrlen is strlen for object memory (see strlen).
func (e *encoder) oStrlen(s *pstate, p val) val {
	k, cut := e.libBound(p)
	bytes := make([]Term, k)
	for i := range bytes {
		bytes[i] = e.bv(e.oRead(s, e.add64(p, cst(uint64(i), 64)), 1), 8)
	}
	n := BV(uint64(k), 64) // no NUL in the first k bytes
	for i := k - 1; i >= 0; i-- {
		n = ite(eqT(bytes[i], BV(0, 8)), BV(uint64(i), 64), n)
	}
	nt := e.defBV(n, 64)
	// the vm reads the bytes up to the NUL (or fails on the first bad one)
	e.access(s, p, BVAdd(nt, BV(1, 64)), false)
	if s.g == "false" {
		return cst(0, 64)
	}
	if cut {
		e.cutIf(s, eqT(nt, BV(uint64(k), 64)))
	}
	return val{t: nt, w: 64}
}

// oCopyVar copies the first n (64-bit term) bytes at src to d, for the
// first libBound(d) bytes, longer copies cut: every byte is read before
// any is written (memmove).
func (e *encoder) oCopyVar(s *pstate, d, src val, n Term) {
	k, cut := e.libBound(d)
	if cut {
		e.cutIf(s, BVUGT(n, BV(uint64(k), 64)))
		if s.g == "false" {
			return
		}
	}
	bytes := make([]val, k)
	for i := range bytes {
		bytes[i] = e.oRead(s, e.add64(src, cst(uint64(i), 64)), 1)
	}
	for i := range bytes {
		e.oWriteIf(s, e.defBool(BVULT(BV(uint64(i), 64), n)), e.add64(d, cst(uint64(i), 64)), bytes[i], 1)
	}
}

// oMemsetVar sets the first n (64-bit term) bytes at d to c.
func (e *encoder) oMemsetVar(s *pstate, d, c val, n Term) {
	k, cut := e.libBound(d)
	if cut {
		e.cutIf(s, BVUGT(n, BV(uint64(k), 64)))
		if s.g == "false" {
			return
		}
	}
	if !c.isConst() {
		c = val{t: e.bv(c, 8), w: 8}
	} else {
		c = cst(c.c, 8)
	}
	for i := 0; i < k; i++ {
		e.oWriteIf(s, e.defBool(BVULT(BV(uint64(i), 64), n)), e.add64(d, cst(uint64(i), 64)), c, 1)
	}
}

// oRealloc is realloc for object memory (see realloc).
func (e *encoder) oRealloc(s *pstate, p, n val) val {
	pt, nt := e.bv(p, 64), e.bv(n, 64)
	isNull := e.defBool(eqT(pt, BV(0, 64)))
	if p.isConst() {
		isNull = Bool(p.c == 0)
	}
	var cs []ocase
	if !(p.isConst() && p.c == 0) {
		cs = e.oResolve(s, p)
		if len(cs) == 0 || s.g == "false" {
			return cst(0, 64)
		}
	} else {
		cs = []ocase{{g: "true"}}
	}
	offOK := e.defBool(chain(cs, func(c ocase) Term { return eqT(c.offT(), BV(0, 32)) }))
	k := e.defBV(chain(cs, func(c ocase) Term { return e.oKind(s, c.blk) }), 8)
	isFreed := eqT(k, BV(kFreed, 8))
	bad := e.defBool(and2(not(isNull), or(not(offOK), not(eqT(k, BV(kHeap, 8))))))
	e.check(s,
		errCond{vm.ErrUseAfterFree, and2(bad, isFreed)},
		errCond{vm.ErrInvalidFree, and2(bad, not(isFreed))})
	if s.g == "false" {
		return cst(0, 64)
	}
	old := ZeroExt(32, e.defBV(chain(cs, func(c ocase) Term { return e.bv(s.tm.size.get(c.blk), 32) }), 32))
	zero := e.defBool(eqT(nt, BV(0, 64)))
	if n.isConst() {
		zero = Bool(n.c == 0)
	}
	q, got := e.mallocIf(s, n, or(isNull, not(zero)), false)
	if e.err != nil {
		return cst(0, 64)
	}
	// copy min(old, n) bytes where a block was got for a live p
	copyLen := ite(and2(got, not(isNull)), ite(BVULT(old, nt), old, nt), BV(0, 64))
	if !(p.isConst() && p.c == 0) {
		e.oCopyVar(s, q, p, e.defBV(copyLen, 64))
		if s.g == "false" {
			return cst(0, 64)
		}
	}
	// p is freed where it was not null and either n = 0 or a block was got
	freeIt := e.defBool(and2(not(isNull), or(zero, got)))
	for _, c := range cs {
		if c.blk == 0 {
			continue
		}
		g := e.defBool(and2(c.g, freeIt))
		s.tm.kind.own[c.blk] = e.sel(g, cst(kFreed, 8), s.tm.kind.get(c.blk))
	}
	return e.sel(and2(not(isNull), zero), cst(0, 64), q)
}
