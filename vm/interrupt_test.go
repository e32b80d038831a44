package vm

import (
	"sync/atomic"
	"testing"

	"github.com/wyvernmc/wyvern/internal/testutil"
)

// TestInterruptSlicesSameRun: a run whose state has an Interrupt flag is
// cut into slices of interruptSlice steps (here 1 to 7, so that slices end
// everywhere: inside a lone process's run, between draws of several) and
// takes the same steps, draws and states as the run without one: the same
// final state, every state the unsliced run shows (by fingerprint, in
// order; exactly those with Watch{All}); with the flag set, a run stops
// within a slice, status Running.
func TestInterruptSlicesSameRun(t *testing.T) {
	saved := interruptSlice
	t.Cleanup(func() { interruptSlice = saved })
	progs := append([]string{"../testdata/mt/counter_race.c", "../testdata/mt/platform_calls.c"}, identityPrograms...)
	watches := []Watch{{All: true}, {Procs: 1}, {}}
	for _, path := range progs {
		m := NewMachine(testutil.Program(t, path))
		for seed := uint64(1); seed <= 3; seed++ {
			for wi, w := range watches {
				observe := func(slice uint64) ([]Hash128, *State) {
					interruptSlice = slice
					st := m.NewState()
					if slice > 0 {
						st.Interrupt = new(atomic.Bool)
					}
					var seen []Hash128
					m.ObserveWatch(st, 50_000, NewRand(seed, 0), w, func(s *State, _ *Thread) bool {
						if len(seen) < 5000 {
							seen = append(seen, s.Hash())
						}
						return false
					})
					return seen, st
				}
				want, ref := observe(0)
				for _, slice := range []uint64{1, 3, 7} {
					got, st := observe(slice)
					if st.Steps != ref.Steps || st.Status != ref.Status || st.Hash() != ref.Hash() || string(st.Out) != string(ref.Out) {
						t.Fatalf("%s seed %d watch %d slice %d: %d steps (%s); unsliced %d steps (%s)",
							path, seed, wi, slice, st.Steps, st.Status, ref.Steps, ref.Status)
					}
					// Every state the unsliced run shows, in order; with
					// Watch{All} exactly those (a partial watch may be
					// shown a state more at a slice boundary, one where
					// nothing it reads changed).
					if w.All && len(got) != len(want) {
						t.Fatalf("%s seed %d slice %d: %d states seen, unsliced %d", path, seed, slice, len(got), len(want))
					}
					i := 0
					for _, h := range got {
						if i < len(want) && h == want[i] {
							i++
						}
					}
					if i != len(want) && len(got) < 5000 {
						t.Fatalf("%s seed %d watch %d slice %d: the unsliced run's state %d is not seen", path, seed, wi, slice, i)
					}
				}
			}
		}
	}
	// Set, the flag stops a run of a spinning program within a slice.
	interruptSlice = 1000
	m := mustLL(t, `
@x = global i32 0
define i32 @main() {
entry:
  br label %loop
loop:
  %v = load i32, i32* @x
  %n = add i32 %v, 1
  store i32 %n, i32* @x
  br label %loop
}`)
	st := m.NewState()
	st.Interrupt = new(atomic.Bool)
	steps := 0
	m.Observe(st, 1e12, nil, func(s *State, _ *Thread) bool {
		if steps++; steps == 5000 {
			st.Interrupt.Store(true)
		}
		return false
	})
	if st.Status != Running || st.Steps < 4999 || st.Steps > 4999+1000 {
		t.Fatalf("interrupted after the 5000th state: %d steps, status %s", st.Steps, st.Status)
	}
}
