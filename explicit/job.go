package explicit

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/wyvernmc/wyvern/jobs"
	"github.com/wyvernmc/wyvern/worker"
)

// OptionsFromWire turns the wire options into the search's.
func OptionsFromWire(o *jobs.ExplicitOptions) (Options, error) {
	var opts Options
	if o == nil {
		return opts, nil
	}
	var err error
	if o.Order != "" {
		if opts.Order, err = ParseOrder(o.Order); err != nil {
			return opts, err
		}
	}
	if o.Reduction != "" {
		if opts.Reduction, err = ParseReduction(o.Reduction); err != nil {
			return opts, err
		}
	}
	if o.MaxBytes < 0 {
		// Options.MaxBytes < 0 means no limit: never from the wire, where
		// a job could then take all of a worker's memory.
		return opts, fmt.Errorf("max_bytes %d: want >= 0 (0: %d MiB)", o.MaxBytes, DefaultMaxBytes>>20)
	}
	if o.Workers < 0 {
		return opts, fmt.Errorf("workers %d: want >= 0 (0 or 1: one)", o.Workers)
	}
	opts.Compact, opts.POR, opts.MaxStates, opts.MaxBytes, opts.Workers = o.Compact, o.POR, o.MaxStates, o.MaxBytes, o.Workers
	opts.MaxTime = time.Duration(o.MaxTimeS * float64(time.Second))
	return opts, nil
}

// Handler runs KindExplicit jobs: an explicit-state search (E<>, A[],
// EnumStates) or an exact probability, publishing progress (states,
// states/s, queue) on the experiment's progress subject while it runs and
// the Result or ExactResult as the job's result.
type Handler struct{}

// NewHandler is the worker.Factory of KindExplicit.
func NewHandler() worker.Handler { return Handler{} }

// Handle implements worker.Handler.
func (Handler) Handle(ctx context.Context, j *worker.Job) error {
	var job jobs.ExplicitJob
	if err := json.Unmarshal(j.Payload, &job); err != nil {
		return j.Fail(ctx, fmt.Errorf("explicit-state job %s: %w", j.ID(), err))
	}
	c, err := j.Compile(ctx)
	if err != nil {
		return j.Fail(ctx, err)
	}
	opts, err := OptionsFromWire(&job.Options)
	if err != nil {
		return j.Fail(ctx, err)
	}
	workers := 1 // goroutines searching: Exact and the depth-first search are sequential
	if !job.Options.Exact && opts.Order == BFS {
		workers = max(opts.Workers, 1)
	}
	opts.Progress = func(p Progress) {
		j.Progress(jobs.Progress{States: p.States, Queue: p.Queue, Depth: p.Depth, StatesPerS: p.StatesPerSec, Workers: workers})
	}
	var v any
	if job.Options.Exact {
		v, err = Exact(ctx, c, opts)
	} else {
		v, err = Search(ctx, c, opts)
	}
	if ctx.Err() != nil {
		return ctx.Err() // shutting down: another worker (or this one, restarted) runs it again
	}
	if err != nil {
		return j.Fail(ctx, fmt.Errorf("%s: %w", j.ProgramName, err))
	}
	return j.Publish(ctx, v)
}
