package vm

import (
	"slices"
	"sync"
)

// A state's fingerprint (State.Hash) is the sum, lane by lane mod 2^64, of
// the HashKey of each part of its canonical key: the run's header (part
// kind, status, error, process count, block count), each process (kind,
// then appendThread's words, which begin with its id) and each block that
// differs from the image (kind, then appendBlock's words, which begin with
// its id). Equal states have equal keys, so equal parts and equal
// fingerprints; states with different keys differ in at least one part,
// and their fingerprints are then equal only if the parts they do not share
// hash to equal sums (probability 2^-128 if HashKey behaved as a random
// function). HashKey has fixed constants and no seed, so a fingerprint is
// the same in every process (EnumStatesSMC merges the fingerprints of
// traces run by different workers). Being a sum of parts, it can follow a
// run step by step (Fingerprinter) instead of encoding and hashing the
// whole state at every step.

// fpBufs holds the buffers Hash encodes parts into.
var fpBufs = sync.Pool{New: func() any { return new([]uint64) }}

// Hash returns st's fingerprint (see above), computed from scratch with
// pooled buffers (no allocation in the steady state). Equal states (equal
// keys) hash equal whatever copy-on-write sharing or buffer capacities
// they have; states that differ in anything the key holds (condition-
// variable waiter order and stack-block owners included) hash differently
// but for 128-bit collisions. Like AppendKey it only reads st.
func (st *State) Hash() Hash128 {
	bp := fpBufs.Get().(*[]uint64)
	x := fpHeader(bp, st)
	for _, t := range st.Threads {
		x = addHash(x, fpThread(bp, st, t))
	}
	for id, b := range st.Mem.changed(imageOf(&st.Mem)) {
		*bp = appendBlock(append((*bp)[:0], partBlock), id, b)
		x = addHash(x, HashKey(*bp))
	}
	fpBufs.Put(bp)
	return x
}

// imageOf is the image mem's key is relative to.
func imageOf(mem *Memory) *Memory {
	if mem.image == nil {
		return &noImage
	}
	return mem.image
}

// fpHeader, fpThread and fpBlock are the fingerprint's part hashes, encoded
// in *bp.
func fpHeader(bp *[]uint64, st *State) Hash128 {
	*bp = appendHeader((*bp)[:0], st)
	return HashKey(*bp)
}

func fpThread(bp *[]uint64, st *State, t *Thread) Hash128 {
	*bp = appendThread(append((*bp)[:0], partThread), st, t)
	return HashKey(*bp)
}

// fpBlock is zero for what is not a part: the null block, ids past the
// memory's end and blocks equal to the image.
func fpBlock(bp *[]uint64, mem, img *Memory, id uint32) Hash128 {
	b := keyBlock(mem, img, id)
	if b == nil {
		return Hash128{}
	}
	*bp = appendBlock(append((*bp)[:0], partBlock), id, b)
	return HashKey(*bp)
}

// Fingerprinter computes State.Hash of the states of a run one after the
// other, updating the previous state's parts instead of hashing every
// part again: it rehashes the header, the process that made the step (all
// processes after anything else: a platform call, several steps, another
// state) and the blocks written since its last call. To know those, each
// call moves the state's memory to a new epoch of its own (Memory.advance:
// the writes after it carry the new epoch; nothing is copied or shared),
// so Hash writes to st's memory bookkeeping, never to what the state is.
// Anything it cannot follow — another state, a state reset, cloned or
// copied into since its last call (its memory renewed) — is hashed from
// scratch. Not safe for concurrent use; the zero value is ready.
type Fingerprinter struct {
	st           *State
	base, epoch  uint64 // st.Mem's after the last call
	steps, syncs uint64
	threads      []Hash128 // part hash of each process
	blocks       []Hash128 // part hash of each block id (zero: not a part)
	sum          Hash128   // of threads and blocks
	hdr          []uint64  // the header's words, and their hash
	hdrHash      Hash128
	buf          []uint64
}

// Hash returns st.Hash(), updated from the state this fingerprinter saw
// last when st is that state one or more steps on.
func (f *Fingerprinter) Hash(st *State) Hash128 {
	mem := &st.Mem
	if f.st != st || mem.base != f.base || mem.epoch != f.epoch || mem.base == 0 {
		f.full(st)
	} else {
		f.update(st)
	}
	f.steps, f.syncs = st.Steps, st.syncs
	mem.advance()
	f.base, f.epoch = mem.base, mem.epoch
	// The header (status, error, process and block counts) changes
	// seldom: it is hashed again only when its words do.
	f.buf = appendHeader(f.buf[:0], st)
	if !slices.Equal(f.buf, f.hdr) {
		f.hdr = append(f.hdr[:0], f.buf...)
		f.hdrHash = HashKey(f.hdr)
	}
	return addHash(f.hdrHash, f.sum)
}

// full hashes every part of st.
func (f *Fingerprinter) full(st *State) {
	f.st = st
	f.sum = Hash128{}
	f.threads = f.threads[:0]
	for _, t := range st.Threads {
		h := fpThread(&f.buf, st, t)
		f.threads = append(f.threads, h)
		f.sum = addHash(f.sum, h)
	}
	f.blocks = append(f.blocks[:0], make([]Hash128, st.Mem.n)...)
	for id, b := range st.Mem.changed(imageOf(&st.Mem)) {
		f.buf = appendBlock(append(f.buf[:0], partBlock), id, b)
		h := HashKey(f.buf)
		f.blocks[id] = h
		f.sum = addHash(f.sum, h)
	}
}

// update rehashes the parts of st that can have changed since the last
// call (st is the state then, changed by steps).
func (f *Fingerprinter) update(st *State) {
	// Processes: one step that made no platform call changes only the
	// process that made it (a call that changes others — creating,
	// joining, signalling, waking — counts in syncs; quiet calls such as
	// draws change only their caller).
	if tid := st.LastThread; st.Steps == f.steps+1 && st.syncs == f.syncs && len(st.Threads) == len(f.threads) &&
		tid >= 0 && int(tid) < len(st.Threads) {
		h := fpThread(&f.buf, st, st.Threads[tid])
		f.sum = addHash(subHash(f.sum, f.threads[tid]), h)
		f.threads[tid] = h
	} else if st.Steps != f.steps {
		for _, h := range f.threads {
			f.sum = subHash(f.sum, h)
		}
		f.threads = f.threads[:0]
		for _, t := range st.Threads {
			h := fpThread(&f.buf, st, t)
			f.threads = append(f.threads, h)
			f.sum = addHash(f.sum, h)
		}
	}
	// Blocks: those written since the last call carry the epoch it moved
	// the memory to.
	mem := &st.Mem
	img := imageOf(mem)
	if n := int(mem.n); n < len(f.blocks) {
		for _, h := range f.blocks[n:] {
			f.sum = subHash(f.sum, h)
		}
		f.blocks = f.blocks[:n]
	} else if n > len(f.blocks) {
		f.blocks = append(f.blocks, make([]Hash128, n-len(f.blocks))...)
	}
	for id := range mem.written(f.epoch) {
		if id >= mem.n {
			continue
		}
		h := fpBlock(&f.buf, mem, img, id)
		f.sum = addHash(subHash(f.sum, f.blocks[id]), h)
		f.blocks[id] = h
	}
}
