package simulator_test

import (
	"testing"

	"github.com/wyvernmc/wyvern/internal/testutil"
	"github.com/wyvernmc/wyvern/ir"
	"github.com/wyvernmc/wyvern/query"
	"github.com/wyvernmc/wyvern/simulator"
	"github.com/wyvernmc/wyvern/vm"
)

// BenchmarkTrace measures runs per second of one core on the LODIN
// benchmark programs (seed 003, Table 1), with the property observed at every
// state as in an experiment.
func BenchmarkTrace(b *testing.B) {
	testutil.NeedClang(b)
	for _, c := range []struct{ name, q string }{
		{"petersonsBug", "Pr[<=5000](<> ([1.crit] && [2.crit]))"},
		{"fib_8", "Pr[<=5000](<> [0.VERIFIER_error])"},
		{"gossip_2", "Pr[<=5000](<> [0.VERIFIER_finished])"},
	} {
		b.Run(c.name, func(b *testing.B) {
			prog, err := ir.Load("../testdata/smc/"+c.name+".c", ir.Options{})
			if err != nil {
				b.Fatal(err)
			}
			q, _ := query.Parse(c.q)
			cq, err := query.Compile(q, vm.NewMachine(prog))
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
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "runs/s")
			b.ReportMetric(float64(steps)/float64(b.N), "steps/run")
		})
	}
}
