package vm

import (
	"sync/atomic"
	"unsafe"
)

// Holder counts on memory chunks. Epochs say which chunks a memory may
// write in place (those it wrote since it last shared), but not when a
// shared chunk is free: explicit-state search copies a state for every
// successor (CopyInto), so the chunks a queued state wrote are shared with
// its successors once it is expanded, and its own memory, reused for the
// next successor, no longer owns them. Without counts those chunks were
// left to the garbage collector, one or more for every state the search
// kept. So every memory holding a chunk counts as a holder (chunk.refs
// counts them but one, like Thread.shared): a memory that drops a chunk
// (reset, CopyInto, or the copy-on-write of a chunk it shares) releases it,
// and the last holder recycles it into its spare chunks. A chunk that every
// other holder has let go is also written in place again instead of being
// copied (soleHolder).
//
// The chunks of a frozen image (a machine's post-initialisation memory)
// are shared by every state of the machine and never recycled: they are
// not counted at all (immortal), so no state writes to them, which keeps
// deriving states from the image free of shared writes across goroutines.
// freeze also gives them frozenRefs, so that a chunk mistaken for a
// counted one could never be taken as a sole holder's.
//
// Counts only ever fall when a holder lets go, and a memory only adds a
// holder for a chunk it holds itself (it shares its table), so a count
// read as 0 by a holder cannot grow behind its back: it is then the only
// holder, whichever goroutines held the chunk before.

// frozenRefs is the count of a frozen image's chunks: far above any real
// count.
const frozenRefs = 1 << 30

// releaseRef drops a holder of a counted object and reports whether that
// was the last one: the caller may then reuse it.
func releaseRef(refs *int32) bool {
	if atomic.LoadInt32(refs) == 0 {
		return true
	}
	if atomic.AddInt32(refs, -1) < 0 {
		// Every other holder let go since the load: it is ours.
		atomic.StoreInt32(refs, 0)
		return true
	}
	return false
}

// release drops a holder of t and reports whether that was the last one:
// the caller may then reuse the record.
func release(t *Thread) bool { return releaseRef(&t.shared) }

// freeze marks m's chunks, and their small blocks' bytes, as a frozen
// image's (see frozenRefs).
func (m *Memory) freeze() {
	for _, ch := range m.chunks {
		ch.refs = frozenRefs
		for i := range ch.b {
			if d := ch.b[i].data; d != nil {
				*bufRefs(d) = frozenRefs
			}
		}
	}
}

// Holder counts on small blocks' byte buffers. A chunk's copy (wdesc)
// shares its blocks' bytes with the chunk it copies, so the bytes of a
// recycled chunk may still be another chunk's: every buffer counts the
// chunks holding it but one, like chunk.refs, in a header of bufHeader
// bytes before its first byte (Memory.buffer makes every buffer so). A
// chunk's copy adds a holder for each of its blocks' buffers (holdBufs); a
// chunk that lets go of a buffer (its block gets other bytes, or the chunk
// is recycled) releases it (releaseBuf), and the last holder reuses it. A
// buffer that no other chunk holds is written in place (wblk) instead of
// being copied. The frozen image's buffers carry frozenRefs and are never
// counted nor reused. The argument of the chunks' counts holds here too: a
// chunk only adds a holder for a buffer it holds, so a count read as 0 by
// the chunk's owner cannot grow behind its back.

// bufHeader is the bytes before a buffer's first byte that hold its count.
const bufHeader = 8

// bufRefs returns the holder count of buffer d (one made by
// Memory.buffer, even an empty one).
func bufRefs(d []byte) *int32 {
	return (*int32)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(d)), -bufHeader))
}

// holdBufs adds a holder for the bytes of ch's small blocks (ch was just
// copied: the copy holds them too).
func holdBufs(ch *chunk) {
	for i := range ch.b {
		if d := ch.b[i].data; d != nil {
			if r := bufRefs(d); atomic.LoadInt32(r) < frozenRefs/2 {
				atomic.AddInt32(r, 1)
			}
		}
	}
}

// releaseBuf drops a chunk's hold on buffer d and reports whether that was
// the last one: the caller may then reuse it. A frozen image's buffer is
// never released.
func releaseBuf(d []byte) bool {
	r := bufRefs(d)
	switch v := atomic.LoadInt32(r); {
	case v == 0:
		return true
	case v >= frozenRefs/2:
		return false
	}
	if atomic.AddInt32(r, -1) < 0 {
		// Every other holder let go since the load: it is ours.
		atomic.StoreInt32(r, 0)
		return true
	}
	return false
}

// immortal reports whether ch, at index ci of m's chunk table, is the
// chunk of m's image there: shared by every state, never counted.
func (m *Memory) immortal(ch *chunk, ci uint32) bool { return imageChunk(m.image, ch, ci) }

// imageChunk reports whether ch is the chunk at index ci of image img
// (nil: none).
func imageChunk(img *Memory, ch *chunk, ci uint32) bool {
	return img != nil && int(ci) < len(img.chunks) && img.chunks[ci] == ch
}

// soleHolder reports whether m, which holds ch at index ci but does not
// own it, is its only holder: every memory it was shared with let go.
func (m *Memory) soleHolder(ch *chunk, ci uint32) bool {
	return !m.immortal(ch, ci) && atomic.LoadInt32(&ch.refs) == 0
}

// holdAll adds m as a holder of the chunks of its table, image chunks
// aside (a new memory sharing the table of another).
func (m *Memory) holdAll() {
	for i, ch := range m.chunks {
		if !m.immortal(ch, uint32(i)) {
			atomic.AddInt32(&ch.refs, 1)
		}
	}
}

// drop lets go of chunk ch, at index ci of m's table: a chunk m owns is
// recycled, a shared one only if m was its last holder. A recycled chunk
// lets go of its small blocks' bytes: those m wrote in it (no other chunk
// ever held them) and those it was the last chunk to hold are kept for
// reuse.
func (m *Memory) drop(ch *chunk, ci uint32) {
	if m.immortal(ch, ci) {
		return
	}
	owned := m.owns(ch.owner)
	if !owned && !releaseRef(&ch.refs) {
		return
	}
	// (last block first: Memory.buffer takes the last spare buffers
	// first, so that a run that allocates its blocks again in the same
	// order, as every trace of a program does after a reset, finds each
	// block's own buffer, of its size, among the last ones)
	for i := len(ch.b) - 1; i >= 0; i-- {
		b := &ch.b[i]
		if b.data != nil && (owned && m.owns(b.owner) || releaseBuf(b.data)) {
			m.spareBuf(b.data)
		}
	}
	// A recycled chunk keeps nothing of the run: its descriptors are
	// cleared (a large block's pages would otherwise stay reachable from
	// the spare chunk), and at most maxSpareChunks chunks are kept.
	if len(m.spareChunks) < maxSpareChunks {
		*ch = chunk{}
		m.spareChunks = append(m.spareChunks, ch)
	}
}

// release lets go of every chunk m holds, recycling what it was the last
// to hold, and leaves m with no block: only shareFrom may use it again.
func (m *Memory) release() {
	for i, ch := range m.chunks {
		m.drop(ch, uint32(i))
	}
	clear(m.chunks)
	m.chunks, m.freeStack = m.chunks[:0], m.freeStack[:0]
	m.n, m.live, m.heap, m.undef = 0, 0, 0, 0
}

// shareFrom makes m a copy-on-write copy of src (the frozen image, or a
// state's memory that has just given up ownership of what it holds: see
// copyFrom): m lets go of the chunks it held, recycling what it was the
// last to hold, and holds src's. The chunks both held already at the same
// index stay held as they are, without touching their counts: a search
// copies one parent into the same memory successor after successor.
func (m *Memory) shareFrom(src *Memory) {
	n, k := len(src.chunks), len(m.chunks)
	for i := n; i < k; i++ {
		m.drop(m.chunks[i], uint32(i))
		m.chunks[i] = nil
	}
	old := m.chunks[:min(k, n)]
	if k < n {
		// (carved from a block in bulk, as processes' lists are in
		// CopyInto)
		var block *[]*chunk
		if src.bulk {
			block = &m.chunkRoom
		}
		old = lengthen(old, n, roomChunks, roomChunksBlock, block)
	}
	// Only the entries that differ are written (each write of a pointer
	// is a write barrier's while the garbage collector marks).
	for i, ch := range src.chunks {
		if o := old[i]; o != ch {
			if o != nil {
				m.drop(o, uint32(i))
			}
			if !imageChunk(src.image, ch, uint32(i)) {
				atomic.AddInt32(&ch.refs, 1)
			}
			old[i] = ch
		}
	}
	m.chunks = old
	m.image = src.image
	m.bulk = src.bulk
	m.n = src.n
	m.renew()
	if len(src.freeStack)|len(m.freeStack) != 0 {
		// (with room to spare, since freeStackBlock appends to it: a
		// recycled memory seldom grows it again)
		if len(src.freeStack) > cap(m.freeStack) {
			m.freeStack = m.freeStackRoom(len(src.freeStack), src.bulk)
		}
		m.freeStack = append(m.freeStack[:0], src.freeStack...)
	}
	m.live, m.heap, m.undef = src.live, src.heap, src.undef
}
