package query

import (
	"errors"
	"strings"
	"testing"

	"github.com/wyvernmc/wyvern/ir"
	"github.com/wyvernmc/wyvern/vm"
)

const evalLL = `
@g = global i32 0
define void @f() {
entry:
  ret void
}
define i32 @main() {
entry:
  %x = add i32 0, 7
  store i32 %x, i32* @g
  call void @f()
  %d = sdiv i32 %x, 0
  ret i32 %d
}
`

// TestEvaluators steps a program and checks propositions at each state.
func TestEvaluators(t *testing.T) {
	prog, err := ir.ParseLL("eval.ll", []byte(evalLL))
	if err != nil {
		t.Fatal(err)
	}
	m := vm.NewMachine(prog)
	compile := func(p string) func(*vm.State) bool {
		q, err := Parse("Pr[<=10](<> " + p + ")")
		if err != nil {
			t.Fatal(err)
		}
		c, err := Compile(q, m)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		return c.Prop
	}
	props := []string{"[0.f]", "@0.main.%x;si32 == 7", "g == 7", "DivZero", "Error(DivZero)", "Exists (p)([p.f])", "!(g < 7)"}
	// states s0 (before add) .. s4 (after the division failed)
	want := map[string][]bool{
		"[0.f]":                {false, false, true, false, false},
		"@0.main.%x;si32 == 7": {false, true, true, true, true},
		"g == 7":               {false, false, true, true, true},
		"DivZero":              {false, false, false, true, false},
		"Error(DivZero)":       {false, false, false, false, true},
		"Exists (p)([p.f])":    {false, false, true, false, false},
		"!(g < 7)":             {false, false, true, true, true},
	}
	st := m.NewState()
	rng := vm.NewRand(1, 0)
	for i := 0; i < 5; i++ {
		for _, p := range props {
			if got := compile(p)(st); got != want[p][i] {
				t.Errorf("state %d: %s = %v, want %v", i, p, got, want[p][i])
			}
		}
		if i == 2 { // step over the call and the return of f
			m.Step(st, 0, rng)
		}
		m.Step(st, 0, rng)
	}
	if st.Status != vm.Failed {
		t.Fatalf("run ended %s", st.Describe())
	}
}

func TestCompileErrors(t *testing.T) {
	prog, err := ir.ParseLL("eval.ll", []byte(evalLL))
	if err != nil {
		t.Fatal(err)
	}
	m := vm.NewMachine(prog)
	for _, c := range []struct{ q, want string }{
		{"Pr[<=5](<> [0.nosuch])", "no function \"nosuch\""},
		{"Pr[<=5](<> @0.main.%nope == 1)", "no register %nope"},
		{"Pr[<=5](<> @0.g.%x == 1)", "defines no function \"g\""},
		{"Pr[<=5](<> nosuch == 1)", "no variable \"nosuch\""},
		{"Pr[<=5](<> main::k == 1)", "no local variable \"k\""},
		{"Pr[<=5](<> Error(Bogus))", "unknown error kind"},
		{"Pr[<=5](<> [0.main:3])", "no instruction at line 3"},
		{"Pr[<=5](<> g + [0.nosuch] > 1)", "no function \"nosuch\""},
	} {
		q, err := Parse(c.q)
		if err != nil {
			t.Fatal(err)
		}
		_, err = Compile(q, m)
		var se *SyntaxError
		if !errors.As(err, &se) || !strings.Contains(se.Msg, c.want) || se.Col < 12 {
			t.Errorf("%s: got %v, want an error at its column containing %q", c.q, err, c.want)
		}
	}
}
