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
type val struct {
	hasInt bool
	i      itv
	p      map[int32]off
}

func (v val) bot() bool { return !v.hasInt && len(v.p) == 0 }

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
	if v.hasInt != w.hasInt || (v.hasInt && v.i != w.i) || len(v.p) != len(w.p) {
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
	return intVal(0, mask(w)), false
}
