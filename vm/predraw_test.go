package vm

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/wyvernmc/wyvern/internal/testutil"
)

// straightFail is a program whose two processes fail inside their straight
// runs (an out-of-bounds store, a division by zero, at a step that depends
// on the interleaving), while main waits in a join: two processes enabled,
// the slicer's pre-drawn runs, cut short by the error.
const straightFail = `#include <pthread.h>
int shared;
void *worker(void *p) {
  int a[4];
  int d = 9;
  for (;;) {
    shared = shared + 1;
    d = d - (shared & 1);
    a[shared % 6] = d;
    shared = shared + 100 / d;
  }
  return 0;
}
int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, worker, 0);
  pthread_create(&t2, 0, worker, 0);
  pthread_join(t1, 0);
  return shared;
}
`

// TestPredrawnRuns checks that the slicer's straight runs, with the draws
// of several processes made ahead (slicer.next), make exactly the draws of
// the reference loop (one after every step, the enabled set recomputed):
// for every multi-threaded program of testdata/smc and testdata/mt, and one
// whose processes fail inside their runs, under many seeds and step
// bounds (small ones end runs at the bound; a run resumed after its bound
// must go on with the same generator), Run, ObserveWatch with a
// calls-only observer (the simulator's usual one) and Observe end in the
// reference's state, after its steps, with the generator at the same
// count of draws.
func TestPredrawnRuns(t *testing.T) {
	testutil.NeedClang(t)
	files, _ := filepath.Glob("../testdata/smc/*.c")
	mt, _ := filepath.Glob("../testdata/mt/*.c")
	files = append(files, mt...)
	fail := filepath.Join(t.TempDir(), "straight_fail.c")
	if err := os.WriteFile(fail, []byte(straightFail), 0o644); err != nil {
		t.Fatal(err)
	}
	files = append(files, fail)
	seeds := 24
	if testing.Short() {
		seeds = 6
	}
	failed := 0
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			m := NewMachine(testutil.Program(t, f))
			for i := 0; i < seeds; i++ {
				for _, bound := range []uint64{3000, 1 + uint64(i)*37} {
					ref, rr := m.NewState(), NewRand(11, uint64(i))
					m.referenceRun(ref, bound, rr, func(*State, *Thread, bool) {})
					// and on, after the bound, to twice it
					if ref.Status == StepBound {
						ref.Status = Running
					}
					m.referenceRun(ref, 2*bound, rr, func(*State, *Thread, bool) {})
					if ref.Status == Failed {
						failed++
					}
					for _, how := range []string{"Run", "ObserveWatch", "Observe"} {
						st, r := m.NewState(), NewRand(11, uint64(i))
						for _, b := range []uint64{bound, 2 * bound} {
							switch how {
							case "Run":
								m.Run(st, b, r)
							case "ObserveWatch":
								m.ObserveWatch(st, b, r, Watch{Calls: 1}, func(*State, *Thread) bool { return false })
							default:
								m.Observe(st, b, r, func(*State, *Thread) bool { return false })
							}
						}
						if st.Steps != ref.Steps || st.Status != ref.Status || st.Hash() != ref.Hash() || string(st.Out) != string(ref.Out) {
							t.Fatalf("seed %d, bound %d, %s: the run ended %s after %d steps, the reference %s after %d",
								i, bound, how, st.Status, st.Steps, ref.Status, ref.Steps)
						}
						if r.ctr != rr.ctr {
							t.Fatalf("seed %d, bound %d, %s: %d draws, the reference %d", i, bound, how, r.ctr, rr.ctr)
						}
					}
				}
			}
		})
	}
	if failed == 0 {
		t.Errorf("no run failed: %s does not test runs cut short", fail)
	}
}
