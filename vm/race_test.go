package vm

import (
	"bytes"
	"fmt"
	"testing"
	"unsafe"

	"github.com/wyvernmc/wyvern/internal/testutil"
	"github.com/wyvernmc/wyvern/ir"
)

// TestCallFootprints: at every platform call of testdata/race/calls.c
// (memset, memcpy, the string functions, the printf family, time, ...)
// whose footprint DataRace sees (raceFP), the footprint (NextAccesses) is
// what the call reads and writes:
//   - every byte the call changes lies in one of its write ranges;
//   - every byte the call depends on lies in one of its ranges: flipping a
//     byte outside them before the call changes nothing the call does
//     (its result, output, status and the rest of memory);
//   - every range lies in one live block, all but the first with Cont set.
func TestCallFootprints(t *testing.T) {
	m := NewMachine(testutil.Program(t, "testdata/race/calls.c"))
	st := m.NewState()
	rnd := NewRand(1, 0)
	seen := map[ir.Builtin]bool{}
	for step := 0; step < 5000 && st.Status == Running; step++ {
		en := m.EnabledThreads(st, nil)
		if len(en) == 0 {
			break
		}
		th := st.Threads[en[0]]
		fn, in := m.Next(th)
		if in != nil && in.Op == ir.OpCallB && raceFP[ir.Builtin(in.B)] != nil {
			b := ir.Builtin(in.B)
			seen[b] = true
			acc := m.NextAccesses(st, th, nil)
			for k, a := range acc {
				size, live := st.Mem.BlockSize(a.Addr)
				if !live || uint64(ir.PtrOff(a.Addr))+uint64(a.Size) > uint64(size) || a.Cont != (k > 0) || a.Size == 0 {
					t.Fatalf("%s at %s: access %+v outside a live block (size %d) or not marked as one process's", b, m.Loc(th), a, size)
				}
			}
			before := st.Clone()
			after := st.Clone()
			m.StepOnly(after, th.ID, NewRand(1, 0))
			if fr := &after.Threads[th.ID].Frames[len(after.Threads[th.ID].Frames)-1]; after.Status == Running && (fr.Fn != fn || fr.PC != th.Frames[len(th.Frames)-1].PC+1) {
				t.Fatalf("%s: the step did more than the call", b)
			}
			for id := uint32(1); id < before.Mem.n; id++ {
				p := ir.MakePtr(id, 0)
				x, y := blockBytes(before, p), blockBytes(after, p)
				for i := range min(len(x), len(y)) {
					if x[i] != y[i] && !covers(acc, p+uint64(i), true) {
						t.Errorf("%s at %s: byte %d of block %d changed outside the write ranges %+v", b, m.Loc(th), i, id, acc)
					}
				}
				// the bytes outside every range: flipping one changes nothing
				for i := range x {
					if covers(acc, p+uint64(i), false) || len(x) > 64 {
						continue
					}
					flip := before.Clone()
					if e := flip.Mem.Store(p+uint64(i), 1, uint64(x[i]^0x5a)); e != ErrNone {
						continue // (constant memory)
					}
					m.StepOnly(flip, th.ID, NewRand(1, 0))
					if d := differ(flip, after, th.ID, p+uint64(i)); d != "" {
						t.Errorf("%s at %s: the call depends on byte %d of block %d (%s), outside its ranges %+v", b, m.Loc(th), i, id, d, acc)
					}
				}
			}
		}
		if !m.StepOnly(st, th.ID, rnd) {
			break
		}
		m.SettleEnd(st, th.ID)
	}
	if st.Status != Exited {
		t.Fatalf("the run ended %v: %s", st.Status, st.Describe())
	}
	for b := range ir.Builtin(ir.NumBuiltins) {
		if raceFP[b] != nil && !seen[b] {
			t.Logf("not called by testdata/race/calls.c: %s", b)
		}
	}
	t.Logf("%d platform functions with a footprint called", len(seen))
	if len(seen) < 30 {
		t.Errorf("only %d platform functions with a footprint were called", len(seen))
	}
}

// blockBytes returns the bytes of the live block p points to (nil if none).
func blockBytes(st *State, p uint64) []byte {
	size, live := st.Mem.BlockSize(p)
	if !live {
		return nil
	}
	buf := make([]byte, size)
	st.Mem.Read(p, buf)
	return buf
}

// covers reports whether byte p lies in one of the ranges (writes only,
// when write).
func covers(acc []Access, p uint64, write bool) bool {
	for _, a := range acc {
		if (a.Write || !write) && a.Addr <= p && p < a.Addr+uint64(a.Size) {
			return true
		}
	}
	return false
}

// differ says how two states after a call of thread tid differ (its
// registers, the status, output, memory but byte skip), "" when they do
// not.
func differ(x, y *State, tid int32, skip uint64) string {
	switch {
	case x.Status != y.Status:
		return fmt.Sprintf("status %v, not %v", x.Status, y.Status)
	case !bytes.Equal(x.Out, y.Out):
		return fmt.Sprintf("output %q, not %q", x.Out, y.Out)
	case fmt.Sprint(x.Threads[tid].Regs) != fmt.Sprint(y.Threads[tid].Regs):
		return "registers"
	}
	for id := uint32(1); id < max(x.Mem.n, y.Mem.n); id++ {
		p := ir.MakePtr(id, 0)
		u, v := blockBytes(x, p), blockBytes(y, p)
		if len(u) != len(v) {
			return fmt.Sprintf("block %d's size", id)
		}
		for i := range u {
			if u[i] != v[i] && p+uint64(i) != skip {
				return fmt.Sprintf("byte %d of block %d", i, id)
			}
		}
	}
	return ""
}

// TestDataRaceAllocs: an Access takes 16 bytes, and DataRace allocates nothing on states whose processes
// are about to load and store (its accesses stay on the stack), so the
// per-step check of Pr[<=N](<> DataRace) and of verify's no-data-race
// query costs no garbage; only a platform call's footprint may allocate.
func TestDataRaceAllocs(t *testing.T) {
	if n := unsafe.Sizeof(Access{}); n != 16 {
		t.Errorf("an Access takes %d bytes, not 16 (DataRace's buffer lives on its stack)", n)
	}
	m := NewMachine(testutil.Program(t, "../testdata/mt/counter_race.c"))
	st := m.NewState()
	rnd := NewRand(3, 0)
	checked := 0
	for step := 0; step < 300 && st.Status == Running; step++ {
		en := m.EnabledThreads(st, nil)
		if len(en) == 0 {
			break
		}
		if len(en) > 1 {
			if n := testing.AllocsPerRun(5, func() { m.DataRace(st) }); n != 0 {
				t.Fatalf("step %d: DataRace made %v allocations", step, n)
			}
			checked++
		}
		m.StepOnly(st, en[rnd.Uint64()%uint64(len(en))], rnd)
		m.SettleEnd(st, 0)
	}
	if checked == 0 {
		t.Fatal("no state with two enabled processes")
	}
}
