package simulator

import "math/bits"

// lengths counts satisfying-run lengths for a result's histogram in
// bounded memory: exactly (a count per distinct length) up to
// maxExactLengths distinct lengths, then in log-scale bins — lengths below
// 64 exactly, above in 64 bins per power of two (a bin spans at most 1/64
// of its lengths: 1.6 %) — so that 10^8 satisfying runs take a few
// kilobytes instead of 8 bytes each (a coordinator used to keep every
// length: 3.5 GB of memory at 10^8 satisfying runs).
type lengths struct {
	exact    map[uint64]uint64 // length -> runs; nil once binned
	binned   map[uint32]uint64 // logBin(length) -> runs
	lo, hi   uint64
	n        uint64
	maxExact int // 0: maxExactLengths
}

// maxExactLengths is the number of distinct lengths counted exactly (a
// histogram of them is the one of every run); past it, lengths are binned.
const maxExactLengths = 1 << 16

func (l *lengths) add(x uint64) {
	if l.n == 0 || x < l.lo {
		l.lo = x
	}
	if l.n == 0 || x > l.hi {
		l.hi = x
	}
	l.n++
	if l.binned == nil {
		if l.exact == nil {
			l.exact = map[uint64]uint64{}
		}
		l.exact[x]++
		limit := l.maxExact
		if limit == 0 {
			limit = maxExactLengths
		}
		if len(l.exact) <= limit {
			return
		}
		l.binned = map[uint32]uint64{}
		for v, c := range l.exact {
			l.binned[logBin(v)] += c
		}
		l.exact = nil
		return
	}
	l.binned[logBin(x)]++
}

// logBin is x's log-scale bin: x itself below 64, else its power of two
// and the next 6 bits.
func logBin(x uint64) uint32 {
	if x < 64 {
		return uint32(x)
	}
	e := uint32(bits.Len64(x)) - 1 // x in [2^e, 2^(e+1)), e >= 6
	return e<<6 | uint32(x>>(e-6)&63)
}

// binMid is the middle of log bin b's lengths.
func binMid(b uint32) uint64 {
	if b < 64 {
		return uint64(b)
	}
	e, m := b>>6, uint64(b&63)
	lo := (64 + m) << (e - 6)
	return lo + (uint64(1)<<(e-6))/2
}

// histogram bins the lengths into at most 10 equal bins over [lo, hi]:
// exact while the lengths are, else each log bin's runs in the equal bin
// of its middle.
func (l *lengths) histogram() []Bin {
	if l.n == 0 {
		return nil
	}
	lo, hi := l.lo, l.hi
	nb := uint64(10)
	width := (hi - lo + nb) / nb
	if width == 0 {
		width = 1
	}
	bins := make([]Bin, 0, nb)
	for b := lo; b <= hi; b += width {
		bins = append(bins, Bin{Lo: b, Hi: b + width - 1})
	}
	put := func(x, c uint64) {
		x = min(max(x, lo), hi)
		bins[(x-lo)/width].Count += c
	}
	for x, c := range l.exact {
		put(x, c)
	}
	for b, c := range l.binned {
		put(binMid(b), c)
	}
	return bins
}
