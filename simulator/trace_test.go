package simulator

import (
	"testing"

	"github.com/wyvernmc/wyvern/internal/testutil"
	"github.com/wyvernmc/wyvern/ir"
	"github.com/wyvernmc/wyvern/query"
	"github.com/wyvernmc/wyvern/vm"
)

// A loop storing i = 0..9 into @g, then returning.
const loopLL = `
@g = global i32 0
define i32 @main() {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %n, %loop ]
  store i32 %i, i32* @g
  %n = add i32 %i, 1
  %c = icmp slt i32 %n, 10
  br i1 %c, label %loop, label %done
done:
  ret i32 0
}
`

func tracer(t *testing.T, q string) *Tracer {
	t.Helper()
	p, err := ir.ParseLL("loop.ll", []byte(loopLL))
	if err != nil {
		t.Fatal(err)
	}
	pq, err := query.Parse(q)
	if err != nil {
		t.Fatal(err)
	}
	c, err := query.Compile(pq, vm.NewMachine(p))
	if err != nil {
		t.Fatal(err)
	}
	return NewTracer(c)
}

func TestTraceSemantics(t *testing.T) {
	cases := []struct {
		q     string
		sat   bool
		steps uint64
		value float64
	}{
		// g becomes 3 after the store of the 4th iteration: 1 br + 3*4 + 1 store = 14 steps
		{"Pr[<=1000](<> g == 3)", true, 14, 0},
		{"Pr[<=10](<> g == 3)", false, 10, 0},    // bound reached first: states s0..s10 checked
		{"Pr[<=1000](<> g == 42)", false, 42, 0}, // the run exits after 1 + 40 + 1 steps
		{"Pr[<=1000](<> true)", true, 0, 0},      // the initial state satisfies
		{"Estimate[<=1000,1]{max g}", false, 42, 9},
		{"Estimate[<=1000,1]{min g}", false, 42, 0},
		{"Estimate[<=6,1]{max g * 2}", false, 6, 2}, // g=1 after step 6
	}
	for _, c := range cases {
		out, _ := tracer(t, c.q).Trace(1, 0)
		if out.Sat != c.sat || out.Steps != c.steps || out.Value != c.value {
			t.Errorf("%s: sat=%v steps=%d value=%g, want %v %d %g", c.q, out.Sat, out.Steps, out.Value, c.sat, c.steps, c.value)
		}
	}
	tr := tracer(t, "EnumStatesSMC <=1000 1")
	tr.Trace(1, 0)
	if tr.States.Len() != 43 { // s0..s42 are all distinct
		t.Errorf("EnumStatesSMC saw %d states, want 43", tr.States.Len())
	}
}

// TestReuseIsInvisible: a tracer reusing its state gives every trace the
// same outcome and the same set of state hashes as a fresh state would.
func TestReuseIsInvisible(t *testing.T) {
	reused := tracer(t, "EnumStatesSMC <=30 1")
	for i := uint64(0); i < 5; i++ {
		reused.Trace(1, i)
	}
	reused.States.Clear()
	reused.Trace(1, 9)
	fresh := tracer(t, "EnumStatesSMC <=30 1")
	fresh.Trace(1, 9)
	if reused.States.Len() != fresh.States.Len() {
		t.Fatalf("reused state saw %d states, fresh %d", reused.States.Len(), fresh.States.Len())
	}
	for h := range fresh.States.All() {
		if !reused.States.Has(h) {
			t.Fatal("a state hash differs between a reused and a fresh state")
		}
	}
}

// TestTraceAllocs: after a few traces, a Tracer's traces allocate nothing,
// gossip_2's included (its main allocates blocks of several sizes: each
// reset must leave every block's buffer where the next trace's allocation
// of that block finds it; see Memory.drop and Memory.buffer).
func TestTraceAllocs(t *testing.T) {
	testutil.NeedClang(t)
	for _, c := range []struct{ file, q string }{
		{"gossip_2", "Pr[<=5000](<> [0.VERIFIER_finished])"},
		{"fib_8", "Pr[<=5000](<> [0.VERIFIER_error])"},
		{"petersonsBug", "Pr[<=5000](<> ([1.crit] && [2.crit]))"},
	} {
		prog := testutil.Program(t, "../testdata/smc/"+c.file+".c")
		q, err := query.Parse(c.q)
		if err != nil {
			t.Fatal(err)
		}
		cq, err := query.Compile(q, vm.NewMachine(prog))
		if err != nil {
			t.Fatal(err)
		}
		tr := NewTracer(cq)
		i := uint64(0)
		trace := func() {
			tr.Trace(1, i)
			i++
		}
		for range 20 {
			trace()
		}
		if a := testing.AllocsPerRun(200, trace); a != 0 {
			t.Errorf("%s: %v allocations a trace, want 0", c.file, a)
		}
	}
}
