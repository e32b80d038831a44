package explicit

import (
	"math/bits"
	"slices"

	"github.com/wyvernmc/wyvern/vm"
)

// treeDB is full storage's set of states, lossless and tree-compressed
// (LTSmin's tree database, src/mc-lib/treedbs-ll.c, over a vector of parts
// of varying length): a state's canonical encoding is split into its parts
// (vm.Machine.AppendKeyParts: the status and process count, each process,
// the block count, each block that differs from the image), each part is
// interned as a leaf (its words, kept once as a list of shared chunks), and the vector of leaf ids is
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
// 4-byte slot of their table (grown ×1.5 at load 0.8); leaves a 4-byte
// chunk index for each 4 of their words, 16 bytes and an 8-byte slot, and
// each distinct chunk 32 bytes and a 4-byte slot (a process's part is
// 20–30 words of which a step changes a few: the other chunks are shared).
type treeDB struct {
	seed uint64

	roots *rootTable

	pairSlots  []uint32 // pair table: hash bits (tag) | pair id (index+1), 0 empty
	pairIDBits uint8    // the low bits of a pair slot that are its id
	pairs      []uint64 // left<<32 | right of pair id i+1

	leafSlots  []uint64 // leaf table: top half of the hash << 32 | leaf index+1, 0 empty
	leafRefs   []encRef // each leaf's chunks: off indexes leafChunks, n is its number of words
	leafChunks []uint32 // the chunk indices of each leaf, in order
	// chunk table: a leaf's words in chunks of chunkWords (the last padded
	// with zeros), each chunk kept once (leaves that differ in a few words
	// share their other chunks)
	chunkSlots []uint32 // chunk index+1, 0 empty
	chunks     []uint64 // chunkWords words a chunk
	wbuf       []uint64 // scratch (growLeaves)

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
	chunkWords    = 4
)

func newTreeDB() *treeDB {
	seed := vm.NewHashSeed()
	t := &treeDB{seed: seed, roots: newRootTable(seed),
		pairSlots: make([]uint32, minSlots), leafSlots: make([]uint64, minSlots/8),
		chunkSlots: make([]uint32, minSlots), kept: map[uint32]uint64{}}
	t.setPairIDBits()
	return t
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
//
// A slot holds the id in its low pairIDBits bits and, above them, as many
// bits of the pair's hash as are left (the tag): a probe compares the tag
// before it reads the pair (another cache line), so a slot of another
// pair costs no read of t.pairs unless their tags agree.
func (t *treeDB) pair(p uint64, intern bool) uint32 {
	if intern && 5*(len(t.pairs)+1) > 4*len(t.pairSlots) {
		t.growPairs()
	}
	h := mixPair(p, t.seed)
	idMask := uint32(1)<<t.pairIDBits - 1
	tag := uint32(h) &^ idMask // (the slot's place takes the hash's top bits)
	i := slot(h, len(t.pairSlots))
	for {
		e := t.pairSlots[i]
		if e == 0 {
			break
		}
		if e&^idMask == tag {
			if id := e & idMask; t.pairs[id-1] == p {
				return id
			}
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
	t.pairSlots[i] = tag | id
	return id
}

// growPairs makes the pair table larger and sets pairIDBits for it: the
// ids it will hold (fewer than its slots, load 0.8) fit in them.
func (t *treeDB) growPairs() {
	t.pairSlots = make([]uint32, grownFull(len(t.pairSlots)))
	t.setPairIDBits()
	idMask := uint32(1)<<t.pairIDBits - 1
	for k, p := range t.pairs {
		h := mixPair(p, t.seed)
		i := slot(h, len(t.pairSlots))
		for t.pairSlots[i] != 0 {
			if i++; i == len(t.pairSlots) {
				i = 0
			}
		}
		t.pairSlots[i] = uint32(h)&^idMask | uint32(k+1)
	}
}

// setPairIDBits sets pairIDBits to the bits of the pair table's size (at
// most 32; ids stay below 2^31).
func (t *treeDB) setPairIDBits() {
	t.pairIDBits = uint8(min(bits.Len(uint(len(t.pairSlots))), 32))
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
			if t.leafEqual(k, w) {
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
	off := uint64(len(t.leafChunks))
	for j := 0; j < len(w); j += chunkWords {
		t.leafChunks = append(t.leafChunks, t.chunk(w[j:min(j+chunkWords, len(w))]))
	}
	t.leafRefs = append(t.leafRefs, encRef{off: off, n: uint32(len(w))})
	k := uint32(len(t.leafRefs))
	t.leafSlots[i] = tag | uint64(k)
	return (k - 1) | leafBit
}

func (t *treeDB) growLeaves() {
	t.leafSlots = make([]uint64, grownFull(len(t.leafSlots)))
	for k := range t.leafRefs {
		t.wbuf = t.appendLeaf(t.wbuf[:0], uint32(k)|leafBit)
		h := vm.HashWords(t.wbuf, t.seed)
		i := slot(h, len(t.leafSlots))
		for t.leafSlots[i] != 0 {
			if i++; i == len(t.leafSlots) {
				i = 0
			}
		}
		t.leafSlots[i] = h&^(1<<32-1) | uint64(k+1)
	}
}

// leafEqual reports whether leaf index k has the words w.
func (t *treeDB) leafEqual(k uint32, w []uint64) bool {
	r := t.leafRefs[k]
	if int(r.n) != len(w) {
		return false
	}
	for j, c := range t.leafChunks[r.off : r.off+uint64(chunksOf(len(w)))] {
		part := w[j*chunkWords : min((j+1)*chunkWords, len(w))]
		if !slices.Equal(t.chunks[int(c)*chunkWords:int(c)*chunkWords+len(part)], part) {
			return false
		}
	}
	return true
}

// chunksOf is the number of chunks of a leaf of n words.
func chunksOf(n int) int { return (n + chunkWords - 1) / chunkWords }

// appendLeaf appends the words of leaf id to buf.
func (t *treeDB) appendLeaf(buf []uint64, id uint32) []uint64 {
	r := t.leafRefs[id&^leafBit]
	n := int(r.n)
	for _, c := range t.leafChunks[r.off : r.off+uint64(chunksOf(n))] {
		k := min(chunkWords, n)
		buf = append(buf, t.chunks[int(c)*chunkWords:int(c)*chunkWords+k]...)
		n -= k
	}
	return buf
}

// leafWord is word i of leaf id.
func (t *treeDB) leafWord(id uint32, i int) uint64 {
	r := t.leafRefs[id&^leafBit]
	c := t.leafChunks[r.off+uint64(i/chunkWords)]
	return t.chunks[int(c)*chunkWords+i%chunkWords]
}

// chunk returns the index of the chunk with words w (at most chunkWords,
// padded with zeros), interning it.
func (t *treeDB) chunk(w []uint64) uint32 {
	var c [chunkWords]uint64
	copy(c[:], w)
	n := len(t.chunks) / chunkWords
	if 5*(n+1) > 4*len(t.chunkSlots) {
		t.growChunks()
	}
	i := slot(vm.HashWords(c[:], t.seed), len(t.chunkSlots))
	for {
		id := t.chunkSlots[i]
		if id == 0 {
			break
		}
		if [chunkWords]uint64(t.chunks[int(id-1)*chunkWords:int(id)*chunkWords]) == c {
			return id - 1
		}
		if i++; i == len(t.chunkSlots) {
			i = 0
		}
	}
	if n >= 1<<32-1 {
		panic("explicit: tree storage holds 2^32 chunks")
	}
	t.chunks = append(t.chunks, c[:]...)
	t.chunkSlots[i] = uint32(n + 1)
	return uint32(n)
}

func (t *treeDB) growChunks() {
	t.chunkSlots = make([]uint32, grownFull(len(t.chunkSlots)))
	for k := 0; k < len(t.chunks)/chunkWords; k++ {
		i := slot(vm.HashWords(t.chunks[k*chunkWords:(k+1)*chunkWords], t.seed), len(t.chunkSlots))
		for t.chunkSlots[i] != 0 {
			if i++; i == len(t.chunkSlots) {
				i = 0
			}
		}
		t.chunkSlots[i] = uint32(k + 1)
	}
}

// bytes is the memory the tree holds: its tables' slots (empty ones
// included), the pairs, leaf references, leaves' chunk lists and chunks
// as allocated.
func (t *treeDB) bytes() int64 {
	return t.roots.bytes() + int64(pairSlotBytes*len(t.pairSlots)) + int64(pairBytes*cap(t.pairs)) +
		int64(8*len(t.leafSlots)) + int64(encRefBytes*cap(t.leafRefs)) + int64(4*cap(t.leafChunks)) +
		int64(4*len(t.chunkSlots)) + int64(8*cap(t.chunks))
}
