package vm

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/wyvernmc/wyvern/internal/testutil"
	"github.com/wyvernmc/wyvern/ir"
)

// countUndef counts the blocks of mem with undefined bytes.
func countUndef(mem *Memory) uint32 {
	k := uint32(0)
	for id := uint32(1); id < mem.n; id++ {
		if mem.blk(id).kind&blkUndef != 0 {
			k++
		}
	}
	return k
}

// TestUndefCount: along random runs of a program that allocates, copies,
// reads and frees undefined heap and stack bytes, Memory.undef (which
// picks simulation's straight distances) is the number of blocks with
// undefined bytes, in the state, its copies and a state decoded from its
// key.
func TestUndefCount(t *testing.T) {
	m := NewMachine(testutil.Program(t, "../testdata/mt/undef_heap.c"))
	cp, dec := new(State), new(State)
	seen := false
	for seed := uint64(1); seed <= 20; seed++ {
		st := m.NewState()
		rnd := NewRand(seed, 0)
		for step := 0; step < 2000 && st.Status == Running; step++ {
			if got, want := st.Mem.undef, countUndef(&st.Mem); got != want {
				t.Fatalf("seed %d step %d: Memory.undef %d, %d blocks with undefined bytes", seed, step, got, want)
			}
			seen = seen || st.Mem.undef > 0
			m.CopyInto(cp, st)
			if got, want := cp.Mem.undef, countUndef(&cp.Mem); got != want {
				t.Fatalf("seed %d step %d: a copy's Memory.undef %d, %d blocks with undefined bytes", seed, step, got, want)
			}
			key, ends := m.AppendKeyParts(nil, nil, st)
			if err := m.DecodeKeyInto(dec, splitParts(key, ends), m.AppendKeyAux(nil, st)); err != nil {
				t.Fatal(err)
			}
			if got, want := dec.Mem.undef, countUndef(&dec.Mem); got != want || got != st.Mem.undef {
				t.Fatalf("seed %d step %d: a decoded state's Memory.undef %d, %d blocks with undefined bytes (the state's %d)", seed, step, got, want, st.Mem.undef)
			}
			en := m.EnabledThreads(st, nil)
			if len(en) == 0 {
				break
			}
			tid := en[rnd.Uint64()%uint64(len(en))]
			m.StepOnly(st, tid, rnd)
			m.SettleEnd(st, tid)
		}
	}
	if !seen {
		t.Fatal("no state with undefined bytes")
	}
}

// TestUndefPadding: an alloca's padding is not undefined
// (ir.Func.UndefMasks), so a local struct whose fields are all written
// has no undefined bytes left, and its accesses take the fast path again.
func TestUndefPadding(t *testing.T) {
	src := filepath.Join(t.TempDir(), "pad.c")
	if err := os.WriteFile(src, []byte(`struct s { char c; int i; char d; };
int main(void) {
  struct s v[2];
  for (int k = 0; k < 2; k++) { v[k].c = 1; v[k].i = 2; v[k].d = 3; }
  return v[1].i;
}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	m := NewMachine(testutil.Program(t, src))
	st := m.NewState()
	most := uint32(0)
	for st.Status == Running {
		most = max(most, st.Mem.undef)
		if st.Threads[0].Frames[0].PC >= 0 && len(st.Threads[0].Frames) == 1 {
			if _, in := m.Next(st.Threads[0]); in != nil && in.Op == ir.OpRet && st.Mem.undef != 0 {
				t.Fatalf("at main's return, %d blocks have undefined bytes: the padding kept v's", st.Mem.undef)
			}
		}
		m.StepOnly(st, 0, NewRand(1, 0))
	}
	if most == 0 {
		t.Fatal("v never had undefined bytes")
	}
	if st.Status != Exited || st.ExitCode != 2 {
		t.Fatalf("%s", st.Describe())
	}
}
