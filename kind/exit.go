package kind

import "errors"

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

// Verdict is a result's answer as a verdict.
type Verdict int

// Verdicts, each with its exit status (Exit).
const (
	// Holds: the property holds, the target is not reached, or the query
	// asks for a number, which was computed with the confidence it claims.
	Holds Verdict = iota
	// Violated: a violation, or the reachability target, was found.
	Violated
	// Unknown: no verdict.
	Unknown
)

// Exit is the exit status of a verdict (ExitHolds, ExitViolated,
// ExitUnknown).
func (v Verdict) Exit() int {
	switch v {
	case Holds:
		return ExitHolds
	case Violated:
		return ExitViolated
	}
	return ExitUnknown
}

// VerdictOf is Holds when holds, Violated when fails, Unknown otherwise.
func VerdictOf(holds, fails bool) Verdict {
	switch {
	case holds:
		return Holds
	case fails:
		return Violated
	}
	return Unknown
}

// ExitStatus maps a result to ExitHolds, ExitViolated or ExitUnknown: its
// detail's answer (a result without a detail holds).
func (r *Result) ExitStatus() int {
	if r.Detail == nil {
		return ExitHolds
	}
	return r.Detail.Answer(r).Exit()
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
