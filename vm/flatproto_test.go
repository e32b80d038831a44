package vm_test

import (
	"testing"

	"github.com/wyvernmc/wyvern/ir"
	"github.com/wyvernmc/wyvern/vm"
)

// BenchmarkFlatProto sizes #34's flat state vector (docs/design/flat-state.md)
// before the rewrite: over a working set of fib_8's states, as scattered in
// memory as a search's queue (copies made along random runs), it times a
// successor's copy as today (CopyInto, copy-on-write), a copy and a step,
// and the copy of a flat vector of the state's size (its canonical key's
// words) with one word written.
func BenchmarkFlatProto(b *testing.B) {
	prog, err := ir.Load("../testdata/smc/fib_8.c", ir.Options{})
	if err != nil {
		b.Skip(err)
	}
	m := vm.NewMachine(prog)
	const want = 100000
	var states []*vm.State
	var keys [][]uint64
	words := 0
	for seed := uint64(1); len(states) < want; seed++ {
		st := m.NewState()
		r := vm.NewRand(seed, 0)
		var buf []int32
		for st.Status == vm.Running && len(states) < want {
			buf = m.EnabledThreads(st, buf[:0])
			if len(buf) == 0 {
				break
			}
			tid := buf[r.Choose(uint64(len(buf)))]
			m.StepOnly(st, tid, r)
			c := new(vm.State)
			m.CopyInto(c, st)
			states = append(states, c)
			k := m.AppendKey(nil, c)
			keys = append(keys, k)
			words += len(k)
		}
	}
	b.Logf("%d states, %.1f key words a state", len(states), float64(words)/float64(len(states)))
	// cold: sources in random order (each a cache miss); warm: as a
	// breadth-first search meets them, each copied for 3 successors in a
	// row, the states in the order they were made
	cold, warm := make([]int, len(states)), make([]int, len(states))
	perm := vm.NewRand(99, 0)
	for i := range cold {
		cold[i], warm[i] = int(perm.Choose(uint64(len(states)))), i/3
	}
	for _, o := range []struct {
		name  string
		order []int
	}{{"cold", cold}, {"warm", warm}} {
		order := o.order
		b.Run(o.name+"/cow-copy", func(b *testing.B) {
			dst := new(vm.State)
			for i := 0; i < b.N; i++ {
				m.CopyInto(dst, states[order[i%len(order)]])
			}
		})
		b.Run(o.name+"/cow-copy-step", func(b *testing.B) {
			dst := new(vm.State)
			var buf []int32
			r := vm.NewRand(7, 0)
			for i := 0; i < b.N; i++ {
				src := states[order[i%len(order)]]
				buf = m.EnabledThreads(src, buf[:0])
				if len(buf) == 0 {
					continue
				}
				m.CopyInto(dst, src)
				m.StepEnabled(dst, buf[0], r)
			}
		})
		b.Run(o.name+"/flat-copy", func(b *testing.B) {
			var vec []uint64
			for i := 0; i < b.N; i++ {
				k := keys[order[i%len(order)]]
				vec = append(vec[:0], k...)
				vec[len(vec)/2]++
			}
		})
	}
}
