package main

import (
	"fmt"
	"io"

	"github.com/wyvernmc/wyvern/coordinator"
	"github.com/wyvernmc/wyvern/srctrace"
	"github.com/wyvernmc/wyvern/trace"
	"github.com/wyvernmc/wyvern/vm"
)

// Trace views (replay --trace, the traces of check's results).
const (
	traceSource = "source" // one line per source statement with values, and the final state
	traceIR     = "ir"     // one line per LLVM instruction
)

// writeSteps prints the steps of a counterexample or witness: the source
// view, the IR view, or with quiet only the final state.
func writeSteps(w io.Writer, m *vm.Machine, steps []trace.Step, mode string, quiet bool) error {
	if mode == traceIR {
		return trace.Write(w, m, steps)
	}
	rec, st, err := srctrace.Replay(m, steps)
	if err != nil {
		return err
	}
	if quiet {
		fmt.Fprintf(w, "(%d steps, left out by --quiet: wyvern replay FILE --counterexample RESULT.json prints them)\n", len(steps))
		return rec.WriteSummary(w, st)
	}
	return rec.Write(w, st)
}

// resultTraces returns the traces a result carries (kind.Detail's
// Counterexamples): an explicit search's counterexample or witness and its
// first deadlock and error, a BMC witness.
func resultTraces(res *coordinator.Result) []*trace.Trace {
	if res.Detail == nil {
		return nil
	}
	return res.Detail.Counterexamples()
}

// counterexample is the first trace a result carries: the counterexample
// or witness of its answer (nil: none).
func counterexample(res *coordinator.Result) *trace.Trace {
	if ts := resultTraces(res); len(ts) > 0 {
		return ts[0]
	}
	return nil
}

// describeTraces fills the steps of a result's traces with their
// function, location, instruction and values, for its JSON.
func describeTraces(res *coordinator.Result, p *prepared) error {
	for _, tr := range resultTraces(res) {
		if tr == nil {
			continue
		}
		if err := srctrace.Describe(p.newMachine(), tr); err != nil {
			return fmt.Errorf("replay the trace: %w", err)
		}
	}
	return nil
}
