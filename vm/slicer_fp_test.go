package vm

import (
	"path/filepath"
	"testing"

	"github.com/wyvernmc/wyvern/internal/testutil"
)

// TestFingerprintUnderSlicer: an observer that hashes incrementally
// (Fingerprinter advances the memory's epoch without copying) under the
// slicer, with a *Rand and an interface chooser, for several watches.
func TestFingerprintUnderSlicer(t *testing.T) {
	testutil.NeedClang(t)
	files := []string{"smc/gossip_2.c", "smc/petersonsBug.c", "smc/fib_8.c", "mt/counter_mutex.c", "mt/platform_calls.c", "smc/stack.c", "smc/robot.c"}
	watches := []Watch{{All: true}, {Procs: 1}, {Procs: 1 << 1}, {Calls: 1}, {Calls: 1<<1 | 1<<2}, {Calls: 1 | 1<<1 | 1<<2}}
	for _, f := range files {
		m := NewMachine(testutil.Program(t, filepath.Join("../testdata", f)))
		for i := uint64(0); i < 3; i++ {
			ref := m.NewState()
			m.Run(ref, 8000, NewRand(5, i))
			for wi, w := range watches {
				for _, wrap := range []bool{false, true} {
					var ch Chooser = NewRand(5, i)
					if wrap {
						ch = wrappedRand{NewRand(5, i)}
					}
					st := m.NewState()
					var fp Fingerprinter
					var last uint64
					m.ObserveWatch(st, 8000, ch, w, func(st *State, th *Thread) bool {
						if th != nil && st.Steps < last {
							t.Fatalf("%s seed %d watch %d: steps went back %d -> %d", f, i, wi, last, st.Steps)
						}
						last = st.Steps
						if got, want := fp.Hash(st), st.Hash(); got != want {
							t.Fatalf("%s seed %d watch %d wrap %v: fingerprint differs at step %d", f, i, wi, wrap, st.Steps)
						}
						return false
					})
					if st.Hash() != ref.Hash() || st.Steps != ref.Steps || st.Status != ref.Status {
						t.Fatalf("%s seed %d watch %d wrap %v: ended %s/%d, ref %s/%d", f, i, wi, wrap, st.Status, st.Steps, ref.Status, ref.Steps)
					}
				}
			}
		}
	}
}
