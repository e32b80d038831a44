package explicit

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/wyvernmc/wyvern/internal/testutil"
	"github.com/wyvernmc/wyvern/trace"
	"github.com/wyvernmc/wyvern/vm"
)

// TestDeadRegsKeepVerdicts: clearing dead registers (dead.go) gives every
// reduced search the verdict it has without, with fewer states where
// registers kept stale values, and traces that replay to a state that
// decides the query.
func TestDeadRegsKeepVerdicts(t *testing.T) {
	testutil.NeedClang(t)
	defer func() { clearDeadRegs = true }()
	cases := []struct {
		prog, query string
		want        Verdict
	}{
		{"testdata/dead_fib.c", "E<> Error", NotSatisfied},
		{"testdata/dead_fib_bug.c", "E<> Error", Satisfied},
		{"testdata/dead_fib.c", "E<> DataRace || Error", NotSatisfied},
		{"testdata/dead_fib.c", "A[] !Deadlock", Satisfied},
		{peterson, mutex, Satisfied},
		{petersonBug, mutex, NotSatisfied},
	}
	opts := []Options{
		{Reduction: Local},
		{Reduction: Global},
		{Reduction: Global, POR: true},
		{Reduction: Global, POR: true, Order: DFS},
		{Reduction: Global, POR: true, Compact: true},
	}
	for _, c := range cases {
		for _, o := range opts {
			name := fmt.Sprintf("%s %q %s por=%v %s compact=%v", c.prog, c.query, o.Reduction, o.POR, o.Order, o.Compact)
			o.MaxStates = 500_000
			clearDeadRegs = false
			before := search(t, c.prog, c.query, o)
			clearDeadRegs = true
			after := search(t, c.prog, c.query, o)
			if before.Verdict != c.want || after.Verdict != c.want {
				t.Fatalf("%s: verdict %s without clearing, %s with, want %s", name, before.Verdict, after.Verdict, c.want)
			}
			if after.States > before.States {
				t.Errorf("%s: %d states with clearing, %d without", name, after.States, before.States)
			}
			if c.prog == "testdata/dead_fib.c" && c.query == "E<> Error" && after.States >= before.States {
				t.Errorf("%s: clearing merged no state (%d states)", name, after.States)
			}
			if after.Trace != nil {
				st, err := trace.ReplayFinal(machine(t, c.prog), after.Trace.Steps)
				if err != nil {
					t.Fatalf("%s: replay: %v", name, err)
				}
				// (a witness of E<> P ends where P holds, a counterexample of A[] P where it does not)
				if compile(t, machine(t, c.prog), c.query).Prop(st) != strings.HasPrefix(c.query, "E<>") {
					t.Errorf("%s: the trace does not end in a state that decides the query", name)
				}
			}
			t.Logf("%s: states %d -> %d", name, before.States, after.States)
		}
	}
}

// TestDeadFuncLists: the per-pc lists of dead registers (newDeadFunc) list
// exactly the registers outside their live intervals, at every pc of every
// function of the test programs and of made-up intervals; a function past
// the lists' bound keeps its intervals.
func TestDeadFuncLists(t *testing.T) {
	check := func(name string, slots []deadSlot, n int) {
		t.Helper()
		f := newDeadFunc(slots, n)
		for pc := int32(0); pc < int32(n); pc++ {
			var want []int32
			for _, ds := range slots {
				if pc < ds.from || pc > ds.to {
					want = append(want, ds.slot)
				}
			}
			got, ok := f.dead(pc)
			if !ok {
				if len(slots) > 0 {
					t.Fatalf("%s: no lists (intervals kept) for %d slots of %d instructions", name, len(slots), n)
				}
				continue
			}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("%s: pc %d: dead %v, want %v", name, pc, got, want)
			}
		}
	}
	made := []struct {
		name  string
		slots []deadSlot
		n     int
	}{
		{"none", nil, 5},
		{"never live", []deadSlot{{slot: 0, from: 1, to: 0}}, 3},
		{"live in the middle", []deadSlot{{slot: 2, from: 1, to: 2}}, 4},
		{"live from the start", []deadSlot{{slot: 1, from: 0, to: 1}, {slot: 3, from: 2, to: 3}}, 5},
		{"live to the end", []deadSlot{{slot: 0, from: 3, to: 4}}, 5},
	}
	for _, c := range made {
		check(c.name, c.slots, c.n)
	}
	for _, path := range []string{"testdata/dead_fib.c", "testdata/dead_fib_8.c", peterson, "../testdata/smc/fib_8.c"} {
		p := machine(t, path).Prog
		lists := 0
		for _, fn := range p.Funcs {
			if !fn.External {
				slots := deadSlots(fn)
				check(path+" "+fn.Name, slots, len(fn.Code))
				if len(slots) > 0 {
					lists++
				}
			}
		}
		if lists == 0 {
			t.Errorf("%s: no function has dead registers", path)
		}
	}
	big := make([]deadSlot, 600)
	for i := range big {
		big[i] = deadSlot{slot: int32(i), from: 1, to: 0}
	}
	if f := newDeadFunc(big, 1000); f.at != nil || len(f.slots) != len(big) {
		t.Errorf("600 registers dead at 1000 pcs: lists made (%d entries), want the intervals kept", len(f.list))
	}
}

// BenchmarkDeadRegsClear measures clearing the dead registers of a state
// of dead_fib_8 (fib_bench_longest-1 in small) after a transition:
// "clean", where they are zero already (a check of each, nothing owned),
// and "dirty", where every one is set again before each clear (the
// restoring copy included). 0 allocs/op.
func BenchmarkDeadRegsClear(b *testing.B) {
	m := machine(b, "testdata/dead_fib_8.c")
	st := m.NewState()
	m.Settle(st, nil)
	// main starts both threads, then they take turns (main waits)
	for i := 0; i < 60 && st.Status == vm.Running; i++ {
		en := m.EnabledThreads(st, nil)
		if len(en) == 0 {
			break
		}
		tid := en[0]
		if len(st.Threads) == 3 && len(en) > 1 {
			tid = en[1+i%(len(en)-1)]
		}
		m.StepOnly(st, tid, nil)
	}
	if st.Status != vm.Running || len(st.Threads) < 3 {
		b.Fatalf("the state after 60 steps: status %v, %d processes", st.Status, len(st.Threads))
	}
	d := newDeadRegs(m.Prog)
	saved := make([][]uint64, len(st.Threads))
	dirty := 0
	for i, t := range st.Threads {
		saved[i] = slices.Clone(st.OwnThread(int32(i)).Regs)
		if d.visit(t, false) {
			dirty++
		}
	}
	if dirty == 0 {
		b.Fatal("no process has a dead register that is not zero")
	}
	b.Run("clean", func(b *testing.B) {
		d.clear(st, nil)
		b.ReportAllocs()
		for b.Loop() {
			d.clear(st, nil)
		}
	})
	b.Run("dirty", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for i, t := range st.Threads {
				copy(t.Regs, saved[i])
			}
			d.clear(st, nil)
		}
	})
}
