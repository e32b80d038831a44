package explicit

// rootTable is the set of a treeDB's root pairs (left<<32 | right): an
// open-addressing table with linear probing, grown ×1.25 at load 7/8 as the
// compact table. While every id fits in 23 bits (fewer than 2^23 pairs and
// 2^23 leaves: every search that fits in memory but the largest) a root is
// kept in 6 bytes (narrow: two 24-bit ids, a leaf's with bit 23 set), in
// groups of 8 slots laid out as the compact table's (rootGroup): 6.9 to
// 8.6 bytes a state instead of 9.1 to 11.4. The first root that does not
// fit turns the table into 8-byte slots (wide) in place: slots are placed
// by the hash of the whole 64-bit root in both layouts.
type rootTable struct {
	seed  uint64
	wide  bool
	g     []rootGroup // narrow
	w     []uint64    // wide
	slots int
	n     int
	// recent: roots of the table, the last one added or found at each
	// index (store.recent, for roots: 0 none)
	recent *[recentSlots]uint64
}

// rootGroup is 8 narrow slots: the low 32 bits of each packed root, then
// the high 16 (0 and 0: empty).
type rootGroup struct {
	lo [8]uint32
	hi [8]uint16
}

const (
	narrowBits     = 23
	rootGroupBytes = 48 // unsafe.Sizeof(rootGroup{})
	wideSlotBytes  = 8
)

func newRootTable(seed uint64) *rootTable {
	return &rootTable{seed: seed, g: make([]rootGroup, minSlots/8), slots: minSlots, recent: new([recentSlots]uint64)}
}

// narrowID is id in 24 bits: a pair's id, or a leaf's index with bit 23
// set; ok is false when it does not fit.
func narrowID(id uint32) (uint64, bool) {
	if id&leafBit != 0 {
		k := id &^ leafBit
		return uint64(k) | 1<<narrowBits, k < 1<<narrowBits
	}
	return uint64(id), id < 1<<narrowBits
}

// wideID is narrowID's inverse.
func wideID(x uint64) uint32 {
	if x&(1<<narrowBits) != 0 {
		return uint32(x&^(1<<narrowBits)) | leafBit
	}
	return uint32(x)
}

// pack is root v in 48 bits (ok false: it does not fit).
func pack(v uint64) (lo uint32, hi uint16, ok bool) {
	l, okl := narrowID(uint32(v >> 32))
	r, okr := narrowID(uint32(v))
	x := l<<24 | r
	return uint32(x), uint16(x >> 32), okl && okr
}

func unpack(lo uint32, hi uint16) uint64 {
	x := uint64(hi)<<32 | uint64(lo)
	return uint64(wideID(x>>24))<<32 | uint64(wideID(x&(1<<24-1)))
}

// add adds root v (not 0) and reports whether it was new.
func (r *rootTable) add(v uint64) bool {
	h := mixPair(v, r.seed)
	c := &r.recent[h&(recentSlots-1)]
	if *c == v {
		return false
	}
	*c = v // (in the table once this look-up is done)
	return r.insert(v, h)
}

// insert is add without the cache of recent roots, h being v's hash
// (mixPair).
func (r *rootTable) insert(v, h uint64) bool {
	if 8*(r.n+1) > 7*r.slots {
		r.grow()
	}
	i := slot(h, r.slots)
	if !r.wide {
		lo, hi, ok := pack(v)
		if ok {
			gi, k := i>>3, i&7
			for {
				g := &r.g[gi]
				for ; k < 8; k++ {
					switch {
					case g.lo[k] == lo && g.hi[k] == hi:
						return false
					case g.lo[k] == 0 && g.hi[k] == 0:
						g.lo[k], g.hi[k] = lo, hi
						r.n++
						return true
					}
				}
				if k, gi = 0, gi+1; gi == len(r.g) {
					gi = 0
				}
			}
		}
		r.widen()
	}
	for {
		switch r.w[i] {
		case v:
			return false
		case 0:
			r.w[i] = v
			r.n++
			return true
		}
		if i++; i == r.slots {
			i = 0
		}
	}
}

// has reports whether root v is in the table.
func (r *rootTable) has(v uint64) bool {
	i := slot(mixPair(v, r.seed), r.slots)
	if !r.wide {
		lo, hi, ok := pack(v)
		if !ok {
			return false // every root stored fits
		}
		gi, k := i>>3, i&7
		for {
			g := &r.g[gi]
			for ; k < 8; k++ {
				switch {
				case g.lo[k] == lo && g.hi[k] == hi:
					return true
				case g.lo[k] == 0 && g.hi[k] == 0:
					return false
				}
			}
			if k, gi = 0, gi+1; gi == len(r.g) {
				gi = 0
			}
		}
	}
	for {
		switch r.w[i] {
		case v:
			return true
		case 0:
			return false
		}
		if i++; i == r.slots {
			i = 0
		}
	}
}

// widen turns the narrow slots into wide ones, each root in its slot.
func (r *rootTable) widen() {
	r.w = make([]uint64, r.slots)
	for gi := range r.g {
		g := &r.g[gi]
		for k := range 8 {
			if g.lo[k] != 0 || g.hi[k] != 0 {
				r.w[gi*8+k] = unpack(g.lo[k], g.hi[k])
			}
		}
	}
	r.g, r.wide = nil, true
}

// all calls f with every root in the table.
func (r *rootTable) all(f func(uint64)) {
	if r.wide {
		for _, v := range r.w {
			if v != 0 {
				f(v)
			}
		}
		return
	}
	for gi := range r.g {
		g := &r.g[gi]
		for k := range 8 {
			if g.lo[k] != 0 || g.hi[k] != 0 {
				f(unpack(g.lo[k], g.hi[k]))
			}
		}
	}
}

func (r *rootTable) grow() {
	old := *r
	r.slots = grownCompact(r.slots)
	if r.wide {
		r.w = make([]uint64, r.slots)
	} else {
		r.g = make([]rootGroup, r.slots/8)
	}
	r.n = 0
	old.all(func(v uint64) { r.insert(v, mixPair(v, r.seed)) })
}

// bytes is the table's memory, empty slots included.
func (r *rootTable) bytes() int64 {
	if r.wide {
		return int64(wideSlotBytes * r.slots)
	}
	return int64(rootGroupBytes * len(r.g))
}
