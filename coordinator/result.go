package coordinator

import "github.com/wyvernmc/wyvern/kind"

// The result types are the job-kind seam's (package kind); these names
// keep the coordinator's clients (Submit's callers) reading one package.
type (
	// Result is an experiment's answer (kind.Result).
	Result = kind.Result
	// Detail is a result kind's own part of a Result (kind.Detail).
	Detail = kind.Detail
	// Stats are a result's run-dependent figures (kind.Stats).
	Stats = kind.Stats
	// ExplorePoint is a progress report of an explicit-state search
	// (kind.ExplorePoint).
	ExplorePoint = kind.ExplorePoint
)

// Exit statuses of a result (kind.ExitHolds, ...).
const (
	ExitHolds    = kind.ExitHolds
	ExitViolated = kind.ExitViolated
	ExitUnknown  = kind.ExitUnknown
)

// ErrRefused matches the error of an experiment whose program an engine
// refused (kind.ErrRefused).
var ErrRefused = kind.ErrRefused

// Refusal is a refusal's message as an error (kind.Refusal).
type Refusal = kind.Refusal
