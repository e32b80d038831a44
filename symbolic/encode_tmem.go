package symbolic

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/wyvernmc/wyvern/ir"
	"github.com/wyvernmc/wyvern/vm"
)

// Memory of threaded encodings. With one SMT array for memory, a round's
// shared state is an array, and chaining rounds (encode_threads.go) asks
// the solver for equalities between arrays built from hundreds of ite
// merges: z3, cvc5 and boolector did not decide a two-thread program with
// three rounds in 30 s. So threaded encodings keep memory as values of the
// encoder instead: every block has a constant id (one per allocation of
// the unrolled program, see staticID), and memory is a map from constant
// byte addresses (block id << 32 | offset) to bitvector values, block
// kinds and sizes maps from block ids to values — terms merged with ite at
// joins like registers, folded where constant. A round's start is a layer
// over the previous thread's end; the first thread's guesses create one
// variable per byte it reads, defined at the end: formulas over bitvectors
// only, with constant folding through memory.
//
// A stack block whose address the program never takes (its alloca's
// register is only the address of loads and stores) is the thread's own:
// its bytes stay with the thread across rounds, so locals keep constant
// values after a context switch.
//
// Accesses at a symbolic address inside one block known from the
// pointer's provenance (a constant block pointer plus a symbolic offset:
// arrays indexed by a variable) are a case split over the block's bytes.
// A pointer whose block is unknown to the encoder (loaded from shared
// memory, chosen by a branch; under ILP32 every pointer loaded from
// memory) is a case split over a guessed set of blocks (tCandidates): null,
// the globals and the shared allocations encoded so far, each with the
// vm's checks; the path where it points into another block is cut
// (notFollowed: incomplete, never a wrong verdict).

// lmap is a layered map from keys (byte addresses, block ids) to values.
type lmap struct {
	own    map[uint64]val
	parent *lmap
	base   func(k uint64) val // root layers: the value of a key not set
}

func newLayer(parent *lmap) *lmap { return &lmap{own: map[uint64]val{}, parent: parent} }

func (m *lmap) get(k uint64) val {
	for l := m; l != nil; l = l.parent {
		if v, ok := l.own[k]; ok {
			return v
		}
		if l.base != nil {
			v := l.base(k)
			l.own[k] = v
			return v
		}
	}
	return val{bad: fmt.Sprintf("memory at %#x has no value in the threaded encoding", k)}
}

// copyOf is an independent copy of a state's layer (same parent).
func (m *lmap) copyOf() *lmap {
	c := &lmap{own: make(map[uint64]val, len(m.own)), parent: m.parent}
	for k, v := range m.own {
		c.own[k] = v
	}
	return c
}

// maps of a threaded path state
type tmaps struct {
	mem, kind, size *lmap // shared: children of the round's start
	wcv, wseq       *lmap // shared, by thread id: the condition variable it waits on (0: none), its arrival
	pmem, pkind     *lmap // the thread's own stack blocks
}

func (t *tmaps) copyOf() *tmaps {
	if t == nil {
		return nil
	}
	return &tmaps{mem: t.mem.copyOf(), kind: t.kind.copyOf(), size: t.size.copyOf(),
		wcv: t.wcv.copyOf(), wseq: t.wseq.copyOf(), pmem: t.pmem.copyOf(), pkind: t.pkind.copyOf()}
}

// rootMaps are the layers of the initial state: the vm's memory image.
func (e *encoder) rootMaps() (mem, kind, size, wcv, wseq *lmap) {
	p := e.p
	init := map[uint64]val{}
	sizes := map[uint64]val{}
	kinds := map[uint64]val{}
	for _, f := range p.Funcs {
		kinds[uint64(f.Block)] = cst(kFunc, 8)
	}
	for _, g := range p.Globals {
		k := uint64(kGlobal)
		if g.Const {
			k = kConst
		}
		kinds[uint64(g.Block)] = cst(k, 8)
		sizes[uint64(g.Block)] = cst(uint64(g.Size), 32)
		for i, b := range g.Init {
			init[uint64(g.Block)<<32|uint64(i)] = cst(uint64(b), 8) // keys: block << 32 | offset
		}
	}
	for _, b := range e.img { // the platform's blocks (encode_image.go)
		kinds[uint64(b.ID)] = cst(imageKind(b), 8)
		sizes[uint64(b.ID)] = cst(uint64(len(b.Data)), 32)
		for i, c := range b.Data {
			init[uint64(b.ID)<<32|uint64(i)] = cst(uint64(c), 8)
		}
	}
	mem = &lmap{own: map[uint64]val{}, base: func(k uint64) val {
		if v, ok := init[k]; ok {
			return v
		}
		if id := uint32(k >> 32); id != 0 && id < p.FirstDynBlock {
			return cst(0, 8) // a global's bytes past its initialiser
		}
		// a byte never written: a fresh heap block's undefined byte
		// (encode_undef.go); stack and calloc blocks are cleared when
		// allocated
		return e.undefByte(k)
	}}
	kind = &lmap{own: map[uint64]val{}, base: func(k uint64) val {
		if v, ok := kinds[k]; ok {
			return v
		}
		return cst(kNone, 8)
	}}
	size = &lmap{own: map[uint64]val{}, base: func(k uint64) val {
		if v, ok := sizes[k]; ok {
			return v
		}
		return cst(0, 32)
	}}
	wcv = &lmap{own: map[uint64]val{}, base: func(uint64) val { return cst(0, 64) }}
	wseq = &lmap{own: map[uint64]val{}, base: func(uint64) val { return cst(0, 32) }}
	return mem, kind, size, wcv, wseq
}

// guessMaps are the layers of a guessed round start (round r of the
// first thread): a variable per key read, defined once the last thread
// is encoded (defineGuesses).
func (e *encoder) guessMaps(r int) (mem, kind, size, wcv, wseq *lmap) {
	mk := func(tag string, w int) *lmap {
		m := &lmap{own: map[uint64]val{}}
		m.base = func(k uint64) val {
			name := fmt.Sprintf("g%d%s_%x", r, tag, k)
			v := val{t: e.q.Declare(name, BitVec(w)), w: w}
			e.terms++
			e.guesses = append(e.guesses, guess{round: r, tag: tag, key: k, v: v})
			return v
		}
		return m
	}
	return mk("m", 8), mk("k", 8), mk("z", 32), mk("w", 64), mk("s", 32)
}

// guess is a variable of a guessed round start.
type guess struct {
	round int
	tag   string
	key   uint64
	v     val
}

// defineGuesses defines each guessed value as what the last thread's
// previous round left (which may guess more: until none is left).
func (e *encoder) defineGuesses() {
	last := e.slots[len(e.slots)-1]
	for i := 0; i < len(e.guesses); i++ {
		g := e.guesses[i]
		end := last.end[g.round-1]
		var v val
		switch g.tag {
		case "m":
			v = end.mem.get(g.key)
		case "k":
			v = end.kind.get(g.key)
		case "w":
			v = end.wcv.get(g.key)
		case "s":
			v = end.wseq.get(g.key)
		default:
			v = end.size.get(g.key)
		}
		e.q.Assert(eqT(g.v.t, e.bv(v, g.v.w)))
		e.terms++
	}
}

// private reports whether block id is a stack block of the current thread
// whose address does not escape.
func (e *encoder) private(id uint64) bool { return e.priv[uint32(id)] }

func (e *encoder) tKind(s *pstate, id uint64) val {
	if e.private(id) {
		return s.tm.pkind.get(id)
	}
	return s.tm.kind.get(id)
}

func (e *encoder) tSetKind(s *pstate, id uint64, k val) {
	if e.private(id) {
		s.tm.pkind.own[id] = k
		return
	}
	e.poShape(id)
	s.tm.kind.own[id] = k
}

func (e *encoder) tByte(s *pstate, addr uint64) val {
	if e.private(addr >> 32) {
		return s.tm.pmem.get(addr)
	}
	if e.po != nil {
		return e.poRead(s, poLoc{k: addr}, 8)
	}
	return s.tm.mem.get(addr)
}

func (e *encoder) tSetByte(s *pstate, addr uint64, b val) {
	if e.private(addr >> 32) {
		s.tm.pmem.own[addr] = b
		return
	}
	if e.po != nil {
		e.poWrite(s, poLoc{k: addr}, 8, b)
		return
	}
	s.tm.mem.own[addr] = b
}

// blkSize is the constant size of block id (its allocation's), or -1.
func (e *encoder) blkSize(s *pstate, id uint64) int64 {
	var z val
	if e.private(id) {
		z = cst(e.psize[uint32(id)], 32)
	} else {
		z = s.tm.size.get(id)
	}
	if !z.isConst() {
		return -1
	}
	return int64(z.c)
}

// provenance is the block a pointer value points into (0: unknown).
func provenance(v val) uint32 {
	if v.isConst() {
		return uint32(v.c >> 32)
	}
	return v.blk
}

// tcase is a block a pointer may point into: where c holds (c is "true"
// when the block is known), at the constant offset coff (off == "") or at
// the term off.
type tcase struct {
	c    Term
	id   uint64
	coff uint64
	off  Term
}

// tResolve splits a pointer into the blocks it may point into. A pointer
// whose block is not known (loaded from shared memory, chosen by a
// branch) is a case split over the candidate blocks (tCandidates); the
// path where it points elsewhere does not go on (an under-approximation).
func (e *encoder) tResolve(s *pstate, p val) []tcase {
	if p.isConst() {
		return []tcase{{c: "true", id: p.c >> 32, coff: uint64(ir.PtrOff(p.c))}}
	}
	t := e.bv(p, 64)
	if b := provenance(p); b != 0 {
		// the provenance is exact unless the program builds pointers from
		// integers: elsewhere the path does not go on (an under-approximation)
		same := e.defBool(eqT(Extract(63, 32, t), BV(uint64(b), 32)))
		e.tCut(s, not(same))
		return []tcase{{c: "true", id: uint64(b), off: e.defBV(BVSub(Extract(31, 0, t), BV(uint64(ir.PtrBase(b)), 32)), 32)}}
	}
	if e.po != nil {
		// its events need constant locations: the round-robin check (or
		// the complete one) takes over
		e.fail(fmt.Errorf("an access through a pointer whose block the partial-order encoding cannot tell (loaded from shared memory or chosen by a branch): not supported by the BMC encoder yet"))
		return nil
	}
	blk := e.defBV(Extract(63, 32, t), 32)
	lo := e.defBV(Extract(31, 0, t), 32)
	var cases []tcase
	var in []Term
	for _, id := range e.tCandidates() {
		c := e.defBool(eqT(blk, BV(id, 32)))
		cases = append(cases, tcase{c: c, id: id, off: e.defBV(BVSub(lo, BV(uint64(ir.PtrBase(uint32(id))), 32)), 32)})
		in = append(in, c)
	}
	e.tCut(s, not(or(in...)))
	return cases
}

// tCut ends the path where c holds without following it (the answer is
// incomplete where it could matter).
func (e *encoder) tCut(s *pstate, c Term) {
	c = and2(s.g, c)
	if c == "false" {
		return
	}
	e.notFollowed(c)
	e.stop(s, c, false, false)
	s.g = e.defBool(and2(s.g, not(c)))
}

// tCandidates are the blocks a pointer of unknown block is tried in: null,
// the globals, and the shared allocations encoded so far (in any thread)
// whose sizes are constants of at most maxSymbolicBlock bytes. A block
// allocated later in the encoding's order, another thread's private stack
// block or a function is not one: such paths are cut.
func (e *encoder) tCandidates() []uint64 {
	out := []uint64{0}
	for _, g := range e.p.Globals {
		if uint64(g.Size) <= maxSymbolicBlock {
			out = append(out, uint64(g.Block))
		}
	}
	for id := e.p.FirstDynBlock; id < e.blk; id++ {
		if z, ok := e.tsize[id]; ok && !e.priv[id] && z <= maxSymbolicBlock {
			out = append(out, uint64(id))
		}
	}
	return out
}

// tBound is the number of bytes of block id a case split covers: its
// size, or a bound of its size.
func (e *encoder) tBound(s *pstate, id uint64) int64 {
	if z := e.blkSize(s, id); z >= 0 {
		return z
	}
	if z, ok := e.tsize[uint32(id)]; ok && z <= maxSymbolicBlock {
		return int64(z)
	}
	return -1
}

// tAccess is access for threaded encodings.
func (e *encoder) tAccess(s *pstate, p val, n Term, write bool) {
	cases := e.tResolve(s, p)
	if s.g == "false" {
		return
	}
	var all []errCond
	for _, cs := range cases {
		offT := cs.off
		if offT == "" {
			offT = BV(cs.coff, 32)
		}
		var sizeT, kT Term
		switch {
		case cs.id == 0:
			sizeT, kT = BV(0, 32), BV(kNone, 8)
		case e.private(cs.id):
			sizeT, kT = BV(e.psize[uint32(cs.id)], 32), e.bv(e.tKind(s, cs.id), 8)
		default:
			sizeT, kT = e.bv(s.tm.size.get(cs.id), 32), e.bv(e.tKind(s, cs.id), 8)
		}
		for _, ec := range accessConds(BV(cs.id, 32), offT, kT, sizeT, n, write) {
			all = append(all, errCond{ec.kind, and2(cs.c, ec.c)})
		}
	}
	e.check(s, mergeConds(all)...)
}

// mergeConds joins the conditions of one error kind (a disjunction).
func mergeConds(in []errCond) []errCond {
	var out []errCond
	at := map[vm.ErrKind]int{}
	for _, c := range in {
		if c.c == "false" {
			continue
		}
		if i, ok := at[c.kind]; ok {
			out[i].c = or(out[i].c, c.c)
			continue
		}
		at[c.kind] = len(out)
		out = append(out, c)
	}
	return out
}

// tRead reads n bytes at p (after tAccess), little-endian.
func (e *encoder) tRead(s *pstate, p val, n int) val {
	cases := e.tResolve(s, p)
	var out val
	first := true
	for i := len(cases) - 1; i >= 0; i-- {
		cs := cases[i]
		if cs.id == 0 {
			continue // the access failed (tAccess)
		}
		v := e.tReadIn(s, cs, n)
		if v.bad != "" {
			return v
		}
		if first {
			out, first = v, false
			continue
		}
		out = e.sel(cs.c, v, out)
	}
	if first {
		return cst(0, 8*n) // no block: the path does not go on
	}
	return out
}

// tReadIn reads n bytes in the block of cs.
func (e *encoder) tReadIn(s *pstate, cs tcase, n int) val {
	id := cs.id
	if e.po != nil && !e.private(id) && e.poBegin(s) {
		defer e.poEnd(s)
	}
	bytes := make([]val, n)
	if cs.off == "" {
		for i := range bytes {
			bytes[i] = e.tByte(s, id<<32|(cs.coff+uint64(i))&0xffffffff)
		}
		return e.assemble(bytes)
	}
	size := e.tBound(s, id)
	if size < 0 || size > maxSymbolicBlock {
		e.fail(fmt.Errorf("an access at a variable offset in a block of unknown or more than %d bytes: not supported by the threaded BMC encoder yet", maxSymbolicBlock))
		return val{bad: "unresolved pointer"}
	}
	for i := range bytes {
		var t Term = BV(0, 8)
		for j := size - 1; j >= 0; j-- {
			at := eqT(BVAdd(cs.off, BV(uint64(i), 32)), BV(uint64(j), 32))
			t = ite(at, e.bv(e.tByte(s, id<<32|uint64(j)), 8), t)
		}
		bytes[i] = e.term(t, 8)
	}
	return e.assemble(bytes)
}

// maxSymbolicBlock bounds the blocks accessed at a variable offset in
// threaded encodings (each access is a case split over the block's bytes).
const maxSymbolicBlock = 4096

// tWrite stores the n bytes of v at p (after tAccess), little-endian.
func (e *encoder) tWrite(s *pstate, p val, v val, n int) {
	cases := e.tResolve(s, p)
	if e.po != nil && len(cases) == 1 && cases[0].id != 0 && !e.private(cases[0].id) && e.poBegin(s) {
		defer e.poEnd(s) // (the partial-order encoding resolves every pointer to one block)
	}
	byteOf := func(i int) val {
		if v.isConst() {
			return cst(v.c>>(8*i), 8)
		}
		return e.term(Extract(8*i+7, 8*i, e.bv(v, 8*n)), 8)
	}
	for _, cs := range cases {
		id := cs.id
		if id == 0 {
			continue // the access failed (tAccess)
		}
		if cs.off == "" {
			for i := 0; i < n; i++ {
				addr := id<<32 | (cs.coff+uint64(i))&0xffffffff
				if cs.c == "true" {
					e.tSetByte(s, addr, byteOf(i))
				} else {
					e.tSetByte(s, addr, e.sel(cs.c, byteOf(i), e.tByte(s, addr)))
				}
			}
			continue
		}
		size := e.tBound(s, id)
		if size < 0 || size > maxSymbolicBlock {
			e.fail(fmt.Errorf("an access at a variable offset in a block of unknown or more than %d bytes: not supported by the threaded BMC encoder yet", maxSymbolicBlock))
			return
		}
		for j := int64(0); j < size; j++ {
			addr := id<<32 | uint64(j)
			nb := e.tByte(s, addr)
			for i := n - 1; i >= 0; i-- {
				at := and2(cs.c, eqT(BVAdd(cs.off, BV(uint64(i), 32)), BV(uint64(j), 32)))
				nb = e.sel(at, byteOf(i), nb)
			}
			e.tSetByte(s, addr, nb)
		}
	}
}

// mergeMaps merges the maps of states of one thread and round (their
// shared layers have the same parent).
func (e *encoder) mergeMaps(live []*pstate, vals func(get func(s *pstate) val, w int) val) (*tmaps, error) {
	first := live[0].tm
	one := func(get func(t *tmaps) *lmap, w int) (*lmap, error) {
		parent := get(first).parent
		keys := map[uint64]bool{}
		for _, s := range live {
			m := get(s.tm)
			if m.parent != parent {
				return nil, fmt.Errorf("internal: merging memories of different rounds")
			}
			for k := range m.own {
				keys[k] = true
			}
		}
		out := newLayer(parent)
		for k := range keys {
			out.own[k] = vals(func(s *pstate) val { return get(s.tm).get(k) }, w)
		}
		return out, nil
	}
	var t tmaps
	var err error
	if t.mem, err = one(func(t *tmaps) *lmap { return t.mem }, 8); err != nil {
		return nil, err
	}
	if t.kind, err = one(func(t *tmaps) *lmap { return t.kind }, 8); err != nil {
		return nil, err
	}
	if t.size, err = one(func(t *tmaps) *lmap { return t.size }, 32); err != nil {
		return nil, err
	}
	if t.wcv, err = one(func(t *tmaps) *lmap { return t.wcv }, 64); err != nil {
		return nil, err
	}
	if t.wseq, err = one(func(t *tmaps) *lmap { return t.wseq }, 32); err != nil {
		return nil, err
	}
	if t.pmem, err = one(func(t *tmaps) *lmap { return t.pmem }, 8); err != nil {
		return nil, err
	}
	if t.pkind, err = one(func(t *tmaps) *lmap { return t.pkind }, 8); err != nil {
		return nil, err
	}
	return &t, nil
}

// iteLayer is (c ? a : b) for two layers over the same parent (b may be
// the parent itself).
func (e *encoder) iteLayer(c Term, a, b *lmap) *lmap {
	parent := a.parent
	out := newLayer(parent)
	keys := map[uint64]bool{}
	for k := range a.own {
		keys[k] = true
	}
	if b != parent {
		for k := range b.own {
			keys[k] = true
		}
	}
	for k := range keys {
		out.own[k] = e.sel(c, a.get(k), b.get(k))
	}
	return out
}

// privateAllocas marks, per function, the allocas whose address does not
// escape: their register is written by the alloca only and read only as
// the address of loads and stores.
func privateAllocas(fn *ir.Func) map[int32]bool {
	out := map[int32]bool{}
	cand := map[int32]int32{} // register → pc of its alloca
	for pc := range fn.Code {
		in := &fn.Code[pc]
		if in.Op == ir.OpAlloca && in.A < 0 && in.Dst >= 0 {
			if _, dup := cand[in.Dst]; dup {
				cand[in.Dst] = -1
			} else {
				cand[in.Dst] = int32(pc)
			}
		}
	}
	escaped := map[int32]bool{}
	mark := func(r int32) { escaped[r] = true }
	markRange := func(a, k int32) {
		for r := range cand {
			if r >= a && r < a+k {
				escaped[r] = true
			}
		}
	}
	for pc := range fn.Code {
		in := &fn.Code[pc]
		switch in.Op {
		case ir.OpAlloca:
			if cand[in.Dst] != int32(pc) {
				mark(in.Dst)
			}
			continue
		case ir.OpLoad:
			mark(in.Dst) // written by a load
			continue
		case ir.OpStore:
			mark(in.B) // stored as a value
			continue
		case ir.OpLoadAgg, ir.OpStoreAgg:
			// A is the address; the leaves' slots are the value (under
			// ILP32 every pointer load and store is one: Ptr32)
			k := int32(64)
			if in.Imm < uint64(len(fn.Aggs)) {
				k = int32(len(fn.Aggs[in.Imm].Offs))
			}
			if in.Op == ir.OpLoadAgg {
				markRange(in.Dst, k) // written by a load
			} else {
				markRange(in.B, k) // stored as values
			}
			continue
		case ir.OpJmp, ir.OpJmpE, ir.OpUnreachable, ir.OpTrap, ir.OpNop, ir.OpFence:
			continue
		case ir.OpBr, ir.OpBrE, ir.OpSwitch:
			mark(in.A)
			continue
		case ir.OpRet:
			if in.A >= 0 {
				markRange(in.A, int32(in.Imm))
			}
			continue
		case ir.OpMovN, ir.OpSelectN, ir.OpInsert:
			markRange(in.A, int32(in.Imm&0xffff)+64)
			markRange(in.B, 64)
			markRange(in.C, 64)
			markRange(in.Dst, 64)
		case ir.OpGEPN:
			if in.Imm < uint64(len(fn.GEPs)) {
				gp := &fn.GEPs[in.Imm]
				mark(gp.Base)
				for _, x := range gp.Idx {
					mark(x)
				}
			}
		case ir.OpCall, ir.OpCallB, ir.OpCallInd:
			if in.Imm < uint64(len(fn.Calls)) {
				cs := &fn.Calls[in.Imm]
				for i, a := range cs.Args {
					k := int32(1)
					if i < len(cs.ArgSlots) {
						k = cs.ArgSlots[i]
					}
					markRange(a, k)
				}
				if cs.Ret >= 0 {
					markRange(cs.Ret, max(int32(cs.RetSlots), 1))
				}
			}
			if in.Op == ir.OpCallInd {
				mark(in.A)
			}
			continue
		}
		mark(in.Dst)
		mark(in.A)
		switch in.Op {
		case ir.OpExtract:
			markRange(in.A, 64) // B is a slot offset
			markRange(in.Dst, int32(in.Imm))
		case ir.OpSelect, ir.OpCmpXchg, ir.OpFshl, ir.OpFshr, ir.OpFMulAdd:
			mark(in.B)
			mark(in.C)
		case ir.OpMov, ir.OpTrunc, ir.OpSExt, ir.OpFPToSI, ir.OpFPToUI, ir.OpSIToFP, ir.OpUIToFP,
			ir.OpFPTrunc, ir.OpFPExt, ir.OpFNeg, ir.OpCtpop, ir.OpCtlz, ir.OpCttz, ir.OpBswap, ir.OpAbs,
			ir.OpFAbs, ir.OpSqrt, ir.OpPtrToInt, ir.OpIntToPtr, ir.OpGEPC, ir.OpStackSave, ir.OpStackRestore:
			// one operand: B and C are not registers
		default:
			mark(in.B) // binary: C is not a register
		}
	}
	for _, ed := range fn.Edges {
		for _, mv := range ed.Moves {
			mark(mv.Src)
			mark(mv.Dst)
		}
	}
	for r, pc := range cand {
		if pc >= 0 && !escaped[r] {
			out[pc] = true
		}
	}
	return out
}

// checkAccess is the vm's check of an access of n bytes at (id, off) of a
// block of kind k and size size (vm.Memory.check).
func (e *encoder) checkAccess(s *pstate, id, off, k, size, n Term, write bool) {
	e.check(s, accessConds(id, off, k, size, n, write)...)
}

// accessConds are the error conditions of checkAccess.
func accessConds(id, off, k, size, n Term, write bool) []errCond {
	null := eqT(id, BV(0, 32))
	notNull := not(null)
	is := func(c uint64) Term { return eqT(k, BV(c, 8)) }
	var ok Term
	if write {
		ok = or(is(kGlobal), is(kStack), is(kHeap))
	} else {
		ok = or(is(kConst), is(kGlobal), is(kStack), is(kHeap))
	}
	conds := []errCond{{vm.ErrNullDeref, null}}
	if write {
		conds = append(conds, errCond{vm.ErrWriteConst, and2(notNull, is(kConst))})
	}
	bad := or(ok, is(kFreed), is(kDead))
	if write {
		bad = or(bad, is(kConst))
	}
	conds = append(conds,
		errCond{vm.ErrUseAfterFree, and2(notNull, is(kFreed))},
		errCond{vm.ErrUseAfterReturn, and2(notNull, is(kDead))},
		errCond{vm.ErrInvalidPtr, and2(notNull, not(bad))},
		errCond{vm.ErrOutOfBounds, and2(and2(notNull, ok), outOfBounds(off, n, size))})
	return conds
}

// outOfBounds is off + n > size (off and size 32 bits, n 64), folded
// where all three are literals (object memory's accesses at constant
// offsets of blocks of constant sizes).
func outOfBounds(off, n, size Term) Term {
	o, ok1 := literalBV(off)
	z, ok2 := literalBV(size)
	k, ok3 := literalBV(n)
	if ok1 && ok2 && ok3 && k < 1<<62 {
		return Bool(o+k > z)
	}
	return BVUGT(BVAdd(ZeroExt(32, off), n), ZeroExt(32, size))
}

// literalBV is the value of a bit-vector literal of at most 64 bits
// (#x… or #b…).
func literalBV(t Term) (uint64, bool) {
	s := string(t)
	base, digits := 0, ""
	switch {
	case strings.HasPrefix(s, "#x"):
		base, digits = 16, s[2:]
	case strings.HasPrefix(s, "#b"):
		base, digits = 2, s[2:]
	default:
		return 0, false
	}
	if digits == "" || base == 16 && len(digits) > 16 || base == 2 && len(digits) > 64 {
		return 0, false
	}
	v, err := strconv.ParseUint(digits, base, 64)
	return v, err == nil
}
