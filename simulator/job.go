package simulator

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/wyvernmc/wyvern/jobs"
	"github.com/wyvernmc/wyvern/worker"
)

// TraceHandler runs KindTrace jobs: a range of trace indices of one
// experiment, each trace's outcome in the result. It keeps a Tracer per
// (program, query) it has seen; one handler serves one job loop.
type TraceHandler struct {
	tracers map[string]*Tracer
}

// NewTraceHandler is the worker.Factory of KindTrace.
func NewTraceHandler() worker.Handler { return &TraceHandler{tracers: map[string]*Tracer{}} }

// Handle implements worker.Handler.
func (h *TraceHandler) Handle(ctx context.Context, j *worker.Job) error {
	var job jobs.TraceRange
	if err := json.Unmarshal(j.Payload, &job); err != nil {
		return j.Fail(ctx, fmt.Errorf("trace job %s: %w", j.ID(), err))
	}
	if job.Count > jobs.MaxTraceJob {
		return worker.Reject(fmt.Errorf("it asks for %d traces; a trace job holds at most %d", job.Count, jobs.MaxTraceJob))
	}
	key := j.Program + "\x00" + j.Query
	tr, ok := h.tracers[key]
	if !ok {
		c, err := j.Compile(ctx)
		if err != nil {
			return j.Fail(ctx, err)
		}
		tr = NewTracer(c)
		if len(h.tracers) >= worker.HandlerCache {
			clear(h.tracers)
		}
		h.tracers[key] = tr
	}
	res := jobs.TraceOutcomes{First: job.First, Count: job.Count, Outcomes: make([]jobs.Outcome, 0, job.Count)}
	if tr.States != nil {
		tr.States.Clear()
	}
	var sat uint64
	// A trace can be long (Pr[<=10^12] of a spinning program): when the
	// job's context ends (its experiment cancelled, the worker stopping)
	// the trace running stops within a slice of steps.
	tr.Interrupt.Store(false)
	defer context.AfterFunc(ctx, func() { tr.Interrupt.Store(true) })()
	for i := uint64(0); i < job.Count; i++ {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		out, _ := tr.Trace(j.Seed, job.First+i)
		if ctx.Err() != nil {
			return ctx.Err() // out may be of an interrupted trace
		}
		if tr.Interrupt.Load() {
			// set late by an earlier job's context: run the trace again
			tr.Interrupt.Store(false)
			i--
			continue
		}
		res.Outcomes = append(res.Outcomes, out)
		res.Steps += out.Steps
		if out.Sat {
			sat++
		}
	}
	if tr.States != nil && tr.States.Len() > 0 {
		res.States = make(jobs.Fingerprints, 0, tr.States.Len()*jobs.FingerprintSize)
		for s := range tr.States.All() {
			res.States = res.States.Append(s)
		}
	}
	j.Count(job.Count, res.Steps, sat)
	return j.Publish(ctx, &res)
}
