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
			m := vm.NewMachine(testutil.Program(t, "../testdata/"+c.file))
			pq, err := query.Parse(c.q)
			if err != nil {
				t.Fatal(err)
			}
			watched, err := query.Compile(pq, m)
			if err != nil {
				t.Fatal(err)
			}
			if watched.PropWatch.All != c.all {
				t.Fatalf("watch %+v, want All = %v", watched.PropWatch, c.all)
			}
			every, err := query.Compile(pq, m)
			if err != nil {
				t.Fatal(err)
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
