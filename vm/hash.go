package vm

import (
	"encoding/binary"
	"iter"
	"math/bits"
	"math/rand/v2"
	"slices"
	"sync/atomic"
	"unsafe"
)

// A state's identity is one encoding: appendKey is the only walk over a
// state that decides which of its parts make it the state it is. Its words
// are the canonical key (Machine.AppendKey, what explicit-state search
// stores and compares), and a state's fingerprint (State.Hash, what
// EnumStatesSMC collects across traces and workers) hashes those words
// part by part (appendStatus, appendThread, appendBlock: the pieces
// appendKey is made of; fingerprint.go). So the two count the same states:
// two states have equal keys exactly when they are equal as states, and
// equal keys have equal parts, so equal fingerprints. Hashing part by part
// lets a state's fingerprint be updated from the previous state's along a
// run (Fingerprinter), and a successor's parts hash from its parent's in a
// search (PartsHasher, seeded per search); TestFingerprinter and
// TestPartsHash check updates against hashes from scratch.
//
// Snapshots (snapshot.go) carry more than the identity (the step counter,
// the output, absolute condition-variable sequence numbers, the free list
// of stack ids: what a restored run needs to go on exactly as the original)
// and take the memory blocks to store from the same iterator as the key
// (Memory.changed); TestSnapshotRoundTrip checks that a restored state has
// the original's key, and TestIdentityFields that every field of the state
// is either encoded or listed as deliberately left out.

// Hash128 is a 128-bit state fingerprint.
type Hash128 [2]uint64

const (
	hp1 = 0x9e3779b97f4a7c15
	hp2 = 0xc2b2ae3d27d4eb4f
	hp3 = 0x165667b19e3779f9
	hp4 = 0x27d4eb2f165667c5
)

// mixWord absorbs one word into a pair of multiply-mix lanes (a, b): a
// 128-bit state that every word changes through two multiplications.
func mixWord(a, b, v uint64) (uint64, uint64) {
	hi, lo := bits.Mul64(a^v, hp1)
	a = hi ^ lo ^ b
	hi, lo = bits.Mul64(b^v^hp3, hp2)
	return a, hi ^ lo ^ a
}

// mum is the folded 128-bit product of x and y.
func mum(x, y uint64) uint64 {
	hi, lo := bits.Mul64(x, y)
	return hi ^ lo
}

// HashKey returns a 128-bit hash of a sequence of words (a canonical
// encoding made by AppendKey, or one part of it: State.Hash sums the
// HashKey of each part). Two lanes take the words two at a time, each through one
// 64×64→128-bit multiplication of a word (xor a constant) by the other
// word xor the lane's running value (wyhash's step, with the running value
// in the operand: a lane loses its history only when a word equals its
// running value or a constant); the lanes are folded at the end with the
// word count. One multiplication per word (the former per-word mixWord
// made two, serially dependent). It has fixed constants and no seed, so a
// state's fingerprint is the same in every process (EnumStatesSMC merges
// the fingerprints of traces run by different workers). It is not
// cryptographic; it is for visited sets.
func HashKey(key []uint64) Hash128 {
	a, b, c, d := uint64(hp2), uint64(hp3), uint64(hp1), uint64(hp4)
	p := key
	for ; len(p) >= 4; p = p[4:] {
		w0, w1, w2, w3 := p[0], p[1], p[2], p[3]
		a, b = mum(w0^hp1, w1^a), mum(w1^hp3, w0^b^hp2)
		c, d = mum(w2^hp4, w3^c), mum(w3^hp2, w2^d^hp1)
	}
	for ; len(p) > 0; p = p[1:] {
		a, b = mum(p[0]^hp1, a), mum(p[0]^hp3, b^hp2)
	}
	a, b = mixWord(a, b, uint64(len(key)))
	a, b = mixWord(a, b, c)
	a, b = mixWord(a, b, d)
	a, b = mix64(a^hp2), mix64(b^hp1)
	return Hash128{a ^ b>>7, b ^ a<<9}
}

// AppendKey appends the canonical encoding of st to dst: two states have
// equal encodings exactly when they are equal as states of this machine
// (processes: frames, pcs, live value slots, allocas, wait and atomic
// status, the order of arrival of condition-variable waiters; memory: every
// block that differs from the post-initialisation image, with its kind,
// size, owning thread and bytes; the run's status and error kind). It
// leaves out the step counter, the captured output, the last process to
// move and the order of reusable stack block ids. Blocks equal to the image
// are left out by content, so the encoding is canonical whatever
// copy-on-write sharing a state has. It allocates only to grow dst.
func (m *Machine) AppendKey(dst []uint64, st *State) []uint64 {
	return appendKey(dst, st, &m.init)
}

// AppendKeyParts appends st's canonical encoding to dst, the same words
// as AppendKey (appendKey is the one walk), and to ends the offset in dst
// where each of its parts ends: the run's status and process count, each
// process (appendThread), the block count, each block that differs from
// the image (appendBlock). The parts are what explicit search's tree
// storage interns one by one; the sequence of parts is a function of the
// key (its counts delimit it), so two states have equal sequences of parts
// exactly when they have equal keys.
func (m *Machine) AppendKeyParts(dst []uint64, ends []int32, st *State) ([]uint64, []int32) {
	return appendKeyParts(dst, ends, true, st, &m.init)
}

// noImage stands for the image of a state made without a machine (a zero
// State): every block is then encoded.
var noImage Memory

// appendKey is the one walk that defines a state's identity (see the top
// of this file): it appends the encoding of st, relative to the image img
// its memory derives from, to dst.
func appendKey(dst []uint64, st *State, img *Memory) []uint64 {
	dst, _ = appendKeyParts(dst, nil, false, st, img)
	return dst
}

// appendKeyParts is appendKey, which also appends the end of each part
// of the key to ends when part is set (AppendKeyParts).
func appendKeyParts(dst []uint64, ends []int32, part bool, st *State, img *Memory) ([]uint64, []int32) {
	if img == nil {
		img = &noImage
	}
	dst = appendStatus(dst, st)
	dst = append(dst, uint64(len(st.Threads)))
	if part {
		ends = append(ends, int32(len(dst)))
	}
	for _, t := range st.Threads {
		dst = appendThread(dst, st, t)
		if part {
			ends = append(ends, int32(len(dst)))
		}
	}
	mem := &st.Mem
	dst = append(dst, uint64(mem.n))
	if part {
		ends = append(ends, int32(len(dst)))
	}
	for id, b := range mem.changed(img) {
		dst = appendBlock(dst, id, b)
		if part {
			ends = append(ends, int32(len(dst)))
		}
	}
	return dst, ends
}

// appendStatus appends the run's status, exit code and error: the first
// words of a key.
func appendStatus(dst []uint64, st *State) []uint64 {
	dst = append(dst, uint64(st.Status)<<32|uint64(uint32(st.ExitCode)))
	if st.Err != nil {
		return append(dst, uint64(st.Err.Kind)<<32|uint64(uint32(st.Err.Thread)))
	}
	return append(dst, ^uint64(0))
}

// appendThread appends the part of a key that encodes process t of st.
func appendThread(dst []uint64, st *State, t *Thread) []uint64 {
	dst = append(dst, uint64(uint32(t.ID))|uint64(t.Wait)<<32|uint64(b2u(t.Done))<<40|uint64(uint32(t.Atomic))<<41|
		uint64(b2u(t.Detached))<<63, // atomic depths stay far below 2^22
		t.WaitOn, t.RetVal)
	if t.Wait == waitCond {
		// Only the order of arrival matters (pthread_cond_signal wakes
		// the earliest waiter), not the absolute sequence number.
		rank := uint64(0)
		for _, o := range st.Threads {
			if o.Wait == waitCond && o.WaitSeq < t.WaitSeq {
				rank++
			}
		}
		dst = append(dst, rank)
	}
	dst = append(dst, uint64(len(t.Frames)))
	for i := range t.Frames {
		fr := &t.Frames[i]
		dst = append(dst, uint64(fr.Fn.Index)<<32|uint64(uint32(fr.PC)),
			uint64(uint32(fr.RetDst))<<32|uint64(uint32(fr.AllocaMark)), fr.OnceAddr)
		dst = append(dst, t.Regs[fr.Base:fr.Base+fr.Fn.ConstBase]...)
	}
	dst = append(dst, uint64(len(t.Allocas)))
	for _, id := range t.Allocas {
		dst = append(dst, uint64(id))
	}
	return dst
}

// appendBlock appends the part of a key that encodes block id (one that
// differs from the image).
func appendBlock(dst []uint64, id uint32, b *block) []uint64 {
	dst = append(dst, uint64(id)<<8|uint64(b.kind), uint64(b.size)|uint64(uint32(b.thread))<<32)
	switch {
	case !hasBytes(b.kind):
	case b.pages == nil:
		dst = appendWords(dst, b.stored())
	default:
		rest := b.size
		for _, pg := range b.pages {
			n := min(rest, pageSize)
			dst = appendWords(dst, pg.data[:n])
			rest -= n
		}
	}
	return dst
}

// appendWords packs bytes into little-endian words; a partial last word
// carries its length in the top bits (lengths are also in the encoding, so
// this only keeps distinct tails distinct).
func appendWords(dst []uint64, p []byte) []uint64 {
	if n := len(p) / 8; n > 8 {
		dst = slices.Grow(dst, n+1)
		out := dst[len(dst) : len(dst)+n]
		for i := range out {
			out[i] = binary.LittleEndian.Uint64(p[8*i:])
		}
		dst = dst[:len(dst)+n]
		p = p[8*n:]
	}
	for ; len(p) >= 8; p = p[8:] {
		dst = append(dst, binary.LittleEndian.Uint64(p))
	}
	if len(p) > 0 {
		var buf [8]byte
		copy(buf[:], p)
		dst = append(dst, binary.LittleEndian.Uint64(buf[:])^uint64(len(p))<<59)
	}
	return dst
}

// changed iterates, in id order, over the blocks of mem that differ from
// the image img (a block past the image's end always differs): the blocks
// a state's identity and its snapshot hold. Chunks still shared with the
// image are skipped without looking at their blocks, and blocks that still
// share their descriptor's bytes with the image without comparing them.
func (mem *Memory) changed(img *Memory) iter.Seq2[uint32, *block] {
	return func(yield func(uint32, *block) bool) {
		for ci, ch := range mem.chunks {
			var ich *chunk
			if ci < len(img.chunks) {
				if ich = img.chunks[ci]; ch == ich {
					continue // shared with the image: every block in it is the image's
				}
			}
			base := uint32(ci << chunkBits)
			if base >= mem.n {
				return
			}
			for j := range min(chunkSize, mem.n-base) {
				id := base + j
				if id == 0 {
					continue
				}
				b := &ch.b[j]
				if id < img.n {
					ib := &ich.b[j]
					if sharesBytes(b, ib) || sameBlock(b, ib) {
						continue
					}
				}
				if !yield(id, b) {
					return
				}
			}
		}
	}
}

// written iterates, in id order, over the ids of the blocks of mem
// stamped with epoch in chunks stamped with it too: when epoch is mem's
// current one, the blocks written since mem last moved to a new epoch (a
// copy's renew, or advance). Chunks not stamped with it (shared with the
// state mem was copied from, or written before) are skipped without
// looking at their blocks. The ids may include the null block and ids past
// mem.n (a block written, then freed off the end): callers that want parts
// skip those. Successor hashes, key deltas and fingerprints all walk a
// step's writes with it.
func (mem *Memory) written(epoch uint64) iter.Seq[uint32] {
	return func(yield func(uint32) bool) {
		for ci, ch := range mem.chunks {
			if ch.owner != epoch {
				continue // shared: unchanged since the copy
			}
			base := uint32(ci << chunkBits)
			for j := range uint32(chunkSize) {
				if ch.b[j].owner == epoch && !yield(base+j) {
					return
				}
			}
		}
	}
}

// sharesBytes reports whether b is the image's block ib untouched: the
// same descriptor and the same (shared) bytes.
func sharesBytes(b, ib *block) bool {
	return b.kind == ib.kind && b.size == ib.size && b.thread == ib.thread &&
		sameArray(b.data, ib.data) && sameArray(b.pages, ib.pages)
}

// sameArray reports whether x and y are the same elements of one array
// (two empty slices are).
func sameArray[E any](x, y []E) bool {
	return len(x) == len(y) && (len(x) == 0 || &x[0] == &y[0])
}

// PartsHasher makes a state's 128-bit parts hash: a fingerprint of its
// canonical encoding (appendKey) that a successor can get by updating its
// parent's instead of encoding and hashing the whole state. The key's
// parts are the run's header (status, error, process count, block count),
// each process (appendThread) and each block that differs from the image
// (appendBlock); the parts hash is the sum, lane by lane mod 2^64, of a
// seeded hash of each part (two 64-bit hashes with independent random
// seeds: the runtime's AES-based hash, memhash, the hash hash/maphash
// computes with, of the part's kind followed by its words; a process's
// and a block's words begin with its id). Equal keys have equal parts, so equal parts hashes. Two states
// with different keys differ in at least one part, so if the part hash
// behaves as a random function their parts hashes are equal with
// probability 2^-128 (the sum of the parts they do not share is then
// uniform). Its seeds are drawn per hasher, so it is for one search's
// visited set (State.Hash is the fingerprint that is stable across
// processes). Not safe for concurrent use.
type PartsHasher struct {
	s1, s2 uint64 // nonzero
	// id names the seeds (shared by forks) in the processes' cached part
	// hashes (Thread.ph): a record hashed by another hasher is rehashed.
	id  uint64
	buf []uint64
}

// hasherIDs numbers the parts hashers' seeds (0 means none).
var hasherIDs atomic.Uint64

// NewPartsHasher returns a parts hasher with fresh random seeds.
func NewPartsHasher() *PartsHasher {
	return &PartsHasher{s1: newSeed(), s2: newSeed(), id: hasherIDs.Add(1)}
}

// newSeed draws a random nonzero seed for memWords.
func newSeed() uint64 {
	for {
		if s := rand.Uint64(); s != 0 {
			return s
		}
	}
}

// Fork returns a parts hasher with h's seeds and its own buffer: the same
// hashes as h, for another goroutine (a parallel search's workers).
func (h *PartsHasher) Fork() *PartsHasher { return &PartsHasher{s1: h.s1, s2: h.s2, id: h.id} }

// Uncached returns a parts hasher with h's seeds that neither reads nor
// writes the part hashes cached in processes: the same hashes as h, made
// from scratch (to check the cache: a stale one would make h disagree).
func (h *PartsHasher) Uncached() *PartsHasher { return &PartsHasher{s1: h.s1, s2: h.s2} }

// Part kinds, the first word of each part's hashed words.
const (
	partHeader = 1
	partThread = 2
	partBlock  = 3
)

func addHash(x, y Hash128) Hash128 { return Hash128{x[0] + y[0], x[1] + y[1]} }
func subHash(x, y Hash128) Hash128 { return Hash128{x[0] - y[0], x[1] - y[1]} }

// sum hashes the part in h.buf.
func (h *PartsHasher) sum() Hash128 {
	return Hash128{memWords(h.buf, h.s1), memWords(h.buf, h.s2)}
}

// memhash is the runtime's seeded hash of the s bytes at p: AES-based where
// the processor has AES instructions (wyhash otherwise), the hash of Go's
// maps and of hash/maphash, which calls it on at most 128 bytes at a time,
// chaining the result as the next seed (maphash.Bytes); the runtime names
// it as a function other packages may link to (go.dev/issue/67401).
//
//go:linkname memhash runtime.memhash
//go:noescape
func memhash(p unsafe.Pointer, h, s uintptr) uintptr

// HashWords is the 64-bit hash of the words w with seed (NewHashSeed):
// memWords, the hash of the parts of a PartsHasher, for a whole encoding
// (explicit search's full storage and exact layers).
func HashWords(w []uint64, seed uint64) uint64 {
	if len(w) == 0 {
		return seed
	}
	return memWords(w, seed)
}

// NewHashSeed draws a random seed for HashWords.
func NewHashSeed() uint64 { return newSeed() }

// memWords hashes the bytes of w, not empty, with seed: maphash.Bytes
// with that seed, but for parts of more than 128 bytes hashed in one call
// of memhash rather than one a 128 bytes (a part of a process is mostly
// longer). Like maphash, on 32-bit platforms it puts together two 32-bit
// hashes with the seed's halves.
func memWords(w []uint64, seed uint64) uint64 {
	p, n := unsafe.Pointer(unsafe.SliceData(w)), uintptr(8*len(w))
	if bits.UintSize == 64 {
		return uint64(memhash(p, uintptr(seed), n))
	}
	return uint64(memhash(p, uintptr(seed>>32), n))<<32 | uint64(uint32(memhash(p, uintptr(uint32(seed)), n)))
}

func (h *PartsHasher) header(st *State) Hash128 {
	h.buf = appendHeader(h.buf[:0], st)
	return h.sum()
}

// appendHeader appends the words of st's header part: its kind, the run's
// status and error, the process and block counts.
func appendHeader(dst []uint64, st *State) []uint64 {
	dst = appendStatus(append(dst, partHeader), st)
	return append(dst, uint64(len(st.Threads)), uint64(st.Mem.n))
}

// thread returns the hash of process t of st as a part. It caches it in
// the record when st alone holds it (share.go: a shared record is
// immutable, and other goroutines may read it), so that the successors
// sharing the record find it there. A process waiting on a condition
// variable is not cached: its part holds its rank among the waiters, which
// depends on the other processes.
func (h *PartsHasher) thread(st *State, t *Thread) Hash128 {
	if h.id != 0 && t.phID == h.id {
		return t.ph
	}
	h.buf = appendThread(append(h.buf[:0], partThread), st, t)
	x := h.sum()
	if h.id != 0 && t.Wait != waitCond && atomic.LoadInt32(&t.shared) == 0 {
		t.ph, t.phID = x, h.id
	}
	return x
}

// CacheThread caches in process i's record of st, when st alone holds
// it, the process's part hash, given part, its part of st's encoding
// (AppendThreadPart): the hash thread would make, without encoding the
// process again. A state decoded from its encoding (DecodeKeyInto,
// DecodeKeyFrom) has new records; once it shares them (CopyInto) none
// can be cached, and each of its successors would hash the parent's part
// of the process that moved again.
func (h *PartsHasher) CacheThread(st *State, i int, part []uint64) {
	t := st.Threads[i]
	if h.id == 0 || t.phID == h.id || t.Wait == waitCond || atomic.LoadInt32(&t.shared) != 0 {
		return
	}
	h.buf = append(append(h.buf[:0], partThread), part...)
	t.ph, t.phID = h.sum(), h.id
}

// block returns the hash of block id of mem as a part, zero if it is not
// one (the null block, ids past the memory's end and blocks equal to the
// image, which the key leaves out).
func (h *PartsHasher) block(mem, img *Memory, id uint32) Hash128 {
	b := keyBlock(mem, img, id)
	if b == nil {
		return Hash128{}
	}
	h.buf = appendBlock(append(h.buf[:0], partBlock), id, b)
	return h.sum()
}

// keyBlock returns block id of mem if it is a part of the key, nil if not
// (the null block, ids past the memory's end and blocks equal to the
// image img).
func keyBlock(mem, img *Memory, id uint32) *block {
	if id == 0 || id >= mem.n {
		return nil
	}
	b := mem.blk(id)
	if id < img.n {
		if ib := img.blk(id); sharesBytes(b, ib) || sameBlock(b, ib) {
			return nil
		}
	}
	return b
}

// Sum returns the parts hash of st, from scratch (but for the process
// hashes cached in its records, see thread). The cache relies on records
// changing only through StepOnly, Step, Run and Observe, which drop it
// before writing; a run in progress writes its records in place after
// each observer call, so do not hash a state from inside an observer of
// its own run (nothing does: explicit search steps with StepOnly).
func (h *PartsHasher) Sum(st *State) Hash128 {
	img := st.Mem.image
	if img == nil {
		img = &noImage
	}
	x := h.header(st)
	for _, t := range st.Threads {
		x = addHash(x, h.thread(st, t))
	}
	for id, b := range st.Mem.changed(img) {
		h.buf = appendBlock(append(h.buf[:0], partBlock), id, b)
		x = addHash(x, h.sum())
	}
	return x
}

// Successor returns the parts hash of succ, given hp, the parts hash of
// parent, when succ is a CopyInto copy of parent that has since changed
// only through StepOnly (steps of any processes; tid names the one that
// moved first, which is rehashed without comparing). It rehashes the header when
// its words changed, the processes succ no longer shares with parent
// (share.go: a shared record is immutable, so a record both hold is
// unchanged) whose records differ from the parent's (a step that may
// change others copies every record, most of them unchanged: sameThread
// finds those without hashing them) and the blocks succ has written since
// the copy (those it owns), before and after (the parent's processes are
// usually cached in their records: see thread). A process waiting on a
// condition variable is always rehashed: its part holds its rank among the
// waiters, which the other processes change. Otherwise (a run that ended,
// a different process count, fewer blocks, another image) it is Sum.
func (h *PartsHasher) Successor(parent *State, hp Hash128, succ *State, tid int32) Hash128 {
	return h.SuccessorStep(parent, hp, succ, tid, false)
}

// SuccessorStep is Successor, told with solo that succ was made by one
// step of process tid that SoloStep allowed (StepEnabled reports it): such
// a step owns and changes no record but tid's, and starts or ends no wait
// on a condition variable, so only tid's part is rehashed, without looking
// at the other processes. (With a wrong solo the hash is wrong: explicit
// search's tests check every update against a hash from scratch.)
func (h *PartsHasher) SuccessorStep(parent *State, hp Hash128, succ *State, tid int32, solo bool) Hash128 {
	if succ.Status != Running || len(succ.Threads) != len(parent.Threads) ||
		succ.Mem.image != parent.Mem.image || succ.Mem.n < parent.Mem.n {
		return h.Sum(succ)
	}
	img := succ.Mem.image
	if img == nil {
		img = &noImage
	}
	x := hp
	// Most steps change neither the status nor the counts: then the
	// header's hash is the parent's and is not made twice to cancel out.
	if !sameHeader(parent, succ) {
		x = addHash(subHash(x, h.header(parent)), h.header(succ))
	}
	if solo {
		if t, pt := succ.Threads[tid], parent.Threads[tid]; t != pt {
			x = addHash(subHash(x, h.thread(parent, pt)), h.thread(succ, t))
		}
	} else {
		for i, t := range succ.Threads {
			pt := parent.Threads[i]
			switch {
			case t == pt && t.Wait != waitCond:
				continue // shared: unchanged
			case i == int(tid) || t.Wait == waitCond || pt.Wait == waitCond:
			case sameThread(t, pt):
				if h.id != 0 && pt.phID == h.id && atomic.LoadInt32(&t.shared) == 0 {
					t.ph, t.phID = pt.ph, h.id
				}
				continue
			}
			x = addHash(subHash(x, h.thread(parent, pt)), h.thread(succ, t))
		}
	}
	mem := &succ.Mem
	for id := range mem.written(mem.epoch) {
		x = addHash(subHash(x, h.block(&parent.Mem, img, id)), h.block(mem, img, id))
	}
	return x
}

// sameHeader reports whether states s and t have equal header parts
// (appendHeader) as far as their fields tell: equal status, exit code,
// error kind and process, process and block counts.
func sameHeader(s, t *State) bool {
	if s.Status != t.Status || s.ExitCode != t.ExitCode || len(s.Threads) != len(t.Threads) || s.Mem.n != t.Mem.n {
		return false
	}
	if s.Err == nil || t.Err == nil {
		return s.Err == t.Err
	}
	return s.Err.Kind == t.Err.Kind && s.Err.Thread == t.Err.Thread
}

// sameThread reports whether processes t and u have equal encodings
// (appendThread) as far as their records tell: equal in every field the
// encoding reads, but for the rank among condition-variable waiters, which
// depends on the other processes.
func sameThread(t, u *Thread) bool {
	return t.ID == u.ID && t.Done == u.Done && t.Wait == u.Wait && t.Atomic == u.Atomic &&
		t.Detached == u.Detached && t.WaitOn == u.WaitOn && t.RetVal == u.RetVal &&
		slices.Equal(t.Frames, u.Frames) && slices.Equal(t.Regs, u.Regs) && slices.Equal(t.Allocas, u.Allocas)
}
