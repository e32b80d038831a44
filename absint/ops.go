package absint

import (
	"math"
	"math/bits"

	"github.com/wyvernmc/wyvern/ir"
)

// topW is every value of width w.
func topW(w uint8) val { return intVal(0, mask(w)) }

func mulChecked(x, y int64) (int64, bool) {
	hi, lo := bits.Mul64(uint64(absI(x)), uint64(absI(y)))
	if hi != 0 || lo > math.MaxInt64 || x == math.MinInt64 || y == math.MinInt64 {
		return 0, false
	}
	if (x < 0) != (y < 0) {
		return -int64(lo), true
	}
	return int64(lo), true
}

func absI(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

func addChecked(x, y int64) (int64, bool) {
	s := x + y
	if (x > 0 && y > 0 && s < 0) || (x < 0 && y < 0 && s >= 0) {
		return 0, false
	}
	return s, true
}

// arith is the transfer function of an integer operation; it refuses an
// operation that may raise a vm error (overflow under nsw/nuw, division by
// zero, a shift by the width or more).
func (a *analysis) arith(in ir.Inst, x, y val, at func() string) val {
	if x.bot() || y.bot() {
		return val{}
	}
	w := in.W
	lax := in.Flags&ir.FlagLax != 0
	nsw := in.Flags&ir.FlagNSW != 0 && !lax
	nuw := in.Flags&ir.FlagNUW != 0 && !lax
	if in.Flags&ir.FlagExact != 0 && !lax {
		refuse("%s: exact division or shift", at())
	}
	if len(x.p) > 0 || len(y.p) > 0 {
		switch in.Op {
		case ir.OpUDiv, ir.OpSDiv, ir.OpURem, ir.OpSRem, ir.OpShl, ir.OpLShr, ir.OpAShr:
			a.fail("%s: arithmetic on a pointer", at())
		}
		if nsw || nuw {
			a.fail("%s: arithmetic on a pointer with an overflow check", at())
		}
		return topW(w)
	}
	xl, xh := x.sview(w)
	yl, yh := y.sview(w)
	ux, uy := uview(x.i, w), uview(y.i, w)
	signedRes := func(lo, hi int64, ok bool) val {
		v, wraps := fromSigned(lo, hi, w)
		if !ok {
			v, wraps = topW(w), true
		}
		if wraps && nsw {
			a.fail("%s: signed overflow may occur", at())
		}
		return v
	}
	switch in.Op {
	case ir.OpAdd, ir.OpSub:
		if nuw {
			var lo, hi uint64
			var c1, c2 uint64
			if in.Op == ir.OpAdd {
				lo, _ = bits.Add64(ux.lo, uy.lo, 0)
				hi, c2 = bits.Add64(ux.hi, uy.hi, 0)
			} else {
				lo, c1 = bits.Sub64(ux.lo, uy.hi, 0)
				hi, _ = bits.Sub64(ux.hi, uy.lo, 0)
			}
			if c1 != 0 || c2 != 0 || hi > mask(w) {
				a.fail("%s: unsigned overflow may occur", at())
			}
			_ = lo
		}
		var lo, hi int64
		var ok1, ok2 bool
		if in.Op == ir.OpAdd {
			lo, ok1 = addChecked(xl, yl)
			hi, ok2 = addChecked(xh, yh)
		} else {
			lo, ok1 = addChecked(xl, -yh)
			hi, ok2 = addChecked(xh, -yl)
			if yh == math.MinInt64 || yl == math.MinInt64 {
				ok1 = false
			}
		}
		v := signedRes(lo, hi, ok1 && ok2)
		if v.i == topW(w).i && !nsw && in.Op == ir.OpAdd && ux.hi+uy.hi >= ux.hi && ux.hi+uy.hi <= mask(w) {
			v = intVal(ux.lo+uy.lo, ux.hi+uy.hi)
		}
		return v
	case ir.OpMul:
		if nuw {
			h, l := bits.Mul64(ux.hi, uy.hi)
			if h != 0 || l > mask(w) {
				a.fail("%s: unsigned overflow may occur", at())
			}
		}
		ok := true
		lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
		for _, p := range [][2]int64{{xl, yl}, {xl, yh}, {xh, yl}, {xh, yh}} {
			r, k := mulChecked(p[0], p[1])
			ok = ok && k
			lo, hi = min(lo, r), max(hi, r)
		}
		return signedRes(lo, hi, ok)
	case ir.OpUDiv, ir.OpURem:
		if uy.lo == 0 {
			a.fail("%s: division by zero may occur", at())
			return topW(w)
		}
		if in.Op == ir.OpUDiv {
			return intVal(ux.lo/uy.hi, ux.hi/uy.lo)
		}
		return intVal(0, min(ux.hi, uy.hi-1))
	case ir.OpSDiv, ir.OpSRem:
		if yl <= 0 && yh >= 0 {
			a.fail("%s: division by zero may occur", at())
			return topW(w)
		}
		if xl == smin(w) && yl <= -1 && yh >= -1 {
			a.fail("%s: division of the minimum value by -1 may occur", at())
			return topW(w)
		}
		if in.Op == ir.OpSDiv {
			lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
			for _, p := range [][2]int64{{xl, yl}, {xl, yh}, {xh, yl}, {xh, yh}} {
				r := p[0] / p[1]
				lo, hi = min(lo, r), max(hi, r)
			}
			v, _ := fromSigned(lo, hi, w)
			return v
		}
		// |y| - 1 bounds |x % y|; |INT64_MIN| does not fit an int64
		m := int64(math.MaxInt64)
		if yl != math.MinInt64 {
			m = max(absI(yl), absI(yh)) - 1
		}
		var lo, hi int64
		switch {
		case xl >= 0:
			lo, hi = 0, min(xh, m)
		case xh <= 0:
			lo, hi = max(xl, -m), 0
		default:
			lo, hi = max(xl, -m), min(xh, m)
		}
		v, _ := fromSigned(lo, hi, w)
		return v
	case ir.OpShl, ir.OpLShr, ir.OpAShr:
		if uy.hi >= uint64(w) {
			if !lax {
				a.fail("%s: a shift by the width or more may occur", at())
			}
			return topW(w)
		}
		switch in.Op {
		case ir.OpShl:
			if uy.lo != uy.hi {
				if nsw || nuw {
					a.fail("%s: a shift that may overflow", at())
				}
				return topW(w)
			}
			f := int64(1) << uy.lo
			if nuw && (ux.hi > mask(w)>>uy.lo) {
				a.fail("%s: unsigned overflow may occur", at())
			}
			lo, ok1 := mulChecked(xl, f)
			hi, ok2 := mulChecked(xh, f)
			if !nsw && (!ok1 || !ok2 || lo < smin(w) || hi > smax(w)) {
				return topW(w)
			}
			return signedRes(lo, hi, ok1 && ok2)
		case ir.OpLShr:
			return intVal(ux.lo>>uy.hi, ux.hi>>uy.lo)
		default:
			lo := min(xl>>uy.lo, xl>>uy.hi)
			hi := max(xh>>uy.lo, xh>>uy.hi)
			v, _ := fromSigned(lo, hi, w)
			return v
		}
	case ir.OpAnd:
		return intVal(0, min(ux.hi, uy.hi))
	case ir.OpOr, ir.OpXor:
		m := max(ux.hi, uy.hi)
		top := uint64(math.MaxUint64)
		if n := bits.Len64(m); n < 64 {
			top = 1<<n - 1
		}
		lo := uint64(0)
		if in.Op == ir.OpOr {
			lo = max(ux.lo, uy.lo)
		}
		return intVal(lo, top)
	case ir.OpSMin:
		v, _ := fromSigned(min(xl, yl), min(xh, yh), w)
		return v
	case ir.OpSMax:
		v, _ := fromSigned(max(xl, yl), max(xh, yh), w)
		return v
	case ir.OpUMin:
		return intVal(min(ux.lo, uy.lo), min(ux.hi, uy.hi))
	case ir.OpUMax:
		return intVal(max(ux.lo, uy.lo), max(ux.hi, uy.hi))
	}
	refuse("%s: operation %s is not modelled", at(), in.Op)
	return val{}
}

var boolTop = intVal(0, 1)

// nonNull reports whether v is only pointers that cannot be null: block b
// >= 1 puts a pointer at b << 32 + base(b) + offset, 0 only for an offset
// at or below -(1 << 32) (gep keeps offsets within ±2^40).
func nonNull(v val) bool {
	if v.hasInt || len(v.p) == 0 {
		return false
	}
	for _, o := range v.p {
		if o.lo <= -1<<32 {
			return false
		}
	}
	return true
}

// compare is the transfer function of an integer comparison (a 0/1 result).
func compare(in ir.Inst, x, y val) val {
	if x.bot() || y.bot() {
		return val{}
	}
	if len(x.p) > 0 || len(y.p) > 0 {
		// a pointer into an object is never null
		if in.Op == ir.OpEq || in.Op == ir.OpNe {
			xnull := !x.hasInt || (x.i.lo == 0 && x.i.hi == 0)
			ynull := !y.hasInt || (y.i.lo == 0 && y.i.hi == 0)
			if (nonNull(x) && y.hasInt && len(y.p) == 0 && y.i == itv{} && ynull) ||
				(nonNull(y) && x.hasInt && len(x.p) == 0 && x.i == itv{} && xnull) {
				if in.Op == ir.OpEq {
					return constVal(0)
				}
				return constVal(1)
			}
		}
		return boolTop
	}
	w := in.W
	xl, xh := x.sview(w)
	yl, yh := y.sview(w)
	ux, uy := uview(x.i, w), uview(y.i, w)
	var t, f bool // may be true, may be false
	switch in.Op {
	case ir.OpEq, ir.OpNe:
		t = ux.lo <= uy.hi && uy.lo <= ux.hi
		f = !(ux.lo == ux.hi && uy.lo == uy.hi && ux.lo == uy.lo)
		if in.Op == ir.OpNe {
			t, f = f, t
		}
	case ir.OpSlt:
		t, f = xl < yh, xh >= yl
	case ir.OpSle:
		t, f = xl <= yh, xh > yl
	case ir.OpSgt:
		t, f = xh > yl, xl <= yh
	case ir.OpSge:
		t, f = xh >= yl, xl < yh
	case ir.OpUlt:
		t, f = ux.lo < uy.hi, ux.hi >= uy.lo
	case ir.OpUle:
		t, f = ux.lo <= uy.hi, ux.hi > uy.lo
	case ir.OpUgt:
		t, f = ux.hi > uy.lo, ux.lo <= uy.hi
	case ir.OpUge:
		t, f = ux.hi >= uy.lo, ux.lo < uy.hi
	}
	switch {
	case t && !f:
		return constVal(1)
	case f && !t:
		return constVal(0)
	}
	return boolTop
}

// refine narrows x under "x pred y" (taken) or its negation.
func refine(op ir.Op, w uint8, x, y val, taken bool) (val, bool) {
	if x.bot() {
		return x, false
	}
	if !taken {
		op = negate(op)
	}
	if len(y.p) > 0 || !y.hasInt {
		return x, true
	}
	if len(x.p) > 0 {
		// only a null test refines a pointer: x != 0 drops the null
		if op == ir.OpNe && y.i == (itv{}) && x.hasInt && x.i == (itv{}) {
			x = val{p: x.p}
		}
		if op == ir.OpEq && y.i == (itv{}) && nonNull(x) {
			return val{}, false
		}
		return x, true
	}
	if x.i.hi > mask(w) {
		return x, true
	}
	xl, xh := x.sview(w)
	yl, yh := y.sview(w)
	ux, uy := uview(x.i, w), uview(y.i, w)
	signed := func(lo, hi int64) (val, bool) {
		lo, hi = max(lo, xl), min(hi, xh)
		if lo > hi {
			return val{}, false
		}
		v, _ := fromSigned(lo, hi, w)
		return intersect(x, v)
	}
	unsigned := func(lo, hi uint64) (val, bool) {
		lo, hi = max(lo, ux.lo), min(hi, ux.hi)
		if lo > hi {
			return val{}, false
		}
		return intersect(x, intVal(lo, hi))
	}
	switch op {
	case ir.OpEq:
		return unsigned(uy.lo, uy.hi)
	case ir.OpNe:
		if uy.lo == uy.hi {
			switch {
			case ux.lo == uy.lo && ux.hi == uy.lo:
				return val{}, false
			case ux.lo == uy.lo:
				return unsigned(ux.lo+1, ux.hi)
			case ux.hi == uy.lo:
				return unsigned(ux.lo, ux.hi-1)
			}
		}
		return x, true
	case ir.OpSlt:
		if yh == math.MinInt64 {
			return val{}, false
		}
		return signed(math.MinInt64, yh-1)
	case ir.OpSle:
		return signed(math.MinInt64, yh)
	case ir.OpSgt:
		if yl == math.MaxInt64 {
			return val{}, false
		}
		return signed(yl+1, math.MaxInt64)
	case ir.OpSge:
		return signed(yl, math.MaxInt64)
	case ir.OpUlt:
		if uy.hi == 0 {
			return val{}, false
		}
		return unsigned(0, uy.hi-1)
	case ir.OpUle:
		return unsigned(0, uy.hi)
	case ir.OpUgt:
		if uy.lo == math.MaxUint64 {
			return val{}, false
		}
		return unsigned(uy.lo+1, math.MaxUint64)
	case ir.OpUge:
		return unsigned(uy.lo, math.MaxUint64)
	}
	return x, true
}

// intersect is the meet of the integers of x and v (their content
// intervals and their signed constraints).
func intersect(x, v val) (val, bool) {
	lo, hi := max(x.i.lo, v.i.lo), min(x.i.hi, v.i.hi)
	if lo > hi {
		return val{}, false
	}
	out := intVal(lo, hi)
	if sw := max(x.sw, v.sw); sw != 0 && hi <= mask(sw) {
		xl, xh := x.sview(sw)
		vl, vh := v.sview(sw)
		out = withSigned(out, sw, max(xl, vl), min(xh, vh))
		if !out.hasInt {
			return val{}, false
		}
	}
	return out, true
}

// negate is the predicate's negation (op itself when it is no integer
// comparison).
func negate(op ir.Op) ir.Op {
	if n := ir.NegatedCmp(op); n != ir.OpNop {
		return n
	}
	return op
}

// swap is the predicate with its operands exchanged (op itself when it is
// no integer comparison).
func swap(op ir.Op) ir.Op {
	if s := ir.SwappedCmp(op); s != ir.OpNop {
		return s
	}
	return op
}
