package symbolic

// Narrowing (issue 29): C's integer promotions make clang compute on 32
// bits what the program keeps in 8 (Euclid on two unsigned chars is a
// chain of 32-bit urems of zero-extended bytes), and a bit-vector solver
// then blasts 32-bit dividers whose upper 24 bits are zero in every model.
// The encoder knows more than the solver's preprocessing sees through the
// chain: a value's significant bits (bitsOf). A urem is never larger
// than its operands, a zero-extended load stays below 2^8, an `and` with a
// mask is below the mask. Where both operands of an operation provably fit
// in n < w bits, the operation is encoded at n bits and its result kept as
// an n-bit value (a val narrower than its register, zero-extended where it
// is used, as a zext is already); overflow checks that the bounds rule
// out are dropped. Every rewrite is exact on the values the bounds admit,
// and the bounds are sound: the result is the same bit for bit.

import (
	"math/bits"
	"strconv"
	"strings"

	"github.com/wyvernmc/wyvern/ir"
	"github.com/wyvernmc/wyvern/vm"
)

// narrowing can be turned off (TestNarrowingAgrees compares): bitsOf is
// then every value's width, and nothing is narrowed.
var narrowing = true

// bitsOf is the number of low bits of v that can be non-zero: every value
// v takes is below 2^bitsOf(v). It is never more than v's width (64 for
// a value of unknown width).
func bitsOf(v val) int {
	w := v.w
	if w <= 0 || w > 64 {
		w = 64
	}
	switch {
	case !narrowing || v.bad != "":
		return w
	case v.t == "":
		return min(bits.Len64(v.c), w)
	case v.cs != nil && !v.guess:
		var or uint64
		for _, c := range v.cs {
			or |= c
		}
		return min(bits.Len64(or), w)
	case v.nz > 0:
		return min(int(v.nz), w)
	}
	return w
}

// withBits is v with the bound n on its significant bits (see bitsOf).
func withBits(v val, n int) val {
	if v.t == "" || v.bad != "" {
		return v
	}
	if n < 0 {
		n = 0
	}
	if n < width(v, 64) {
		v.nz = uint8(n)
		if n == 0 {
			// no significant bit: the value is 0
			return cst(0, v.w)
		}
	}
	return v
}

// low is v at width n (n >= bitsOf(v): the bits dropped are zero). A
// zero extension (a narrow value stored and loaded back) is peeled rather
// than extracted from.
func (e *encoder) low(v val, n int) Term {
	if inner, iw, ok := zeroExtOf(v); ok && iw <= n {
		return ZeroExt(n-iw, inner)
	}
	return e.bv(v, n)
}

// zeroExtOf is x and its width where v's term is ((_ zero_extend k) x).
func zeroExtOf(v val) (Term, int, bool) {
	const pre = "((_ zero_extend "
	t := string(v.t)
	if v.bad != "" || !strings.HasPrefix(t, pre) || !strings.HasSuffix(t, ")") {
		return "", 0, false
	}
	rest := t[len(pre):]
	sp := strings.Index(rest, ") ")
	if sp < 0 {
		return "", 0, false
	}
	k, err := strconv.Atoi(rest[:sp])
	if err != nil || k <= 0 || k >= v.w {
		return "", 0, false
	}
	return Term(rest[sp+2 : len(rest)-1]), v.w - k, true
}

// narrowBinop encodes the binary instruction in at a narrower width where
// its operands' bounds allow it, and reports whether it did; otherwise
// binop encodes it at its own width. It only handles operations whose
// result and checks are the same at the narrower width: unsigned division
// and remainder, comparisons, add, mul, and, or, xor.
func (e *encoder) narrowBinop(s *pstate, in *ir.Inst, av, bv val) bool {
	w := int(in.W)
	if w < 2 || av.bad != "" || bv.bad != "" {
		return false
	}
	na, nb := min(bitsOf(av), w), min(bitsOf(bv), w)
	n := max(na, nb, 1)
	lax := in.Flags&ir.FlagLax != 0
	r := s.regs
	cmp := func(c Term) { r[in.Dst] = e.term(ite(c, BV(1, 1), BV(0, 1)), 1) }
	switch in.Op {
	case ir.OpUDiv, ir.OpURem:
		if n >= w || in.Flags&ir.FlagExact != 0 && !lax {
			return false
		}
		a, b := e.low(av, n), e.low(bv, n)
		e.check(s, errCond{vm.ErrDivZero, eqT(b, BV(0, n))})
		if in.Op == ir.OpUDiv {
			// a / b <= a
			r[in.Dst] = withBits(e.term(BVUDiv(a, b), n), na)
		} else {
			// a % b < b and a % b <= a
			r[in.Dst] = withBits(e.urem(a, b, n), min(na, nb))
		}
	case ir.OpEq, ir.OpNe, ir.OpUlt, ir.OpUle, ir.OpUgt, ir.OpUge,
		ir.OpSlt, ir.OpSle, ir.OpSgt, ir.OpSge:
		// below 2^(w-1) both are non-negative: signed order is unsigned
		// order, and the comparison is the same on the low n bits
		if n >= w {
			return false
		}
		a, b := e.low(av, n), e.low(bv, n)
		switch in.Op {
		case ir.OpEq:
			cmp(eqT(a, b))
		case ir.OpNe:
			cmp(not(eqT(a, b)))
		case ir.OpUlt, ir.OpSlt:
			cmp(BVULT(a, b))
		case ir.OpUle, ir.OpSle:
			cmp(BVULE(a, b))
		case ir.OpUgt, ir.OpSgt:
			cmp(BVUGT(a, b))
		default:
			cmp(BVUGE(a, b))
		}
	case ir.OpAdd, ir.OpMul:
		// the exact sum (product) has at most m bits: below 2^(w-1) it
		// overflows neither signed nor unsigned, so the nsw and nuw
		// checks are false and left out
		m := n + 1
		if in.Op == ir.OpMul {
			m = na + nb
		}
		if m >= w {
			return false
		}
		a, b := e.low(av, m), e.low(bv, m)
		if in.Op == ir.OpAdd {
			r[in.Dst] = withBits(e.term(BVAdd(a, b), m), m)
		} else {
			r[in.Dst] = withBits(e.term(BVMul(a, b), m), m)
		}
	case ir.OpAnd:
		m := min(na, nb)
		if m >= w {
			return false
		}
		if m == 0 {
			r[in.Dst] = cst(0, w)
			return true
		}
		r[in.Dst] = withBits(e.term(BVAnd(e.low(av, m), e.low(bv, m)), m), m)
	case ir.OpOr, ir.OpXor:
		if n >= w {
			return false
		}
		a, b := e.low(av, n), e.low(bv, n)
		if in.Op == ir.OpOr {
			r[in.Dst] = withBits(e.term(BVOr(a, b), n), n)
		} else {
			r[in.Dst] = withBits(e.term(BVXor(a, b), n), n)
		}
	default:
		return false
	}
	return true
}

// shiftBits bounds the significant bits of a shift's result from its
// operands' (see bitsOf): na for a right shift of a value below 2^(w-1)
// (less the amount when it is a constant), na plus the amount for a left
// shift by a constant; w otherwise.
func shiftBits(op ir.Op, w, na int, amount val) int {
	k, known := 0, amount.isConst()
	if known {
		if amount.c >= uint64(w) {
			return w
		}
		k = int(amount.c)
	}
	switch op {
	case ir.OpLShr:
		return max(na-k, 0)
	case ir.OpAShr:
		if na < w {
			return max(na-k, 0)
		}
	case ir.OpShl:
		if known {
			return min(na+k, w)
		}
	}
	return w
}

// merged is the value that is vs[i] where gs[i] holds (the last one
// where none does), of width w: an ite chain named once, with the union
// of their value sets. Where all of vs fit in n < w bits the chain is
// built on n bits and zero-extended (a merge of narrow values loaded back
// from memory stays narrow).
func (e *encoder) merged(gs []Term, vs []val, w int) val {
	last := len(vs) - 1
	n := 0
	for _, v := range vs {
		n = max(n, bitsOf(v))
	}
	if n > 0 && n < w {
		t := e.low(vs[last], n)
		for i := last - 1; i >= 0; i-- {
			t = ite(gs[i], e.low(vs[i], n), t)
		}
		return withSets(val{t: ZeroExt(w-n, e.defBV(t, n)), w: w, nz: uint8(n)}, vs...)
	}
	t := e.bv(vs[last], w)
	for i := last - 1; i >= 0; i-- {
		t = ite(gs[i], e.bv(vs[i], w), t)
	}
	return withSets(e.term(t, w), vs...)
}
