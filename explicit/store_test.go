package explicit

import (
	"testing"
	"unsafe"

	"github.com/wyvernmc/wyvern/vm"
)

// TestStoreFull checks full storage: states are told apart by their
// encodings even when their hashes are equal (counted as collisions), and
// survive the table's growth.
func TestStoreFull(t *testing.T) {
	s := newStore(false, true)
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
	if _, tid := s.recs.at(42); s.recs.n != n || tid != 42 {
		t.Errorf("records: %d, tid of 42 = %d", s.recs.n, tid)
	}
}

// TestStoreCompact checks hash compaction: equal hashes merge, the all-zero
// hash is a state like any other, and choices and parents are kept for
// traces.
func TestStoreCompact(t *testing.T) {
	s := newStore(true, true)
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
	if s.bytes() <= int64(n*compactSlotBytes) {
		t.Errorf("bytes = %d, less than the entries themselves", s.bytes())
	}
}

// TestRecords checks the chunked records, plain and delta-coded: parents
// and processes come back as added across chunk boundaries, for parents
// that never decrease by small steps (breadth-first order), jump far or
// decrease (depth-first order: kept exactly, only less compactly), and
// process ids that do not fit in a byte (the initial state's -1, 255 and
// more); paths follow them.
func TestRecords(t *testing.T) {
	const n = 3*recChunk + 17
	tidOf := func(i int) int32 {
		switch i % 7 {
		case 0:
			return -1
		case 1:
			return tidEscape
		case 2:
			return 1 << 20
		}
		return int32(i % 254)
	}
	cases := []struct {
		name     string
		parentOf func(i int) uint32
		maxBytes float64 // per record, delta-coded
	}{
		{"bfs", func(i int) uint32 { return uint32(i) / 2 }, 2.1},
		{"first noRec", func(i int) uint32 {
			if i == 0 {
				return noRec
			}
			return uint32(i-1) / 3
		}, 2.1},
		{"steps up to 254", func(i int) uint32 { return uint32(i * 254) }, 2.1},
		{"steps of 255", func(i int) uint32 { return uint32(i * 255) }, 2.1 + mapEntry*n/(4*recChunk)},
		{"decreasing", func(i int) uint32 { return uint32(n - i) }, 2.1 + mapEntry*n/(4*recChunk)},
		{"dfs-like", func(i int) uint32 { return uint32(i ^ 0x5a5) }, 2.1 + mapEntry*n/(4*recChunk)},
	}
	for _, c := range cases {
		for _, delta := range []bool{false, true} {
			r := newRecords(delta)
			for i := range n {
				r.add(c.parentOf(i), tidOf(i))
			}
			if r.n != n || len(r.tid) != 4 {
				t.Fatalf("%s, delta %v: %d records in %d chunks, want %d in 4", c.name, delta, r.n, len(r.tid), n)
			}
			for i := range n {
				if p, tid := r.at(uint32(i)); p != c.parentOf(i) || tid != tidOf(i) {
					t.Fatalf("%s, delta %v: record %d = (%d, %d), want (%d, %d)", c.name, delta, i, p, tid, c.parentOf(i), tidOf(i))
				}
			}
			// (per record allocated: the last chunk is nearly empty)
			per := float64(r.bytes()-mapEntry*int64(len(r.bigTid))) / (4 * recChunk)
			if !delta && per != 5 {
				t.Errorf("%s, plain: %.2f bytes a record", c.name, per)
			}
			if delta && per > c.maxBytes {
				t.Errorf("%s, delta: %.2f bytes a record, want at most %.2f", c.name, per, c.maxBytes)
			}
		}
	}

	// A chain 0 <- 1 <- ... <- n-1 through the store.
	for _, bfs := range []bool{false, true} {
		s := newStore(true, bfs)
		for i := range n {
			parent := noRec
			if i > 0 {
				parent = uint32(i - 1)
			}
			if _, added := s.add(vm.Hash128{uint64(i + 2)}, nil, parent, tidOf(i), nil); !added {
				t.Fatalf("state %d not added", i)
			}
		}
		p := s.path(n - 1)
		if len(p) != n-1 {
			t.Fatalf("path of %d steps, want %d", len(p), n-1)
		}
		for i, st := range p {
			if st.Thread != tidOf(i+1) {
				t.Fatalf("step %d: process %d, want %d", i, st.Thread, tidOf(i+1))
			}
		}
	}
}

// TestRecordsAllocs: a chunk of records is allocated in one piece, or with
// delta coding in two (the processes' and steps' bytes, the parents), so
// that a search's records cost few allocations a state.
func TestRecordsAllocs(t *testing.T) {
	for _, delta := range []bool{false, true} {
		r := newRecords(delta)
		r.tid, r.parent, r.step = make([][]uint8, 0, 4), make([][]uint32, 0, 4), make([][]uint8, 0, 4)
		want := 1.0
		if delta {
			want = 2
		}
		if a := testing.AllocsPerRun(1, func() {
			for range recChunk {
				r.add(uint32(r.n/2), int32(r.n%3))
			}
		}); a != want {
			t.Errorf("delta %v: %v allocations for a chunk of records, want %v", delta, a, want)
		}
		for i := range r.n {
			if p, tid := r.at(uint32(i)); p != uint32(i/2) || tid != int32(i%3) {
				t.Fatalf("delta %v: record %d = (%d, %d), want (%d, %d)", delta, i, p, tid, i/2, i%3)
			}
		}
	}
}

// TestCompactFingerprint checks what hash compaction keeps of a parts
// hash: its first lane and the second's top byte (states that differ only
// in the rest of the second lane merge, which is what OmissionProbability's
// n(n-1)/2^73 accounts for), with a first lane of 0 stored as 1, and nothing
// lost or merged otherwise through the table's growth.
func TestCompactFingerprint(t *testing.T) {
	cases := []struct {
		name  string
		hs    []vm.Hash128
		added []bool
	}{
		{"distinct", []vm.Hash128{{5, 1}, {6, 1}, {^uint64(0), 0}}, []bool{true, true, true}},
		{"second lane's top byte kept", []vm.Hash128{{5, 1 << 56}, {5, 2 << 56}, {5, 1<<56 | 1}}, []bool{true, true, false}},
		{"rest of the second lane ignored", []vm.Hash128{{5, 1}, {5, 2}, {5, 1<<56 - 1}}, []bool{true, false, false}},
		{"zero stored as one", []vm.Hash128{{0, 7}, {1, 8}, {2, 9}}, []bool{true, false, true}},
		{"same home slot", []vm.Hash128{{1 << 10}, {1<<10 + 1}, {1<<10 + 2}, {1 << 10}}, []bool{true, true, true, false}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := newStore(true, true)
			for i, h := range c.hs {
				if _, added := s.add(h, nil, noRec, 0, nil); added != c.added[i] {
					t.Errorf("hash %d %x: added %v, want %v", i, h, added, c.added[i])
				}
			}
		})
	}

	if unsafe.Sizeof(fpGroup{}) != fpGroupBytes {
		t.Errorf("a group of slots takes %d bytes, counted as %d", unsafe.Sizeof(fpGroup{}), fpGroupBytes)
	}

	// Through growth: n fingerprints spread over the whole range, each
	// found again (not added) afterwards, and the table's load where
	// grownCompact says.
	s := newStore(true, true)
	const n = 200_000
	// (pairs with the same first lane, told apart by the byte of the
	// second alone)
	fp := func(i int) vm.Hash128 { return vm.Hash128{uint64(i/2+1) * 0x9e3779b97f4a7c15, uint64(i%2) << 56} }
	for i := range n {
		if _, added := s.add(fp(i), nil, noRec, 0, nil); !added {
			t.Fatalf("fingerprint %d merged", i)
		}
		if load := float64(s.n) / float64(s.slots); load > 0.875 || (s.slots > minSlots && load < 0.69) || 8*len(s.fp) != s.slots {
			t.Fatalf("%d entries in %d slots (%d bytes): load %.3f", s.n, s.slots, len(s.fp), load)
		}
	}
	for i := range n {
		if _, added := s.add(fp(i), nil, noRec, 0, nil); added {
			t.Fatalf("fingerprint %d added twice", i)
		}
	}
	if s.recs.n != n {
		t.Errorf("%d records, want %d", s.recs.n, n)
	}
	if b := float64(s.bytes()) / n; b > compactSlotBytes/0.7+2.1 {
		t.Errorf("%.1f bytes a state", b)
	}
}

// TestCompactBytes checks the memory of compact storage in whole searches
// of Peterson (44 379 states): at most 16 bytes a state breadth-first
// (delta-coded parents), and the same states, transitions and depth
// depth-first, where parents take 4 bytes.
func TestCompactBytes(t *testing.T) {
	cases := []struct {
		order    Order
		maxBytes float64
	}{
		{BFS, 16},
		{DFS, compactSlotBytes/0.7 + 5 + 0.5},
	}
	for _, c := range cases {
		res := search(t, peterson, "EnumStates", Options{Order: c.order, Compact: true})
		if res.States != 44379 || res.BytesPerState > c.maxBytes {
			t.Errorf("%s: %d states, %.2f bytes a state (want 44379, at most %.1f)", c.order, res.States, res.BytesPerState, c.maxBytes)
		}
	}
}
