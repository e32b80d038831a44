package vm

import (
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/wyvernmc/wyvern/internal/testutil"
	"github.com/wyvernmc/wyvern/ir"
)

// TestFusedSteps checks that superinstructions keep the step semantics: a
// run whose step budgets end at every possible place (inside fused pairs
// included) goes through exactly the states of a run taking one step per
// exec call (as the multi-threaded scheduler does), with the same errors at
// the same instructions, on the benchmark programs (at -O0 and -O1), the
// error programs and the multi-threaded ones.
func TestFusedSteps(t *testing.T) {
	testutil.NeedClang(t)
	var files []string
	for _, dir := range []string{"../testdata/bench", "../testdata/errors", "../testdata/mt"} {
		fs, _ := filepath.Glob(filepath.Join(dir, "*.c"))
		files = append(files, fs...)
	}
	if len(files) == 0 {
		t.Fatal("no programs")
	}
	steps := []uint64{1, 2, 3, 5, 1, 7, 2, 11}
	for _, f := range files {
		for _, opt := range []int{0, 1} {
			if opt == 1 && filepath.Base(filepath.Dir(f)) != "bench" {
				continue
			}
			name := fmt.Sprintf("%s/O%d", filepath.Base(f), opt)
			t.Run(name, func(t *testing.T) {
				p, err := ir.Load(f, ir.Options{OptLevel: opt})
				if err != nil {
					t.Fatal(err)
				}
				m := NewMachine(p)
				a, b := m.NewState(), m.NewState()
				ra, rb := NewRand(7, 1), NewRand(7, 1)
				limit := uint64(20000)
				if testing.Short() {
					limit = 3000
				}
				for i := 0; a.Steps < limit; i++ {
					m.Run(a, a.Steps+steps[i%len(steps)], ra)
					for b.Steps < a.Steps && (b.Status == Running || b.Status == StepBound) {
						m.Run(b, b.Steps+1, rb)
					}
					if a.Status != StepBound && b.Status == StepBound {
						m.Run(b, b.Steps+1, rb) // a found the run's end before a step: deadlock
					}
					if d := diffStates(a, b); d != "" || (i%64 == 0 || a.Status != StepBound) && !slices.Equal(m.AppendKey(nil, a), m.AppendKey(nil, b)) {
						t.Fatalf("after %d steps: %s", a.Steps, d)
					}
					if a.Status != StepBound {
						break
					}
				}
			})
		}
	}
}

func diffStates(a, b *State) string {
	if a.Steps != b.Steps || a.Status != b.Status {
		return fmt.Sprintf("steps %d/%d status %v/%v", a.Steps, b.Steps, a.Status, b.Status)
	}
	if (a.Err == nil) != (b.Err == nil) || a.Err != nil && *a.Err != *b.Err {
		return fmt.Sprintf("errors %v / %v", a.Err, b.Err)
	}
	if string(a.Out) != string(b.Out) {
		return "outputs differ"
	}
	if len(a.Threads) != len(b.Threads) {
		return "thread counts differ"
	}
	for i, ta := range a.Threads {
		tb := b.Threads[i]
		if len(ta.Frames) != len(tb.Frames) || !slices.Equal(ta.Regs, tb.Regs) {
			return fmt.Sprintf("thread %d: frames or registers differ", i)
		}
		for j := range ta.Frames {
			if ta.Frames[j].PC != tb.Frames[j].PC {
				return fmt.Sprintf("thread %d frame %d: pc %d/%d", i, j, ta.Frames[j].PC, tb.Frames[j].PC)
			}
		}
	}
	if ha, hb := a.Mem.n, b.Mem.n; ha != hb {
		return "block counts differ"
	}
	return ""
}
