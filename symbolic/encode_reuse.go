package symbolic

import "github.com/wyvernmc/wyvern/ir"

// Address reuse. In a program that may compare a freed heap block's
// address with a later block's (ir.Program.ReusesAddresses), the vm lets a
// coin decide whether the allocator gave the later block the freed one's
// address (vm/reuse.go), so such a comparison may be true where the
// blocks' ids differ. The encodings do not model that choice: a path on
// which an equality test of two pointers compares distinct non-null
// pointers one of which may point into a freed block is cut where that
// holds (its guard joins Unwound), so nothing found there is a proof. The
// test is an over-approximation of the vm's (which also asks that the
// other block was allocated after the free, at the same offset): a cut too
// many costs a proof, never an answer.

// reuseCut cuts s where the pointer comparison of av and bv (an OpEq or
// OpNe with ir.FlagPtrCmp, w bits) may depend on address reuse.
func (e *encoder) reuseCut(s *pstate, av, bv val, w int) {
	amb := and2(and2(e.nonzero(av), e.nonzero(bv)), not(eqT(e.bv(av, w), e.bv(bv, w))))
	if amb == "false" {
		return
	}
	amb = and2(amb, or(e.maybeFreed(s, av), e.maybeFreed(s, bv)))
	if and2(s.g, amb) != "false" {
		e.reuseCuts = true
	}
	if e.threaded {
		e.tCut(s, amb)
	} else {
		e.cutIf(s, amb)
	}
}

// maybeFreed holds where pointer p may point into a freed block ("true"
// where the encoding cannot tell).
func (e *encoder) maybeFreed(s *pstate, p val) Term {
	isFreed := func(k Term) Term { return eqT(k, BV(kFreed, 8)) }
	switch {
	case e.threaded:
		// (the partial-order encoding reads shared kinds through its
		// events only: no kind is read here)
		b := provenance(p)
		if b == 0 || e.po != nil {
			return "true"
		}
		return isFreed(e.bv(e.tKind(s, uint64(b)), 8))
	case e.obj:
		pts := ptsOf(p)
		if pts == nil {
			return "true"
		}
		var out []Term
		for _, b := range pts {
			if b != 0 {
				out = append(out, isFreed(e.oKind(s, uint64(b))))
			}
		}
		return or(out...)
	}
	id, _ := e.ptrParts(p)
	return isFreed(e.kindOf(s, id))
}

// reuseTest reports whether in is a pointer comparison address reuse may
// decide in the encoded program.
func (e *encoder) reuseTest(in *ir.Inst) bool {
	return e.reuse && (in.Op == ir.OpEq || in.Op == ir.OpNe) && in.Flags&ir.FlagPtrCmp != 0
}

// reuseCutNote is what an incomplete answer adds when a path was cut at
// such a comparison.
const reuseCutNote = "paths on which a pointer into freed memory is compared with another pointer were cut (whether the allocator reused the address is not encoded)"
