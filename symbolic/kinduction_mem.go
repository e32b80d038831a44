package symbolic

// The memory-specific part of k-induction (kinduction.go): what one
// iteration of the loop stores, and the havoc of it. For the flat memory
// model (one byte array indexed by 64-bit vm pointers, arrays of block
// kinds and sizes by block id) the footprint is the set of constant
// indices stored on the way from one state's arrays back to an earlier
// state's, following the encoding's array definitions; a store at a
// symbolic index means the loop writes somewhere k-induction cannot bound.
// Another memory model replaces these four functions.

import (
	"fmt"
	"sort"
	"strconv"
)

// memFootprint is what one iteration stores: bytes at vm addresses, block
// kinds and block sizes by block id.
type memFootprint struct {
	bytes, kinds, sizes map[uint64]bool
}

// memFootprintOf is what is stored from a to b (b's arrays are a's with
// stores at constant indices), or an indFail.
func (e *encoder) memFootprintOf(a, b *pstate) (memFootprint, error) {
	fp := memFootprint{bytes: map[uint64]bool{}, kinds: map[uint64]bool{}, sizes: map[uint64]bool{}}
	if e.threaded {
		return fp, &indFail{why: "threaded program"}
	}
	for _, x := range []struct {
		from, to Term
		out      map[uint64]bool
		what     string
	}{{a.mem, b.mem, fp.bytes, "memory"}, {a.kind, b.kind, fp.kinds, "block kinds"}, {a.size, b.size, fp.sizes, "block sizes"}} {
		if err := e.storedSince(x.from, x.to, x.out); err != nil {
			return fp, &indFail{why: fmt.Sprintf("%s: %v", x.what, err)}
		}
	}
	return fp, nil
}

// memClosed is what b's arrays store outside fp after h's (empty: b is
// h outside fp), or an indFail when a store is at a symbolic index.
func (e *encoder) memClosed(h, b *pstate, fp memFootprint) (memFootprint, error) {
	out := memFootprint{bytes: map[uint64]bool{}, kinds: map[uint64]bool{}, sizes: map[uint64]bool{}}
	for _, x := range []struct {
		from, to Term
		in, out  map[uint64]bool
		what     string
	}{{h.mem, b.mem, fp.bytes, out.bytes, "memory"}, {h.kind, b.kind, fp.kinds, out.kinds, "block kinds"}, {h.size, b.size, fp.sizes, out.sizes, "block sizes"}} {
		got := map[uint64]bool{}
		if err := e.storedSince(x.from, x.to, got); err != nil {
			return out, &indFail{why: fmt.Sprintf("%s after the havoc: %v", x.what, err)}
		}
		for a := range got {
			if !x.in[a] {
				x.out[a] = true
			}
		}
	}
	return out, nil
}

func (m memFootprint) empty() bool { return len(m.bytes)+len(m.kinds)+len(m.sizes) == 0 }

func (m memFootprint) union(o memFootprint) {
	for _, x := range [][2]map[uint64]bool{{m.bytes, o.bytes}, {m.kinds, o.kinds}, {m.sizes, o.sizes}} {
		for a := range x[1] {
			x[0][a] = true
		}
	}
}

// havocMem stores fresh values at every index of fp.
func (e *encoder) havocMem(h *pstate, fp memFootprint) {
	havoc := func(arr Term, so Sort, idx map[uint64]bool, prefix string) Term {
		keys := make([]uint64, 0, len(idx))
		for a := range idx {
			keys = append(keys, a)
		}
		sort.Slice(keys, func(i, j int) bool { return keys[i] < keys[j] })
		for i, a := range keys {
			v := e.q.Declare(e.fresh("hv"), BitVec(so.Elem))
			e.terms++
			arr = Store(arr, BV(a, so.Index), v)
			if i%64 == 63 {
				arr = e.def(arr, so, prefix)
			}
		}
		return e.def(arr, so, prefix)
	}
	h.mem = havoc(h.mem, Memory(), fp.bytes, "m")
	h.kind = havoc(h.kind, ArraySort(32, 8), fp.kinds, "k")
	h.size = havoc(h.size, ArraySort(32, 32), fp.sizes, "z")
}

// storedSince adds to out the indices stored on every way from array term
// to back to from (through the definitions of named arrays, stores and
// ites); an error if an index is not a constant or a way ends elsewhere.
func (e *encoder) storedSince(from, to Term, out map[uint64]bool) error {
	seen := map[string]bool{}
	var walk func(x *sexp) error
	walk = func(x *sexp) error {
		if !x.isList {
			if Term(x.atom) == from || seen[x.atom] {
				return nil
			}
			seen[x.atom] = true
			d, ok := e.ind.defs[Term(x.atom)]
			if !ok {
				return fmt.Errorf("reaches %s, not the loop head's array", x.atom)
			}
			dx, err := parseSexp(string(d))
			if err != nil {
				return err
			}
			return walk(dx)
		}
		switch x.head() {
		case "store":
			if len(x.list) != 4 {
				return fmt.Errorf("malformed store")
			}
			idx, ok := literal(x.list[2])
			if !ok {
				return fmt.Errorf("a store at a symbolic index %s", abbrev(x.list[2].String()))
			}
			out[idx] = true
			return walk(x.list[1])
		case "ite":
			if len(x.list) != 4 {
				return fmt.Errorf("malformed ite")
			}
			if err := walk(x.list[2]); err != nil {
				return err
			}
			return walk(x.list[3])
		}
		return fmt.Errorf("array term %s", abbrev(x.String()))
	}
	t, err := parseSexp(string(to))
	if err != nil {
		return err
	}
	return walk(t)
}

// literal is the value of a bitvector literal #x… or #b… of at most 64
// bits.
func literal(x *sexp) (uint64, bool) {
	if x.isList || len(x.atom) < 3 || x.atom[0] != '#' {
		return 0, false
	}
	base := 16
	switch x.atom[1] {
	case 'x':
	case 'b':
		base = 2
	default:
		return 0, false
	}
	v, err := strconv.ParseUint(x.atom[2:], base, 64)
	return v, err == nil
}

// memWords are the addresses of the aligned 4- and 8-byte words whose
// bytes are all in fp: the variables a range invariant may be about.
func memWords(fp memFootprint) [][2]uint64 {
	var out [][2]uint64
	for a := range fp.bytes {
		for _, n := range []uint64{4, 8} {
			if a%n != 0 {
				continue
			}
			all := true
			for i := uint64(0); i < n; i++ {
				all = all && fp.bytes[a+i]
			}
			if all {
				out = append(out, [2]uint64{a, n})
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i][0] < out[j][0] || out[i][0] == out[j][0] && out[i][1] < out[j][1] })
	return out
}

// memWord is the little-endian word of n bytes at a in s's memory.
func memWord(s *pstate, a, n uint64) Term {
	parts := make([]Term, n)
	for i := uint64(0); i < n; i++ {
		parts[n-1-i] = Select(s.mem, BV(a+i, 64))
	}
	return concat(parts)
}
