package explicit

import (
	"testing"
	"unsafe"

	"github.com/wyvernmc/wyvern/vm"
)

// TestStoreFull checks full storage (treeDB): a state is new exactly when
// its sequence of parts was not added before, whatever parts, pairs and
// subtrees it shares with others, across the tables' growth: encodings of
// 1 to 3 processes and 0 to 4 blocks drawn from a few part contents (so
// that most subtrees are shared) agree with a map of the sequences; only a
// new state's record is numbered; has answers without adding.
func TestStoreFull(t *testing.T) {
	s := newStore(false, true)
	pool := [][]uint64{{1}, {2}, {1, 2}, {2, 1}, {7, 7, 7}, {}, {0}}
	ref := map[string]bool{}
	rnd := uint64(1)
	next := func(n uint64) uint64 {
		rnd = rnd*6364136223846793005 + 1442695040888963407
		return (rnd >> 33) % n
	}
	var key []uint64
	var ends []int32
	part := func(w ...uint64) {
		key = append(key, w...)
		ends = append(ends, int32(len(key)))
	}
	for i := range 60000 {
		// an encoding's layout (vm.Machine.AppendKeyParts): the status and
		// process count, the processes, the block count, the blocks
		key, ends = key[:0], ends[:0]
		threads := 1 + next(3)
		part(0, ^uint64(0), threads)
		name := string(rune('0' + threads))
		for range threads {
			k := next(uint64(len(pool)))
			part(pool[k]...)
			name += string(rune('a' + k))
		}
		part(9)
		name += "|"
		for range next(5) {
			k := next(uint64(len(pool)))
			part(pool[k]...)
			name += string(rune('a' + k))
		}
		had := s.has(key, ends)
		n0 := s.recs.n
		idx, added := s.add(vm.Hash128{}, key, ends, noRec, int32(i), nil)
		if added == ref[name] || had != ref[name] {
			t.Fatalf("state %d (parts %s): added %v, had %v, seen before %v", i, name, added, had, ref[name])
		}
		if added && idx != uint32(n0) {
			t.Fatalf("state %d: record %d, want %d", i, idx, n0)
		}
		ref[name] = true
		if !s.has(key, ends) {
			t.Fatalf("state %d (parts %s) not stored after add", i, name)
		}
	}
	if s.recs.n != len(ref) || s.tree.roots.n != len(ref) || s.collisions != 0 {
		t.Errorf("%d records, %d roots, %d collisions; want %d, %d, 0", s.recs.n, s.tree.roots.n, s.collisions, len(ref), len(ref))
	}
	if want := len(pool) + 3 + 1; len(s.tree.leafRefs) != want { // the pool, 3 headers, the block count
		t.Errorf("%d leaves, want %d", len(s.tree.leafRefs), want)
	}
	if s.has([]uint64{0, ^uint64(0), 1, 3, 3, 9}, []int32{3, 5, 6}) {
		t.Error("has: a state never added is stored")
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
		if idx, added := s.add(h, nil, nil, parent, int32(i%4), ch); !added || idx != uint32(i) {
			t.Fatalf("hash %d: got (%d, %v)", i, idx, added)
		}
	}
	for i := range n {
		if _, added := s.add(vm.Hash128{uint64(i) * 0x9e3779b97f4a7c15, uint64(i)}, nil, nil, 0, 0, nil); added {
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
			if _, added := s.add(vm.Hash128{uint64(i + 2)}, nil, nil, parent, tidOf(i), nil); !added {
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
		// the cache of recent fingerprints (store.recent): one index,
		// taken in turn by two first lanes, then by a fingerprint that
		// differs from one in it by the second lane's byte alone
		{"one recent slot", []vm.Hash128{{1<<12 | 5}, {2<<12 | 5}, {1<<12 | 5}, {2<<12 | 5}, {1<<12 | 5, 1 << 56}, {1<<12 | 5, 1 << 56}, {1<<12 | 5}},
			[]bool{true, true, false, false, true, false, false}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := newStore(true, true)
			for i, h := range c.hs {
				if _, added := s.add(h, nil, nil, noRec, 0, nil); added != c.added[i] {
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
		if _, added := s.add(fp(i), nil, nil, noRec, 0, nil); !added {
			t.Fatalf("fingerprint %d merged", i)
		}
		if load := float64(s.n) / float64(s.slots); load > 0.875 || (s.slots > minSlots && load < 0.69) || 8*len(s.fp) != s.slots {
			t.Fatalf("%d entries in %d slots (%d bytes): load %.3f", s.n, s.slots, len(s.fp), load)
		}
	}
	for i := range n {
		if _, added := s.add(fp(i), nil, nil, noRec, 0, nil); added {
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

// TestRootTableWidens checks the root table across its two layouts: roots
// whose ids fit in 23 bits are kept narrow, the first that does not turns
// the table wide with every root kept, and look-ups agree with a map
// before and after, across growth.
func TestRootTableWidens(t *testing.T) {
	r := newRootTable(12345)
	ref := map[uint64]bool{}
	root := func(i int) uint64 {
		l, rr := uint32(i%1000+1), uint32(i/1000)|leafBit
		if i >= 20000 && i%7 == 0 {
			l = 1<<narrowBits + uint32(i) // a pair id too wide for 24 bits
		}
		return uint64(l)<<32 | uint64(rr)
	}
	for i := range 40000 {
		v := root(i)
		if got := r.add(v); got == ref[v] {
			t.Fatalf("root %d (%x): added %v, seen before %v", i, v, got, ref[v])
		}
		ref[v] = true
		if i == 19999 && r.wide {
			t.Fatal("the table is wide before any root needs it")
		}
	}
	if !r.wide || r.n != len(ref) {
		t.Fatalf("wide %v, %d roots; want wide, %d", r.wide, r.n, len(ref))
	}
	for i := range 40000 {
		if !r.has(root(i)) || r.add(root(i)) {
			t.Fatalf("root %d lost", i)
		}
	}
	if r.has(uint64(5)<<32 | 77) {
		t.Error("has: a root never added")
	}
	if lo, hi, ok := pack(root(3)); !ok || unpack(lo, hi) != root(3) {
		t.Errorf("pack/unpack of %x: %x %x %v", root(3), lo, hi, ok)
	}
}

// TestFullBytes checks that full storage is tree-compressed (treeDB): a
// whole search of Peterson (44 379 states) keeps every state losslessly in
// at most 24 bytes a state (18.6 on 2026-11-28; its encodings are about
// 1 KB, which full storage kept whole before), with the
// counts compact storage finds.
func TestFullBytes(t *testing.T) {
	full := search(t, peterson, "EnumStates", Options{})
	comp := search(t, peterson, "EnumStates", Options{Compact: true})
	t.Logf("full: %.2f bytes a state", full.BytesPerState)
	if full.States != 44379 || full.Transitions != comp.Transitions || full.MaxDepth != comp.MaxDepth || full.HashCollisions != 0 {
		t.Errorf("full: %d states, %d transitions, depth %d, %d collisions; compact: %d, %d, %d",
			full.States, full.Transitions, full.MaxDepth, full.HashCollisions, comp.States, comp.Transitions, comp.MaxDepth)
	}
	if full.BytesPerState > 24 {
		t.Errorf("full storage: %.2f bytes a state, want at most 24", full.BytesPerState)
	}
}
