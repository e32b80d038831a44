package vm

import (
	"slices"
	"sync/atomic"
	"unsafe"
)

// Sharing processes between states. Explicit-state search copies a state
// for every successor it tries (CopyInto), and a step changes at most the
// process that moves (SoloStep) or, in a platform call, a few: copying
// every process's frames and registers from a parent that is cold in the
// cache was the largest cost of the search. So CopyInto shares the thread
// records instead, copy-on-write, as Memory shares chunks: a record is
// immutable while more than one state holds it, and a state copies it
// before its first write (own, ownAll, called by StepOnly, the only way
// search changes a copied state's processes).
//
// Thread.shared counts the holders other than one: 0 means the one state
// holding the record owns it and writes it in place. It is only changed
// atomically, since the parallel search's workers copy and release
// records of states (siblings, a parent and its successors) in several
// goroutines; a holder only ever adds a holder (CopyInto of a state it
// holds), so a count read as 0 cannot grow behind the owner's back. Every
// record an owner drops when the last holder goes (release) is kept in
// that state's spare list and reused, so steady-state search allocates no
// records.
//
// The simulator never shares: its states are made by NewState, Reset and
// Clone, whose records are owned (shared 0), and it writes them in place
// through Step and Run as before.

// releaseThreads drops st's hold on its processes, keeping the records no
// other state holds for reuse, and empties st.Threads.
func (st *State) releaseThreads() {
	for _, t := range st.Threads {
		if release(t) {
			st.spare = append(st.spare, t)
		}
	}
	st.Threads = st.Threads[:0]
}

// spareThread returns a record for st to fill: a spare one or a new one.
// New ones are allocated threadSlab at a time (the others become spares):
// records are never freed while a search runs, they go from state to state
// through the spare lists, and a search allocates them while its queue
// grows.
func (st *State) spareThread() *Thread {
	if k := len(st.spare); k > 0 {
		t := st.spare[k-1]
		st.spare = st.spare[:k-1]
		return t
	}
	slab := new([threadSlab]Thread)
	for i := 1; i < threadSlab; i++ {
		st.spare = append(st.spare, &slab[i])
	}
	return &slab[0]
}

// threadSlab is the number of records spareThread allocates at once: as
// many as fit in SlabBytes.
const threadSlab = int(SlabBytes / unsafe.Sizeof(Thread{}))

// SlabBytes is the size of the slabs that records, chunks and (package
// explicit's) states are allocated in: the largest size class of the Go
// allocator's small objects, so that a slab wastes little of its class
// (under 1.5 % for these types), where a larger object is rounded up to
// whole 8 KiB pages (64 chunks would take 40 KiB for 37).
const SlabBytes = 32 << 10

// copyThread makes dst a copy of src's process (not of its sharing count
// or cached parts hash), reusing dst's buffers. It reads src field by
// field: src.shared may change concurrently. A buffer of dst too short
// for src's is replaced by one with room to spare carved from room (nil:
// allocated alone), so that a record seldom grows again: records go from
// process to process through the spare lists, and calls push frames and
// registers on the records they own.
func copyThread(dst, src *Thread, room *recordRoom) {
	dst.ID, dst.Done = src.ID, src.Done
	var f *[]Frame
	var r *[]uint64
	var a *[]uint32
	if room != nil {
		f, r, a = &room.f, &room.r, &room.a
	}
	dst.Frames = append(fit(dst.Frames, len(src.Frames), roomFrames, roomFramesBlock, f), src.Frames...)
	dst.Regs = append(fit(dst.Regs, len(src.Regs), roomRegs, roomRegsBlock, r), src.Regs...)
	dst.Allocas = append(fit(dst.Allocas, len(src.Allocas), roomAllocas, roomAllocasBlock, a), src.Allocas...)
	dst.RetVal, dst.Atomic, dst.Wait = src.RetVal, src.Atomic, src.Wait
	dst.WaitSeq, dst.WaitOn, dst.Detached = src.WaitSeq, src.WaitOn, src.Detached
	dst.shared, dst.phID = 0, 0
}

// own makes process i of st a record st alone holds, copying it if it is
// shared, and returns it; its cached parts hash is dropped, since the
// caller is about to change it.
func (st *State) own(i int32) *Thread {
	t := st.Threads[i]
	if atomic.LoadInt32(&t.shared) == 0 {
		t.phID = 0
		return t
	}
	nt := st.spareThread()
	if st.room == nil {
		st.room = new(recordRoom)
	}
	copyThread(nt, t, st.room)
	st.Threads[i] = nt
	if release(t) {
		st.spare = append(st.spare, t)
	}
	return nt
}

// OwnThread is own for a caller that changes process i of st outside a
// step: explicit search clears the registers a process will not read again
// (explicit/dead.go). The record returned is st's alone, its cached parts
// hash dropped.
func (st *State) OwnThread(i int32) *Thread { return st.own(i) }

// ownAll owns every process of st (before a step that may change others
// than the one that moves: platform calls).
func (st *State) ownAll() {
	for i := range st.Threads {
		st.own(int32(i))
	}
}

// DropInto lets go of everything st holds: its processes' records and its
// memory's chunks, and gives those st was the last to hold to dst's spare
// lists (within their bounds). st is left with no process and an empty
// memory, for CopyInto only. Explicit search drops the expanded states it
// has no use for, so that the chunks, bytes and records they alone held
// are reused rather than made anew. st's own spare lists must be empty
// (GiveSpares leaves them so): dst's are lent to it meanwhile.
func (st *State) DropInto(dst *State) {
	m, d := &st.Mem, &dst.Mem
	st.spare, dst.spare = dst.spare, st.spare
	m.spareChunks, d.spareChunks = d.spareChunks, m.spareChunks
	m.spareData, d.spareData = d.spareData, m.spareData
	st.releaseThreads()
	m.release()
	st.spare, dst.spare = dst.spare, st.spare
	m.spareChunks, d.spareChunks = d.spareChunks, m.spareChunks
	m.spareData, d.spareData = d.spareData, m.spareData
}

// GiveSpares moves the buffers st keeps for reuse (thread records, memory
// chunks and small blocks' bytes) to dst, within dst's bounds. Explicit
// search hands the successor it keeps to its queue and builds the next one
// in another state: what the kept one holds for reuse would otherwise lie
// unused in the queue while the other allocates anew.
func (st *State) GiveSpares(dst *State) {
	if st == dst {
		return
	}
	dst.spare, st.spare = giveAll(dst.spare, st.spare, -1)
	switch {
	case dst.room == nil:
		dst.room, st.room = st.room, nil
	case st.room != nil:
		st.room.giveTo(dst.room)
	}
	m, d := &st.Mem, &dst.Mem
	d.spareChunks, m.spareChunks = giveAll(d.spareChunks, m.spareChunks, maxSpareChunks)
	d.spareData, m.spareData = giveAll(d.spareData, m.spareData, maxSpareData)
	if len(m.dataRoom) > len(d.dataRoom) {
		m.dataRoom, d.dataRoom = d.dataRoom, m.dataRoom
	}
	if len(m.chunkRoom) > len(d.chunkRoom) {
		m.chunkRoom, d.chunkRoom = d.chunkRoom, m.chunkRoom
	}
	if len(m.idRoom) > len(d.idRoom) {
		m.idRoom, d.idRoom = d.idRoom, m.idRoom
	}
}

// AllocateInBulk makes st, and the states CopyInto copies from it (and
// from them), allocate memory chunks and small blocks' byte buffers many
// at a time (55 chunks; buffers carved from 16 KiB blocks), as process
// records are, and carve the lists a copy needs longer than it has (its
// processes, its chunk table, its dead stack blocks, the last with room
// to spare) from shared blocks: for explicit search, which recycles its states'
// buffers and would otherwise allocate them one by one while its queue
// grows (every new state it queues needs lists), and which then recycles
// states that never had a list of dead stack blocks. A state that is
// cloned, not recycled, would hold the unused rest of each batch.
func (st *State) AllocateInBulk() { st.Mem.bulk = true }

// giveAll moves the elements of from to to, up to limit elements in to in
// all (limit < 0: no bound), and returns both lists, from emptied. An empty
// to trades its backing array for from's instead, so that handing spares
// around a ring of states allocates nothing once the lists have grown.
func giveAll[E any](to, from []E, limit int) ([]E, []E) {
	if limit < 0 {
		limit = len(to) + len(from)
	}
	k := min(len(from), limit-min(len(to), limit))
	if len(to) == 0 && k == len(from) {
		return from, to[:0]
	}
	to = append(to, from[len(from)-k:]...)
	clear(from)
	return to, from[:0]
}

// recordRoom holds the unused rest of the blocks that copyThread carves
// records' buffers from: one allocation serves many records. Pieces are
// never given back (a record keeps its buffers for life, and records are
// recycled, not freed, while a search runs). A state's room goes with its
// spares (GiveSpares) to the state built next, so that only the states
// being built hold room.
type recordRoom struct {
	f []Frame
	r []uint64
	a []uint32
	// t: the states' lists of processes (CopyInto, in a memory marked
	// AllocateInBulk).
	t []*Thread
}

// Room to spare a carved buffer gets beyond the length it is carved for,
// and the size of the blocks carved from (a buffer over a quarter of a
// block is allocated alone). A state's list of processes gets none (nor
// does its chunk table, roomChunks): their lengths seldom change, and two
// more pointers in every queued state's lists cost fib_8's full-storage
// search 3.8 MB of heap at 2 M states and saved almost no allocations.
const (
	roomFrames, roomFramesBlock   = 2, 1024
	roomRegs, roomRegsBlock       = 8, 16384
	roomAllocas, roomAllocasBlock = 4, 4096
	roomThreads, roomThreadsBlock = 0, 2048
)

// giveTo hands r's blocks to dst where dst has less room left.
func (r *recordRoom) giveTo(dst *recordRoom) {
	if len(r.f) > len(dst.f) {
		r.f, dst.f = dst.f, r.f
	}
	if len(r.r) > len(dst.r) {
		r.r, dst.r = dst.r, r.r
	}
	if len(r.a) > len(dst.a) {
		r.a, dst.a = dst.a, r.a
	}
	if len(r.t) > len(dst.t) {
		r.t, dst.t = dst.t, r.t
	}
}

// fit returns s emptied if it can hold n elements, else an empty buffer
// with room for n+spare carved from *block (refilled with a new block of
// size elements when short; allocated alone if block is nil or the buffer
// is over a quarter of a block).
func fit[E any](s []E, n, spare, size int, block *[]E) []E {
	if n <= cap(s) {
		return s[:0]
	}
	return carve(n+spare, size, block)
}

// carve returns an empty buffer with room for c elements carved from
// *block (refilled with a new block of size elements when short), or
// allocated alone if block is nil or the buffer is over a quarter of a
// block. Its capacity is c exactly: appending past it reallocates rather
// than writing into the next buffer carved from the block.
func carve[E any](c, size int, block *[]E) []E {
	if block == nil || c > size/4 {
		return make([]E, 0, c)
	}
	if len(*block) < c {
		*block = make([]E, size)
	}
	b := (*block)[:0:c]
	*block = (*block)[c:]
	return b
}

// lengthen returns s lengthened to n elements (n > len(s)), the new ones
// zero, in place when its capacity allows. Otherwise with block the
// result is carved from *block (see carve) with spare elements to spare
// and s's array is cleared (if carved from a block too, it would keep
// what its pointers point to reachable for as long as the block lives);
// without block it grows as slices.Grow grows it.
func lengthen[E any](s []E, n, spare, size int, block *[]E) []E {
	k := len(s)
	if n > cap(s) && block != nil {
		t := append(carve(n+spare, size, block), s...)
		clear(s)
		s = t
	}
	s = slices.Grow(s, n-k)[:n]
	clear(s[k:])
	return s
}
