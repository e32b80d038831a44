package vm

import (
	"slices"
	"testing"

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
		st.GiveSpares(dst)
		if len(st.spare)+len(st.Mem.spareChunks)+len(st.Mem.spareData) != 0 {
			t.Errorf("%+v: the giver kept spares", tc)
		}
		if got, want := len(dst.Mem.spareChunks), min(tc.dstChunks+tc.chunks, maxSpareChunks); len(dst.spare) != tc.threads ||
			got != want || len(dst.Mem.spareData) != tc.data {
			t.Errorf("%+v: received %d records, %d chunks (want %d), %d buffers", tc, len(dst.spare), got, want, len(dst.Mem.spareData))
		}
	}
}
