package vm

import (
	"slices"
	"testing"

	"github.com/wyvernmc/wyvern/internal/testutil"
)

// TestDropInto: a dropped state gives to the receiver exactly what it was
// the last to hold: none of the records, chunks or bytes that its
// successors still hold, whose keys stay unchanged while the receiver
// reuses what it got; once the successors are dropped too, their parts
// come back.
func TestDropInto(t *testing.T) {
	m := NewMachine(testutil.Program(t, "../testdata/smc/fib_4.c"))
	st := m.NewState()
	m.Run(st, 40, NewRand(1, 0))
	st.Status = Running // (stopped at the step bound)
	en := m.EnabledThreads(st, nil)
	if len(en) < 2 {
		t.Fatalf("enabled %v, want 2 or more", en)
	}
	var succ []*State
	var keys [][]uint64
	for _, tid := range en {
		s := new(State)
		m.CopyInto(s, st)
		m.StepOnly(s, tid, NewRand(3, 0))
		succ = append(succ, s)
		keys = append(keys, m.AppendKey(nil, s))
	}
	// st's successors share st's records, chunks and bytes (those their
	// steps did not write); st writes all its parts anew first (a state
	// the search expanded: it owns nothing it shares).
	live := func() []*State { return succ }
	check := func(dst *State) {
		t.Helper()
		for _, s := range live() {
			for _, th := range s.Threads {
				if slices.Contains(dst.spare, th) {
					t.Fatal("a record a live state holds was given for reuse")
				}
			}
			for _, ch := range s.Mem.chunks {
				if slices.Contains(dst.Mem.spareChunks, ch) {
					t.Fatal("a chunk a live state holds was given for reuse")
				}
			}
			checkSpareUnreachable(t, &dst.Mem, &s.Mem)
		}
	}
	dst := new(State)
	st.DropInto(dst)
	if len(st.Threads) != 0 || len(st.Mem.chunks) != 0 || len(st.spare)+len(st.Mem.spareChunks)+len(st.Mem.spareData) != 0 {
		t.Fatal("a dropped state holds something, or kept spares")
	}
	check(dst)
	// The receiver reuses what it got; the successors are unchanged.
	for range 3 {
		m.CopyInto(dst, succ[0])
		m.Run(dst, 20, NewRand(2, 0))
		dst.Status = Running
	}
	for i, s := range succ {
		if !slices.Equal(m.AppendKey(nil, s), keys[i]) {
			t.Fatalf("successor %d changed after its parent was dropped", i)
		}
	}
	// The dropped state is a valid copy target again.
	m.CopyInto(st, succ[0])
	if !slices.Equal(m.AppendKey(nil, st), keys[0]) {
		t.Fatal("a dropped state, copied into, differs from the original")
	}
	st.DropInto(dst)
	// Dropping every successor returns the parts they alone held.
	before := len(dst.spare)
	for len(succ) > 1 {
		s := succ[len(succ)-1]
		succ = succ[:len(succ)-1]
		s.DropInto(dst)
		check(dst)
	}
	if len(dst.spare) <= before || len(dst.Mem.spareChunks) == 0 {
		t.Fatalf("no records or chunks came back: %d records (before %d), %d chunks", len(dst.spare), before, len(dst.Mem.spareChunks))
	}
}
