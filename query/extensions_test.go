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

// TestTemporalErrors: what Pr queries take instead, and what until and
// always refuse, say so.
func TestTemporalErrors(t *testing.T) {
	for _, c := range []struct{ q, want string }{
		{"Pr[<=10]([] x < 3) {Split=adaptive, Score=x}", "for Pr[<=N]([] P), split Pr[<=N](<> !P)"},
		{"Pr[<=10](x < 3 U x > 5) {Split=adaptive, Score=x}", "cannot know the states before"},
		{"Pr[<=10](x < 3)", `expected "<>" (eventually), "[]" (always) or P U Q (until)`},
		{"Pr[<=10](x < 3 U )", "expected an expression"},
	} {
		if _, err := Parse(c.q); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.q, err, c.want)
		}
	}
}

const untilLL = `
@x = global i32 0
@y = global i32 0
define i32 @main() {
entry:
  store i32 1, i32* @x
  store i32 2, i32* @x
  store i32 1, i32* @y
  store i32 3, i32* @x
  ret i32 0
}
`

// TestUntil: P U Q holds at the first state satisfying Q when every state
// before satisfied P, never once a state satisfied neither; a run's first
// state starts the watch afresh.
func TestUntil(t *testing.T) {
	prog, err := ir.ParseLL("until.ll", []byte(untilLL))
	if err != nil {
		t.Fatal(err)
	}
	m := vm.NewMachine(prog)
	run := func(text string) bool {
		q, err := Parse(text)
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		c, err := Compile(q, m)
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		return m.Observe(m.NewState(), q.Bound, vm.NewRand(1, 0), func(st *vm.State, _ *vm.Thread) bool { return c.Prop(st) })
	}
	// States: x, y = 0,0 (s0), 1,0, 2,0, 2,1, 3,1.
	for _, c := range []struct {
		query string
		want  bool
	}{
		{"Pr[<=100](x < 3 U y == 1)", true},
		{"Pr[<=100](x < 2 U y == 1)", false}, // x = 2 while y = 0
		{"Pr[<=100](true U x == 3)", true},
		{"Pr[<=100](y == 0 U x == 2)", true},
		{"Pr[<=100](x == 0 U x == 2)", false}, // x = 1 first
		{"Pr[<=2](x < 3 U y == 1)", false},    // the bound comes first
	} {
		if got := run(c.query); got != c.want {
			t.Errorf("%s: %v, want %v", c.query, got, c.want)
		}
	}
	// The watch restarts at a run's first state.
	q, _ := Parse("Pr[<=100](x < 2 U y == 1)")
	c, err := Compile(q, m)
	if err != nil {
		t.Fatal(err)
	}
	var states []*vm.State
	m.Observe(m.NewState(), 100, vm.NewRand(1, 0), func(st *vm.State, _ *vm.Thread) bool {
		states = append(states, st.Clone())
		return false
	})
	if len(states) < 4 {
		t.Fatalf("%d states", len(states))
	}
	for i := 0; i < 4; i++ {
		if c.Prop(states[i]) {
			t.Errorf("state %d satisfies it after the failure at state 2", i)
		}
	}
	if c.Prop(states[0]) || !c.Prop(states[3]) {
		t.Errorf("a new run (state 0, then y = 1 without x = 2 before) is not watched afresh")
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
