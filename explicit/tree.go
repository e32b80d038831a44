package explicit

import (
	"slices"

	"github.com/wyvernmc/wyvern/vm"
)

// treeDB is full storage's set of states, lossless and tree-compressed
// (LTSmin's tree database, src/mc-lib/treedbs-ll.c, over a vector of parts
// of varying length): a state's canonical encoding is split into its parts
// (vm.Machine.AppendKeyParts: the status and process count, each process,
// the block count, each block that differs from the image), each part is
// interned as a leaf (its words, kept once), and the vector of leaf ids is
// folded into a binary tree (root: processes split between its halves,
// each half a comb of processes over a balanced tree of the rest) whose
// pairs of child ids are interned in turn, so that a node id stands for
// one subtree. The state is the pair of ids at its root, one 6- or 8-byte
// slot of the root table.
//
// Successive states differ in one or two parts, so their trees share all
// but a path or two; most of a state's nodes are nodes of states stored
// before, and a new state costs its root slot and the few nodes of the
// parts it changed (fib_8: 14.5 bytes a state with the records, see
// BENCHMARKS.md, issue #34).
//
// Identity: leaf ids have the top bit set and pair ids do not (0 is no
// id), and a leaf's words and a pair's two children are unique to their
// id, so a node id determines its whole subtree, leaves in order included,
// and a root pair determines the sequence of parts. The tree's shape is a
// function of the number of parts only, so equal sequences of parts give
// equal roots. The sequence of parts is a function of the encoding (its
// counts delimit the parts), so two states have equal roots exactly when
// they have equal encodings: the store distinguishes exactly the states
// the encoding does, no hash decides it (hashes only place slots).
//
// Memory: the root table (rootTable) takes 6 bytes a slot while ids fit in
// 23 bits, 8 after, grown ×1.25 at load 7/8; pairs take 8 bytes and a
// 4-byte slot of their table (grown ×1.5 at load 0.8); leaves their words,
// 16 bytes and an 8-byte slot.
type treeDB struct {
	seed uint64

	roots *rootTable

	pairSlots []uint32 // pair table: pair id (index+1), 0 empty
	pairs     []uint64 // left<<32 | right of pair id i+1

	leafSlots []uint64 // leaf table: top half of the hash << 32 | leaf index+1, 0 empty
	leafRefs  []encRef // words of each leaf in arena
	arena     wordArena

	ids []uint32 // scratch (build): the leaf ids of a root's left half
	odd []uint32 // and of its right half
	// build's nodes so far, and those of the memo it reuses (nil: none)
	nodes, prevNodes []uint32
	scratch          treeMemo          // root's
	last             uint64            // the root add saw last
	kept             map[uint32]uint64 // roots of the records store.keep kept
}

const (
	leafBit       = 1 << 31
	maxTreeIDs    = leafBit - 1
	pairSlotBytes = 4
	pairBytes     = 8
)

func newTreeDB() *treeDB {
	seed := vm.NewHashSeed()
	return &treeDB{seed: seed, roots: newRootTable(seed),
		pairSlots: make([]uint32, minSlots), leafSlots: make([]uint64, minSlots/8), kept: map[uint32]uint64{}}
}

// mixPair hashes a pair of ids (splitmix64's finaliser of the pair xor the
// seed): every bit of the pair reaches the top bits slot looks at.
func mixPair(x, seed uint64) uint64 {
	x ^= seed
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// add adds the state whose encoding is key, with its parts ending at ends
// (vm.Machine.AppendKeyParts), and reports whether it was new.
func (t *treeDB) add(key []uint64, ends []int32) bool {
	root := t.root(key, ends, true)
	t.last = root
	return t.roots.add(root)
}

// has reports whether the state with encoding key (parts ending at ends)
// is stored; it adds nothing.
func (t *treeDB) has(key []uint64, ends []int32) bool {
	root := t.root(key, ends, false)
	return root != 0 && t.roots.has(root)
}

// root returns the root pair of a state's tree, interning its leaves and
// pairs (with intern; without, 0 when one of them is not stored).
func (t *treeDB) root(key []uint64, ends []int32, intern bool) uint64 {
	if !t.memoOf(key, ends, &t.scratch, intern) {
		return 0
	}
	return t.scratch.root
}

// addRoot adds the state whose root is root (treeMemo) and reports
// whether it was new.
func (t *treeDB) addRoot(root uint64) bool {
	t.last = root
	return t.roots.add(root)
}

// pair returns the id of pair p (0: not stored and not intern).
func (t *treeDB) pair(p uint64, intern bool) uint32 {
	if intern && 5*(len(t.pairs)+1) > 4*len(t.pairSlots) {
		t.growPairs()
	}
	i := slot(mixPair(p, t.seed), len(t.pairSlots))
	for {
		id := t.pairSlots[i]
		if id == 0 {
			break
		}
		if t.pairs[id-1] == p {
			return id
		}
		if i++; i == len(t.pairSlots) {
			i = 0
		}
	}
	if !intern {
		return 0
	}
	if len(t.pairs) >= maxTreeIDs {
		panic("explicit: tree storage holds 2^31 pairs")
	}
	t.pairs = append(t.pairs, p)
	id := uint32(len(t.pairs))
	t.pairSlots[i] = id
	return id
}

func (t *treeDB) growPairs() {
	t.pairSlots = make([]uint32, grownFull(len(t.pairSlots)))
	for k, p := range t.pairs {
		i := slot(mixPair(p, t.seed), len(t.pairSlots))
		for t.pairSlots[i] != 0 {
			if i++; i == len(t.pairSlots) {
				i = 0
			}
		}
		t.pairSlots[i] = uint32(k + 1)
	}
}

// leaf returns the id of the leaf with words w (0: not stored and not
// intern).
func (t *treeDB) leaf(w []uint64, intern bool) uint32 {
	if intern && 5*(len(t.leafRefs)+1) > 4*len(t.leafSlots) {
		t.growLeaves()
	}
	h := vm.HashWords(w, t.seed)
	tag := h &^ (1<<32 - 1)
	i := slot(h, len(t.leafSlots))
	for {
		e := t.leafSlots[i]
		if e == 0 {
			break
		}
		if e&^(1<<32-1) == tag {
			k := uint32(e) - 1
			if slices.Equal(t.arena.at(t.leafRefs[k]), w) {
				return k | leafBit
			}
		}
		if i++; i == len(t.leafSlots) {
			i = 0
		}
	}
	if !intern {
		return 0
	}
	if len(t.leafRefs) >= maxTreeIDs {
		panic("explicit: tree storage holds 2^31 leaves")
	}
	t.leafRefs = append(t.leafRefs, t.arena.put(w))
	k := uint32(len(t.leafRefs))
	t.leafSlots[i] = tag | uint64(k)
	return (k - 1) | leafBit
}

func (t *treeDB) growLeaves() {
	t.leafSlots = make([]uint64, grownFull(len(t.leafSlots)))
	for k, ref := range t.leafRefs {
		h := vm.HashWords(t.arena.at(ref), t.seed)
		i := slot(h, len(t.leafSlots))
		for t.leafSlots[i] != 0 {
			if i++; i == len(t.leafSlots) {
				i = 0
			}
		}
		t.leafSlots[i] = h&^(1<<32-1) | uint64(k+1)
	}
}

// bytes is the memory the tree holds: its tables' slots (empty ones
// included), the pairs and leaf references as allocated, the leaves' words.
func (t *treeDB) bytes() int64 {
	return t.roots.bytes() + int64(pairSlotBytes*len(t.pairSlots)) + int64(pairBytes*cap(t.pairs)) +
		int64(8*len(t.leafSlots)) + int64(encRefBytes*cap(t.leafRefs)) + 8*t.arena.words
}

// wordArena keeps sequences of words in chunks that are never moved.
type wordArena struct {
	chunks [][]uint64
	words  int64
}

// put copies w into the arena and returns where it lies.
func (a *wordArena) put(w []uint64) encRef {
	a.words += int64(len(w))
	n := len(a.chunks)
	if n == 0 || len(a.chunks[n-1])+len(w) > cap(a.chunks[n-1]) {
		// Chunks double from 64 KiB up to arenaChunkWords, so a small
		// search does not clear megabytes it never uses.
		size := 1 << 13
		if n > 0 {
			size = min(2*cap(a.chunks[n-1]), arenaChunkWords)
		}
		a.chunks = append(a.chunks, make([]uint64, 0, max(size, len(w))))
		n++
	}
	c := &a.chunks[n-1]
	off := len(*c)
	*c = append(*c, w...)
	return encRef{off: uint64(n-1)<<32 | uint64(off), n: uint32(len(w))}
}

// at returns the words at e.
func (a *wordArena) at(e encRef) []uint64 {
	c := a.chunks[e.off>>32]
	off := uint32(e.off)
	return c[off : off+e.n]
}
