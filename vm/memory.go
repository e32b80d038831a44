package vm

import (
	"encoding/binary"
	"sync/atomic"
	"unsafe"

	"github.com/wyvernmc/wyvern/ir"
)

// Memory is a set of blocks addressed by (block id << 32 | offset). Block 0
// is null. Memory is copy-on-write: Clone shares every chunk of the block
// table and every block's bytes, and a write copies only what it touches
// (a chunk of chunkSize block descriptors, a small block, or one 4 KiB page
// of a large block). Ownership is tracked with epochs: after a Clone
// neither side owns anything shared. Chunks also count their holders
// (holders.go), so that the last memory to let go of a shared chunk
// recycles it and a chunk every other holder let go is written in place.
//
// A memory owns what carries an epoch it drew since it last shared: every
// epoch from base (drawn when it last shared, see renew) on. Writes stamp
// with the current epoch; advance moves to a new one without sharing
// anything, so that what is written from then on is told apart from what
// was written before (the incremental fingerprint of Fingerprinter) while
// both stay owned: a write to an older owned chunk, block or page restamps
// it instead of copying it.
type Memory struct {
	chunks []*chunk
	n      uint32 // block ids in use: [0, n)
	epoch  uint64
	// base is the first epoch of the memory's ownership (0: not yet
	// renewed; see renew).
	base      uint64
	freeStack []uint32 // dead stack blocks whose ids may be reused
	// image is the frozen memory this one derives from (a machine's
	// post-initialisation image, which points to itself): a state's
	// identity leaves out the blocks still equal to it (see hash.go).
	image *Memory
	// Buffers recycled by drop (reset, shareFrom, copy on write): chunks
	// and small-block byte slices that this memory owned or was the last
	// to hold (holders.go), so a reused state allocates nothing per run.
	spareChunks []*chunk
	spareData   [][]byte
	// bulk: chunks and small blocks' byte buffers are allocated many at a
	// time (State.AllocateInBulk); copies made by CopyInto inherit it.
	// dataRoom is the unused rest of the block that buffer carves buffers
	// from in bulk: one allocation serves many buffers (which are
	// recycled, not freed, while explicit search runs).
	bulk     bool
	dataRoom []byte
	// chunkRoom and idRoom are the unused rest of the blocks that, in
	// bulk, chunk tables (shareFrom) and lists of dead stack blocks
	// (freeStackBlock, shareFrom) are carved from: a search's new and
	// recycled memories would otherwise allocate one of each.
	chunkRoom []*chunk
	idRoom    []uint32
	// live is the bytes of the live heap and stack blocks; limit (0: none)
	// bounds it: an allocation that would pass it gets no bytes and sets
	// refused to its size, and the interpreter ends the run
	// (ErrResourceLimit) before its next step.
	live, limit, refused uint64
	// heap is the number of live heap (malloc) blocks: the leak checks
	// (leak.go) cost nothing while it is 0.
	heap uint32
	// undef is the number of blocks with undefined bytes (blkUndef,
	// undef.go): while it is 0 no load draws, and simulation's straight
	// runs need not end at loads.
	undef uint32
	// epochs reserved from epochCounter, [epochNext, epochEnd) (see
	// takeEpoch).
	epochNext, epochEnd uint64
}

const (
	// chunkBits sets the copy-on-write unit of the block table: the first
	// write to a block after a copy duplicates its chunk of chunkSize
	// descriptors (72 bytes each). Explicit-state search copies a state
	// for every successor, and most successors write one or two blocks, so
	// the chunk is kept small (8 descriptors, 576 bytes; 64 made fib_8's
	// search spend a sixth of its time copying 4.6 KB chunks); the price is
	// a longer chunk table to share in CopyInto and Clone (one pointer per
	// 8 blocks).
	chunkBits = 3
	chunkSize = 1 << chunkBits
	pageBits  = 12
	pageSize  = 1 << pageBits
)

// Block kinds.
const (
	blkNone   uint8 = iota // id never allocated
	blkConst               // constant global: stores are errors
	blkGlobal              // global variable
	blkStack               // alloca
	blkHeap                // malloc
	blkFunc                // function address: not dereferenceable
	blkFreed               // freed heap block
	blkDead                // stack block of a returned frame (id reusable)

	// Readable kinds are blkConst..blkHeap, writable ones blkGlobal..blkHeap.
)

type block struct {
	data   []byte  // bytes of a small block (size <= pageSize)
	pages  []*page // pages of a large block
	size   uint32
	kind   uint8
	thread int32 // owning thread of a stack block
	owner  uint64
}

type page struct {
	owner uint64
	data  [pageSize]byte
}

type chunk struct {
	owner uint64
	// refs counts the memories holding this chunk but one (holders.go):
	// 0 means one memory holds it. Accessed atomically. A frozen image's
	// chunks are never counted (see immortal) and carry frozenRefs.
	refs int32
	b    [chunkSize]block
}

var epochCounter atomic.Uint64

// epochBatch is the number of epochs a memory reserves from epochCounter
// at once: explicit search renews a memory per successor and a trace
// advances one per state, and an atomic addition on the shared counter for
// each was a cost of its own (and contended across goroutines).
const epochBatch = 1024

// takeEpoch returns a new epoch from m's reservation, reserving more when
// it is spent: every epoch is still handed out once in the whole process.
func (m *Memory) takeEpoch() uint64 {
	if m.epochNext == m.epochEnd {
		end := epochCounter.Add(epochBatch) + 1
		m.epochNext, m.epochEnd = end-epochBatch, end
	}
	e := m.epochNext
	m.epochNext++
	return e
}

// renew gives m a new epoch and makes it the start of m's ownership: m
// owns nothing it had before (what it shared keeps older epochs).
//
// m owns exactly what carries an epoch in [base, epoch]: a contiguous run
// of m's own reservation (advance starts a new run when it must take from
// a new reservation). No other memory ever stamps with those epochs, and
// m shares nothing without renewing, so whatever carries one of them was
// written by m since it last shared.
func (m *Memory) renew() {
	m.epoch = m.takeEpoch()
	m.base = m.epoch
}

// advance moves m to a new epoch of its own, keeping what it owns: the
// writes from now on carry the new epoch (the fast paths of the
// interpreter see older owned parts as not owned and take the slow path,
// which restamps them). When the new epoch does not follow the current one
// (a new reservation), ownership restarts with it: what m wrote before is
// then copied on its next write, like after a Clone.
func (m *Memory) advance() {
	e := m.takeEpoch()
	if e != m.epoch+1 || m.base == 0 {
		m.base = e
	}
	m.epoch = e
}

// owns reports whether a chunk, block or page stamped with epoch o is m's
// alone (written by m since it last shared).
func (m *Memory) owns(o uint64) bool { return m.base != 0 && m.base <= o && o <= m.epoch }

// derive returns a copy-on-write copy of a frozen memory (one that owns
// nothing and is never written again, like a machine's initial image)
// without touching it, so any number of goroutines may derive at once.
func (m *Memory) derive() Memory {
	d := Memory{chunks: append([]*chunk(nil), m.chunks...), n: m.n,
		freeStack: append([]uint32(nil), m.freeStack...), image: m.image, live: m.live, heap: m.heap, undef: m.undef, limit: m.limit}
	d.holdAll()
	d.renew()
	return d
}

// Clone returns a copy-on-write copy of the memory in O(blocks/64). Both
// sides stop owning what they shared, so Clone writes to m: it must not run
// concurrently with other uses of m.
func (m *Memory) Clone() Memory {
	m.renew()
	c := Memory{chunks: append([]*chunk(nil), m.chunks...), n: m.n, image: m.image,
		live: m.live, heap: m.heap, undef: m.undef, limit: m.limit, refused: m.refused}
	c.holdAll()
	c.renew()
	c.freeStack = append([]uint32(nil), m.freeStack...)
	return c
}

func (m *Memory) blk(id uint32) *block {
	return &m.chunks[id>>chunkBits].b[id&(chunkSize-1)]
}

// wblk returns a block descriptor owned by this memory, copying its chunk
// and its bytes (or page table) if they are shared.
func (m *Memory) wblk(id uint32) *block {
	b := m.wdesc(id)
	if b.owner != m.epoch {
		if m.owns(b.owner) {
			// written before an advance: restamped, not copied
		} else if b.pages != nil {
			b.pages = append([]*page(nil), b.pages...)
		} else if b.data != nil && !releaseBuf(b.data) {
			// (shared with other chunks: copied; a buffer no other
			// chunk holds is m's, written in place)
			b.data = append(m.buffer(len(b.data)), b.data...)
		}
		b.owner = m.epoch
	}
	return b
}

// wdesc returns the descriptor of block id in a chunk owned by this
// memory, copying the chunk if it is shared, but not the block's bytes:
// the caller makes the block its own (stamps it with m.epoch) and, unless
// m owned it already (ownsBlock), replaces or drops its bytes, which may be
// shared.
func (m *Memory) wdesc(id uint32) *block {
	ci := id >> chunkBits
	ch := m.chunks[ci]
	if ch.owner != m.epoch && (m.owns(ch.owner) || m.soleHolder(ch, ci)) {
		// written before an advance, or shared once but every other
		// holder has let go: m's alone, restamped instead of copied (its
		// blocks' bytes may still be shared: they are copied below unless
		// m owns them)
		ch.owner = m.epoch
	} else if ch.owner != m.epoch {
		nc := m.spareChunk()
		// (field by field: other holders may change ch.refs meanwhile)
		nc.b = ch.b
		nc.owner, nc.refs = m.epoch, 0
		holdBufs(nc)
		m.chunks[ci] = nc
		m.drop(ch, ci)
		ch = nc
	}
	return &ch.b[id&(chunkSize-1)]
}

// ownsBlock reports whether m owns the bytes of block descriptor b (one of
// its own chunks): it wrote them since it last shared.
func (m *Memory) ownsBlock(b *block) bool { return b.owner == m.epoch || m.owns(b.owner) }

// maxSpareChunks bounds the chunks a memory keeps for its next run (4096
// block descriptors).
const maxSpareChunks = 4096 / chunkSize

// maxSpareData bounds the small blocks' byte buffers a memory keeps.
const maxSpareData = 4096

// newChunk returns an empty chunk owned by m, a recycled one if possible.
func (m *Memory) newChunk() *chunk {
	ch := m.spareChunk()
	ch.owner = m.epoch
	return ch
}

// spareChunk returns a spare chunk (empty: a recycled chunk is cleared
// when it is kept) or a new one. In bulk (explicit search, which
// allocates chunks while its queue grows and recycles them afterwards)
// new ones are allocated chunkSlab at a time, the others kept as spares.
func (m *Memory) spareChunk() *chunk {
	if k := len(m.spareChunks); k > 0 {
		ch := m.spareChunks[k-1]
		m.spareChunks = m.spareChunks[:k-1]
		return ch
	}
	if !m.bulk {
		return new(chunk)
	}
	slab := new([chunkSlab]chunk)
	for i := 1; i < chunkSlab; i++ {
		m.spareChunks = append(m.spareChunks, &slab[i])
	}
	return &slab[0]
}

// roomFreeStack is the room to spare a memory's list of dead stack blocks
// gets when it grows (freeStackBlock, or a copy, shareFrom, that needs a
// longer one): memories are recycled, and seldom grow it again.
const roomFreeStack = 8

// Room to spare a memory's chunk table gets when shareFrom lengthens it,
// and the size of the blocks that chunk tables and lists of dead stack
// blocks are carved from in bulk (see carve).
const (
	roomChunks         = 0
	roomChunksBlock    = 2048
	roomFreeStackBlock = 4096
)

// chunkSlab is the number of chunks spareChunk allocates at once: as many
// as fit in SlabBytes (at most maxSpareChunks).
const chunkSlab = int(SlabBytes / unsafe.Sizeof(chunk{}))

// dataBlock is the size of the blocks that small blocks' byte buffers are
// carved from in bulk (Memory.buffer); a buffer over a quarter of it is
// allocated alone.
const dataBlock = 16 << 10

// buffer returns an empty byte slice with capacity for n bytes, recycled
// when possible, that no chunk holds yet: every small block's bytes are
// made here, with room for a holder count before them (see bufRefs).
func (m *Memory) buffer(n int) []byte {
	for i := len(m.spareData) - 1; i >= 0 && i >= len(m.spareData)-8; i-- {
		if d := m.spareData[i]; cap(d) >= n {
			last := len(m.spareData) - 1
			m.spareData[i] = m.spareData[last]
			m.spareData = m.spareData[:last]
			*bufRefs(d) = 0
			return d[:0]
		}
	}
	c := bufHeader + (max(n, 16)+7)&^7 // (8-aligned: the count is read atomically)
	if !m.bulk || c > dataBlock/4 {
		return make([]byte, c)[bufHeader:bufHeader]
	}
	if len(m.dataRoom) < c {
		m.dataRoom = make([]byte, dataBlock)
	}
	d := m.dataRoom[bufHeader:bufHeader:c]
	m.dataRoom = m.dataRoom[c:]
	return d
}

// spareBuf keeps buffer d, which no chunk holds any more, for reuse.
func (m *Memory) spareBuf(d []byte) {
	if len(m.spareData) < maxSpareData {
		m.spareData = append(m.spareData, d[:0])
	}
}

// reset makes m a copy-on-write copy of the frozen image img again,
// recycling the chunks and small-block buffers m owns (see shareFrom).
func (m *Memory) reset(img *Memory) {
	m.shareFrom(img)
	m.refused = 0
}

// Live is the bytes of the memory's live heap (malloc) and stack (alloca)
// blocks.
func (m *Memory) Live() uint64 { return m.live }

// AllocMark is the memory's block-id allocation state: the number of ids
// handed out and of dead stack-block ids kept for reuse. The ids the next
// allocations get depend on it alone, so a step that leaves it unchanged
// neither allocated nor freed a stack block nor allocated a heap block:
// partial-order reduction (explicit/por.go) lets only such steps commute,
// since two allocations in the other order would number their blocks
// differently.
func (m *Memory) AllocMark() (ids uint32, deadStack int) { return m.n, len(m.freeStack) }

// recount recomputes live from the blocks (after a snapshot is restored).
func (m *Memory) recount() {
	m.live, m.heap, m.undef = 0, 0, 0
	for id := uint32(1); id < m.n; id++ {
		if m.blk(id).kind&blkUndef != 0 {
			m.undef++
		}
		if k := m.blk(id).kind &^ blkUndef; k == blkHeap || k == blkStack {
			m.live += uint64(m.blk(id).size)
			if k == blkHeap {
				m.heap++
			}
		}
	}
}

// newBlock allocates a fresh block id with zeroed bytes.
func (m *Memory) newBlock(size uint32, kind uint8, thread int32) uint32 {
	if m.epoch == 0 {
		m.renew()
	}
	if m.n == 0 { // block 0 is null
		m.n = 1
		m.chunks = append(m.chunks, &chunk{owner: m.epoch})
	}
	var id uint32
	if kind == blkStack && len(m.freeStack) > 0 {
		id = m.freeStack[len(m.freeStack)-1]
		m.freeStack = m.freeStack[:len(m.freeStack)-1]
	} else {
		id = m.n
		m.n++
		if int(id>>chunkBits) >= len(m.chunks) {
			m.chunks = append(m.chunks, m.newChunk())
		}
	}
	if kind == blkHeap || kind == blkStack {
		if m.limit > 0 && m.live+uint64(size) > m.limit {
			m.refused = max(uint64(size), 1) // the run ends; the block gets no bytes
			size = 0
		}
		m.live += uint64(size)
		if kind == blkHeap {
			m.heap++
		}
	}
	// The block's old bytes (a dead stack block's, when its id is reused)
	// are not copied: they are replaced, or cleared if m owns them.
	b := m.wdesc(id)
	owned := m.ownsBlock(b) || b.data != nil && releaseBuf(b.data)
	b.owner = m.epoch
	b.kind, b.size, b.thread = kind, size, thread
	if size > pageSize {
		np := (size + pageSize - 1) / pageSize
		b.data = nil
		b.pages = make([]*page, np)
		for i := range b.pages {
			b.pages[i] = &zeroPage // owned by nobody: a page is made on its first write
		}
		return id
	}
	b.pages = nil
	if owned && cap(b.data) >= int(size) {
		b.data = b.data[:size]
		clear(b.data)
	} else {
		if owned && b.data != nil {
			m.spareBuf(b.data)
		}
		b.data = m.buffer(int(size))[:size]
		clear(b.data)
	}
	return id
}

// setBlockInit creates block id (which must be the next id) with the given
// bytes; used for globals and functions.
func (m *Memory) initBlock(id uint32, kind uint8, init []byte) {
	if id == 0 {
		if m.n == 0 {
			m.newBlock(0, blkNone, -1)
		}
		return
	}
	for m.n <= id {
		m.newBlock(0, blkNone, -1)
	}
	b := m.wblk(id)
	b.kind, b.size = kind, uint32(len(init))
	if len(init) > pageSize {
		np := (len(init) + pageSize - 1) / pageSize
		b.data = nil
		b.pages = make([]*page, np)
		for i := range b.pages {
			part := init[i*pageSize : min(len(init), (i+1)*pageSize)]
			if allZero(part) {
				b.pages[i] = &zeroPage // a zero-filled global takes no pages until written
				continue
			}
			p := &page{owner: m.epoch}
			copy(p.data[:], part)
			b.pages[i] = p
		}
		return
	}
	b.data = append(m.buffer(len(init)), init...)
}

// allZero reports whether b holds only zero bytes.
func allZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}

// freeStackBlock marks a stack block dead and makes its id reusable. A
// dead block's bytes are no part of the state (hasBytes) and are never
// read again: bytes m does not own (shared with other states) are dropped
// instead of copied, and newBlock gives the id new ones when it reuses it.
func (m *Memory) freeStackBlock(id uint32) {
	b := m.wdesc(id)
	if !m.ownsBlock(b) {
		if b.data != nil && releaseBuf(b.data) {
			m.spareBuf(b.data)
		}
		b.data, b.pages = nil, nil
	}
	b.owner = m.epoch
	if b.kind&^blkUndef == blkStack {
		m.live -= uint64(b.size)
	}
	if b.kind&blkUndef != 0 {
		m.undef--
	}
	b.kind = blkDead
	if len(m.freeStack) == cap(m.freeStack) {
		m.freeStack = append(m.freeStackRoom(len(m.freeStack), m.bulk), m.freeStack...)
	}
	m.freeStack = append(m.freeStack, id)
}

// freeStackRoom returns an empty list of dead stack blocks with room for
// n ids and roomFreeStack more, carved from m.idRoom in bulk.
func (m *Memory) freeStackRoom(n int, bulk bool) []uint32 {
	var block *[]uint32
	if bulk {
		block = &m.idRoom
	}
	return carve(n+roomFreeStack, roomFreeStackBlock, block)
}

// check validates an access of size bytes at p.
func (m *Memory) check(p uint64, size uint32, write bool) (*block, uint32, ErrKind) {
	id := uint32(p >> ir.PtrBlockShift)
	off := uint32(p) - ir.PtrBase(id)
	if id == 0 {
		return nil, 0, ErrNullDeref
	}
	if id >= m.n {
		return nil, 0, ErrInvalidPtr
	}
	b := m.blk(id)
	switch b.kind &^ blkUndef {
	case blkGlobal, blkStack, blkHeap:
	case blkConst:
		if write {
			return nil, 0, ErrWriteConst
		}
	case blkFreed:
		return nil, 0, ErrUseAfterFree
	case blkDead:
		return nil, 0, ErrUseAfterReturn
	case blkFunc:
		return nil, 0, ErrInvalidPtr
	default:
		return nil, 0, ErrInvalidPtr
	}
	if uint64(off)+uint64(size) > uint64(b.size) {
		return nil, 0, ErrOutOfBounds
	}
	return b, off, ErrNone
}

// Load reads a little-endian scalar of 1 to 8 bytes.
func (m *Memory) Load(p uint64, size uint32) (uint64, ErrKind) {
	b, off, e := m.check(p, size, false)
	if e != ErrNone {
		return 0, e
	}
	if b.pages == nil {
		d := b.data[off:]
		switch size {
		case 1:
			return uint64(d[0]), ErrNone
		case 2:
			return uint64(binary.LittleEndian.Uint16(d)), ErrNone
		case 4:
			return uint64(binary.LittleEndian.Uint32(d)), ErrNone
		case 8:
			return binary.LittleEndian.Uint64(d), ErrNone
		}
	}
	var buf [8]byte
	m.readBlock(b, off, buf[:size])
	return binary.LittleEndian.Uint64(buf[:]), ErrNone
}

// Store writes a little-endian scalar of 1 to 8 bytes.
func (m *Memory) Store(p uint64, size uint32, v uint64) ErrKind {
	_, off, e := m.check(p, size, true)
	if e != ErrNone {
		return e
	}
	b := m.wblk(uint32(p >> ir.PtrBlockShift))
	if b.kind&blkUndef != 0 {
		m.define(b, off, size) // (a flagged block is small)
	}
	if b.pages == nil {
		d := b.data[off:]
		switch size {
		case 1:
			d[0] = byte(v)
			return ErrNone
		case 2:
			binary.LittleEndian.PutUint16(d, uint16(v))
			return ErrNone
		case 4:
			binary.LittleEndian.PutUint32(d, uint32(v))
			return ErrNone
		case 8:
			binary.LittleEndian.PutUint64(d, v)
			return ErrNone
		}
	}
	var buf [8]byte
	binary.LittleEndian.PutUint64(buf[:], v)
	m.writeBlock(b, off, buf[:size])
	return ErrNone
}

func (m *Memory) readBlock(b *block, off uint32, dst []byte) {
	if b.pages == nil {
		copy(dst, b.data[off:])
		return
	}
	for len(dst) > 0 {
		pg := b.pages[off>>pageBits]
		n := copy(dst, pg.data[off&(pageSize-1):])
		dst = dst[n:]
		off += uint32(n)
	}
}

// writeBlock writes into an owned block descriptor.
func (m *Memory) writeBlock(b *block, off uint32, src []byte) {
	if b.pages == nil {
		copy(b.data[off:], src)
		return
	}
	for len(src) > 0 {
		pi := off >> pageBits
		pg := b.pages[pi]
		if pg.owner != m.epoch && m.owns(pg.owner) {
			pg.owner = m.epoch
		} else if pg.owner != m.epoch {
			np := *pg
			np.owner = m.epoch
			pg = &np
			b.pages[pi] = pg
		}
		n := copy(pg.data[off&(pageSize-1):], src)
		src = src[n:]
		off += uint32(n)
	}
}

// Read copies n bytes at p into dst (checked).
func (m *Memory) Read(p uint64, dst []byte) ErrKind {
	if len(dst) == 0 {
		return ErrNone
	}
	b, off, e := m.check(p, uint32(len(dst)), false)
	if e != ErrNone {
		return e
	}
	m.readBlock(b, off, dst)
	return ErrNone
}

// Write copies src to p (checked).
func (m *Memory) Write(p uint64, src []byte) ErrKind {
	if len(src) == 0 {
		return ErrNone
	}
	_, off, e := m.check(p, uint32(len(src)), true)
	if e != ErrNone {
		return e
	}
	b := m.wblk(uint32(p >> ir.PtrBlockShift))
	m.writeBlock(b, off, src)
	if b.kind&blkUndef != 0 {
		m.define(b, off, uint32(len(src)))
	}
	return ErrNone
}

// ByteAt reads one byte (for string functions).
func (m *Memory) ByteAt(p uint64) (byte, ErrKind) {
	v, e := m.Load(p, 1)
	return byte(v), e
}

// BlockSize returns the size of the block p points into, and whether it is live.
func (m *Memory) BlockSize(p uint64) (uint32, bool) {
	id := uint32(p >> ir.PtrBlockShift)
	if id == 0 || id >= m.n {
		return 0, false
	}
	b := m.blk(id)
	k := b.kind &^ blkUndef
	return b.size, k == blkGlobal || k == blkStack || k == blkHeap || k == blkConst
}

// free releases a heap block.
func (m *Memory) free(p uint64) ErrKind {
	if p == 0 {
		return ErrNone
	}
	id := uint32(p >> ir.PtrBlockShift)
	if id >= m.n || ir.PtrOff(p) != 0 {
		return ErrInvalidFree
	}
	b := m.blk(id)
	switch b.kind &^ blkUndef {
	case blkHeap:
	case blkFreed:
		return ErrDoubleFree
	default:
		return ErrInvalidFree
	}
	wb := m.wblk(id)
	m.live -= uint64(wb.size)
	m.heap--
	if wb.kind&blkUndef != 0 {
		m.undef--
	}
	wb.kind = blkFreed
	wb.data, wb.pages = nil, nil
	return ErrNone
}
