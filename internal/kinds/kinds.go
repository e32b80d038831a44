// Package kinds is the registry of Wyvern's job kinds: one line per kind
// names its worker-side handler and its coordinator-side runner. The
// binary (cmd/wyvern) and the tests that start clusters wire workers and
// coordinators through it, so a kind added here runs everywhere.
package kinds

import (
	"github.com/wyvernmc/wyvern/coordinator"
	"github.com/wyvernmc/wyvern/explicit"
	"github.com/wyvernmc/wyvern/jobs"
	"github.com/wyvernmc/wyvern/kind"
	"github.com/wyvernmc/wyvern/simulator"
	"github.com/wyvernmc/wyvern/splitting"
	"github.com/wyvernmc/wyvern/symbolic"
	"github.com/wyvernmc/wyvern/termination"
	"github.com/wyvernmc/wyvern/worker"
)

// Kind is a job kind: its name on the wire, the factory of its worker
// handlers and its coordinator runner.
type Kind struct {
	Name    string
	Handler worker.Factory
	Runner  kind.Runner
}

// All are the job kinds this build runs.
var All = []Kind{
	{jobs.KindTrace, simulator.NewTraceHandler, simulator.Runner{}},
	{jobs.KindSplit, splitting.NewSegmentHandler, splitting.SplitRunner{}},
	{jobs.KindExplicit, explicit.NewHandler, explicit.Runner{}},
	{jobs.KindBMC, symbolic.NewHandler, symbolic.Runner{}},
	{jobs.KindTermination, termination.NewHandler, termination.Runner{}},
}

// Worker registers every kind's handler with w and returns it.
func Worker(w *worker.Worker) *worker.Worker {
	for _, k := range All {
		w.Register(k.Name, k.Handler)
	}
	return w
}

// Coordinator registers every kind's runner with c and returns it.
func Coordinator(c *coordinator.Coordinator) *coordinator.Coordinator {
	for _, k := range All {
		c.Register(k.Name, k.Runner)
	}
	return c
}
