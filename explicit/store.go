package explicit

import (
	"math/bits"
	"slices"
	"sync/atomic"
	"unsafe"

	"github.com/wyvernmc/wyvern/trace"
	"github.com/wyvernmc/wyvern/vm"
)

// keyHash is the 128-bit fingerprint of canonical state encodings (the
// exact computation's layers): two independent 64-bit hashes (the
// runtime's AES-based hash, the one hash/maphash computes with, through
// vm.HashWords) with seeds drawn per search.
type keyHash struct{ s1, s2 uint64 }

func newKeyHash() keyHash { return keyHash{vm.NewHashSeed(), vm.NewHashSeed()} }

func (h keyHash) sum(w []uint64) vm.Hash128 {
	return vm.Hash128{vm.HashWords(w, h.s1), vm.HashWords(w, h.s2)}
}

const noRec = ^uint32(0)

// records holds, for each visited state in the order states are added, how
// it was first reached: the record of its parent and the process that moved
// (the transition's choices, when it made any, are in store.choiceOf). A
// record's depth is the length of its parent chain (the search carries it
// in its queue). Records live in chunks of recChunk: no slack beyond the
// last chunk, and growing copies nothing.
//
// A process takes a byte (an id of 255 or more, and the initial state's
// -1, are kept in a map). A parent takes 4 bytes, or, delta-coded, about 1:
// in a breadth-first search states are expanded in the order they were
// added, so the parents of successive records never decrease and mostly
// differ by 0 or 1 (the successors a state adds are numbered together).
// Delta coding keeps the parent of every deltaSpan-th record and, for each
// record, its parent minus the previous record's parent in a byte; a
// difference that does not fit (negative, or stepEscape or more) is kept
// in a map instead, so the coding holds any sequence of parents exactly
// and is only compact for mostly increasing ones. Finding a parent adds at
// most deltaSpan-1 bytes, which only traces do.
type records struct {
	n     int
	delta bool
	// Without delta each record's parent; with delta the parent of
	// records k·deltaSpan.
	parent [][]uint32
	step   [][]uint8         // delta: parent minus the previous record's, or stepEscape
	far    map[uint32]uint32 // delta: the parents of records whose step is stepEscape
	last   uint32            // delta: the last record's parent
	tid    [][]uint8
	bigTid map[uint32]int32 // processes that do not fit in a byte (tid byte tidEscape)
}

const (
	recChunkBits = 12
	recChunk     = 1 << recChunkBits
	deltaSpan    = 64
	tidEscape    = 0xff
	stepEscape   = 0xff
	mapEntry     = 16 // bytes counted for a map entry
)

// recPlain is a chunk of records without delta coding.
type recPlain struct {
	tid    [recChunk]uint8
	parent [recChunk]uint32
}

func newRecords(delta bool) records {
	return records{delta: delta, far: map[uint32]uint32{}, bigTid: map[uint32]int32{}}
}

func (r *records) add(parent uint32, tid int32) {
	c, i := r.n>>recChunkBits, r.n&(recChunk-1)
	if i == 0 {
		// (a chunk's arrays in as few allocations as leave no slack: the
		// processes' and steps' bytes together; without delta, the
		// parents too)
		if r.delta {
			b := make([]uint8, 2*recChunk)
			r.tid = append(r.tid, b[:recChunk:recChunk])
			r.step = append(r.step, b[recChunk:])
			r.parent = append(r.parent, make([]uint32, recChunk/deltaSpan))
		} else {
			b := new(recPlain)
			r.tid = append(r.tid, b.tid[:])
			r.parent = append(r.parent, b.parent[:])
		}
	}
	switch {
	case !r.delta:
		r.parent[c][i] = parent
	case i%deltaSpan == 0:
		r.parent[c][i/deltaSpan] = parent
	case parent >= r.last && parent-r.last < stepEscape:
		r.step[c][i] = uint8(parent - r.last)
	default:
		r.step[c][i] = stepEscape
		r.far[uint32(r.n)] = parent
	}
	r.last = parent
	if tid >= 0 && tid < tidEscape {
		r.tid[c][i] = uint8(tid)
	} else {
		r.tid[c][i] = tidEscape
		r.bigTid[uint32(r.n)] = tid
	}
	r.n++
}

// at returns record idx's parent and process.
func (r *records) at(idx uint32) (parent uint32, tid int32) {
	c, i := idx>>recChunkBits, idx&(recChunk-1)
	if !r.delta {
		parent = r.parent[c][i]
	} else {
		k := i &^ (deltaSpan - 1)
		parent = r.parent[c][k/deltaSpan]
		for k++; k <= i; k++ {
			if d := r.step[c][k]; d != stepEscape {
				parent += uint32(d)
			} else {
				parent = r.far[c<<recChunkBits|k]
			}
		}
	}
	if t := r.tid[c][i]; t != tidEscape {
		return parent, int32(t)
	}
	return parent, r.bigTid[idx]
}

// bytes is the records' memory: their chunks as allocated, and the maps
// at mapEntry bytes an entry.
func (r *records) bytes() int64 {
	per := int64(recChunk + 4*recChunk) // processes, parents
	if r.delta {
		per = recChunk + 4*recChunk/deltaSpan + recChunk // processes, every deltaSpan-th parent, steps
	}
	return int64(len(r.tid))*per + mapEntry*int64(len(r.far)+len(r.bigTid))
}

// encRef is where a state's canonical encoding lies in the arena (full
// storage).
type encRef struct {
	off uint64 // arena chunk << 32 | offset
	n   uint32
}

// choiceRef is where a transition's choice values lie in store.choices.
type choiceRef struct{ off, n uint32 }

const (
	encRefBytes      = 16                   // unsafe.Sizeof(encRef{})
	compactSlotBytes = 9                    // 64 + 8 fingerprint bits
	fpGroupBytes     = 8 * compactSlotBytes // unsafe.Sizeof(fpGroup{})
	minSlots         = 1024
)

// store is the visited set, an open-addressing hash table with linear
// probing over slices without pointers (nothing for the garbage collector
// to scan, and no allocation per state but amortised slice growth), and
// the records of its states, numbered in the order states are added.
//
// Full storage keeps each state's canonical encoding, in parts
// (vm.Machine.AppendKeyParts), tree-compressed and lossless (treeDB): two
// states merge exactly when their encodings are equal, no hash decides it
// (collisions stays 0). It keeps no record number a state: as with
// compaction, only a new state's index is meaningful, and a search that
// needs a state's encoding again (witness) checks that the state it
// rebuilt is stored (has).
//
// Hash compaction (compact) keeps 72 bits of each state's 128-bit parts
// hash, its fingerprint: the first lane, h[0], and the top byte of the
// second. The table's slots are the fingerprints themselves, 9 bytes each
// (in groups of 8, fpGroup), which hold no record number (the
// records of compact storage are only ever reached through parent indices
// and the queue). Two distinct states merge when their fingerprints are
// equal: if the part hash behaves as a random function, the parts hashes
// of two states with different keys differ by a uniform value
// (vm.PartsHasher; the lanes have independent seeds), so a given pair
// merges with probability 2^-72 and some pair of n states with probability
// at most n(n-1)/2^73 (Result.OmissionProbability). A zero h[0] marks an
// empty slot, so a state whose h[0] is 0 is stored with 1: a pair then
// merges with probability 2^-72 + 2^-136, a relative excess of 2^-64 that
// the bound, a float64, cannot show. The slot index is not used as
// implicit fingerprint bits (quotienting): the table grows by rehashing,
// which needs each fingerprint's home slot in the new size, so every bit
// that decides it must be stored. The width is what keeps compact storage
// at most 16 bytes a state in a breadth-first search at the lowest load
// (9/0.7 + 2.06 bytes of records): 8 bytes would give n(n-1)/2^65, 10
// bytes 16.4 bytes a state just after a growth. The compact table grows
// ×1.25 at load 7/8 (load between 0.7 and 0.875): 10.3 to 12.9 bytes a
// state; linear probing at that load scans longer runs than at 0.8, but of
// slots about half as wide as 128-bit ones.
type store struct {
	compact    bool
	n          int       // entries in the table
	fp         []fpGroup // compact table
	slots      int       // compact table: 8·len(fp)
	tree       *treeDB   // full storage
	recs       records
	choice     map[uint32]choiceRef // records whose transition made choices
	choices    []uint64
	collisions int64 // distinct states sharing a hash: none (full storage decides by encodings)
	// shared: other goroutines probe the compact table (seen) while
	// this one adds to it, so slots are written atomically and every
	// table is published in pub.
	shared bool
	pub    atomic.Pointer[fpTable]
	// recent holds fingerprints of the compact table (the last one
	// looked up at each index, a word's low bits: see add), a cache small
	// enough to stay in the processor's: in a breadth-first search most
	// transitions to visited states lead to states added or found
	// shortly before (siblings' successors), which it answers without a
	// look-up in the table, each a cache and TLB miss once the table
	// passes a few megabytes (fib_8: 3.03 M of its 4.62 M transitions to
	// visited states). Every fingerprint in it is in the table, so a hit
	// is exactly the table's answer.
	recent *[recentSlots]recentFP
}

// recentSlots is the size of store.recent (64 KiB).
const recentSlots = 4096

// recentFP is a fingerprint in store.recent ({0, 0}: none).
type recentFP struct {
	v uint64
	x uint8
}

// fpTable is a published compact table, for seen.
type fpTable struct {
	g     []fpGroup
	slots int
}

// newStore returns an empty visited set; bfs says that states are expanded
// in the order they are added (records.delta).
func newStore(compact, bfs bool) *store {
	s := &store{compact: compact, recs: newRecords(bfs), choice: map[uint32]choiceRef{}}
	if compact {
		s.fp, s.slots = make([]fpGroup, minSlots/8), minSlots
		s.recent = new([recentSlots]recentFP)
	} else {
		s.tree = newTreeDB()
	}
	return s
}

// slot maps a hash to its first slot among size (fixed-point
// multiplication: size need not be a power of two).
func slot(h uint64, size int) int {
	hi, _ := bits.Mul64(h, uint64(size))
	return int(hi)
}

// fpGroup is 8 slots of the compact table, laid out so that every word is
// aligned and no byte is padding: the first lanes of 8 fingerprints, then
// their bytes (a slot's byte is at most 71 bytes after its word, mostly in
// the same or the next cache line).
type fpGroup struct {
	lo [8]uint64 // h[0] of each slot's fingerprint, 0 for an empty slot
	hi [8]uint8  // top byte of h[1]
}

// hiWord is g.hi as one word, for atomic access (g.hi follows 8 words,
// so it is aligned).
func (g *fpGroup) hiWord() *uint64 { return (*uint64)(unsafe.Pointer(&g.hi)) }

// fingerprint is what the compact table stores for parts hash h: h[0]
// (1 for 0, the empty slot's) and the top byte of h[1].
func fingerprint(h vm.Hash128) (uint64, byte) {
	v := h[0]
	if v == 0 {
		v = 1
	}
	return v, byte(h[1] >> 56)
}

// has reports whether the state with encoding key, in parts ending at ends,
// is stored (full storage).
func (s *store) has(key []uint64, ends []int32) bool { return s.tree.has(key, ends) }

// keep remembers the root of the state added last, as record idx's (full
// storage; witness checks a rebuilt state against it).
func (s *store) keep(idx uint32) {
	if s.tree != nil {
		s.tree.kept[idx] = s.tree.last
	}
}

// isRecord reports whether the state with encoding key, in parts ending at
// ends, is the one kept for record idx (full storage).
func (s *store) isRecord(idx uint32, key []uint64, ends []int32) bool {
	r, ok := s.tree.kept[idx]
	return ok && r != 0 && s.tree.root(key, ends, false) == r
}

// choicesOf returns the choices of the transition that first reached
// record idx.
func (s *store) choicesOf(idx uint32) []uint64 {
	c, ok := s.choice[idx]
	if !ok {
		return nil
	}
	return s.choices[c.off : c.off+c.n]
}

// add looks the state with encoding key in parts ending at ends (full
// storage, vm.Machine.AppendKeyParts) or parts hash h (compaction; key and
// ends are then not looked at) up and adds it if it is new, reached from
// record parent by process tid with the given choices; it returns the
// record index and whether it was added. Only a new state's index is
// meaningful.
func (s *store) add(h vm.Hash128, key []uint64, ends []int32, parent uint32, tid int32, choices []uint64) (uint32, bool) {
	if s.compact {
		v, x := fingerprint(h)
		r := &s.recent[v&(recentSlots-1)]
		if r.v == v && r.x == x {
			return 0, false
		}
		r.v, r.x = v, x // (in the table once this look-up is done)
		if 8*(s.n+1) > 7*s.slots {
			s.growCompact()
		}
		i := slot(v, s.slots)
		gi, k := i>>3, i&7
	probe:
		for {
			g := &s.fp[gi]
			for ; k < 8; k++ {
				if w := g.lo[k]; w == v && g.hi[k] == x {
					return 0, false
				} else if w == 0 {
					if s.shared {
						// the byte first: a reader that sees the
						// word sees the byte (seen)
						hi := g.hi
						hi[k] = x
						atomic.StoreUint64(g.hiWord(), *(*uint64)(unsafe.Pointer(&hi)))
						atomic.StoreUint64(&g.lo[k], v)
					} else {
						g.lo[k], g.hi[k] = v, x
					}
					break probe
				}
			}
			if k, gi = 0, gi+1; gi == len(s.fp) {
				gi = 0
			}
		}
	} else if !s.tree.add(key, ends) {
		return 0, false
	}
	return s.added(parent, tid, choices), true
}

// addRoot is add for full storage given the state's root (treeMemo).
func (s *store) addRoot(root uint64, parent uint32, tid int32, choices []uint64) (uint32, bool) {
	if !s.tree.addRoot(root) {
		return 0, false
	}
	return s.added(parent, tid, choices), true
}

// added records the state just added and returns its index.
func (s *store) added(parent uint32, tid int32, choices []uint64) uint32 {
	s.n++
	idx := uint32(s.recs.n)
	s.recs.add(parent, tid)
	if len(choices) > 0 {
		s.choice[idx] = choiceRef{off: uint32(len(s.choices)), n: uint32(len(choices))}
		s.choices = append(s.choices, choices...)
	}
	return idx
}

// grownFull is the size of full storage's pair or leaf table after
// growing one of size n: ×1.5, so that the load factor stays between 0.53
// and 0.8.
func grownFull(n int) int { return n + n/2 }

// grownCompact is the compact table's size after growing one of size n:
// ×1.25, so that the load factor stays between 0.7 and 0.875 (the table is
// most of compact storage's bytes; rehashing moves each entry 4 times on
// average instead of 2, 8-byte moves).
func grownCompact(n int) int { return (n + n/4 + 7) &^ 7 }

func (s *store) growCompact() {
	old := s.fp
	s.slots = grownCompact(s.slots)
	s.fp = make([]fpGroup, s.slots/8)
	for j := range old {
		og := &old[j]
		for k, v := range og.lo {
			if v == 0 {
				continue
			}
			s.place(slot(v, s.slots), v, og.hi[k])
		}
	}
	if s.shared {
		s.pub.Store(&fpTable{g: s.fp, slots: s.slots})
	}
}

// share lets other goroutines call seen while this one adds states
// (compact storage only).
func (s *store) share() {
	s.shared = true
	s.pub.Store(&fpTable{g: s.fp, slots: s.slots})
}

// seen reports whether parts hash h's fingerprint is in the compact table
// as last published: safe to call from any goroutine while the owner adds
// (after share). A true answer is exact (the state was added before the
// call); a false one may be out of date (a table replaced by a larger one,
// a slot being written), so the owner's add must still decide.
func (s *store) seen(h vm.Hash128) bool {
	v, x := fingerprint(h)
	t := s.pub.Load()
	i := slot(v, t.slots)
	gi, k := i>>3, i&7
	for {
		g := &t.g[gi]
		for ; k < 8; k++ {
			w := atomic.LoadUint64(&g.lo[k])
			if w == 0 {
				return false
			}
			if w == v {
				hi := atomic.LoadUint64(g.hiWord())
				if (*[8]uint8)(unsafe.Pointer(&hi))[k] == x {
					return true
				}
			}
		}
		if k, gi = 0, gi+1; gi == len(t.g) {
			gi = 0
		}
	}
}

// prefetchSlot starts loading the compact table's slot where the look-up
// of parts hash h begins (a hint: it changes nothing).
func (s *store) prefetchSlot(h vm.Hash128) { prefetchFP(s.fp, s.slots, h) }

// prefetchSeen is prefetchSlot for a later call of seen, from any
// goroutine (the table as last published).
func (s *store) prefetchSeen(h vm.Hash128) {
	t := s.pub.Load()
	prefetchFP(t.g, t.slots, h)
}

// prefetchFP starts loading the slot of table g (of the given slots)
// where the look-up of parts hash h begins: its word and its byte.
func prefetchFP(g []fpGroup, slots int, h vm.Hash128) {
	v, _ := fingerprint(h)
	i := slot(v, slots)
	grp := &g[i>>3]
	vm.PrefetchRange(unsafe.Pointer(&grp.lo[i&7]), 8)
	vm.PrefetchRange(unsafe.Pointer(&grp.hi), 8)
}

// place puts fingerprint (v, x), known to be new, in the first free slot
// of the compact table from slot i on.
func (s *store) place(i int, v uint64, x byte) {
	gi := i >> 3
	for k := i & 7; ; k = 0 {
		g := &s.fp[gi]
		for ; k < 8; k++ {
			if g.lo[k] == 0 {
				g.lo[k], g.hi[k] = v, x
				return
			}
		}
		if gi++; gi == len(s.fp) {
			gi = 0
		}
	}
}

// bytes is the memory the visited set holds: its table's slots (empty ones
// included), full storage's tree (treeDB.bytes), the records as allocated
// and the choices (the map of transitions with choices is counted at 16
// bytes an entry).
func (s *store) bytes() int64 {
	b := int64(fpGroupBytes*len(s.fp)) + s.recs.bytes()
	if s.tree != nil {
		b += s.tree.bytes()
	}
	return b + 8*int64(len(s.choices)) + 16*int64(len(s.choice))
}

// path returns the transitions from the initial state to record idx.
func (s *store) path(idx uint32) []trace.Step {
	var out []trace.Step
	for r := idx; r != noRec; {
		parent, tid := s.recs.at(r)
		if parent == noRec {
			break
		}
		out = append(out, trace.Step{Thread: tid, Choices: s.choicesOf(r)})
		r = parent
	}
	slices.Reverse(out)
	return out
}
