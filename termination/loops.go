package termination

import (
	"context"

	"github.com/wyvernmc/wyvern/ir"
	"github.com/wyvernmc/wyvern/vm"
)

// loopAnalysis is the result of the ranking and recurrent-set analysis of
// every loop of the functions reachable from main.
type loopAnalysis struct {
	reports   []LoopReport
	proved    bool   // every loop ranked, no recursion
	why       string // why not proved
	funcs     int
	recurrent []*recurrentSet
}

// sampleValues are the values the search should try for wide inputs: the
// recurrent sets' parameters.
func (a *loopAnalysis) sampleValues() []uint64 {
	var out []uint64
	for _, r := range a.recurrent {
		out = append(out, r.values...)
	}
	return out
}

func analyzeLoops(ctx context.Context, prog *ir.Program, opts *Options) (*loopAnalysis, error) {
	return &loopAnalysis{why: "not implemented"}, nil
}

// recurrentSet is a set of states at a loop's head from which the loop
// never ends.
type recurrentSet struct {
	values []uint64
}

// recurWatch recognises states in recurrent sets.
type recurWatch struct {
	m   *vm.Machine
	set []*recurrentSet
}

func newRecurWatch(m *vm.Machine, set []*recurrentSet) *recurWatch {
	return &recurWatch{m: m, set: set}
}

// check returns the lasso of a state in a recurrent set (without its stem),
// nil when st is in none.
func (w *recurWatch) check(ctx context.Context, st *vm.State) *Lasso {
	return nil
}
