package explicit

import (
	"hash/maphash"
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

const noRec = ^uint32(0)

// record is a visited state: how it was first reached (parent and the
// transition's process and choices) and, with full storage, where its
// canonical encoding lies in the arena.
type record struct {
	parent uint32
	tid    int32
	depth  uint32
	chOff  uint32 // choices: store.choices[chOff : chOff+chN]
	chN    uint32
	encLen uint32
	encOff uint64 // arena chunk << 32 | offset
	next   uint32 // next record with the same hash (full storage)
}

const (
	recordBytes = 40 // unsafe.Sizeof(record{})
	// indexEntryBytes estimates one map entry (16-byte key, 4-byte value,
	// padding, control bytes and the load factor of Go's swiss tables).
	indexEntryBytes = 40
	arenaChunkWords = 1 << 20 // 8 MiB
)

// store is the visited set: a map from the 128-bit hash of a state's
// canonical encoding (vm.Machine.AppendKey, hashed with keyHash) to its
// record. With full storage every encoding is kept and a hash match is
// confirmed by comparing encodings, so distinct states never merge; with
// hash compaction only the hash is kept.
type store struct {
	compact    bool
	index      map[vm.Hash128]uint32
	recs       []record
	arena      [][]uint64
	choices    []uint64
	encWords   int64
	collisions int64 // distinct states sharing a hash (full storage)
}

func newStore(compact bool) *store {
	return &store{compact: compact, index: make(map[vm.Hash128]uint32, 1024)}
}

func (s *store) encoding(r *record) []uint64 {
	c := s.arena[r.encOff>>32]
	off := uint32(r.encOff)
	return c[off : off+r.encLen]
}

// add looks key up and adds it if it is new; it returns the record index
// and whether it was added.
func (s *store) add(h vm.Hash128, key []uint64, parent uint32, tid int32, choices []uint64) (uint32, bool) {
	head, ok := s.index[h]
	if ok {
		if s.compact {
			return head, false
		}
		for r := head; r != noRec; r = s.recs[r].next {
			if slices.Equal(s.encoding(&s.recs[r]), key) {
				return r, false
			}
		}
		s.collisions++
	} else {
		head = noRec
	}
	rec := record{parent: parent, tid: tid, next: head, chOff: uint32(len(s.choices)), chN: uint32(len(choices))}
	if parent != noRec {
		rec.depth = s.recs[parent].depth + 1
	}
	s.choices = append(s.choices, choices...)
	if !s.compact {
		rec.encOff, rec.encLen = s.put(key), uint32(len(key))
	}
	idx := uint32(len(s.recs))
	s.recs = append(s.recs, rec)
	s.index[h] = idx
	return idx, true
}

// put copies key into the arena.
func (s *store) put(key []uint64) uint64 {
	s.encWords += int64(len(key))
	n := len(s.arena)
	if n == 0 || len(s.arena[n-1])+len(key) > cap(s.arena[n-1]) {
		s.arena = append(s.arena, make([]uint64, 0, max(arenaChunkWords, len(key))))
		n++
	}
	c := &s.arena[n-1]
	off := len(*c)
	*c = append(*c, key...)
	return uint64(n-1)<<32 | uint64(off)
}

// bytes estimates the memory the visited set holds.
func (s *store) bytes() int64 {
	return int64(len(s.recs))*(recordBytes+indexEntryBytes) + 8*s.encWords + 8*int64(len(s.choices))
}

// path returns the transitions from the initial state to record idx.
func (s *store) path(idx uint32) []Step {
	var out []Step
	for r := idx; r != noRec && s.recs[r].parent != noRec; r = s.recs[r].parent {
		rec := &s.recs[r]
		out = append(out, Step{Thread: rec.tid, Choices: s.choices[rec.chOff : rec.chOff+rec.chN]})
	}
	slices.Reverse(out)
	return out
}
