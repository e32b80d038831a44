package vm

import (
	"encoding/binary"
	"iter"
	"math/bits"
	"slices"
	"sync"
)

// A state's identity is one encoding: appendKey is the only walk over a
// state that decides which of its parts make it the state it is. Its words
// are the canonical key (Machine.AppendKey, what explicit-state search
// stores and compares), and a state's fingerprint (State.Hash, what
// EnumStatesSMC collects across traces and workers) is HashKey of those
// words. So the two count the same states: two states have equal keys
// exactly when they are equal as states, and equal keys give equal hashes.
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
)

// mixWord absorbs one word into a pair of multiply-mix lanes (a, b): a
// 128-bit state that every word changes through two multiplications.
func mixWord(a, b, v uint64) (uint64, uint64) {
	hi, lo := bits.Mul64(a^v, hp1)
	a = hi ^ lo ^ b
	hi, lo = bits.Mul64(b^v^hp3, hp2)
	return a, hi ^ lo ^ a
}

// HashKey returns the 128-bit fingerprint of a canonical encoding made by
// AppendKey: HashKey(m.AppendKey(nil, st)) == st.Hash() for every state st
// of machine m. Even and odd words go to two streams of lanes (so that
// their multiplications overlap), folded at the end with the word count.
// It has fixed constants and no seed, so a state's fingerprint is the same
// in every process (EnumStatesSMC merges the fingerprints of traces run by
// different workers). It is not cryptographic; it is for visited sets.
func HashKey(key []uint64) Hash128 {
	var a0, b0, a1, b1 uint64
	p := key
	for ; len(p) >= 2; p = p[2:] {
		a0, b0 = mixWord(a0, b0, p[0])
		a1, b1 = mixWord(a1, b1, p[1])
	}
	if len(p) == 1 {
		a0, b0 = mixWord(a0, b0, p[0])
	}
	a, b := mixWord(0, 0, uint64(len(key)))
	a, b = mixWord(a, b, a0)
	a, b = mixWord(a, b, b0)
	a, b = mixWord(a, b, a1)
	a, b = mixWord(a, b, b1)
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

// keyBufs holds the buffers Hash encodes states into.
var keyBufs = sync.Pool{New: func() any { return new([]uint64) }}

// Hash returns the fingerprint of st's canonical encoding:
// HashKey(m.AppendKey(nil, st)) for the machine m st belongs to, with the
// encoding made in a pooled buffer (no allocation in the steady state).
// Equal states (equal keys) hash equal whatever copy-on-write sharing or
// buffer capacities they have; states that differ in anything the key
// holds (condition-variable waiter order and stack-block owners included)
// hash differently but for 128-bit collisions. The hash has no
// per-process seed: it is the same in every process that loaded the same
// program. Like AppendKey it only reads st.
func (st *State) Hash() Hash128 {
	bp := keyBufs.Get().(*[]uint64)
	*bp = appendKey((*bp)[:0], st, st.Mem.image)
	h := HashKey(*bp)
	keyBufs.Put(bp)
	return h
}

// noImage stands for the image of a state made without a machine (a zero
// State): every block is then encoded.
var noImage Memory

// appendKey is the one walk that defines a state's identity (see the top
// of this file): it appends the encoding of st, relative to the image img
// its memory derives from, to dst.
func appendKey(dst []uint64, st *State, img *Memory) []uint64 {
	if img == nil {
		img = &noImage
	}
	dst = append(dst, uint64(st.Status)<<32|uint64(uint32(st.ExitCode)))
	if st.Err != nil {
		dst = append(dst, uint64(st.Err.Kind)<<32|uint64(uint32(st.Err.Thread)))
	} else {
		dst = append(dst, ^uint64(0))
	}
	dst = append(dst, uint64(len(st.Threads)))
	for _, t := range st.Threads {
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
	}
	mem := &st.Mem
	dst = append(dst, uint64(mem.n))
	for id, b := range mem.changed(img) {
		dst = append(dst, uint64(id)<<8|uint64(b.kind), uint64(b.size)|uint64(uint32(b.thread))<<32)
		switch {
		case !hasBytes(b.kind):
		case b.pages == nil:
			dst = appendWords(dst, b.data[:b.size])
		default:
			rest := b.size
			for _, pg := range b.pages {
				n := min(rest, pageSize)
				dst = appendWords(dst, pg.data[:n])
				rest -= n
			}
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
