package vm_test

import (
	"slices"
	"testing"

	"github.com/wyvernmc/wyvern/vm"
)

// TestEdgeInputs checks Behaviours.Inputs = InputsEdges: about half of the
// 64-bit draws are edge values, each about as often as the others; draws
// of a range (the scheduler's) are the uniform generator's exactly when no
// 64-bit draw is made; and a program's inputs are the same whether the
// interpreter draws from the *Rand directly (its inlined path) or through
// a wrapping Chooser (Choose).
func TestEdgeInputs(t *testing.T) {
	r := vm.NewRand(3, 4)
	r.SetBehaviours(vm.Behaviours{Inputs: vm.InputsEdges})
	const n = 200_000
	counts := map[uint64]int{}
	edges := 0
	for i := 0; i < n; i++ {
		v := r.Choose(0)
		if slices.Contains(vm.EdgeValues[:], v) {
			edges++
			counts[v]++
		}
	}
	if f := float64(edges) / n; f < 0.49 || f > 0.51 {
		t.Errorf("%.4f of the draws are edge values, want 1/2", f)
	}
	per := float64(n) / 2 / float64(len(vm.EdgeValues))
	for _, v := range vm.EdgeValues {
		if c := float64(counts[v]); c < 0.9*per || c > 1.1*per {
			t.Errorf("edge %#x drawn %v times, want about %.0f", v, c, per)
		}
	}

	u, e := vm.NewRand(5, 6), vm.NewRand(5, 6)
	e.SetBehaviours(vm.Behaviours{Inputs: vm.InputsEdges})
	for i := uint64(1); i < 1000; i++ {
		if a, b := u.Choose(i), e.Choose(i); a != b {
			t.Fatalf("Choose(%d): %d uniform, %d with edge inputs", i, a, b)
		}
	}

	prog, err := loadSrc(t, "inputs", `#include <stdio.h>
extern int __VERIFIER_nondet_int(void);
extern unsigned char __VERIFIER_nondet_uchar(void);
extern long long __VERIFIER_nondet_longlong(void);
int main(void) {
  for (int k = 0; k < 40; k++)
    printf("%d %u %lld\n", __VERIFIER_nondet_int(), __VERIFIER_nondet_uchar(), __VERIFIER_nondet_longlong());
  return 0;
}`, 0)
	if err != nil {
		t.Fatal(err)
	}
	m := vm.NewMachine(prog)
	out := func(ch vm.Chooser) string {
		st := m.NewState()
		m.Run(st, 1_000_000, ch)
		if st.Status != vm.Exited {
			t.Fatalf("%s", st.Describe())
		}
		return string(st.Out)
	}
	b := vm.Behaviours{Inputs: vm.InputsEdges}
	direct := vm.NewRand(1, 0)
	direct.SetBehaviours(b)
	wrapped := vm.NewRand(1, 0)
	wrapped.SetBehaviours(b)
	got, want := out(direct), out(wrapper{wrapped})
	if got != want {
		t.Fatalf("inputs drawn from the *Rand:\n%s\ndiffer from those drawn through Choose:\n%s", got, want)
	}
	if plain := out(vm.NewRand(1, 0)); plain == got {
		t.Fatal("the same inputs with and without edge inputs")
	}
}

// wrapper is a Chooser that is not a *Rand (the interpreter calls Choose).
type wrapper struct{ r *vm.Rand }

func (w wrapper) Choose(n uint64) uint64    { return w.r.Choose(n) }
func (w wrapper) Behaviours() vm.Behaviours { return w.r.Behaviours() }
