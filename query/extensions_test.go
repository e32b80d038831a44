package query

import (
	"strings"
	"testing"

	"github.com/wyvernmc/wyvern/ir"
	"github.com/wyvernmc/wyvern/vm"
)

// TestUppaalEstimate: UPPAAL's E[<=N; R](max: e) is Estimate[<=N,R]{max e}.
func TestUppaalEstimate(t *testing.T) {
	cases := []struct{ uppaal, ours string }{
		{"E[<=100; 50](max: x)", "Estimate[<=100,50]{max x}"},
		{"E[<=7;3](min: x + 2*y)", "Estimate[<=7,3]{min x + 2*y}"},
		{"E[<=10; 20](avg: x) {Alpha=0.01}", "Estimate[<=10,20]{avg x} {Alpha=0.01}"},
	}
	for _, c := range cases {
		a, err := Parse(c.uppaal)
		if err != nil {
			t.Fatalf("%s: %v", c.uppaal, err)
		}
		b, err := Parse(c.ours)
		if err != nil {
			t.Fatal(err)
		}
		if a.Kind != Estimate || a.Kind != b.Kind || a.Bound != b.Bound || a.Runs != b.Runs || a.Agg != b.Agg ||
			a.Num("Alpha") != b.Num("Alpha") || a.Expr.col() == 0 {
			t.Errorf("%s: %+v, want as %s: %+v", c.uppaal, a, c.ours, b)
		}
	}
	for _, c := range []struct{ q, want string }{
		{"E[<=10, 5](max: x)", `expected ";"`},
		{"E[<=10; 5](sum: x)", "expected max, min or avg"},
		{"E[<=10; 5](max x)", `expected ":"`},
		{"E[<=10; 0](max: x)", "the number of runs must be positive"},
	} {
		if _, err := Parse(c.q); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.q, err, c.want)
		}
	}
}

// TestUnsupportedTemporal: always and until in Pr queries are refused with
// a message that says what to ask instead.
func TestUnsupportedTemporal(t *testing.T) {
	for _, c := range []struct{ q, want string }{
		{"Pr[<=10]([] x < 3) {Split=adaptive, Score=x}", "for Pr[<=N]([] P), split Pr[<=N](<> !P)"},
		{"Pr[<=10](x < 3 U x > 5)", "until (P U Q) is not supported"},
		{"Pr[<=10]([0.f] U [1.g])", "until (P U Q) is not supported"},
		{"Pr[<=10](x < 3)", `expected "<>" (eventually)`},
	} {
		if _, err := Parse(c.q); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.q, err, c.want)
		}
	}
}

const exitLL = `
@g = global i32 0
define i32 @main() {
entry:
  store i32 1, i32* @g
  ret i32 3
}
`

// TestExited: Exited holds once the program exited, Exited == c when its
// status compares so; neither holds before.
func TestExited(t *testing.T) {
	prog, err := ir.ParseLL("exit.ll", []byte(exitLL))
	if err != nil {
		t.Fatal(err)
	}
	m := vm.NewMachine(prog)
	start := m.NewState()
	end := m.NewState()
	m.Observe(end, 100, vm.NewRand(1, 0), func(*vm.State, *vm.Thread) bool { return false })
	if end.Status != vm.Exited || end.ExitCode != 3 {
		t.Fatalf("the run ends %s", end.Describe())
	}
	cases := []struct {
		prop       string
		start, end bool
	}{
		{"Exited", false, true},
		{"Exited == 3", false, true},
		{"Exited == 0", false, false},
		{"Exited != 0 && g == 1", false, true},
		{"Exited >= 2 + 1", false, true},
		{"!Exited", true, false},
	}
	for _, c := range cases {
		q, err := Parse("E<> " + c.prop)
		if err != nil {
			t.Fatalf("%s: %v", c.prop, err)
		}
		cq, err := Compile(q, m)
		if err != nil {
			t.Fatalf("%s: %v", c.prop, err)
		}
		if got := cq.Prop(start); got != c.start {
			t.Errorf("%s at the start: %v, want %v", c.prop, got, c.start)
		}
		if got := cq.Prop(end); got != c.end {
			t.Errorf("%s at the end: %v, want %v", c.prop, got, c.end)
		}
		if !cq.Reads.Has(ReadExit) {
			t.Errorf("%s: reads %v, not Exited", c.prop, cq.Reads.Set)
		}
	}
}
