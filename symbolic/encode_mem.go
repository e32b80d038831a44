package symbolic

import (
	"errors"
	"fmt"
	"math/bits"
	"slices"

	"github.com/wyvernmc/wyvern/ir"
	"github.com/wyvernmc/wyvern/vm"
)

// maxBlockBytes bounds the bytes a single memset, memcpy or alloca zeroing
// writes as array stores.
const maxBlockBytes = 1 << 16

// ptrParts are a pointer's block id and offset (32 bits each).
func (e *encoder) ptrParts(p val) (id, off Term) {
	if p.isConst() {
		return BV(p.c>>32, 32), BV(uint64(ir.PtrOff(p.c)), 32)
	}
	t := e.bv(p, 64)
	id = e.defBV(Extract(63, 32, t), 32)
	return id, e.defBV(BVSub(Extract(31, 0, t), ptrBase(id)), 32) // ir.PtrOff
}

// access applies the vm's checks of an access of n bytes at p
// (vm.Memory.check): null, invalid pointer, write to a constant, use after
// free or after return, out of bounds.
func (e *encoder) access(s *pstate, p val, n Term, write bool) {
	if e.threaded {
		e.tAccess(s, p, n, write)
		return
	}
	if e.obj {
		e.oAccess(s, p, n, write)
		return
	}
	id, off := e.ptrParts(p)
	k := e.kindOf(s, id)
	e.checkAccess(s, id, off, k, Select(s.size, id), n, write)
}

// kindOf is the kind of block id: none at or above the allocation counter
// (never allocated), else what the kind array holds.
func (e *encoder) kindOf(s *pstate, id Term) Term {
	return e.defBV(ite(BVULT(id, e.bv(s.next, 32)), Select(s.kind, id), BV(kNone, 8)), 8)
}

// clear stores n zero bytes at block id (a fresh block's contents).
func (e *encoder) clear(s *pstate, id val, n uint64) {
	if e.threaded { // id is a constant (staticID)
		if e.po != nil && !e.private(id.c) && e.poBegin(s) {
			defer e.poEnd(s)
		}
		for i := uint64(0); i < n; i++ {
			e.tSetByte(s, id.c<<32|i, cst(0, 8))
		}
		return
	}
	e.setBytes(s, id, make([]val, n))
}

// setBytes stores b (a zero val: 0) at the first bytes of block id (the
// flat array).
func (e *encoder) setBytes(s *pstate, id val, b []val) {
	m := s.mem
	base := e.ptrOf(id)
	for i, v := range b {
		x := BV(0, 8)
		if v.t != "" || v.w != 0 {
			x = e.bv(v, 8)
		}
		m = Store(m, e.bv(e.add64(base, cst(uint64(i), 64)), 64), x)
		if i%64 == 63 {
			m = e.def(m, Memory(), "m")
		}
	}
	s.mem = e.def(m, Memory(), "m")
}

// readBytes reads n bytes at p, little-endian, as one term of 8n bits.
func (e *encoder) readBytes(s *pstate, p val, n int) Term {
	if e.threaded || e.obj {
		return e.bv(e.readVal(s, p, n), 8*n)
	}
	parts := make([]Term, n)
	for i := 0; i < n; i++ {
		parts[n-1-i] = Select(s.mem, e.bv(e.add64(p, cst(uint64(i), 64)), 64))
	}
	return concat(parts)
}

// readVal reads n bytes at p as a value (threaded or object memory).
func (e *encoder) readVal(s *pstate, p val, n int) val {
	if e.threaded {
		return e.tRead(s, p, n)
	}
	return e.oRead(s, p, n)
}

// writeVal stores the n bytes of v at p (threaded or object memory).
func (e *encoder) writeVal(s *pstate, p val, v val, n int) {
	if e.threaded {
		e.tWrite(s, p, v, n)
		return
	}
	e.oWrite(s, p, v, n)
}

// concat is the concatenation of parts (the first in the high bits), as
// binary concats: boolector accepts no other.
func concat(parts []Term) Term {
	t := parts[len(parts)-1]
	for i := len(parts) - 2; i >= 0; i-- {
		t = Concat(parts[i], t)
	}
	return t
}

// writeBytes stores the 8n bits of v at p, little-endian.
func (e *encoder) writeBytes(s *pstate, p val, v Term, n int) {
	if e.threaded || e.obj {
		e.writeVal(s, p, val{t: v, w: 8 * n}, n)
		return
	}
	m := s.mem
	for i := 0; i < n; i++ {
		m = Store(m, e.bv(e.add64(p, cst(uint64(i), 64)), 64), Extract(8*i+7, 8*i, v))
	}
	s.mem = e.def(m, Memory(), "m")
}

func (e *encoder) load(s *pstate, in *ir.Inst) error {
	n := int(in.W)
	if n < 1 || n > 8 {
		return fmt.Errorf("load of %d bytes", n)
	}
	p := s.regs[in.A]
	e.access(s, p, BV(uint64(n), 64), false)
	if s.g == "false" {
		return nil
	}
	w := 8 * n
	if e.threaded || e.obj { // values, folded where constant
		v := e.readVal(s, p, n)
		if in.Imm != 0 && bits.Len64(in.Imm) < w {
			w = bits.Len64(in.Imm)
			if v.isConst() {
				v = cst(v.c, w)
			} else {
				v = e.term(Extract(w-1, 0, e.bv(v, 8*n)), w)
			}
		}
		s.regs[in.Dst] = v
		return nil
	}
	t := e.readBytes(s, p, n)
	if in.Imm != 0 && bits.Len64(in.Imm) < w {
		w = bits.Len64(in.Imm)
		t = Extract(w-1, 0, t)
	}
	s.regs[in.Dst] = e.term(t, w)
	return nil
}

func (e *encoder) store(s *pstate, in *ir.Inst) error {
	n := int(in.W)
	if n < 1 || n > 8 {
		return fmt.Errorf("store of %d bytes", n)
	}
	p := s.regs[in.A]
	e.access(s, p, BV(uint64(n), 64), true)
	if s.g == "false" {
		return nil
	}
	if e.threaded || e.obj {
		v := s.regs[in.B]
		if !v.isConst() {
			v = withSets(val{t: e.bv(v, 8*n), w: 8 * n}, v)
		}
		e.writeVal(s, p, v, n)
		return nil
	}
	e.writeBytes(s, p, e.bv(s.regs[in.B], 8*n), n)
	return nil
}

// agg loads or stores a first-class aggregate leaf by leaf, each leaf
// checked in turn as the vm does.
func (e *encoder) agg(fn *ir.Func, s *pstate, in *ir.Inst) error {
	if in.Imm >= uint64(len(fn.Aggs)) {
		return fmt.Errorf("aggregate access %d out of range", in.Imm)
	}
	acc := &fn.Aggs[in.Imm]
	p := s.regs[in.A]
	for i, off := range acc.Offs {
		n := int(acc.Sizes[i])
		ptr32 := i < len(acc.Ptr32) && acc.Ptr32[i] // an ILP32 pointer: 32 bits in memory
		q := e.add64(p, cst(uint64(off), 64))
		if in.Op == ir.OpLoadAgg {
			if int(in.Dst)+i >= len(s.regs) {
				return fmt.Errorf("slots out of range")
			}
			e.access(s, q, BV(uint64(n), 64), false)
			if s.g == "false" {
				return nil
			}
			var v val
			if e.threaded || e.obj {
				v = e.readVal(s, q, n)
			} else {
				v = e.term(e.readBytes(s, q, n), 8*n)
			}
			if ptr32 {
				v = e.fromPtr32(v)
			}
			s.regs[int(in.Dst)+i] = v
		} else {
			if int(in.B)+i >= len(s.regs) {
				return fmt.Errorf("slots out of range")
			}
			x := s.regs[int(in.B)+i]
			if ptr32 {
				if x = e.toPtr32(s, x); s.g == "false" {
					return nil
				}
			}
			v := e.bv(x, 8*n)
			e.access(s, q, BV(uint64(n), 64), true)
			if s.g == "false" {
				return nil
			}
			if e.threaded || e.obj {
				// the value with what is known of it (as store does): a
				// pointer loaded back keeps its block
				if !x.isConst() {
					x = withSets(val{t: v, w: 8 * n}, x)
				}
				e.writeVal(s, q, x, n)
				continue
			}
			e.writeBytes(s, q, v, n)
		}
	}
	return nil
}

// inc32 is v + 1 on 32 bits.
func (e *encoder) inc32(v val, d int64) val {
	if v.isConst() {
		return cst(uint64(int64(v.c)+d), 32)
	}
	out := e.term(BVAdd(e.bv(v, 32), BVInt(d, 32)), 32)
	if cs := csOf(v); cs != nil {
		ns := make([]uint64, len(cs))
		for i, c := range cs {
			ns[i] = uint64(int64(c)+d) & 0xffffffff
		}
		out.cs, out.guess = unionCS(ns), v.guess
	}
	return out
}

// pushFree pushes a dead stack block id on the free stack.
func (e *encoder) pushFree(s *pstate, id val) {
	if e.threaded { // ids are not reused (see staticID)
		return
	}
	if s.flen.isConst() {
		i := int(s.flen.c)
		if i < len(s.free) {
			s.free[i] = id
		} else {
			s.free = append(s.free, id)
		}
		s.flen = cst(uint64(i+1), 32)
		return
	}
	fl := e.bv(s.flen, 32)
	s.free = append(s.free, cst(0, 32))
	for i := range s.free {
		s.free[i] = e.sel(eqT(fl, BV(uint64(i), 32)), id, s.free[i])
	}
	s.flen = e.inc32(s.flen, 1)
}

// stackID takes the id of a new stack block as the vm does: the last dead
// stack block's, else a fresh one. reused tells whether the id may be a
// dead block's (whose bytes must be cleared).
func (e *encoder) stackID(s *pstate) (id val, reused bool) {
	if e.threaded {
		return e.staticID(), false
	}
	if s.flen.isConst() {
		if i := int(s.flen.c); i > 0 {
			s.flen = cst(uint64(i-1), 32)
			return s.free[i-1], true
		}
		id = s.next
		s.next = e.inc32(s.next, 1)
		return id, false
	}
	fl := e.bv(s.flen, 32)
	empty := e.defBool(eqT(fl, BV(0, 32)))
	id = s.next
	for i := 1; i <= len(s.free); i++ {
		id = e.sel(eqT(fl, BV(uint64(i), 32)), s.free[i-1], id)
	}
	s.next = e.sel(empty, e.inc32(s.next, 1), s.next)
	s.flen = e.sel(empty, s.flen, e.inc32(s.flen, -1))
	return id, true
}

func (e *encoder) alloca(fn *ir.Func, pc int32, s *pstate, in *ir.Inst) error {
	size := cst(in.Imm, 64)
	if in.A >= 0 {
		w := int(in.W)
		if w < 1 || w > 64 {
			return e.unsupported(fn, pc, fmt.Sprintf("alloca count of width %d", w))
		}
		cnt := s.regs[in.A]
		if !cnt.isConst() {
			return e.unsupported(fn, pc, "alloca of a variable size")
		}
		c := sx(cnt.c, w)
		if c < 0 {
			e.check(s, errCond{vm.ErrBadArg, "true"})
			return nil
		}
		size = cst(in.Imm*uint64(c), 64)
	}
	if size.c > 1<<31 {
		e.check(s, errCond{vm.ErrStackOverflow, "true"})
		return nil
	}
	e.maxBlock = max(e.maxBlock, size.c)
	id, reused := e.stackID(s)
	e.noteSize(id, size)
	_ = reused // fresh ids are cleared too: the initial memory is free
	if e.threaded {
		if e.privOf[fn.Index] == nil {
			e.privOf[fn.Index] = privateAllocas(fn)
		}
		if e.privOf[fn.Index][pc] {
			e.priv[uint32(id.c)] = true
			e.psize[uint32(id.c)] = size.c
		} else {
			e.poShape(id.c)
			s.tm.size.own[id.c] = cst(size.c, 32)
			e.tsize[uint32(id.c)] = max(e.tsize[uint32(id.c)], size.c)
		}
		e.tSetKind(s, id.c, cst(kStack, 8))
	} else if !e.obj {
		idt := e.bv(id, 32)
		s.kind = e.def(Store(s.kind, idt, BV(kStack, 8)), ArraySort(32, 8), "k")
		s.size = e.def(Store(s.size, idt, BV(size.c, 32)), ArraySort(32, 32), "z")
	}
	if size.c > maxBlockBytes {
		return e.unsupported(fn, pc, fmt.Sprintf("alloca of %d bytes", size.c))
	}
	// an alloca marked ir.AuxUndef (an array, a struct, a variable whose
	// address is passed on) has undefined bytes, fresh at each execution
	// (encode_undef.go; one of 0 bytes is counted too, as the witness's
	// replay counts it); the others are cleared
	undef := in.Aux == ir.AuxUndef
	if undef && size.c > vmPageSize {
		e.undefSilent = true // (the vm reads zeros: encode_undef.go)
	}
	switch {
	case undef && e.threaded:
		e.undefineStack(s, id, size.c)
	case undef:
		b := e.stackBytes(fn, pc, s, size.c)
		if in.B > 0 && int(in.B) <= len(fn.UndefMasks) {
			// its padding is zero, as the vm's (ir.Func.UndefMasks)
			m := fn.UndefMasks[in.B-1]
			for j := range b {
				if j>>3 < len(m) && m[j>>3]>>(j&7)&1 == 0 {
					b[j] = cst(0, 8)
				}
			}
		}
		if e.obj {
			z := cst(size.c, 32)
			e.oSetBlockBytes(s, id, cst(kStack, 8), &z, b)
		} else {
			e.setBytes(s, id, b)
		}
	case e.obj:
		z := cst(size.c, 32)
		e.oSetBlock(s, "true", id, cst(kStack, 8), &z, int64(size.c), false)
	default:
		e.clear(s, id, size.c)
	}
	s.allocas = append(s.allocas, id)
	s.regs[in.Dst] = e.ptrOf(id)
	return nil
}

// ptrOf is the pointer to offset 0 of block id.
func (e *encoder) ptrOf(id val) val {
	if id.isConst() {
		return cst(ir.MakePtr(uint32(id.c), 0), 64)
	}
	it := e.bv(id, 32)
	p := e.term(Concat(it, ptrBase(it)), 64) // ir.MakePtr
	if cs := csOf(id); cs != nil {
		ps := make([]uint64, len(cs))
		for i, c := range cs {
			ps[i] = ir.MakePtr(uint32(c), 0)
		}
		p.cs, p.guess = unionCS(ps), id.guess
	}
	return p
}

// malloc allocates a heap block of n bytes (64 bits) as the vm does: none
// (a null result) above 2^31 bytes. Its bytes are undefined (malloc,
// encode_undef.go), or zeros (zero: calloc).
func (e *encoder) malloc(s *pstate, n val, zero bool) val {
	q, _ := e.mallocIf(s, n, "true", zero)
	return q
}

// mallocIf is malloc where when holds (nothing is allocated elsewhere, the
// pointer is null there); got holds where a block was allocated.
func (e *encoder) mallocIf(s *pstate, n val, when Term, zero bool) (q val, got Term) {
	nt := e.bv(n, 64)
	tooBig := BVUGT(nt, BV(1<<31, 64))
	if n.isConst() {
		tooBig = Bool(n.c > 1<<31)
	}
	if n.isConst() {
		e.maxBlock = max(e.maxBlock, min(n.c, 1<<31))
	} else {
		e.anyBlock = true
	}
	e.noteSize(s.next, n)
	tooBig = e.defBool(or(not(when), tooBig))
	got = not(tooBig)
	if e.threaded && when != "true" {
		e.fail(fmt.Errorf("symbolic: internal error: a conditional malloc in a threaded program"))
	}
	id := s.next
	if e.threaded {
		id = e.staticID()
		e.poShape(id.c)
		e.tsize[uint32(id.c)] = max(e.tsize[uint32(id.c)], sizeOr(n))
		k := s.tm.kind.get(id.c)
		s.tm.kind.own[id.c] = e.sel(tooBig, k, cst(kHeap, 8))
		z := s.tm.size.get(id.c)
		s.tm.size.own[id.c] = e.sel(tooBig, z, e.term(Extract(31, 0, nt), 32))
		if n.isConst() {
			s.tm.size.own[id.c] = e.sel(tooBig, z, cst(n.c, 32))
		}
		if n.isConst() && n.c <= maxBlockBytes {
			if zero {
				e.clear(s, id, n.c)
			} else {
				e.undefine(s, id, n.c)
			}
		}
		return e.sel(tooBig, cst(0, 64), e.ptrOf(id)), got
	}
	if e.obj {
		z := e.term(Extract(31, 0, nt), 32)
		if n.isConst() {
			z = cst(n.c, 32)
		}
		// calloc's zeros, or malloc's undefined bytes (encode_undef.go):
		// object memory sets them (mergeByte)
		var clearN int64
		switch cs := csOf(n); {
		case cs != nil && slices.Max(cs) <= maxBlockBytes:
			clearN = int64(slices.Max(cs))
		case cs != nil && slices.Min(cs) > 1<<31: // null
		default:
			// not cleared: what the block held is forgotten, reading
			// before writing is over-approximated (as the flat array)
			clearN = -1
		}
		e.oSetBlock(s, got, id, cst(kHeap, 8), &z, clearN, !zero)
		s.next = e.sel(tooBig, s.next, e.inc32(s.next, 1))
		return e.sel(tooBig, cst(0, 64), e.ptrOf(id)), got
	}
	idt := e.bv(id, 32)
	s.kind = e.def(ite(tooBig, s.kind, Store(s.kind, idt, BV(kHeap, 8))), ArraySort(32, 8), "k")
	s.size = e.def(ite(tooBig, s.size, Store(s.size, idt, Extract(31, 0, nt))), ArraySort(32, 32), "z")
	if !e.threaded {
		s.next = e.sel(tooBig, s.next, e.inc32(s.next, 1))
	}
	// calloc: the vm clears the block (one of unknown size keeps
	// whatever the free initial memory holds there: reading it before
	// writing is over-approximated); malloc: its bytes are mem0's,
	// undefined (encode_undef.go)
	if !zero {
		e.undefine(s, id, 0)
	} else if n.isConst() && n.c <= maxBlockBytes {
		e.clear(s, id, n.c)
	}
	return e.sel(tooBig, cst(0, 64), e.ptrOf(id)), got
}

// free releases a heap block (vm.Memory.free).
func (e *encoder) free(s *pstate, p val) {
	if e.threaded {
		e.tFree(s, p)
		return
	}
	if e.obj {
		e.oFree(s, p)
		return
	}
	id, off := e.ptrParts(p)
	k := e.kindOf(s, id)
	nonNull := not(eqT(e.bv(p, 64), BV(0, 64)))
	if p.isConst() {
		nonNull = Bool(p.c != 0)
	}
	offOK := eqT(off, BV(0, 32))
	isHeap, isFreed := eqT(k, BV(kHeap, 8)), eqT(k, BV(kFreed, 8))
	e.check(s,
		errCond{vm.ErrInvalidFree, and2(nonNull, or(not(offOK), and2(not(isHeap), not(isFreed))))},
		errCond{vm.ErrDoubleFree, and2(nonNull, and2(offOK, isFreed))})
	if s.g == "false" {
		return
	}
	s.kind = e.def(ite(nonNull, Store(s.kind, id, BV(kFreed, 8)), s.kind), ArraySort(32, 8), "k")
}

// constLen is a length argument that must be known.
func (e *encoder) constLen(fn *ir.Func, pc int32, v val, what string) (uint64, error) {
	if !v.isConst() {
		return 0, e.unsupported(fn, pc, what+" of a variable length")
	}
	return v.c, nil
}

// call inlines a call of a defined function, or ends the path at a
// violation for a function named in EncodeOptions.Calls.
func (e *encoder) call(fn *ir.Func, pc int32, s *pstate, callee *ir.Func, cs *ir.CallSite) (*pstate, error) {
	if procs, ok := e.calls[callee.Name]; ok {
		e.violate(s, procs)
		if s.g == "false" {
			return s, nil
		}
	}
	if callee.External {
		return e.builtin(fn, pc, s, callee.Builtin, cs)
	}
	if callee.HasByval {
		return nil, e.unsupported(fn, pc, "call of "+callee.Name+" with a byval argument")
	}
	if e.active[callee.Index] >= e.opts.Unwind {
		e.cut(s)
		return s, nil
	}
	ns := s.clone() // the shared state and the thread's counters go on in the callee
	ns.regs, ns.allocas, ns.ret = e.frameRegs(callee), nil, nil
	if callee.Atomic {
		ns.atomic++
		e.poSectionStart(ns)
	}
	for i, a := range cs.Args {
		if i >= len(callee.Params) || i >= len(cs.ArgSlots) {
			break
		}
		k := cs.ArgSlots[i]
		d := callee.Params[i]
		if a < 0 || a+k > int32(len(s.regs)) || d < 0 || d+k > int32(len(ns.regs)) {
			return nil, fmt.Errorf("%s: call of %s: argument slots out of range", e.where(fn, pc), callee.Name)
		}
		copy(ns.regs[d:d+k], s.regs[a:a+k])
	}
	e.active[callee.Index]++
	e.depth++
	rets, err := e.run(callee, ns)
	e.depth--
	e.active[callee.Index]--
	if err != nil {
		return nil, err
	}
	var outs []*pstate
	for _, ret := range rets {
		out := ret.clone() // all but the caller's frame comes back from the callee
		out.regs = append([]val(nil), s.regs...)
		out.allocas = append([]val(nil), s.allocas...)
		// the atomic depth the callee left (a __VERIFIER_atomic_begin or
		// _end in it counts after its return, as in the vm), less the
		// function's own section, which its frame's return leaves
		out.ret, out.atomic = s.ret, ret.atomic
		if callee.Atomic {
			out.atomic--
		}
		if out.atomic <= 0 {
			e.curCallB = false // after the callee's return
			e.poSectionEnd(out)
		}
		if cs.Ret >= 0 && ret.ret != nil {
			k := min(int(cs.RetSlots), len(ret.ret))
			if int(cs.Ret)+k > len(out.regs) {
				return nil, fmt.Errorf("%s: call of %s: result slots out of range", e.where(fn, pc), callee.Name)
			}
			copy(out.regs[cs.Ret:], ret.ret[:k])
		}
		outs = append(outs, out)
	}
	if len(outs) == 0 {
		return nil, nil
	}
	e.extra = append(e.extra, outs[1:]...) // one state per round: block goes on with each
	return outs[0], nil
}

// arg is argument i of a call (0 if absent).
func arg(s *pstate, cs *ir.CallSite, i int) val {
	if i >= len(cs.Args) || cs.Args[i] < 0 || int(cs.Args[i]) >= len(s.regs) {
		return cst(0, 64)
	}
	return s.regs[cs.Args[i]]
}

// argInt is argument i sign-extended from its size to 64 bits.
func (e *encoder) argInt(s *pstate, cs *ir.CallSite, i int) Term {
	v := arg(s, cs, i)
	sz := 0
	if i < len(cs.ArgSizes) {
		sz = int(cs.ArgSizes[i])
	}
	if sz == 0 || sz >= 8 {
		return e.bv(v, 64)
	}
	return SignExt(64-8*sz, e.bv(v, 8*sz))
}

func retBits(cs *ir.CallSite) int {
	if cs.RetBits == 0 {
		return 64
	}
	return int(cs.RetBits)
}

func setRet(s *pstate, cs *ir.CallSite, v val) {
	if cs.Ret >= 0 && int(cs.Ret) < len(s.regs) {
		s.regs[cs.Ret] = v
	}
}

// builtin encodes a call of a platform function (vm/platform.go).
func (e *encoder) builtin(fn *ir.Func, pc int32, s *pstate, b ir.Builtin, cs *ir.CallSite) (*pstate, error) {
	if cs.Callee >= 0 && int(cs.Callee) < len(e.p.Funcs) {
		if procs, ok := e.calls[e.p.Funcs[cs.Callee].Name]; ok {
			e.violate(s, procs)
			if s.g == "false" {
				return s, nil
			}
		}
	}
	if d := vm.BMC(b); d.Support != vm.BMCEncoded { // the platform table's BMC column
		return nil, e.unsupported(fn, pc, fmt.Sprintf("call of %s (%s)", b, d.How))
	}
	switch b {
	case ir.BStrcmp, ir.BStrncmp, ir.BStrlen, ir.BPrintf, ir.BPuts, ir.BMemcpy, ir.BMemmove:
		// (the vm reads undefined bytes as zeros, or a copy into a
		// global defines them, without a draw: encode_undef.go)
		e.undefSilent = true
	}
	if e.threaded && pthreadBuiltin(b) {
		if e.po != nil {
			return e.poThreadBuiltin(fn, pc, s, b, cs)
		}
		return e.threadBuiltin(fn, pc, s, b, cs)
	}
	switch b {
	case ir.BNondet, ir.BUniform, ir.BCoin:
		return s, e.input(fn, pc, s, b, cs)
	case ir.BAssume:
		c := e.nonzero(arg(s, cs, 0))
		e.stop(s, and2(s.g, not(c)), true, false) // the run ends
		s.g = e.defBool(and2(s.g, c))
	case ir.BVerifierError:
		e.check(s, errCond{vm.ErrVerifierErr, "true"})
	case ir.BReachError:
		e.check(s, errCond{vm.ErrReachError, "true"})
	case ir.BAssertFail:
		e.check(s, errCond{vm.ErrAssertFail, "true"})
	case ir.BAbort:
		e.check(s, errCond{vm.ErrAbort, "true"})
	case ir.BExit:
		e.stop(s, s.g, true, false)
		s.g = "false" // the run ends without an error
	case ir.BAtomicBegin:
		s.atomic++
		e.poSectionStart(s)
		e.poSectionBlock(s) // atomic sections as blocks (encode_block.go)
	case ir.BAtomicEnd:
		if s.atomic > 0 {
			s.atomic--
			e.poSectionEnd(s)
		}
	case ir.BMalloc:
		setRet(s, cs, e.malloc(s, arg(s, cs, 0), false))
	case ir.BCalloc:
		if k, n := arg(s, cs, 0), arg(s, cs, 1); k.isConst() && n.isConst() {
			hi, lo := bits.Mul64(k.c, n.c)
			size := cst(lo, 64)
			if hi != 0 || (n.c != 0 && k.c > (1<<31)/n.c) {
				size = cst(1<<32, 64) // too big: null, as the vm's check
			}
			setRet(s, cs, e.malloc(s, size, true))
			break
		}
		k, n := e.bv(arg(s, cs, 0), 64), e.bv(arg(s, cs, 1), 64)
		tooBig := e.defBool(and2(not(eqT(n, BV(0, 64))), BVUGT(k, BVUDiv(BV(1<<31, 64), n))))
		p := e.malloc(s, e.term(ite(tooBig, BV(1<<32, 64), BVMul(k, n)), 64), true)
		setRet(s, cs, p)
	case ir.BFree:
		e.free(s, arg(s, cs, 0))
	case ir.BRealloc:
		q, err := e.realloc(fn, pc, s, arg(s, cs, 0), arg(s, cs, 1))
		if err != nil {
			return nil, err
		}
		setRet(s, cs, q)
	case ir.BStrcmp, ir.BStrncmp:
		var limit *val
		if b == ir.BStrncmp {
			l := arg(s, cs, 2)
			limit = &l
		}
		r, err := e.strcmp(fn, pc, s, arg(s, cs, 0), arg(s, cs, 1), limit)
		if err != nil {
			return nil, err
		}
		if w := retBits(cs); w < 64 && !r.isConst() {
			r = e.term(Extract(w-1, 0, e.bv(r, 64)), w)
		}
		setRet(s, cs, r)
	case ir.BStrlen:
		n, err := e.strlen(fn, pc, s, arg(s, cs, 0))
		if err != nil {
			return nil, err
		}
		if w := retBits(cs); w < 64 && !n.isConst() {
			n = e.term(Extract(w-1, 0, e.bv(n, 64)), w)
		}
		setRet(s, cs, n)
	case ir.BMemset:
		d := arg(s, cs, 0)
		if !arg(s, cs, 2).isConst() {
			if err := e.memVar(fn, pc, s, b, d, val{}, arg(s, cs, 1), arg(s, cs, 2)); err != nil {
				return nil, err
			}
			setRet(s, cs, d)
			break
		}
		n, err := e.constLen(fn, pc, arg(s, cs, 2), "memset")
		if err != nil {
			return nil, err
		}
		if n > 1<<31 {
			e.check(s, errCond{vm.ErrOutOfBounds, "true"})
			break
		}
		if n > maxBlockBytes {
			return nil, e.unsupported(fn, pc, fmt.Sprintf("memset of %d bytes", n))
		}
		if n > 0 {
			e.access(s, d, BV(n, 64), true)
			if s.g == "false" {
				break
			}
			c := e.bv(arg(s, cs, 1), 8)
			if e.threaded || e.obj {
				cv := arg(s, cs, 1)
				if !cv.isConst() {
					cv = val{t: c, w: 8}
				} else {
					cv = cst(cv.c, 8)
				}
				for i := uint64(0); i < n; i++ {
					e.writeVal(s, e.add64(d, cst(i, 64)), cv, 1)
				}
				break
			}
			m := s.mem
			for i := uint64(0); i < n; i++ {
				m = Store(m, e.bv(e.add64(d, cst(i, 64)), 64), c)
			}
			s.mem = e.def(m, Memory(), "m")
		}
		setRet(s, cs, d)
	case ir.BMemcpy, ir.BMemmove:
		d, src := arg(s, cs, 0), arg(s, cs, 1)
		if !arg(s, cs, 2).isConst() {
			if err := e.memVar(fn, pc, s, b, d, src, val{}, arg(s, cs, 2)); err != nil {
				return nil, err
			}
			setRet(s, cs, d)
			break
		}
		n, err := e.constLen(fn, pc, arg(s, cs, 2), b.String())
		if err != nil {
			return nil, err
		}
		if n > 1<<31 {
			e.check(s, errCond{vm.ErrOutOfBounds, "true"})
			break
		}
		if n > maxBlockBytes {
			return nil, e.unsupported(fn, pc, fmt.Sprintf("%s of %d bytes", b, n))
		}
		if n > 0 {
			e.access(s, src, BV(n, 64), false)
			if s.g == "false" {
				break
			}
			e.access(s, d, BV(n, 64), true)
			if s.g == "false" {
				break
			}
			if e.threaded || e.obj {
				bs := make([]val, n)
				for i := range bs {
					bs[i] = e.readVal(s, e.add64(src, cst(uint64(i), 64)), 1)
				}
				for i := range bs {
					e.writeVal(s, e.add64(d, cst(uint64(i), 64)), bs[i], 1)
				}
				break
			}
			bytes := make([]Term, n)
			for i := range bytes {
				bytes[i] = Select(s.mem, e.bv(e.add64(src, cst(uint64(i), 64)), 64))
			}
			m := s.mem
			for i := range bytes {
				m = Store(m, e.bv(e.add64(d, cst(uint64(i), 64)), 64), bytes[i])
			}
			s.mem = e.def(m, Memory(), "m")
		}
		setRet(s, cs, d)
	case ir.BPutchar:
		setRet(s, cs, e.term(ZeroExt(retBits(cs)-8, e.bv(arg(s, cs, 0), 8)), retBits(cs)))
	case ir.BPrintf, ir.BPuts:
		if err := e.output(fn, pc, s, b, cs); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("%s: call of %s: %w", e.where(fn, pc), b, errNoEncoding)
	}
	return s, nil
}

// errNoEncoding: the platform table's BMC column says a function is
// encoded, but the encoder has no case for it (a bug; TestBMCColumn).
var errNoEncoding = errors.New("the platform table says BMC encodes this function, but the encoder has no case for it")

// terms is vm.Algebra over 64-bit bitvector terms: the choices' rules
// (vm/choice_rule.go) as formulas.
type terms struct{}

func (terms) Const(c uint64) Term    { return BV(c, 64) }
func (terms) Eq(a, b Term) Term      { return eqT(a, b) }
func (terms) ULT(a, b Term) Term     { return BVULT(a, b) }
func (terms) SLT(a, b Term) Term     { return BVSLT(a, b) }
func (terms) Sub(a, b Term) Term     { return BVSub(a, b) }
func (terms) Low(a Term, w int) Term { return lowBits(a, w) }
func (terms) Or(a, b Term) Term      { return or(a, b) }
func (terms) And(a, b Term) Term     { return and2(a, b) }
func (terms) Not(a Term) Term        { return not(a) }
func lowBits(a Term, w int) Term {
	if w >= 64 {
		return a
	}
	return ZeroExt(64-w, Extract(w-1, 0, a))
}

// output accepts printf and puts when they cannot fail in the vm: a
// constant format in constant memory, without %s, %n or *, with enough
// arguments. They only append to the output, which the formula does not
// model; their result is not modelled (reading it is an error).
func (e *encoder) output(fn *ir.Func, pc int32, s *pstate, b ir.Builtin, cs *ir.CallSite) error {
	p := arg(s, cs, 0)
	text, ok := e.constString(p)
	if !ok {
		return e.unsupported(fn, pc, b.String()+" of a string that is not a constant in constant memory")
	}
	if b == ir.BPrintf {
		convs := 0
		for i := 0; i < len(text); i++ {
			if text[i] != '%' {
				continue
			}
			i++
			for i < len(text) && indexByte("-+ #0123456789.hlLqjzt", text[i]) {
				i++
			}
			if i >= len(text) {
				return e.unsupported(fn, pc, "printf format ending in %")
			}
			switch c := text[i]; c {
			case '%':
			case 'd', 'i', 'u', 'x', 'X', 'o', 'c', 'p', 'f', 'F', 'e', 'E', 'g', 'G':
				convs++
			default:
				return e.unsupported(fn, pc, fmt.Sprintf("printf conversion %%%c", c))
			}
		}
		if convs > len(cs.Args)-1 {
			return e.unsupported(fn, pc, "printf with too few arguments for its format")
		}
	}
	setRet(s, cs, val{bad: fmt.Sprintf("the result of %s is not modelled by the BMC encoder yet", b)})
	return nil
}

func indexByte(s string, c byte) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return true
		}
	}
	return false
}

// constString reads a NUL-terminated string at a constant pointer into a
// constant global.
func (e *encoder) constString(p val) (string, bool) {
	if !p.isConst() {
		return "", false
	}
	id, off := ir.PtrBlock(p.c), ir.PtrOff(p.c)
	for _, g := range e.p.Globals {
		if g.Block != id || !g.Const {
			continue
		}
		for i := off; int(i) < len(g.Init); i++ {
			if g.Init[i] == 0 {
				return string(g.Init[off:i]), true
			}
		}
		return "", false
	}
	return "", false
}

// input encodes a call of a choosing platform function: the k-th
// execution of the call site returns select(array, k), constrained to the
// choice's range; invalid arguments fail as in the vm (ErrBadArg).
func (e *encoder) input(fn *ir.Func, pc int32, s *pstate, b ir.Builtin, cs *ir.CallSite) error {
	if _, ok := e.sites[[2]int{fn.Index, int(pc)}]; !ok && e.threaded && len(e.slots) > 0 {
		// the threads' states count the inputs declared up front (scanThreads)
		return e.unsupported(fn, pc, "a choosing call the threaded BMC encoder did not find before encoding (through a function pointer)")
	}
	idx := e.declareInput(fn, pc, b, cs)
	w := retBits(cs)
	in := e.inputs[idx]
	if in.Width != w {
		return fmt.Errorf("%s: input width changed", e.where(fn, pc))
	}
	// The argument checks and result sets are the vm's (vm/choice_rule.go).
	var al terms
	var bad func() Term
	var can func(r Term) Term
	switch b {
	case ir.BUniform:
		lo, hi := e.argInt(s, cs, 0), e.argInt(s, cs, 1)
		bad = func() Term { return vm.UniformBad[Term, Term](al, lo, hi) }
		can = func(r Term) Term { return vm.UniformCan[Term, Term](al, lo, hi, r, w) }
	case ir.BCoin:
		num, den := ZeroExt(32, e.bv(arg(s, cs, 0), 32)), ZeroExt(32, e.bv(arg(s, cs, 1), 32))
		bad = func() Term { return vm.CoinBad[Term, Term](al, num, den) }
		can = func(r Term) Term { return vm.CoinCan[Term, Term](al, num, den, r) }
	}
	if bad != nil {
		e.check(s, errCond{vm.ErrBadArg, bad()})
		if s.g == "false" {
			return nil
		}
		cnt := e.count(s, idx)
		r := e.defBV(Select(Term(in.Name), cnt), w)
		e.assertUnder(s, can(zext64(r, w)))
		setRet(s, cs, val{t: r, w: w})
		return nil
	}
	cnt := e.count(s, idx)
	setRet(s, cs, e.term(Select(Term(in.Name), cnt), w))
	return nil
}

// declareInput returns the index of the input of the choosing call at pc
// of fn, declaring it when it is met first.
func (e *encoder) declareInput(fn *ir.Func, pc int32, b ir.Builtin, cs *ir.CallSite) int {
	key := [2]int{fn.Index, int(pc)}
	if idx, ok := e.sites[key]; ok {
		return idx
	}
	kind := vm.Bits
	switch b {
	case ir.BUniform:
		kind = vm.Uniform
	case ir.BCoin:
		kind = vm.Coin
	}
	idx := len(e.inputs)
	e.sites[key] = idx
	name := fmt.Sprintf("in%d", idx)
	w := retBits(cs)
	e.q.Declare(name, ArraySort(32, w))
	e.inputs = append(e.inputs, Input{Name: name, Func: fn.Name, PC: pc, Kind: kind, Width: w})
	return idx
}

// count returns the number of earlier executions of input idx on the path
// (32 bits) and counts this one.
func (e *encoder) count(s *pstate, idx int) Term {
	if e.po != nil { // the input counters are shared: a virtual location
		if e.poBegin(s) {
			defer e.poEnd(s)
		}
		l := poLoc{virt: true, k: uint64(idx)}
		c := e.poRead(s, l, 32)
		e.poWrite(s, l, 32, e.inc32(c, 1))
		return e.bv(c, 32)
	}
	return e.bv(e.countPath(s, idx), 32)
}

// countPath is count of a path's own counter idx (not shared: a
// single-threaded encoding), as a value.
func (e *encoder) countPath(s *pstate, idx int) val {
	c, ok := s.cnt[idx]
	if !ok {
		c = cst(0, 32)
	}
	// s.cnt may be shared with the caller's state: copy before writing
	nc := make(map[int]val, len(s.cnt)+1)
	for k, v := range s.cnt {
		nc[k] = v
	}
	nc[idx] = e.inc32(c, 1)
	s.cnt = nc
	return c
}

// assertUnder asserts c where the path reaches: g ⇒ c.
func (e *encoder) assertUnder(s *pstate, c Term) {
	if c == "true" || s.g == "false" {
		return
	}
	e.q.Assert(Implies(s.g, c))
	e.terms++
}

// toPtr32 is pointer p's 32-bit form under ILP32 (ir.Ptr32); where p has
// none the run fails with ResourceLimit, as the vm's does.
func (e *encoder) toPtr32(s *pstate, p val) val { return e.toPtr32If(s, "true", p) }

// toPtr32If is toPtr32 for a conversion the vm makes only where when holds.
func (e *encoder) toPtr32If(s *pstate, when Term, p val) val {
	if p.isConst() {
		x, ok := ir.Ptr32(p.c)
		if !ok {
			e.check(s, errCond{vm.ErrResourceLimit, when})
			return cst(0, 32)
		}
		return cst(uint64(x), 32)
	}
	id, off := e.ptrParts(p)
	null := eqT(id, BV(0, 32))
	biased := BVAdd(off, BV(ir.Ptr32Bias, 32))
	limit := BV(1<<ir.Ptr32BlockShift, 32)
	bad := ite(null, not(BVULT(off, limit)),
		or(BVULT(BV(ir.Ptr32MaxBlock, 32), id), not(BVULT(biased, limit))))
	e.check(s, errCond{vm.ErrResourceLimit, e.defBool(and2(when, bad))})
	return e.term(ite(null, off, BVAdd(BVShl(id, BV(ir.Ptr32BlockShift, 32)), biased)), 32)
}

// fromPtr32 is the pointer whose 32-bit form (ILP32) is x
// (ir.FromPtr32).
func (e *encoder) fromPtr32(x val) val {
	if x.isConst() {
		return cst(ir.FromPtr32(uint32(x.c)), 64)
	}
	t := e.bv(x, 32)
	b := e.defBV(BVLShr(t, BV(ir.Ptr32BlockShift, 32)), 32)
	off := BVSub(BVSub(t, BVShl(b, BV(ir.Ptr32BlockShift, 32))), BV(ir.Ptr32Bias, 32))
	return e.term(ite(eqT(b, BV(0, 32)), ZeroExt(32, t), Concat(b, BVAdd(off, ptrBase(b)))), 64)
}

// zext64 is the w-bit term t zero-extended to 64 bits.
func zext64(t Term, w int) Term {
	if w >= 64 {
		return t
	}
	return ZeroExt(64-w, t)
}

// callInd encodes a call through a function pointer whose value is a
// constant: clang's calls of a function declared without a prototype
// (`void reach_error();`) are calls through a bitcast of the function, and
// a pointer the encoder has folded to one function is the same. As in the
// vm (vm/exec.go), a pointer that names no function, and a function with
// more parameters than the call passes, are ErrInvalidCall. A pointer that
// may name several functions is not supported yet.
func (e *encoder) callInd(fn *ir.Func, pc int32, s *pstate, cs *ir.CallSite) (*pstate, error) {
	if cs.FnSlot < 0 || int(cs.FnSlot) >= len(s.regs) {
		return nil, fmt.Errorf("%s: call through a pointer: function slot out of range", e.where(fn, pc))
	}
	fp := s.regs[cs.FnSlot]
	if !fp.isConst() {
		return nil, e.unsupported(fn, pc, "call through a function pointer that is not a constant")
	}
	callee := e.funcOf(fp.c)
	if callee == nil || len(callee.Params) > len(cs.Args) {
		e.check(s, errCond{vm.ErrInvalidCall, "true"})
		return s, nil
	}
	return e.call(fn, pc, s, callee, cs)
}
