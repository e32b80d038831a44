package vm_test

import (
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/wyvernmc/wyvern/ir"
	"github.com/wyvernmc/wyvern/vm"
)

// identityCase is a mid-run state of a program.
type identityCase struct {
	name string
	m    *vm.Machine
	st   *vm.State
}

// identityStates returns mid-run states (after 700 steps, as
// BenchmarkSnapshot) of programs with small and large memories and with
// threads waiting on condition variables, for the state-identity benchmarks.
func identityStates(b *testing.B) []identityCase {
	var out []identityCase
	for _, f := range []string{"../testdata/smc/fib_32.c", "../testdata/smc/stack.c", "../testdata/smc/gossip_2.c", "../testdata/mt/prodcons.c"} {
		prog, err := ir.Load(f, ir.Options{})
		if err != nil {
			b.Skipf("load %s: %v", f, err)
		}
		m := vm.NewMachine(prog)
		st := m.NewState()
		m.Run(st, 700, vm.NewRand(1, 0))
		out = append(out, identityCase{strings.TrimSuffix(filepath.Base(f), ".c"), m, st})
	}
	runtime.GC() // not in the first benchmark: loading made garbage
	return out
}

// BenchmarkHash measures State.Hash, the fingerprint of a state that
// EnumStatesSMC collects (once per observed state of every trace).
func BenchmarkHash(b *testing.B) {
	for _, c := range identityStates(b) {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			var h vm.Hash128
			for i := 0; i < b.N; i++ {
				h = c.st.Hash()
			}
			_ = h
		})
	}
}

// BenchmarkKey measures Machine.AppendKey, the canonical encoding of a
// state that explicit-state search stores, into a reused buffer; key-words
// is its length.
func BenchmarkKey(b *testing.B) {
	for _, c := range identityStates(b) {
		b.Run(c.name, func(b *testing.B) {
			key := c.m.AppendKey(nil, c.st)
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				key = c.m.AppendKey(key[:0], c.st)
			}
			b.ReportMetric(float64(len(key)), "key-words")
		})
	}
}
