package symbolic

import "sort"

// Word locations for the partial-order encoding's reads-from.
//
// Shared memory is accessed byte by byte (encode_tmem.go), so a 4-byte load
// of a mutex word is four reads, each choosing its write among the writes
// of its byte: four times the reads-from choices a word access needs, and
// the solver has to find out that the four choices agree. They always do
// when the bytes are only ever accessed together: poWords merges bytes
// k..k+n-1 (2 <= n <= 8) into one location of 8n bits when every access
// group that reads any of them reads each of them exactly once, in one run
// of consecutive bytes under one guard, and likewise for writes. Then every
// byte's candidate writes are the same groups, with the same guards and
// the same clocks (a group has one clock), so the latest write below a
// read is the same group for every byte (writes of one location by
// different threads have different clocks, and a group writes a byte at
// most once: poWrite keeps its last value); the bytes read are that
// group's bytes, or all of them initial. Choosing one write for the word
// is therefore the same set of executions with a quarter (an eighth) of
// the choices.

// poWords returns the accesses of po with each mergeable run of bytes as
// one access of its word (little endian: byte k is the low byte).
func poWords(po *poInfo) []poAcc {
	type span struct {
		start uint64
		n     int
	}
	type run struct {
		span span
		idx  []int // access indices, bytes in increasing order
	}
	type gk struct {
		grp   int
		write bool
	}
	byGK := map[gk][]int{}
	var keys []gk
	for i, a := range po.accs {
		if a.loc.virt || a.w != 8 {
			continue
		}
		k := gk{a.grp, a.write}
		if _, ok := byGK[k]; !ok {
			keys = append(keys, k)
		}
		byGK[k] = append(byGK[k], i)
	}
	spans := map[uint64]map[span]bool{} // byte → the spans of its accesses
	var runs []run
	for _, k := range keys {
		idx := byGK[k]
		sort.SliceStable(idx, func(x, y int) bool { return po.accs[idx[x]].loc.k < po.accs[idx[y]].loc.k })
		for x := 0; x < len(idx); {
			y := x + 1
			for y < len(idx) && po.accs[idx[y]].loc.k == po.accs[idx[y-1]].loc.k+1 && po.accs[idx[y]].g == po.accs[idx[x]].g {
				y++
			}
			r := run{span: span{po.accs[idx[x]].loc.k, y - x}, idx: idx[x:y]}
			runs = append(runs, r)
			for _, i := range r.idx {
				b := po.accs[i].loc.k
				if spans[b] == nil {
					spans[b] = map[span]bool{}
				}
				spans[b][r.span] = true
			}
			x = y
		}
	}
	// a span is a word when every byte of it has it as its only span
	word := func(sp span) bool {
		if sp.n < 2 || sp.n > 8 {
			return false
		}
		for b := sp.start; b < sp.start+uint64(sp.n); b++ {
			if len(spans[b]) != 1 || !spans[b][sp] {
				return false
			}
		}
		return true
	}
	merged := make([]bool, len(po.accs))
	var out []poAcc
	for _, r := range runs {
		if !word(r.span) {
			continue
		}
		vs := make([]Term, len(r.idx))
		for j, i := range r.idx {
			merged[i] = true
			vs[len(vs)-1-j] = po.accs[i].v
		}
		a := po.accs[r.idx[0]]
		out = append(out, poAcc{loc: poLoc{k: r.span.start, n: r.span.n}, w: 8 * r.span.n, v: concatAll(vs),
			g: a.g, write: a.write, grp: a.grp})
	}
	for i, a := range po.accs {
		if !merged[i] {
			out = append(out, a)
		}
	}
	// keep the accesses in group order (reads-from relies on nothing
	// else, but a stable order keeps the formula deterministic)
	sort.SliceStable(out, func(x, y int) bool { return out[x].grp < out[y].grp })
	return out
}

// concatAll is the concatenation of ts, the first the highest bits, as
// binary concats (SMT-LIB's concat takes two arguments).
func concatAll(ts []Term) Term {
	t := ts[len(ts)-1]
	for i := len(ts) - 2; i >= 0; i-- {
		t = Concat(ts[i], t)
	}
	return t
}
