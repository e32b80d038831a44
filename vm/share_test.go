package vm

import (
	"bytes"
	"slices"
	"testing"
	"unsafe"

	"github.com/wyvernmc/wyvern/internal/testutil"
)

// TestCopyIntoShares: a CopyInto copy shares its processes with the
// original (share.go) and a step copies only what it writes: after a solo
// step the copy holds the original's records but the moving process's,
// after any other step none of them. Whatever the step (platform calls,
// condition variables, barriers, joins, exits, errors), the original's
// key is unchanged, and so are the keys of earlier copies still holding
// shared records; running a copy with Run unshares it first.
func TestCopyIntoShares(t *testing.T) {
	progs := append([]string{"../testdata/smc/petersons.c", "../testdata/smc/fib_4.c",
		"../testdata/mt/join_values.c", "../testdata/mt/deadlock.c", "../testdata/mt/platform_calls.c"}, identityPrograms...)
	solo, other := 0, 0
	for _, path := range progs {
		m := NewMachine(testutil.Program(t, path))
		var en []int32
		for seed := uint64(1); seed <= 3; seed++ {
			st := m.NewState()
			rnd := NewRand(seed, 0)
			var kept []*State // copies kept while their parents go on
			var keys [][]uint64
			for step := 0; step < 300 && st.Status == Running; step++ {
				if en = m.EnabledThreads(st, en); len(en) == 0 {
					break
				}
				key := m.AppendKey(nil, st)
				var next *State
				for _, tid := range en {
					c := new(State)
					m.CopyInto(c, st)
					for i := range st.Threads {
						if c.Threads[i] != st.Threads[i] {
							t.Fatalf("%s: CopyInto copied process %d instead of sharing it", path, i)
						}
					}
					isSolo := m.SoloStep(st, tid)
					m.StepOnly(c, tid, rnd)
					m.SettleEnd(c, tid)
					for i := range min(len(st.Threads), len(c.Threads)) {
						shared := c.Threads[i] == st.Threads[i]
						if want := isSolo && i != int(tid); shared != want {
							t.Fatalf("%s: step of process %d (solo %v): process %d shared %v", path, tid, isSolo, i, shared)
						}
					}
					if isSolo {
						solo++
					} else {
						other++
					}
					if !slices.Equal(m.AppendKey(nil, st), key) {
						t.Fatalf("%s: seed %d step %d: stepping process %d of a copy changed the original", path, seed, step, tid)
					}
					if next == nil || rnd.Uint64()%2 == 0 {
						next = c
					}
				}
				for i, k := range kept {
					if !slices.Equal(m.AppendKey(nil, k), keys[i]) {
						t.Fatalf("%s: seed %d step %d: a kept copy changed", path, seed, step)
					}
				}
				if step%16 == 0 {
					kept, keys = append(kept, st), append(keys, key)
				}
				st = next
			}
			// Run on a copy that shares processes with kept states.
			c := new(State)
			m.CopyInto(c, st)
			m.Run(c, 10_000, rnd)
			for i, k := range kept {
				if !slices.Equal(m.AppendKey(nil, k), keys[i]) {
					t.Fatalf("%s: running a copy changed a kept state", path)
				}
			}
		}
	}
	if solo == 0 || other < 100 {
		t.Errorf("%d solo steps, %d others: want both", solo, other)
	}
}

// TestCopyIntoReusesRecords: trying successor after successor of one
// state reuses the records the scratch state dropped: no allocation in the
// steady state, although every step copies the moving process.
func TestCopyIntoReusesRecords(t *testing.T) {
	m := NewMachine(testutil.Program(t, "../testdata/smc/fib_4.c"))
	st := m.NewState()
	m.Run(st, 40, NewRand(1, 0))
	en := m.EnabledThreads(st, nil)
	if len(en) < 2 {
		t.Fatalf("enabled %v, want 2 or more", en)
	}
	scr := new(State)
	try := func() {
		for _, tid := range en {
			m.CopyInto(scr, st)
			m.StepOnly(scr, tid, nil)
		}
	}
	try()
	if a := testing.AllocsPerRun(100, try); a != 0 {
		t.Errorf("%v allocations per round of successors, want 0", a)
	}
	// The counts are exact: each of st's records is held by scr too
	// exactly when scr still shares it, however many copies were made.
	for i, th := range st.Threads {
		want := int32(0)
		if scr.Threads[i] == th {
			want = 1
		}
		if th.shared != want {
			t.Errorf("process %d: count %d, want %d", i, th.shared, want)
		}
	}
	// Dropping scr's hold (a copy of another state) leaves st's records
	// to st alone.
	other := m.NewState()
	m.CopyInto(scr, other)
	for i, th := range st.Threads {
		if th.shared != 0 {
			t.Errorf("process %d: count %d after the copy went, want 0", i, th.shared)
		}
	}
}

// TestRelease: a record goes back for reuse exactly when its last holder
// drops it.
func TestRelease(t *testing.T) {
	for _, tc := range []struct {
		holders int
	}{{1}, {2}, {5}} {
		th := new(Thread)
		th.shared = int32(tc.holders - 1)
		for i := 1; i <= tc.holders; i++ {
			if got, want := release(th), i == tc.holders; got != want {
				t.Errorf("%d holders: release %d reports last %v, want %v", tc.holders, i, got, want)
			}
		}
		if th.shared != 0 {
			t.Errorf("%d holders: count %d after the last release, want 0", tc.holders, th.shared)
		}
	}
}

// TestPrefetchState: prefetching is a hint that changes nothing, whatever
// the stage and whatever the state (a zero one, one without frames, one
// in the middle of a run).
func TestPrefetchState(t *testing.T) {
	m := NewMachine(testutil.Program(t, "../testdata/mt/cond_order.c"))
	mid := m.NewState()
	m.Run(mid, 30, NewRand(1, 0))
	ended := m.NewState()
	m.Run(ended, 100_000, NewRand(2, 0))
	for _, st := range []*State{new(State), m.NewState(), mid, ended} {
		key := m.AppendKey(nil, st)
		for stage := -1; stage <= PrefetchStages; stage++ {
			PrefetchState(st, stage)
		}
		if !slices.Equal(m.AppendKey(nil, st), key) {
			t.Errorf("prefetching changed a state")
		}
	}
}

// TestGiveSpares: the reusable buffers move, and the giver keeps none;
// the receiver's bounds hold.
func TestGiveSpares(t *testing.T) {
	for _, tc := range []struct{ threads, chunks, data, dstChunks int }{
		{0, 0, 0, 0}, {3, 2, 5, 0}, {1, maxSpareChunks, 10, 0}, {2, 10, 1, maxSpareChunks - 4},
	} {
		st, dst := new(State), new(State)
		for range tc.threads {
			st.spare = append(st.spare, new(Thread))
		}
		for range tc.chunks {
			st.Mem.spareChunks = append(st.Mem.spareChunks, new(chunk))
		}
		for range tc.data {
			st.Mem.spareData = append(st.Mem.spareData, make([]byte, 0, 8))
		}
		for range tc.dstChunks {
			dst.Mem.spareChunks = append(dst.Mem.spareChunks, new(chunk))
		}
		room := new(recordRoom)
		st.room = room
		st.Mem.chunkRoom, st.Mem.idRoom = make([]*chunk, 5), make([]uint32, 7)
		st.GiveSpares(dst)
		if len(st.spare)+len(st.Mem.spareChunks)+len(st.Mem.spareData) != 0 || st.room != nil {
			t.Errorf("%+v: the giver kept spares", tc)
		}
		if dst.room != room || len(dst.Mem.chunkRoom) != 5 || len(dst.Mem.idRoom) != 7 || st.Mem.chunkRoom != nil || st.Mem.idRoom != nil {
			t.Errorf("%+v: the rooms did not move", tc)
		}
		if got, want := len(dst.Mem.spareChunks), min(tc.dstChunks+tc.chunks, maxSpareChunks); len(dst.spare) != tc.threads ||
			got != want || len(dst.Mem.spareData) != tc.data {
			t.Errorf("%+v: received %d records, %d chunks (want %d), %d buffers", tc, len(dst.spare), got, want, len(dst.Mem.spareData))
		}
	}
}

// TestCopyThreadRoom: records' buffers are carved from shared blocks with
// room to spare: copying into fresh records allocates one block of each
// kind, not three buffers a record; the copies equal their source; a
// carved buffer cannot grow into its neighbour's; a record that already
// has the room allocates nothing; without room (Clone) each buffer is
// allocated alone.
func TestCopyThreadRoom(t *testing.T) {
	src := &Thread{ID: 2, Frames: make([]Frame, 3), Regs: make([]uint64, 20), Allocas: []uint32{7, 9}, RetVal: 5, WaitOn: 11}
	for i := range src.Regs {
		src.Regs[i] = uint64(i + 1)
	}
	src.Frames[1].PC = 4
	const n = 40
	dsts := make([]Thread, n)
	room := new(recordRoom)
	if a := testing.AllocsPerRun(1, func() {
		*room = recordRoom{}
		for i := range dsts {
			dsts[i] = Thread{}
			copyThread(&dsts[i], src, room)
		}
	}); a != 3 {
		t.Errorf("%v allocations copying %d records, want 3 (a block of each kind)", a, n)
	}
	for i := range dsts {
		d := &dsts[i]
		if d.ID != 2 || d.RetVal != 5 || d.WaitOn != 11 || !slices.Equal(d.Frames, src.Frames) ||
			!slices.Equal(d.Regs, src.Regs) || !slices.Equal(d.Allocas, src.Allocas) {
			t.Fatalf("copy %d differs from its source", i)
		}
		if cap(d.Frames) != 3+roomFrames || cap(d.Regs) != 20+roomRegs || cap(d.Allocas) != 2+roomAllocas {
			t.Fatalf("copy %d: capacities %d, %d, %d", i, cap(d.Frames), cap(d.Regs), cap(d.Allocas))
		}
	}
	// Filling one copy's buffers to their capacity and past it leaves its
	// neighbours alone.
	d := &dsts[n/2]
	d.Regs = append(d.Regs[:cap(d.Regs)], 99)
	d.Frames = append(d.Frames[:cap(d.Frames)], Frame{PC: 99})
	d.Allocas = append(d.Allocas[:cap(d.Allocas)], 99)
	for _, i := range []int{n/2 - 1, n/2 + 1} {
		if o := &dsts[i]; !slices.Equal(o.Regs, src.Regs) || !slices.Equal(o.Frames, src.Frames) || !slices.Equal(o.Allocas, src.Allocas) {
			t.Errorf("growing copy %d changed copy %d", n/2, i)
		}
	}
	// A record with room enough is reused in place.
	if a := testing.AllocsPerRun(10, func() { copyThread(&dsts[0], src, room) }); a != 0 {
		t.Errorf("%v allocations copying into a record with room, want 0", a)
	}
	if a := testing.AllocsPerRun(10, func() {
		var th Thread
		copyThread(&th, src, nil)
	}); a != 3 {
		t.Errorf("%v allocations copying into an empty record without room, want 3 (its buffers)", a)
	}
}

// TestAllocateInBulk: a memory in bulk allocates chunks chunkSlab at a
// time and carves small blocks' byte buffers from shared blocks (8-aligned
// for their holder counts, disjoint, their counts zero); a memory not in
// bulk allocates them one by one; CopyInto passes bulk on, a new state
// does not have it; a list of dead stack blocks grows with room to spare.
func TestAllocateInBulk(t *testing.T) {
	for _, bulk := range []bool{false, true} {
		var m Memory
		m.bulk = bulk
		want := float64(chunkSlab)
		if bulk {
			want = 1
		}
		kept := make([]*chunk, 0, 2*chunkSlab)
		if a := testing.AllocsPerRun(1, func() {
			m.spareChunks = m.spareChunks[:0]
			for range chunkSlab {
				ch := m.spareChunk()
				if ch == nil || ch.refs != 0 || ch.b[3].data != nil {
					t.Fatalf("bulk %v: a new chunk is not empty", bulk)
				}
				kept = append(kept, ch)
			}
		}); a != want {
			t.Errorf("bulk %v: %v allocations for %d chunks, want %v", bulk, a, chunkSlab, want)
		}
		const n = 100
		bufs := make([][]byte, n)
		want = n
		if bulk {
			want = 1 // (n buffers of 40 bytes fit a block)
		}
		if a := testing.AllocsPerRun(1, func() {
			m.dataRoom = nil
			for i := range bufs {
				bufs[i] = m.buffer(20)
			}
		}); a != want {
			t.Errorf("bulk %v: %v allocations for %d buffers, want %v", bulk, a, n, want)
		}
		for i, d := range bufs {
			if cap(d) < 20 || uintptr(unsafe.Pointer(bufRefs(d)))%8 != 0 || *bufRefs(d) != 0 {
				t.Fatalf("bulk %v: buffer %d: capacity %d, count at %p = %d", bulk, i, cap(d), bufRefs(d), *bufRefs(d))
			}
			bufs[i] = append(d, bytes.Repeat([]byte{byte(i)}, cap(d))...)
		}
		for i, d := range bufs {
			if *bufRefs(d) != 0 || bytes.Count(d, []byte{byte(i)}) != len(d) {
				t.Fatalf("bulk %v: buffer %d overlaps another", bulk, i)
			}
		}
	}
	m := NewMachine(testutil.Program(t, "../testdata/smc/fib_4.c"))
	st := m.NewState()
	st.AllocateInBulk()
	var c, d State
	m.CopyInto(&c, st)
	m.CopyInto(&d, &c)
	if !c.Mem.bulk || !d.Mem.bulk || m.NewState().Mem.bulk {
		t.Errorf("bulk: copy %v, copy of a copy %v, new state %v; want true, true, false", c.Mem.bulk, d.Mem.bulk, m.NewState().Mem.bulk)
	}
	var mm Memory
	mm.freeStack = []uint32{1, 2}
	mm.freeStack = mm.freeStack[:2:2]
	if mm.freeStack = append(fit(mm.freeStack, 3, roomFreeStack, 0, nil), 1, 2, 3); cap(mm.freeStack) != 3+roomFreeStack {
		t.Errorf("dead stack list capacity %d, want %d", cap(mm.freeStack), 3+roomFreeStack)
	}
}

// TestCarvedLists: in bulk (AllocateInBulk) a copy's lists that are too
// short, its processes (CopyInto), its chunk table and its dead stack
// blocks (shareFrom), and a list of dead stack blocks that fills up
// (freeStackBlock), are carved with room to spare from blocks that go with
// the spares (GiveSpares) to the state built next: copying into fresh
// states allocates a block of each kind and the room's record, not three
// lists a state. The copies equal their source, and a list filled past
// its capacity leaves its neighbours alone. Without bulk each list is
// allocated alone.
func TestCarvedLists(t *testing.T) {
	m := NewMachine(testutil.Program(t, "../testdata/smc/fib_4.c"))
	for _, bulk := range []bool{true, false} {
		src := m.NewState()
		m.Run(src, 100_000, NewRand(1, 0)) // (ends with 3 processes, 3 chunks, 9 dead stack blocks)
		if len(src.Threads) < 2 || len(src.Mem.chunks) < 2 || len(src.Mem.freeStack) < 2 {
			t.Fatalf("%d processes, %d chunks, %d dead stack blocks: too few to test", len(src.Threads), len(src.Mem.chunks), len(src.Mem.freeStack))
		}
		src.Mem.bulk = bulk
		const n = 40
		dsts := make([]State, n)
		a := testing.AllocsPerRun(1, func() {
			clear(dsts)
			for i := range dsts {
				m.CopyInto(&dsts[i], src)
				if i+1 < n {
					dsts[i].GiveSpares(&dsts[i+1])
				}
			}
		})
		want := 4.0 // (a block of each kind, and the room's record)
		if !bulk {
			want = 3 * n
		}
		if a != want {
			t.Errorf("bulk %v: %v allocations copying into %d fresh states, want %v", bulk, a, n, want)
		}
		for i := range dsts {
			d := &dsts[i]
			if !slices.Equal(d.Threads, src.Threads) || !slices.Equal(d.Mem.chunks, src.Mem.chunks) || !slices.Equal(d.Mem.freeStack, src.Mem.freeStack) {
				t.Fatalf("bulk %v: copy %d's lists differ from its source's", bulk, i)
			}
			if bulk && (cap(d.Threads) != len(src.Threads)+roomThreads || cap(d.Mem.chunks) != len(src.Mem.chunks)+roomChunks ||
				cap(d.Mem.freeStack) != len(src.Mem.freeStack)+roomFreeStack) {
				t.Fatalf("bulk: copy %d's capacities %d, %d, %d", i, cap(d.Threads), cap(d.Mem.chunks), cap(d.Mem.freeStack))
			}
		}
		d := &dsts[n/2]
		d.Threads = append(d.Threads[:cap(d.Threads)], nil)
		d.Mem.chunks = append(d.Mem.chunks[:cap(d.Mem.chunks)], nil)
		d.Mem.freeStack = append(d.Mem.freeStack[:cap(d.Mem.freeStack)], 99)
		for _, i := range []int{n/2 - 1, n/2 + 1} {
			if o := &dsts[i]; !slices.Equal(o.Threads, src.Threads) || !slices.Equal(o.Mem.chunks, src.Mem.chunks) || !slices.Equal(o.Mem.freeStack, src.Mem.freeStack) {
				t.Errorf("bulk %v: filling copy %d's lists changed copy %d's", bulk, n/2, i)
			}
		}
		// A list of dead stack blocks that fills up grows with room to
		// spare, carved in bulk.
		mem := &dsts[0].Mem
		id, k := src.Mem.freeStack[0], len(src.Mem.freeStack)
		want = 1
		if !bulk {
			want = n
		}
		if a := testing.AllocsPerRun(1, func() {
			mem.idRoom = nil
			for range n {
				mem.freeStack = mem.freeStack[:k:k]
				mem.freeStackBlock(id)
			}
		}); a != want {
			t.Errorf("bulk %v: %v allocations growing %d full lists of dead stack blocks, want %v", bulk, a, n, want)
		}
		if cap(mem.freeStack) != k+roomFreeStack || mem.freeStack[k] != id {
			t.Errorf("bulk %v: a full list grew to capacity %d, want %d", bulk, cap(mem.freeStack), k+roomFreeStack)
		}
	}
}
