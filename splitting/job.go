package splitting

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/wyvernmc/wyvern/jobs"
	"github.com/wyvernmc/wyvern/worker"
)

// SegmentHandler runs KindSplit jobs: splitting segments from the start
// states the job carries, their outcomes (crossings or records, with
// their snapshots) sent in as many result messages as their size needs.
// It keeps a Runner per (program, query); one handler serves one job loop.
type SegmentHandler struct {
	runners map[string]*Runner
}

// NewSegmentHandler is the worker.Factory of KindSplit.
func NewSegmentHandler() worker.Handler { return &SegmentHandler{runners: map[string]*Runner{}} }

// Handle implements worker.Handler.
func (h *SegmentHandler) Handle(ctx context.Context, j *worker.Job) error {
	var job jobs.SplitJob
	if err := json.Unmarshal(j.Payload, &job); err != nil {
		return j.Fail(ctx, fmt.Errorf("splitting job %s: %w", j.ID(), err))
	}
	key := j.Program + "\x00" + j.Query
	run, ok := h.runners[key]
	if !ok {
		c, err := j.Compile(ctx)
		if err == nil {
			run, err = NewRunner(c)
		}
		if err != nil {
			return j.Fail(ctx, err)
		}
		if len(h.runners) >= worker.HandlerCache {
			clear(h.runners)
		}
		h.runners[key] = run
	}
	res := jobs.SplitResult{Rep: job.Rep, Stage: job.Stage, First: job.First}
	b := &Batch{Rep: job.Rep, Stage: job.Stage, Starts: job.Starts}
	size := 0
	// flush publishes the segments gathered so far; the next message
	// starts where this one ends.
	flush := func() error {
		if len(res.Segments) == 0 {
			return nil
		}
		if err := j.Publish(ctx, &res); err != nil {
			return err
		}
		res.First += len(res.Segments)
		res.Segments, res.Steps, size = nil, 0, 0
		return nil
	}
	// A segment can be long: when the job's context ends (its experiment
	// cancelled, the worker stopping) the segment running stops within a
	// slice of steps.
	run.Interrupt.Store(false)
	defer context.AfterFunc(ctx, func() { run.Interrupt.Store(true) })()
	for i := 0; i < len(job.Tasks); i++ {
		t := job.Tasks[i]
		if ctx.Err() != nil {
			return ctx.Err()
		}
		seg, err := run.Run(j.Seed, b, t)
		if ctx.Err() != nil {
			return ctx.Err() // seg may be of an interrupted segment
		}
		if run.Interrupt.Load() {
			// set late by an earlier job's context: run the segment again
			run.Interrupt.Store(false)
			i--
			continue
		}
		if err != nil {
			return j.Fail(ctx, err)
		}
		var sat uint64
		if seg.Sat {
			sat = 1
		}
		j.Count(1, seg.Steps, sat)
		for _, r := range seg.Records {
			size += len(r.Snap)*4/3 + 64
		}
		res.Segments = append(res.Segments, seg)
		res.Steps += seg.Steps
		if size >= j.MaxResultBytes()*3/4 {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	return flush()
}
