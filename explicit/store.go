package explicit

import (
	"hash/maphash"
	"math/bits"
	"slices"
	"unsafe"

	"github.com/wyvernmc/wyvern/vm"
)

// keyHash is the 128-bit fingerprint of canonical state encodings: two
// independent 64-bit hashes (the runtime's AES-based hash through
// hash/maphash) with seeds drawn per search.
type keyHash struct{ s1, s2 maphash.Seed }

func newKeyHash() keyHash { return keyHash{maphash.MakeSeed(), maphash.MakeSeed()} }

func (h keyHash) sum(w []uint64) vm.Hash128 {
	b := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(w))), 8*len(w))
	return vm.Hash128{maphash.Bytes(h.s1, b), maphash.Bytes(h.s2, b)}
}

// sum64 is the first half of sum: what full storage, which confirms every
// match by comparing encodings, needs.
func (h keyHash) sum64(w []uint64) uint64 {
	b := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(w))), 8*len(w))
	return maphash.Bytes(h.s1, b)
}

const noRec = ^uint32(0)

// record is a visited state: how it was first reached (the parent record
// and the process that moved; the transition's choices, when it made any,
// are in store.choiceOf). A record's depth is the length of its parent
// chain (the search carries it in its queue).
type record struct {
	parent uint32
	tid    int32
}

// encRef is where a state's canonical encoding lies in the arena (full
// storage).
type encRef struct {
	off uint64 // arena chunk << 32 | offset
	n   uint32
}

// choiceRef is where a transition's choice values lie in store.choices.
type choiceRef struct{ off, n uint32 }

// fslot is a slot of full storage's table: the 64-bit hash of an encoding
// and its record + 1 (0: empty).
type fslot struct {
	h   uint64
	rec uint32
}

const (
	recordBytes     = 8       // unsafe.Sizeof(record{})
	encRefBytes     = 16      // unsafe.Sizeof(encRef{})
	hashSlotBytes   = 16      // unsafe.Sizeof(vm.Hash128{})
	fullSlotBytes   = 16      // unsafe.Sizeof(fslot{})
	arenaChunkWords = 1 << 20 // 8 MiB
	minSlots        = 1024
)

// store is the visited set, an open-addressing hash table with linear
// probing over slices without pointers (nothing for the garbage collector
// to scan, and no allocation per state but amortised slice growth). Its
// records are numbered in the order states are added.
//
// Full storage keeps each state's canonical encoding (vm.Machine.AppendKey)
// in an arena and indexes records by the 64-bit keyHash.sum64 of the
// encoding; a match is confirmed by comparing encodings, so distinct states
// never merge (collisions counts distinct states whose 64-bit hashes are
// equal). Hash compaction (compact) keeps only the 128-bit keyHash.sum of
// each state in the table, and the table entries are the hashes themselves:
// two distinct states merge when their 128-bit hashes are equal
// (probability at most n(n-1)/2^129 for n states, Result.OmissionProbability).
// The all-zero hash marks an empty slot, so a state hashing to it is stored
// as {0, 1}: one more pair of the 2^128 values that can merge.
type store struct {
	compact    bool
	n          int          // entries in the table
	hs         []vm.Hash128 // compact table
	fs         []fslot      // full table
	recs       []record
	encs       []encRef             // full storage: encoding of each record
	choice     map[uint32]choiceRef // records whose transition made choices
	choices    []uint64
	arena      [][]uint64
	encWords   int64
	collisions int64 // distinct states sharing a 64-bit hash (full storage)
}

func newStore(compact bool) *store {
	s := &store{compact: compact, choice: map[uint32]choiceRef{}}
	if compact {
		s.hs = make([]vm.Hash128, minSlots)
	} else {
		s.fs = make([]fslot, minSlots)
	}
	return s
}

// slot maps a hash to its first slot among size (fixed-point
// multiplication: size need not be a power of two).
func slot(h uint64, size int) int {
	hi, _ := bits.Mul64(h, uint64(size))
	return int(hi)
}

func (s *store) encoding(idx uint32) []uint64 {
	e := s.encs[idx]
	c := s.arena[e.off>>32]
	off := uint32(e.off)
	return c[off : off+e.n]
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

// add looks the state with encoding key (full storage) or fingerprint h
// (compaction; key is then not looked at) up and adds it if it is new,
// reached from record parent by process tid with the given choices; it
// returns the record index and whether it was added. Only a new state's
// index is meaningful with compaction.
func (s *store) add(h vm.Hash128, key []uint64, parent uint32, tid int32, choices []uint64) (uint32, bool) {
	if s.compact {
		if h == (vm.Hash128{}) {
			h[1] = 1
		}
		if 5*(s.n+1) > 4*len(s.hs) {
			s.growCompact()
		}
		i := slot(h[0], len(s.hs))
		for {
			e := &s.hs[i]
			if *e == h {
				return 0, false
			}
			if *e == (vm.Hash128{}) {
				*e = h
				break
			}
			if i++; i == len(s.hs) {
				i = 0
			}
		}
	} else {
		if 5*(s.n+1) > 4*len(s.fs) {
			s.growFull()
		}
		i := slot(h[0], len(s.fs))
		clash := false
		for {
			e := &s.fs[i]
			if e.rec == 0 {
				break
			}
			if e.h == h[0] {
				if slices.Equal(s.encoding(e.rec-1), key) {
					return e.rec - 1, false
				}
				clash = true
			}
			if i++; i == len(s.fs) {
				i = 0
			}
		}
		if clash {
			s.collisions++
		}
		idx := uint32(len(s.recs))
		s.fs[i] = fslot{h: h[0], rec: idx + 1}
		s.encs = append(s.encs, encRef{off: s.put(key), n: uint32(len(key))})
	}
	s.n++
	idx := uint32(len(s.recs))
	s.recs = append(s.recs, record{parent: parent, tid: tid})
	if len(choices) > 0 {
		s.choice[idx] = choiceRef{off: uint32(len(s.choices)), n: uint32(len(choices))}
		s.choices = append(s.choices, choices...)
	}
	return idx, true
}

// grown is the table size after growing one of size n: ×1.5, so that the
// load factor stays between 0.53 and 0.8.
func grown(n int) int { return n + n/2 }

func (s *store) growCompact() {
	old := s.hs
	s.hs = make([]vm.Hash128, grown(len(old)))
	for _, h := range old {
		if h == (vm.Hash128{}) {
			continue
		}
		i := slot(h[0], len(s.hs))
		for s.hs[i] != (vm.Hash128{}) {
			if i++; i == len(s.hs) {
				i = 0
			}
		}
		s.hs[i] = h
	}
}

func (s *store) growFull() {
	old := s.fs
	s.fs = make([]fslot, grown(len(old)))
	for _, e := range old {
		if e.rec == 0 {
			continue
		}
		i := slot(e.h, len(s.fs))
		for s.fs[i].rec != 0 {
			if i++; i == len(s.fs) {
				i = 0
			}
		}
		s.fs[i] = e
	}
}

// put copies key into the arena.
func (s *store) put(key []uint64) uint64 {
	s.encWords += int64(len(key))
	n := len(s.arena)
	if n == 0 || len(s.arena[n-1])+len(key) > cap(s.arena[n-1]) {
		// Chunks double from 64 KiB up to arenaChunkWords, so a small
		// search does not clear megabytes it never uses.
		size := 1 << 13
		if n > 0 {
			size = min(2*cap(s.arena[n-1]), arenaChunkWords)
		}
		s.arena = append(s.arena, make([]uint64, 0, max(size, len(key))))
		n++
	}
	c := &s.arena[n-1]
	off := len(*c)
	*c = append(*c, key...)
	return uint64(n-1)<<32 | uint64(off)
}

// bytes is the memory the visited set holds: its table's slots (empty ones
// included), the records and encoding references as allocated, the
// encodings and the choices (the map of transitions with choices is
// counted at 16 bytes an entry).
func (s *store) bytes() int64 {
	b := int64(hashSlotBytes*len(s.hs)) + int64(fullSlotBytes*len(s.fs)) +
		int64(recordBytes*cap(s.recs)) + int64(encRefBytes*cap(s.encs))
	return b + 8*s.encWords + 8*int64(len(s.choices)) + 16*int64(len(s.choice))
}

// path returns the transitions from the initial state to record idx.
func (s *store) path(idx uint32) []Step {
	var out []Step
	for r := idx; r != noRec && s.recs[r].parent != noRec; r = s.recs[r].parent {
		out = append(out, Step{Thread: s.recs[r].tid, Choices: s.choicesOf(r)})
	}
	slices.Reverse(out)
	return out
}
