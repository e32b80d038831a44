package explicit

import (
	"fmt"
	"slices"
	"unsafe"

	"github.com/wyvernmc/wyvern/vm"
)

// treeMemo is a stored state's tree: the leaf of each of its parts and the
// pairs above them. A successor changes few parts of its parent's encoding
// (vm.Machine.KeyDelta: the process that moved, the blocks it wrote), so
// the sequential search keeps the memo of each queued state and makes a
// successor's from its parent's: it encodes and interns only the parts
// that may have changed, and looks up only the pairs above a changed leaf
// (a subtree whose leaves are all the parent's is the parent's node). The
// root is the one treeDB.root makes from the whole encoding: the leaves
// are the same parts' ids and the tree the same shape (the sequential
// search's tests check it, verifyPartsHash).
type treeMemo struct {
	threads int
	words   int      // the encoding's length (stateBytes)
	leaves  []uint32 // each part's leaf id, in AppendKeyParts's order
	blocks  []uint32 // the block id of each block part (leaves[threads+2:])
	blist   uint32   // blocks's number in memoArena.lists, 0 when not known
	nodes   []uint32 // the pairs' ids, in treeDB.build's order
	root    uint64
	// the leaves of the root's halves (treeDB.halves), made once for the
	// successors that reuse this memo's nodes (split: made)
	ids, odd []uint32
	split    bool
}

// memoOf makes m, the memo of the state whose encoding is key in parts
// ending at ends, and reports whether every node of it is stored (intern:
// it is then).
func (t *treeDB) memoOf(key []uint64, ends []int32, m *treeMemo, intern bool) bool {
	if len(ends) < 2 || int(ends[len(ends)-1]) != len(key) {
		panic(fmt.Sprintf("explicit: internal error: a state encoding of %d words in %d parts", len(key), len(ends)))
	}
	threads := int(key[2]) // appendStatus's two words, then the process count
	if threads+2 > len(ends) || ends[0] != 3 {
		panic(fmt.Sprintf("explicit: internal error: a state encoding of %d parts has %d processes", len(ends), threads))
	}
	m.threads, m.words, m.split, m.blist = threads, len(key), false, 0
	m.leaves, m.blocks = m.leaves[:0], m.blocks[:0]
	start := int32(0)
	for i, e := range ends {
		id := t.leaf(key[start:e], intern)
		if id == 0 {
			return false
		}
		m.leaves = append(m.leaves, id)
		if i >= threads+2 {
			b := uint32(0) // (a test's made-up empty part)
			if e > start {
				b = uint32(key[start] >> 8) // appendBlock's first word: id<<8 | kind
			}
			m.blocks = append(m.blocks, b)
		}
		start = e
	}
	return t.build(m, nil, intern)
}

// derive makes c, the memo of successor st of the state whose memo is p,
// from p and d, the parts of st's encoding that may differ from p's
// (vm.Machine.KeyDelta), encoding them in buf.
func (t *treeDB) derive(m *vm.Machine, st *vm.State, p, c *treeMemo, d *vm.KeyDelta, buf []uint64) []uint64 {
	nt := p.threads
	c.threads, c.split = nt, false
	c.leaves = append(c.leaves[:0], p.leaves[:nt+2]...)
	words := p.words
	set := func(k int, part []uint64) {
		words += len(part) - t.leafLen(c.leaves[k])
		c.leaves[k] = t.leaf(part, true)
	}
	if d.Header {
		buf = m.AppendHeaderPart(buf[:0], st)
		set(0, buf)
	}
	for _, i := range d.Threads {
		buf = m.AppendThreadPart(buf[:0], st, int(i))
		set(1+int(i), buf)
	}
	if d.Count {
		buf = m.AppendCountPart(buf[:0], st)
		set(nt+1, buf)
	}
	// the blocks: p's, with those d lists made again (in id order both)
	c.blocks = c.blocks[:0]
	pb, pl := p.blocks, p.leaves[nt+2:]
	j := 0
	same := true // the same blocks as p's
	for _, id := range d.Blocks {
		for ; j < len(pb) && pb[j] < id; j++ {
			c.blocks, c.leaves = append(c.blocks, pb[j]), append(c.leaves, pl[j])
		}
		was := j < len(pb) && pb[j] == id
		if was {
			words -= t.leafLen(pl[j])
			j++
		}
		var ok bool
		if buf, ok = m.AppendBlockPart(buf[:0], st, id); ok {
			words += len(buf)
			c.blocks, c.leaves = append(c.blocks, id), append(c.leaves, t.leaf(buf, true))
		}
		same = same && ok == was
	}
	c.blocks, c.leaves = append(c.blocks, pb[j:]...), append(c.leaves, pl[j:]...)
	c.words, c.blist = words, 0
	if same {
		c.blist = p.blist
	}
	t.build(c, p, true)
	return buf
}

// build sets m.nodes and m.root from m.leaves (interning the pairs with
// intern; without, it reports false when one is not stored). prev, when
// not nil, is the memo of a state with as many processes: a subtree whose
// leaves are all prev's in the same places is prev's node, not looked up
// (in the right half only when it has as many parts: its shape).
//
// The root's two halves: the even-numbered processes and the header
// (t.ids), and the odd-numbered processes, the block count and the blocks
// (t.odd). Processes are the parts that change most (their pcs and
// registers): kept apart, each half takes few values (fib_8: about 14 000
// a process, 3.4 M states), so the nodes below the root are shared by many
// states. In each half the processes are the top of a comb (pair(p0,
// pair(p2, ... pair(pk, rest)))) over the balanced tree of the rest, so
// that a process's many values multiply only the pairs above it, not every
// level of a balanced tree.
func (t *treeDB) build(m *treeMemo, prev *treeMemo, intern bool) bool {
	ids, odd := t.halves(m.leaves, m.threads, t.ids[:0], t.odd[:0])
	t.ids, t.odd = ids, odd
	var pids, podd []uint32
	t.prevNodes = nil
	if prev != nil {
		if !prev.split {
			prev.ids, prev.odd = t.halves(prev.leaves, prev.threads, prev.ids[:0], prev.odd[:0])
			prev.split = true
		}
		pids, podd = prev.ids, prev.odd[1:]
		t.prevNodes = prev.nodes
		if len(prev.odd) != len(odd) {
			podd = nil // another shape
		}
	}
	t.nodes = m.nodes[:0]
	l, _ := t.comb(ids, pids, (m.threads+1)/2, intern)
	var r uint32
	if l != 0 {
		if podd == nil {
			t.prevNodes = nil
		}
		r, _ = t.comb(odd[1:], podd, m.threads/2, intern)
	}
	m.nodes = t.nodes
	if l == 0 || r == 0 {
		m.root = 0
		return false
	}
	m.root = uint64(l)<<32 | uint64(r)
	return true
}

// halves appends the leaves of each half of the root to ids and odd: the
// header goes last in the left half (odd keeps it first, so that its
// buffer keeps its whole capacity for the next state).
func (t *treeDB) halves(leaves []uint32, threads int, ids, odd []uint32) ([]uint32, []uint32) {
	for i, id := range leaves {
		if i > 0 && i <= threads && i%2 == 1 {
			ids = append(ids, id) // processes 0, 2, 4, ...
		} else {
			odd = append(odd, id) // the header, processes 1, 3, ..., the block count, the blocks
		}
	}
	return append(ids, odd[0]), odd
}

// comb returns the id of the tree over ids whose first k are processes
// (0: not stored): pair(ids[0], comb(ids[1:], k-1)), and the balanced tree
// of the rest when k is 0; and whether it differs from prev's (pids: the
// same places in prev, nil when none).
func (t *treeDB) comb(ids, pids []uint32, k int, intern bool) (uint32, bool) {
	if k == 0 || len(ids) == 1 {
		return t.node(ids, pids, intern)
	}
	var rest []uint32
	if pids != nil {
		rest = pids[1:]
	}
	r, changed := t.comb(ids[1:], rest, k-1, intern)
	if r == 0 {
		return 0, true
	}
	return t.pairOf(ids[0], r, changed || pids == nil || ids[0] != pids[0], intern)
}

// node returns the id of the balanced tree over ids (0: not stored): the
// pair of the trees over its first ⌈n/2⌉ ids and over the rest; and
// whether it differs from prev's (pids as comb's).
func (t *treeDB) node(ids, pids []uint32, intern bool) (uint32, bool) {
	if len(ids) == 1 {
		return ids[0], pids == nil || ids[0] != pids[0]
	}
	mid := (len(ids) + 1) / 2
	var pl, pr []uint32
	if pids != nil {
		pl, pr = pids[:mid], pids[mid:]
	}
	l, lc := t.node(ids[:mid], pl, intern)
	if l == 0 {
		return 0, true
	}
	r, rc := t.node(ids[mid:], pr, intern)
	if r == 0 {
		return 0, true
	}
	return t.pairOf(l, r, lc || rc, intern)
}

// pairOf returns the id of pair (l, r), the next node of the tree being
// built: prev's node in its place when unchanged.
func (t *treeDB) pairOf(l, r uint32, changed, intern bool) (uint32, bool) {
	var id uint32
	if changed || t.prevNodes == nil {
		id = t.pair(uint64(l)<<32|uint64(r), intern)
	} else {
		id = t.prevNodes[len(t.nodes)]
	}
	t.nodes = append(t.nodes, id)
	return id, changed
}

// unfold makes m the memo of the stored state whose root is root, from
// the tree alone: its leaves are the tree's leaves in order (the root's
// left half: the even-numbered processes, then the header; its right
// half: the odd-numbered processes, the block count, the blocks; see
// build), put back in AppendKeyParts's order with the process count the
// header holds, and its pairs are the tree's in post-order, build's order.
func (t *treeDB) unfold(root uint64, m *treeMemo) {
	left, right, nodes := t.ids[:0], t.odd[:0], m.nodes[:0]
	left, nodes = t.walk(uint32(root>>32), left, nodes)
	right, nodes = t.walk(uint32(root), right, nodes)
	t.ids, t.odd = left, right
	header := left[len(left)-1]
	threads := int(t.leafWord(header, 2)) // appendStatus's two words, then the process count
	m.threads, m.root, m.nodes, m.split, m.blist = threads, root, nodes, false, 0
	m.leaves = append(m.leaves[:0], header)
	for i := range threads {
		if i%2 == 0 {
			m.leaves = append(m.leaves, left[i/2])
		} else {
			m.leaves = append(m.leaves, right[i/2])
		}
	}
	m.leaves = append(m.leaves, right[threads/2:]...)
	m.blocks = m.blocks[:0]
	m.words = 0
	for i, id := range m.leaves {
		m.words += t.leafLen(id)
		if i >= threads+2 {
			m.blocks = append(m.blocks, uint32(t.leafWord(id, 0)>>8)) // appendBlock's first word: id<<8 | kind
		}
	}
}

// walk appends the leaves of the subtree id to leaves, in order, and its
// pairs to nodes, in post-order.
func (t *treeDB) walk(id uint32, leaves, nodes []uint32) ([]uint32, []uint32) {
	if id&leafBit != 0 {
		return append(leaves, id), nodes
	}
	p := t.pairs[id-1]
	leaves, nodes = t.walk(uint32(p>>32), leaves, nodes)
	leaves, nodes = t.walk(uint32(p), leaves, nodes)
	return leaves, append(nodes, id)
}

// leafLen is the number of words of leaf id.
func (t *treeDB) leafLen(id uint32) int { return int(t.leafRefs[id&^leafBit].n) }

// memoArena holds the memos of queued states, in the order they were
// queued (the search takes them in that order or in its reverse: its
// queue's or its stack's), in chunks of memoChunk words that a memo does
// not straddle: a chunk whose memos are all taken is kept for reuse, so
// the arena holds the memos queued and a chunk or two more (no copy, no
// slice grown by doubling). A memo's place is the number of its chunk
// counted from the start of the search, and its offset there, plus 1 (0
// is none).
type memoArena struct {
	chunks [][]uint32
	first  uint64 // the number of chunks[0]
	spare  [][]uint32
	// the lists of block ids of the memos put (few: most steps change
	// no block into or out of the image's), numbered from 1
	lists  [][]uint32
	listID map[string]uint32
}

const (
	memoChunk = 1 << 15 // words
	maxSpare  = 4
)

// put appends m and returns its place.
func (a *memoArena) put(m *treeMemo) uint64 {
	if m.blist == 0 {
		b := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(m.blocks))), 4*len(m.blocks))
		if m.blist = a.listID[string(b)]; m.blist == 0 {
			if a.listID == nil {
				a.listID = map[string]uint32{}
			}
			a.lists = append(a.lists, slices.Clone(m.blocks))
			m.blist = uint32(len(a.lists))
			a.listID[string(b)] = m.blist
		}
	}
	n := len(m.leaves)
	size := 4 + n + len(m.nodes)
	k := len(a.chunks) - 1
	if k < 0 || len(a.chunks[k])+size > cap(a.chunks[k]) {
		var c []uint32
		if len(a.spare) > 0 && size <= memoChunk {
			c, a.spare = a.spare[len(a.spare)-1], a.spare[:len(a.spare)-1]
		} else {
			c = make([]uint32, 0, max(memoChunk, size))
		}
		a.chunks = append(a.chunks, c)
		k++
	}
	w := a.chunks[k]
	at := (a.first+uint64(k))<<32 | uint64(len(w))
	w = append(w, uint32(n), uint32(m.threads), uint32(m.words), m.blist)
	w = append(w, m.leaves...)
	a.chunks[k] = append(w, m.nodes...)
	return at + 1
}

// take copies the memo at place at into m and drops it: with fifo, it and
// the chunks before its own (the memos queued before it, taken); without,
// it and what follows it (the memos stacked after it, taken).
func (a *memoArena) take(at uint64, m *treeMemo, fifo bool) {
	ci, off := int((at-1)>>32-a.first), int(uint32(at-1))
	w := a.chunks[ci][off:]
	n, threads := int(w[0]), int(w[1])
	m.threads, m.words, m.blist, m.root, m.split = threads, int(w[2]), w[3], 0, false
	w = w[4:]
	m.leaves = append(m.leaves[:0], w[:n]...)
	m.blocks = append(m.blocks[:0], a.lists[m.blist-1]...)
	m.nodes = append(m.nodes[:0], w[n:n+max(n-2, 0)]...)
	if fifo {
		for _, c := range a.chunks[:ci] {
			a.recycle(c)
		}
		clear(a.chunks[:ci])
		a.chunks = a.chunks[ci:]
		a.first += uint64(ci)
		return
	}
	a.chunks[ci] = a.chunks[ci][:off]
	for _, c := range a.chunks[ci+1:] {
		a.recycle(c)
	}
	if off == 0 {
		a.recycle(a.chunks[ci])
		ci--
	}
	clear(a.chunks[ci+1:])
	a.chunks = a.chunks[:ci+1]
}

// recycle keeps chunk c, emptied, for reuse.
func (a *memoArena) recycle(c []uint32) {
	if cap(c) == memoChunk && len(a.spare) < maxSpare {
		a.spare = append(a.spare, c[:0])
	}
}

// auxLists keeps the auxiliary words (vm.Machine.AppendKeyAux: dead stack
// ids, each frame's result slots) of the states of a packed queue, each
// distinct list once, numbered from 0: few distinct lists occur (they
// change with calls and returns, not with values).
type auxLists struct {
	lists [][]uint32
	ids   map[string]uint32
	words int64
	last  uint32 // the number id returned last (most states queued in a row have one list)
}

// id returns the number of list w, adding a copy of it if it is new.
func (a *auxLists) id(w []uint32) uint32 {
	if int(a.last) < len(a.lists) && slices.Equal(a.lists[a.last], w) {
		return a.last
	}
	b := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(w))), 4*len(w))
	if id, ok := a.ids[string(b)]; ok {
		a.last = id
		return id
	}
	if a.ids == nil {
		a.ids = map[string]uint32{}
	}
	id := uint32(len(a.lists))
	a.lists = append(a.lists, slices.Clone(w))
	a.ids[string(b)] = id
	a.words += int64(len(w))
	a.last = id
	return id
}

// list returns list id.
func (a *auxLists) list(id uint32) []uint32 { return a.lists[id] }

// bytes is the lists' memory: each list's words twice (the list and its
// key in the map) and mapEntry and a slice header a list.
func (a *auxLists) bytes() int64 { return 8*a.words + (mapEntry+24)*int64(len(a.lists)) }
