package explicit

import (
	"context"
	"runtime"
	"testing"
)

// fibBenchQuery is verify's reachability query (svcomp) without the
// reach_error function the dead_fib programs do not have.
const fibBenchQuery = "E<> Error(VerifierError) || (Error && !Error(Abort))"

// BenchmarkSearch measures exhaustive search throughput: states per second
// and bytes per stored state (visited set) on Peterson (correct) and fib_8,
// and the heap allocations per state (allocs/state, alloc-bytes/state: the
// runtime's counters over the whole search, initial state and trace
// included, divided by the states found). states/cpu-s divides by the
// process's CPU time instead of the wall-clock time: on a shared machine it
// is the steadier figure (the garbage collector's CPU time is included).
// The cases ending in -w2 search with Options.Workers 2 (parallel.go):
// states/s is then the wall-clock rate, states/cpu-s the rate per second
// of CPU time of both goroutines together.
func BenchmarkSearch(b *testing.B) {
	cases := []struct {
		name, path, query string
		red               Reduction
		compact, por      bool
		workers           int
	}{
		{"peterson/none/full", "../testdata/smc/petersons.c", "EnumStates", None, false, false, 0},
		{"peterson/local", "../testdata/smc/petersons.c", "EnumStates", Local, false, false, 0},
		{"peterson/global", "../testdata/smc/petersons.c", "EnumStates", Global, false, false, 0},
		{"peterson/none/compact", "../testdata/smc/petersons.c", "EnumStates", None, true, false, 0},
		{"peterson/none/compact-w2", "../testdata/smc/petersons.c", "EnumStates", None, true, false, 2},
		{"fib_8/none/full", "../testdata/smc/fib_8.c", "EnumStates", None, false, false, 0},
		{"fib_8/local", "../testdata/smc/fib_8.c", "EnumStates", Local, false, false, 0},
		{"fib_8/global", "../testdata/smc/fib_8.c", "EnumStates", Global, false, false, 0},
		{"fib_8/none/compact", "../testdata/smc/fib_8.c", "EnumStates", None, true, false, 0},
		{"fib_4/none/compact", "../testdata/smc/fib_4.c", "EnumStates", None, true, false, 0},
		{"fib_8/none/compact-w2", "../testdata/smc/fib_8.c", "EnumStates", None, true, false, 2},
		{"fib_8/none/full-w2", "../testdata/smc/fib_8.c", "EnumStates", None, false, false, 2},
		// fib_bench_longest-1 in small (verify's reductions and query)
		{"dead_fib_8/global-por/full", "testdata/dead_fib_8.c", fibBenchQuery, Global, false, true, 0},
		{"dead_fib_8/global-por/compact", "testdata/dead_fib_8.c", fibBenchQuery, Global, true, true, 0},
	}
	defer func(v bool) { verifyPartsHash = v }(verifyPartsHash)
	verifyPartsHash = false
	for _, bc := range cases {
		b.Run(bc.name, func(b *testing.B) {
			m := machine(b, bc.path)
			c := compile(b, m, bc.query)
			opts := Options{Reduction: bc.red, POR: bc.por, Compact: bc.compact, MaxBytes: -1, Workers: bc.workers}
			var states, trans, fromRef int64
			var bytes float64
			var ms0, ms1 runtime.MemStats
			runtime.ReadMemStats(&ms0)
			cpu0 := cpuSeconds()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				res, err := Search(context.Background(), c, opts)
				if err != nil {
					b.Fatal(err)
				}
				states += res.States
				trans += res.Transitions
				fromRef += res.fromRef
				bytes = res.BytesPerState
			}
			b.StopTimer()
			cpu := cpuSeconds() - cpu0
			runtime.ReadMemStats(&ms1)
			sec := b.Elapsed().Seconds()
			b.ReportMetric(float64(ms1.Mallocs-ms0.Mallocs)/float64(states), "allocs/state")
			b.ReportMetric(float64(ms1.TotalAlloc-ms0.TotalAlloc)/float64(states), "alloc-bytes/state")
			b.ReportMetric(float64(states)/sec, "states/s")
			if cpu > 0 {
				b.ReportMetric(float64(states)/cpu, "states/cpu-s")
			}
			b.ReportMetric(float64(trans)/sec, "transitions/s")
			b.ReportMetric(bytes, "bytes/state")
			b.ReportMetric(float64(states)/float64(b.N), "states")
			if fromRef > 0 {
				// the share of the states a packed queue rebuilt from the
				// one taken before (searcher.unpack)
				b.ReportMetric(float64(fromRef)/float64(states), "from-prev")
			}
		})
	}
}
