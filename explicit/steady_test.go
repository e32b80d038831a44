package explicit

import (
	"context"
	"runtime"
	"testing"
	"time"
)

// BenchmarkSteadyAllocs measures the heap allocations per state of fib_8's
// compact breadth-first search (no reduction) after the queue's peak, where
// the states the search expands give back the buffers that the states it
// queues need: until the peak the queue's states (their processes' records,
// chunks and blocks) are made as the queue grows. The figures are sampled
// at progress reports (every 20 ms), so "after the peak" starts at the
// first report after it: allocs/state-after-peak is the allocations from
// the report where the queue was longest to the end of the search, over the
// states found meanwhile.
func BenchmarkSteadyAllocs(b *testing.B) {
	m := machine(b, "../testdata/smc/fib_8.c")
	c := compile(b, m, "EnumStates")
	defer func(v bool) { verifyPartsHash = v }(verifyPartsHash)
	verifyPartsHash = false
	for i := 0; i < b.N; i++ {
		var peakQ int
		var peakStates int64
		var peakMallocs uint64
		var ms runtime.MemStats
		opts := Options{Compact: true, MaxBytes: -1, ProgressEvery: 20 * time.Millisecond,
			Progress: func(p Progress) {
				if p.Queue > peakQ {
					runtime.ReadMemStats(&ms)
					peakQ, peakStates, peakMallocs = p.Queue, p.States, ms.Mallocs
				}
			}}
		res, err := Search(context.Background(), c, opts)
		if err != nil {
			b.Fatal(err)
		}
		runtime.ReadMemStats(&ms)
		b.ReportMetric(float64(peakQ), "peak-queue")
		b.ReportMetric(float64(peakStates), "states-at-peak")
		b.ReportMetric(float64(ms.Mallocs-peakMallocs)/float64(res.States-peakStates), "allocs/state-after-peak")
	}
}

// TestSearchAllocs: fib_4's compact breadth-first search (67 168 states)
// allocates its states' records, chunks and lists in bulk and recycles
// them, so it makes few allocations a state in all: 0.13 before the lists
// of processes, chunks and dead stack blocks were carved in bulk, 0.008
// since (issue #13).
func TestSearchAllocs(t *testing.T) {
	m := machine(t, "../testdata/smc/fib_4.c")
	c := compile(t, m, "EnumStates")
	defer func(v bool) { verifyPartsHash = v }(verifyPartsHash)
	verifyPartsHash = false // (its checks allocate)
	var ms0, ms1 runtime.MemStats
	runtime.ReadMemStats(&ms0)
	res, err := Search(context.Background(), c, Options{Compact: true, MaxBytes: -1})
	runtime.ReadMemStats(&ms1)
	if err != nil {
		t.Fatal(err)
	}
	per := float64(ms1.Mallocs-ms0.Mallocs) / float64(res.States)
	t.Logf("%.4f allocations a state (%d states)", per, res.States)
	if per > 0.03 {
		t.Errorf("%.4f allocations a state, want at most 0.03", per)
	}
}
