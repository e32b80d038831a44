package simulator_test

import (
	"testing"

	"github.com/wyvernmc/wyvern/internal/testutil"
	"github.com/wyvernmc/wyvern/query"
	"github.com/wyvernmc/wyvern/simulator"
	"github.com/wyvernmc/wyvern/vm"
)

// TestPropWatch checks that showing a proposition only the states where
// something it reads can have changed (query.Compiled.PropWatch) gives
// every trace the outcome of showing it every state: the same verdict, the
// same number of steps and the same end, run for run.
func TestPropWatch(t *testing.T) {
	testutil.NeedClang(t)
	cases := []struct {
		file, q string
		all     bool // the watch must be All
	}{
		{"smc/petersonsBug.c", "Pr[<=5000](<> ([1.crit] && [2.crit]))", false},
		{"smc/gossip_2.c", "Pr[<=5000](<> [0.VERIFIER_finished])", false},
		{"smc/fib_8.c", "Pr[<=5000](<> [0.VERIFIER_error])", false},
		{"mt/peterson_broken.c", "Pr[<=5000](<> Error)", false},
		{"mt/peterson_broken.c", "Pr[<=5000](<> [1.reach_error] || [2.reach_error])", false},
		{"mt/prodcons.c", "Pr[<=5000](<> [1.pthread_mutex_lock] && [2.pthread_mutex_lock])", true},
		{"mt/prodcons.c", "Pr[<=5000](<> [2.producer:22] && [4.producer:22])", false},
		{"mt/prodcons.c", "Pr[<=5000](<> count == 2)", true},
		{"mt/cond_order.c", "Pr[<=5000](<> Deadlock)", false},
		{"mt/deadlock.c", "Pr[<=5000](<> Exited)", false},
		{"mt/deadlock.c", "Pr[<=5000](<> Deadlock)", false},
		{"mt/peterson_broken.c", "Pr[<=5000](!Deadlock U [2.reach_error])", false},
		{"smc/petersonsBug.c", "Pr[<=5000](<> Exists (p)([p.crit]))", true},
		{"mt/join_values.c", "Pr[<=5000](<> [0.pthread_join])", true},
	}
	runs := 300
	if testing.Short() {
		runs = 60
	}
	for _, c := range cases {
		t.Run(c.file+" "+c.q, func(t *testing.T) {
			watched, every := compileTwice(t, c.file, c.q)
			if watched.PropWatch.All != c.all {
				t.Fatalf("watch %+v, want All = %v", watched.PropWatch, c.all)
			}
			every.PropWatch = vm.Watch{All: true}
			tw, te := simulator.NewTracer(watched), simulator.NewTracer(every)
			sat := 0
			for i := 0; i < runs; i++ {
				ow, _ := tw.Trace(3, uint64(i))
				oe, _ := te.Trace(3, uint64(i))
				if ow != oe {
					t.Fatalf("trace %d: watched %+v, every state %+v", i, ow, oe)
				}
				if ow.Sat {
					sat++
				}
			}
			t.Logf("%d of %d runs satisfy", sat, runs)
		})
	}
}

// TestExprWatch is TestPropWatch for Estimate: the maximum, minimum and
// average of an expression shown only the states where what it reads can
// have changed (each counting for the states it stands for) equal those
// over every state, run for run.
func TestExprWatch(t *testing.T) {
	testutil.NeedClang(t)
	cases := []struct {
		file, q string
		all     bool
	}{
		{"mt/counter_race.c", "Estimate[<=5000,1]{avg [1.worker:14] + 2*[2.worker:14]}", false},
		{"mt/counter_race.c", "Estimate[<=5000,1]{max [1.worker:14] + [2.worker:14]}", false},
		{"mt/counter_race.c", "Estimate[<=5000,1]{avg [0.main:24] + [1.worker:13]}", false},
		{"mt/counter_race.c", "Estimate[<=5000,1]{avg counter}", true},
		{"smc/petersonsBug.c", "Estimate[<=300,1]{avg [1.crit] + [2.crit]}", false},
		// next calls only (vm.Watch.Calls): a state is shown after a step at or to a call
		{"smc/gossip_2.c", "Estimate[<=2000,1]{avg [1.wyvern_uniform] + 2*[2.wyvern_uniform] + 4*[0.printf]}", false},
		{"smc/fib_8.c", "Estimate[<=2000,1]{avg [1.pthread_exit] + 2*[2.pthread_exit] + 4*[0.VERIFIER_error]}", false},
		{"mt/deadlock.c", "Estimate[<=5000,1]{min 2 - [1.ab:13] - [2.ba:22]}", false},
	}
	for _, c := range cases {
		t.Run(c.file+" "+c.q, func(t *testing.T) {
			watched, every := compileTwice(t, c.file, c.q)
			if watched.ExprWatch.All != c.all {
				t.Fatalf("watch %+v, want All = %v", watched.ExprWatch, c.all)
			}
			every.ExprWatch = vm.Watch{All: true}
			tw, te := simulator.NewTracer(watched), simulator.NewTracer(every)
			values := map[float64]bool{}
			for i := 0; i < 200; i++ {
				ow, _ := tw.Trace(5, uint64(i))
				oe, _ := te.Trace(5, uint64(i))
				if ow != oe {
					t.Fatalf("trace %d: watched %+v, every state %+v", i, ow, oe)
				}
				values[ow.Value] = true
			}
			if len(values) < 2 && !c.all {
				t.Errorf("every run has the same value: the case tests little")
			}
		})
	}
}

// compileTwice compiles query q twice against the program testdata/file:
// two independent compiled queries (each has its own watches).
func compileTwice(t *testing.T, file, q string) (*query.Compiled, *query.Compiled) {
	t.Helper()
	m := vm.NewMachine(testutil.Program(t, "../testdata/"+file))
	pq, err := query.Parse(q)
	if err != nil {
		t.Fatal(err)
	}
	a, err := query.Compile(pq, m)
	if err != nil {
		t.Fatal(err)
	}
	b, err := query.Compile(pq, m)
	if err != nil {
		t.Fatal(err)
	}
	return a, b
}
