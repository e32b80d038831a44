package svcomp

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/wyvernmc/wyvern/coordinator"
	"github.com/wyvernmc/wyvern/jobs"
	"github.com/wyvernmc/wyvern/termination"
	"github.com/wyvernmc/wyvern/trace"
	"github.com/wyvernmc/wyvern/vm"
)

// EngineTermination is the engine that answers termination: one
// experiment of the termination kind (package termination: lassos for
// FALSE, an acyclic complete search or ranking functions for TRUE).
const EngineTermination = "termination"

// verifyTermination answers the termination property with one termination
// experiment through the coordinator. A lasso is replayed in the vm before
// it is believed: the stem and the cycle must return to the state the
// cycle starts from (a state cycle), or the stem must reach the loop head
// of the recurrent set (the analysis checks that the set is closed).
func verifyTermination(ctx context.Context, r *runner, out *Outcome, start time.Time, limit time.Duration) *Outcome {
	eo := EngineOutcome{Engine: EngineTermination, Query: "EnumStates"}
	defer func() {
		eo.Seconds = time.Since(start).Seconds()
		out.Engines = append(out.Engines, eo)
		out.Seconds = time.Since(start).Seconds()
	}()
	rem := limit - engineMargin
	if rem <= 0 {
		rem = limit
	}
	x, err := r.submit(ctx, coordinator.Submission{Query: "EnumStates", Kind: jobs.KindTermination,
		Termination: &jobs.TerminationOptions{MaxTimeS: rem.Seconds(), Solver: r.opts.Solver}})
	if err != nil {
		eo.Outcome, eo.Detail = OutError, err.Error()
		out.Reason = "the termination analysis failed: " + err.Error()
		return out
	}
	d, ok := x.Detail.(*termination.Detail)
	if !ok || d.Termination == nil {
		eo.Outcome, eo.Detail = OutError, "not a termination result"
		out.Reason = eo.Detail
		return out
	}
	t := d.Termination
	eo.Detail = fmt.Sprintf("%s (%s): %s", t.Verdict, t.Method, t.Reason)
	switch t.Verdict {
	case termination.Terminates:
		eo.Outcome = OutProof
		out.Verdict, out.Engine, out.Reason = True, EngineTermination, t.Reason
	case termination.NonTerminates:
		if t.Lasso == nil {
			eo.Outcome, eo.Detail = OutError, "a non-termination verdict without a lasso"
			out.Reason = eo.Detail
			return out
		}
		steps := append(append([]trace.Step(nil), t.Lasso.Stem...), t.Lasso.Cycle...)
		r.mu.Lock()
		_, _, err := replaySteps(r.m, steps)
		r.mu.Unlock()
		if err != nil {
			eo.Outcome, eo.Detail = OutError, "the lasso does not replay: "+err.Error()
			out.Reason = eo.Detail
			return out
		}
		eo.Outcome = OutViolation
		out.Verdict, out.Engine, out.Reason, out.Steps = False(Termination.String()), EngineTermination, t.Reason, steps
	default:
		eo.Outcome = OutNone
		out.Reason = "the termination analysis reached no verdict: " + t.Reason
	}
	return out
}

// LassoCloses reports whether the run steps (a termination witness's stem
// and cycle, replayed) ends in a state it has been in before: a state
// cycle, which repeated forever is a run that never ends. A witness of a
// recurrent set ends at the loop's head instead (the set's closure is the
// analysis's SMT proof, not something a replay can show in general; see
// CycleAfter).
func LassoCloses(m *vm.Machine, steps []trace.Step) (bool, error) {
	states, err := trace.Replay(m, steps)
	if err != nil {
		return false, err
	}
	last := states[len(states)-1]
	if last.Status != vm.Running {
		return false, nil
	}
	key := m.AppendKey(nil, last)
	for _, st := range states[:len(states)-1] {
		if slices.Equal(m.AppendKey(nil, st), key) {
			return true, nil
		}
	}
	return false, nil
}

// CycleAfter continues the run steps end in (a recurrent set's witness ends
// at its loop's head) for as long as the run is determined, one process
// enabled and its step drawing nothing, and reports after how many more
// steps it returns to a state it was in: from there the same steps repeat
// forever, a run that never ends. A state is its encoding and its
// auxiliary words (m.AppendKeyAux: the order dead stack ids are reused in,
// which the encoding leaves out and the next allocas' ids depend on). It
// reports false when the run ends, has a choice to make, or passes max
// steps or maxCycleWords words of states compared first. Brent's method:
// one state kept at a time, compared with each new one.
func CycleAfter(m *vm.Machine, steps []trace.Step, max int) (int, bool, error) {
	st, err := trace.ReplayFinal(m, steps)
	if err != nil {
		return 0, false, err
	}
	mark, markAux := m.AppendKey(nil, st), m.AppendKeyAux(nil, st)
	var key []uint64
	var aux []uint32
	var en []int32
	power, lam, words := 1, 0, 0
	for n := 1; n <= max && words <= maxCycleWords; n++ {
		en = m.EnabledThreads(st, en)
		if st.Status != vm.Running || len(en) != 1 {
			return 0, false, nil
		}
		ch := trace.NewReplayer(nil)
		m.StepOnly(st, en[0], ch)
		if ch.Over() {
			return 0, false, nil // a draw: the witness does not say which
		}
		en = m.Settle(st, en)
		key, aux = m.AppendKey(key[:0], st), m.AppendKeyAux(aux[:0], st)
		words += len(key)
		if slices.Equal(key, mark) && slices.Equal(aux, markAux) {
			return n, true, nil
		}
		if lam++; lam == power {
			mark, markAux = append(mark[:0], key...), append(markAux[:0], aux...)
			power, lam = 2*power, 0
		}
	}
	return 0, false, nil
}

// maxCycleWords bounds the words of states CycleAfter makes and compares
// (2^28, 2 GiB of encodings: seconds), so that a state of megabytes stops
// it long before max steps.
const maxCycleWords = 1 << 28
