package explicit

import (
	"testing"

	"github.com/wyvernmc/wyvern/vm"
)

// TestStoreFull checks full storage: states are told apart by their
// encodings even when their hashes are equal (counted as collisions), and
// survive the table's growth.
func TestStoreFull(t *testing.T) {
	s := newStore(false)
	const n = 5000
	for i := range n {
		key := []uint64{uint64(i), 7}
		idx, added := s.add(vm.Hash128{uint64(i % 100)}, key, noRec, int32(i), nil) // 50 keys a hash
		if !added || idx != uint32(i) {
			t.Fatalf("key %d: got (%d, %v), want (%d, true)", i, idx, added, i)
		}
	}
	for i := range n {
		idx, added := s.add(vm.Hash128{uint64(i % 100)}, []uint64{uint64(i), 7}, noRec, 0, nil)
		if added || idx != uint32(i) {
			t.Fatalf("key %d again: got (%d, %v), want (%d, false)", i, idx, added, i)
		}
	}
	if s.collisions != n-100 {
		t.Errorf("collisions = %d, want %d", s.collisions, n-100)
	}
	if len(s.recs) != n || s.recs[42].tid != 42 {
		t.Errorf("records: %d, tid of 42 = %d", len(s.recs), s.recs[42].tid)
	}
}

// TestStoreCompact checks hash compaction: equal hashes merge, the all-zero
// hash is a state like any other, and choices and parents are kept for
// traces.
func TestStoreCompact(t *testing.T) {
	s := newStore(true)
	const n = 5000
	for i := range n {
		h := vm.Hash128{uint64(i) * 0x9e3779b97f4a7c15, uint64(i)}
		var ch []uint64
		if i%3 == 0 {
			ch = []uint64{uint64(i)}
		}
		parent := noRec
		if i > 0 {
			parent = uint32(i - 1)
		}
		if idx, added := s.add(h, nil, parent, int32(i%4), ch); !added || idx != uint32(i) {
			t.Fatalf("hash %d: got (%d, %v)", i, idx, added)
		}
	}
	for i := range n {
		if _, added := s.add(vm.Hash128{uint64(i) * 0x9e3779b97f4a7c15, uint64(i)}, nil, 0, 0, nil); added {
			t.Fatalf("hash %d added twice", i)
		}
	}
	p := s.path(6)
	if len(p) != 6 || p[5].Thread != 2 || len(p[2].Choices) != 1 || p[2].Choices[0] != 3 || p[3].Choices != nil {
		t.Errorf("path to 6 = %+v", p)
	}
	if s.bytes() <= int64(n*(hashSlotBytes+recordBytes)) {
		t.Errorf("bytes = %d, less than the entries themselves", s.bytes())
	}
}
