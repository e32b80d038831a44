package coordinator

import (
	"errors"

	"github.com/wyvernmc/wyvern/explicit"
)

// Exit statuses of `wyvern check` and `wyvern submit` for a result, after
// CBMC's conventions, so that scripts can branch on the verdict.
const (
	// ExitHolds: the property holds, or the target is not reached (A[] P
	// holds, E<> P unreachable, a hypothesis test holds), or the query
	// asks for a number (estimates), which was computed.
	ExitHolds = 0
	// ExitViolated: a violation or the reachability target was found (A[]
	// P violated, E<> P reachable, a hypothesis test fails).
	ExitViolated = 10
	// ExitUnknown: no verdict (a search ended by a limit, an undecided
	// test, an incomplete exact computation, no splitting estimate, or
	// a splitting or Estimate interval whose coverage is not assured).
	ExitUnknown = 11
)

// ExitStatus maps a result to ExitHolds, ExitViolated or ExitUnknown.
func (r *Result) ExitStatus() int {
	switch d := r.Detail.(type) {
	case *TraceDetail:
		if r.Kind == "hypothesis" {
			return verdictStatus(d.Verdict == "holds", d.Verdict == "fails")
		}
		if r.Kind == "estimate" && !d.CoverageAssured {
			return ExitUnknown // the estimate is given; its interval may cover less than claimed
		}
	case *SplitDetail:
		// No estimate, or an estimate whose interval's coverage is not
		// assured (the estimate is still given).
		if d.Split != nil && (d.Split.NoEstimate || !d.Split.CoverageAssured) {
			return ExitUnknown
		}
	case *ExplicitDetail:
		x := d.Explicit
		if x == nil {
			return ExitUnknown
		}
		switch x.Verdict {
		case explicit.Incomplete:
			return ExitUnknown
		case explicit.Satisfied:
			if x.Kind == "reach" {
				return ExitViolated
			}
		case explicit.NotSatisfied:
			if x.Kind != "reach" {
				return ExitViolated
			}
		}
	case *ExactDetail:
		x := d.Exact
		switch {
		case x == nil || !x.Complete:
			return ExitUnknown
		case x.Holds != nil:
			return verdictStatus(*x.Holds, !*x.Holds)
		}
	}
	if v, ok := r.Detail.(interface{ ExitStatus() int }); ok {
		return v.ExitStatus() // a kind with verdicts of its own
	}
	return ExitHolds
}

func verdictStatus(holds, fails bool) int {
	switch {
	case holds:
		return ExitHolds
	case fails:
		return ExitViolated
	}
	return ExitUnknown
}

// ErrRefused matches (errors.Is) the error of an experiment that ended
// because an engine refused its program (jobs.Result.Refused): a
// construct the engine does not support, bad input for it — `check` and
// `submit` exit with status 2 — not a failure of the cluster.
var ErrRefused = errors.New("refused")

// Refusal is a refusal's message, as an error that matches ErrRefused.
type Refusal string

func (r Refusal) Error() string        { return string(r) }
func (r Refusal) Is(target error) bool { return target == ErrRefused }
