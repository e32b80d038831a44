package simulator_test

import (
	"testing"
	"time"

	"github.com/wyvernmc/wyvern/internal/testutil"
	"github.com/wyvernmc/wyvern/ir"
	"github.com/wyvernmc/wyvern/query"
	"github.com/wyvernmc/wyvern/simulator"
	"github.com/wyvernmc/wyvern/vm"
)

// BenchmarkTrace measures runs per second of one core on the LODIN
// benchmark programs (seed 003, Table 1), with the property observed at every
// state as in an experiment, and EnumStatesSMC's fingerprinting on fib_8.
func BenchmarkTrace(b *testing.B) {
	testutil.NeedClang(b)
	for _, c := range []struct{ name, file, q string }{
		{"petersonsBug", "petersonsBug", "Pr[<=5000](<> ([1.crit] && [2.crit]))"},
		{"fib_8", "fib_8", "Pr[<=5000](<> [0.VERIFIER_error])"},
		{"gossip_2", "gossip_2", "Pr[<=5000](<> [0.VERIFIER_finished])"},
		// every state's fingerprint collected (the worker's side of it)
		{"EnumStatesSMC_fib_8", "fib_8", "EnumStatesSMC <=5000 1"},
	} {
		b.Run(c.name, func(b *testing.B) {
			prog, err := ir.Load("../testdata/smc/"+c.file+".c", ir.Options{})
			if err != nil {
				b.Fatal(err)
			}
			runTraces(b, prog, c.q)
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "runs/s")
		})
	}
}

// runTraces runs b.N traces of prog under the query q as a worker does
// (EnumStatesSMC: a job's state set, emptied every 256 traces) and
// reports the steps a run.
func runTraces(b *testing.B, prog *ir.Program, q string) {
	pq, err := query.Parse(q)
	if err != nil {
		b.Fatal(err)
	}
	cq, err := query.Compile(pq, vm.NewMachine(prog))
	if err != nil {
		b.Fatal(err)
	}
	tr := simulator.NewTracer(cq)
	var steps uint64
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		o, _ := tr.Trace(1, uint64(i))
		steps += o.Steps
		if tr.States != nil && i%256 == 255 {
			tr.States.Clear() // a job's set: the handler starts each job with an empty one
		}
	}
	b.ReportMetric(float64(steps)/float64(b.N), "steps/run")
}

// BenchmarkTracePhases runs gossip_2's traces under its query with the
// step bound cut at the end of each phase of a trace, so that differences
// between its sub-benchmarks (host instructions under cachegrind, divided
// by b.N) give each phase's cost: 1, resetting and starting a trace; 100,
// main alone (followed at its calls); 400, main with one and then two
// protocol threads, then the two threads drawn at every step (until one
// of them finishes, at 250 to 500 steps); 5000, the query's bound (one
// thread alone, not watched). 150 and 300 lie inside the third phase: their
// difference is 150 steps of the two threads drawn at every step alone.
func BenchmarkTracePhases(b *testing.B) {
	testutil.NeedClang(b)
	prog := testutil.Program(b, "../testdata/smc/gossip_2.c")
	for _, bound := range []string{"1", "100", "150", "300", "400", "5000"} {
		b.Run(bound, func(b *testing.B) {
			runTraces(b, prog, "Pr[<="+bound+"](<> [0.VERIFIER_finished])")
		})
	}
}

// BenchmarkSMCOverhead measures the cost of simulation against the bare
// interpreter in one run, as ratios that machine load does not move much:
// b.N traces of gossip_2 under its query (as a worker runs them: a draw at
// every step of two processes, the property watched), then the same b.N
// runs of gossip_2 without an observer (Run, the same seeds: the same
// executions), then as many steps of the compute loop
// testdata/bench/loop.c (-O0, one process, no observer) as each trace
// took, each part timed as a whole. smc/raw is the traces' steps/s over the
// loop's; run/raw is Run's over the loop's; smc/run the traces' over Run's
// (simulation's own overhead, apart from gossip_2's instruction mix against
// the loop's). The parts run one after the other, not interleaved: a run
// right after the trace of the same seed replays its execution with the
// branch predictors trained on it, which made Run look 1.3× faster than
// traces (smc/run 0.75–0.78) where alone they differ by 4 %.
func BenchmarkSMCOverhead(b *testing.B) {
	testutil.NeedClang(b)
	gossip := testutil.Program(b, "../testdata/smc/gossip_2.c")
	q, _ := query.Parse("Pr[<=5000](<> [0.VERIFIER_finished])")
	cq, err := query.Compile(q, vm.NewMachine(gossip))
	if err != nil {
		b.Fatal(err)
	}
	tr := simulator.NewTracer(cq)
	gm := vm.NewMachine(gossip)
	gst := gm.NewState()
	loop, err := ir.Load("../testdata/bench/loop.c", ir.Options{})
	if err != nil {
		b.Fatal(err)
	}
	lm := vm.NewMachine(loop)
	lst := lm.NewState()
	rng := vm.NewRand(1, 0)
	grng := vm.NewRand(1, 0)
	steps := make([]uint64, b.N) // each trace's steps, for the loop's runs
	var sTrace, sRun, sRaw uint64
	b.ResetTimer()
	t0 := time.Now()
	for i := range steps {
		o, _ := tr.Trace(1, uint64(i))
		steps[i] = o.Steps
		sTrace += o.Steps
	}
	t1 := time.Now()
	for i := range steps {
		gm.Reset(gst)
		grng.Reset(1, uint64(i))
		gm.Run(gst, 5000, grng)
		sRun += gst.Steps
	}
	t2 := time.Now()
	for _, n := range steps {
		if lst.Status != vm.Running && lst.Status != vm.StepBound {
			lm.Reset(lst)
		}
		before := lst.Steps
		lm.Run(lst, before+n, rng)
		sRaw += lst.Steps - before
	}
	t3 := time.Now()
	trace := float64(sTrace) / t1.Sub(t0).Seconds()
	run := float64(sRun) / t2.Sub(t1).Seconds()
	raw := float64(sRaw) / t3.Sub(t2).Seconds()
	b.ReportMetric(trace/1e6, "smc-Msteps/s")
	b.ReportMetric(raw/1e6, "raw-Msteps/s")
	b.ReportMetric(trace/raw, "smc/raw")
	b.ReportMetric(run/raw, "run/raw")
	// simulation's own cost: the trace against Run of the same program
	b.ReportMetric(trace/run, "smc/run")
}
