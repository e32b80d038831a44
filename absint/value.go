package absint

import (
	"maps"
	"math"
	"slices"
)

// itv is an interval of a register's content: the uint64 bits the vm keeps
// in its slot (integers zero-extended to their width), so that moves,
// zero extensions and constants are exact whatever width reads them.
type itv struct{ lo, hi uint64 }

var itvTop = itv{0, math.MaxUint64}

func (a itv) join(b itv) itv { return itv{min(a.lo, b.lo), max(a.hi, b.hi)} }

// off is a strided interval of byte offsets into an object:
// {lo + k*stride | lo+k*stride <= hi}; stride 0 means the single offset lo.
type off struct{ lo, hi, stride int64 }

func gcd(a, b int64) int64 {
	if a < 0 {
		a = -a
	}
	if b < 0 {
		b = -b
	}
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

func (a off) join(b off) off {
	s := gcd(gcd(a.stride, b.stride), a.lo-b.lo)
	return off{min(a.lo, b.lo), max(a.hi, b.hi), s}
}

// val is an abstract register or memory value: integers (hasInt: the
// content interval i) and pointers into known objects (p: object id ->
// offsets). The null pointer is the integer 0. bot: no value (unreachable).
//
// A signed constraint (sw != 0) narrows the integers further: each, read
// at width sw (it is below 2^sw), has a signed value in [sl, sh]. It keeps
// what a content interval cannot hold, a signed range across 0 such as
// [-5, 7] (contents [0, 7] and [2^sw - 5, 2^sw - 1]); norm drops it where
// the interval holds it exactly.
type val struct {
	hasInt bool
	i      itv
	p      map[int32]off
	sw     uint8
	sl, sh int64
}

func (v val) bot() bool { return !v.hasInt && len(v.p) == 0 }

// sview is the signed view of v's integers at width w: the interval's,
// narrowed by the signed constraint at w.
func (v val) sview(w uint8) (lo, hi int64) {
	lo, hi = sview(v.i, w)
	if v.sw == w && v.i.hi <= mask(w) {
		lo, hi = max(lo, v.sl), min(hi, v.sh)
	}
	return lo, hi
}

// has reports whether the integer x is one of v's.
func (v val) has(x uint64) bool {
	if !v.hasInt || x < v.i.lo || x > v.i.hi {
		return false
	}
	if v.sw != 0 {
		s := int64(x<<(64-v.sw)) >> (64 - v.sw)
		return s >= v.sl && s <= v.sh
	}
	return true
}

// withSigned is v (integers within [0, 2^w)) under the signed constraint
// [lo, hi] at width w, normalised; bot when no integer is left (and v has
// no pointers).
func withSigned(v val, w uint8, lo, hi int64) val {
	if !v.hasInt || v.i.hi > mask(w) {
		return v
	}
	v.sw, v.sl, v.sh = w, lo, hi
	return v.norm()
}

// norm moves a signed constraint that lies on one side of 0 into the
// content interval and drops one that says nothing (or no integer).
func (v val) norm() val {
	if v.sw == 0 {
		return v
	}
	w := v.sw
	if !v.hasInt || v.i.hi > mask(w) {
		v.sw, v.sl, v.sh = 0, 0, 0
		return v
	}
	lo, hi := v.sview(w)
	empty := func() val {
		return val{p: v.p}
	}
	if lo > hi {
		return empty()
	}
	var i itv
	switch {
	case lo >= 0:
		i = itv{uint64(lo), uint64(hi)}
	case hi < 0:
		i = itv{uint64(lo) & mask(w), uint64(hi) & mask(w)}
	default:
		if lo == smin(w) && hi == smax(w) {
			v.sw, v.sl, v.sh = 0, 0, 0
		} else {
			v.sl, v.sh = lo, hi
		}
		return v
	}
	l, h := max(i.lo, v.i.lo), min(i.hi, v.i.hi)
	if l > h {
		return empty()
	}
	v.i, v.sw, v.sl, v.sh = itv{l, h}, 0, 0, 0
	return v
}

func intVal(lo, hi uint64) val { return val{hasInt: true, i: itv{lo, hi}} }

func constVal(c uint64) val { return intVal(c, c) }

func (v val) join(w val) val {
	if v.bot() {
		return w
	}
	if w.bot() {
		return v
	}
	out := val{hasInt: v.hasInt || w.hasInt}
	switch {
	case v.hasInt && w.hasInt:
		out.i = v.i.join(w.i)
	case v.hasInt:
		out.i = v.i
	case w.hasInt:
		out.i = w.i
	}
	// the signed constraint of either side, at its width, joined with
	// the other side's signed view there
	if sw := max(v.sw, w.sw); sw != 0 && out.hasInt && out.i.hi <= mask(sw) {
		lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
		for _, x := range []val{v, w} {
			if x.hasInt {
				l, h := x.sview(sw)
				lo, hi = min(lo, l), max(hi, h)
			}
		}
		out.sw, out.sl, out.sh = sw, lo, hi
		out = out.norm()
	}
	if len(v.p)+len(w.p) > 0 {
		out.p = make(map[int32]off, len(v.p)+len(w.p))
		maps.Copy(out.p, v.p)
		for o, x := range w.p {
			if y, ok := out.p[o]; ok {
				out.p[o] = y.join(x)
			} else {
				out.p[o] = x
			}
		}
	}
	return out
}

func (v val) eq(w val) bool {
	if v.hasInt != w.hasInt || (v.hasInt && v.i != w.i) || len(v.p) != len(w.p) || v.sw != w.sw || v.sl != w.sl || v.sh != w.sh {
		return false
	}
	for o, x := range v.p {
		if y, ok := w.p[o]; !ok || x != y {
			return false
		}
	}
	return true
}

// widen extrapolates an unstable bound to the next threshold.
func widen(old, nw val, th []uint64) val {
	j := old.join(nw)
	if old.hasInt && j.hasInt {
		if j.i.hi > old.i.hi {
			k, _ := slices.BinarySearch(th, j.i.hi)
			j.i.hi = math.MaxUint64
			if k < len(th) {
				j.i.hi = th[k]
			}
		}
		if j.i.lo < old.i.lo {
			k, found := slices.BinarySearch(th, j.i.lo)
			j.i.lo = 0
			if found {
				j.i.lo = th[k]
			} else if k > 0 {
				j.i.lo = th[k-1]
			}
		}
	}
	if j.sw != 0 && old.hasInt {
		// the signed bounds move to thresholds (read at the width) too
		w := j.sw
		ol, oh := old.sview(w)
		if old.i.hi > mask(w) {
			ol, oh = smin(w), smax(w)
		}
		if j.sh > oh {
			need, best := j.sh, smax(w)
			for _, t := range th {
				if s := int64(t<<(64-w)) >> (64 - w); t <= mask(w) && s >= need && s < best {
					best = s
				}
			}
			j.sh = best
		}
		if j.sl < ol {
			need, best := j.sl, smin(w)
			for _, t := range th {
				if s := int64(t<<(64-w)) >> (64 - w); t <= mask(w) && s <= need && s > best {
					best = s
				}
			}
			j.sl = best
		}
		j = j.norm()
	}
	for o, x := range j.p {
		y, ok := old.p[o]
		if !ok {
			continue
		}
		if x.hi > y.hi {
			x.hi = math.MaxInt32
		}
		if x.lo < y.lo {
			x.lo = math.MinInt32
		}
		j.p[o] = x
	}
	return j
}

func mask(w uint8) uint64 {
	if w >= 64 {
		return math.MaxUint64
	}
	return 1<<w - 1
}

// sview is the signed view of an integer interval read at width w, and
// whether it is exact (false: the full signed range).
func sview(i itv, w uint8) (lo, hi int64) {
	m := mask(w)
	if i.hi > m { // wider than w: the low bits are anything
		return smin(w), smax(w)
	}
	half := uint64(1) << (w - 1)
	switch {
	case i.hi < half:
		return int64(i.lo), int64(i.hi)
	case i.lo >= half:
		if w == 64 {
			return int64(i.lo), int64(i.hi)
		}
		return int64(i.lo) - int64(m) - 1, int64(i.hi) - int64(m) - 1
	}
	return smin(w), smax(w)
}

// uview is the unsigned view of an integer interval read at width w.
func uview(i itv, w uint8) itv {
	if i.hi > mask(w) {
		return itv{0, mask(w)}
	}
	return i
}

func smin(w uint8) int64 { return -1 << (w - 1) }
func smax(w uint8) int64 {
	if w >= 64 {
		return math.MaxInt64
	}
	return 1<<(w-1) - 1
}

// fromSigned is the content of a w-bit result whose signed value lies in
// [lo, hi]; wraps reports whether it may not fit in w bits.
func fromSigned(lo, hi int64, w uint8) (v val, wraps bool) {
	if lo < smin(w) || hi > smax(w) {
		return intVal(0, mask(w)), true
	}
	switch {
	case lo >= 0:
		return intVal(uint64(lo), uint64(hi)), false
	case hi < 0:
		return intVal(uint64(lo)&mask(w), uint64(hi)&mask(w)), false
	}
	return withSigned(intVal(0, mask(w)), w, lo, hi), false
}

// undefVal is the value of size bytes of a local variable before it is
// written: any value (C gives it an indeterminate one, and SV-COMP's tasks
// read it as any value of its type; docs/design/uninit-memory.md), though
// the vm zeroes its stack: a proof covers both. (The heap is not modelled:
// malloc is refused.)
func undefVal(size int64) val { return topW(uint8(min(max(size, 1), 8) * 8)) }
