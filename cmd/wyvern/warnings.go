package main

import (
	"fmt"
	"io"

	"github.com/wyvernmc/wyvern/coordinator"
	"github.com/wyvernmc/wyvern/jobs"
	"github.com/wyvernmc/wyvern/kind"
	"github.com/wyvernmc/wyvern/query"
	"github.com/wyvernmc/wyvern/vm"
)

// Sampled runs that look for the processes a query names, and their step
// budget.
const (
	processRuns     = 20
	processMaxSteps = 100_000 // per run, for queries without a bound (E<>, A[])
)

// negative reports whether a result's answer is "never": no satisfying
// run, an unreachable target, an invariant that holds, a probability 0. A
// query that names a process the program never creates gets these answers
// for that reason alone.
func negative(r *coordinator.Result) bool {
	n, ok := r.Detail.(kind.Negative)
	return ok && n.Negative(r)
}

// processWarning says when a query whose answer is "never" names a process
// that none of the first processRuns runs of the experiment's seed creates
// (processes are numbered 0, main, then 1, 2, ... in creation order): the
// answer may only say that the process does not exist. "" when the query
// names no such process.
func processWarning(p *prepared, r *coordinator.Result) string {
	if !negative(r) {
		return ""
	}
	m := p.newMachine()
	c, err := query.Compile(p.q, m)
	if err != nil || len(c.Processes) == 0 {
		return ""
	}
	named := int32(-1)
	for _, id := range c.Processes {
		named = max(named, id)
	}
	bound := p.q.Bound
	if bound == 0 || bound > processMaxSteps {
		bound = processMaxSteps
	}
	most := 0
	for i := uint64(0); i < processRuns; i++ {
		st := m.NewState()
		rng := vm.NewRand(r.Seed, i)
		rng.SetBehaviours(p.q.Behaviours())
		m.Observe(st, bound, rng, func(st *vm.State, _ *vm.Thread) bool {
			most = max(most, len(st.Threads))
			return most > int(named)
		})
		if most > int(named) {
			return ""
		}
	}
	return fmt.Sprintf("the query names process %d, but none of %d runs (seed %d, indices 0-%d, at most %d steps) creates it: they have processes 0..%d "+
		"(0 is main, then 1, 2, ... in creation order); the answer may only mean that process %d does not exist",
		named, processRuns, r.Seed, processRuns-1, bound, most-1, named)
}

// addWarnings adds the warnings the client can give after the run (a
// process the runs never have).
func addWarnings(r *coordinator.Result, p *prepared) {
	if w := processWarning(p, r); w != "" {
		r.Warnings = append(r.Warnings, w)
	}
}

// partialResult prints what the last progress report of an interrupted
// experiment said: the runs folded so far and the interval then (not a
// result: the stopping rule did not end, so the interval has neither the
// nominal coverage nor the half-width asked for).
func partialResult(w io.Writer, q *query.Query, pr *jobs.Progress) {
	if pr == nil {
		return
	}
	switch {
	case pr.Runs > 0 && (q.Kind == query.Estimate || q.Kind == query.EnumStatesSMC):
		fmt.Fprintf(w, "wyvern: interrupted after %d of %d runs; no estimate\n", pr.Runs, q.Runs)
	case pr.States > 0:
		fmt.Fprintf(w, "wyvern: interrupted: the search had found %d states (queue %d, depth %d); no verdict\n", pr.States, pr.Queue, pr.Depth)
	case pr.Replications > 0:
		fmt.Fprintf(w, "wyvern: interrupted after %d of %d replications (%d run segments); estimate so far %.4g (no interval)\n",
			pr.Replications, pr.PlannedReplications, pr.Runs, pr.Estimate)
	case pr.Unwind > 0:
		fmt.Fprintf(w, "wyvern: interrupted: bounds up to unwind %d checked without a violation; no verdict\n", pr.Unwind)
	case pr.Runs > 0:
		est := float64(pr.Satisfied) / float64(pr.Runs)
		fmt.Fprintf(w, "wyvern: interrupted after %d runs: %d satisfying (frequency %.6g), interval so far [%.6g, %.6g] — partial: "+
			"the stopping rule did not finish, so it has neither the nominal confidence nor the half-width asked for\n",
			pr.Runs, pr.Satisfied, est, pr.Lo, pr.Hi)
	}
}
