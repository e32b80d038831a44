package simulator

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/wyvernmc/wyvern/explicit"
	"github.com/wyvernmc/wyvern/jobs"
)

// ExplicitOptions turns the wire options into the search's.
func ExplicitOptions(o *jobs.ExplicitOptions) (explicit.Options, error) {
	var opts explicit.Options
	if o == nil {
		return opts, nil
	}
	var err error
	if o.Order != "" {
		if opts.Order, err = explicit.ParseOrder(o.Order); err != nil {
			return opts, err
		}
	}
	if o.Reduction != "" {
		if opts.Reduction, err = explicit.ParseReduction(o.Reduction); err != nil {
			return opts, err
		}
	}
	opts.Compact, opts.MaxStates, opts.MaxBytes = o.Compact, o.MaxStates, o.MaxBytes
	opts.MaxTime = time.Duration(o.MaxTimeS * float64(time.Second))
	return opts, nil
}

// handleExplicit runs an explicit-state job (a search, or an exact
// probability), publishing progress (states, states/s, queue) on the
// experiment's progress subject while it runs.
func (w *Worker) handleExplicit(ctx context.Context, js jetstream.JetStream, msg jetstream.Msg, job *jobs.TraceJob) {
	start := time.Now()
	res := jobs.TraceResult{Version: jobs.Version, Kind: jobs.KindExplicit, Experiment: job.Experiment, Worker: w.ID}
	done := keepAlive(msg)
	out, err := w.runExplicit(ctx, js, job)
	close(done)
	if ctx.Err() != nil {
		msg.Nak() // shutting down: another worker (or this one, restarted) runs it again
		return
	}
	if err != nil {
		res.Error = err.Error()
	} else {
		res.Explicit = out
	}
	res.Elapsed = time.Since(start).Seconds()
	b, _ := json.Marshal(res)
	if _, err := js.Publish(ctx, jobs.ResultSubject(job.Experiment), b); err != nil {
		msg.Nak()
		return
	}
	msg.Ack()
}

func (w *Worker) runExplicit(ctx context.Context, js jetstream.JetStream, job *jobs.TraceJob) (json.RawMessage, error) {
	c, err := w.compile(ctx, js, job)
	if err != nil {
		return nil, err
	}
	opts, err := ExplicitOptions(job.Explicit)
	if err != nil {
		return nil, err
	}
	opts.Progress = func(p explicit.Progress) {
		b, _ := json.Marshal(jobs.Progress{Version: jobs.Version, States: p.States, Queue: p.Queue, Depth: p.Depth,
			StatesPerS: p.StatesPerSec, Workers: 1})
		w.NC.Publish(jobs.ProgressSubject(job.Experiment), b)
	}
	var v any
	if job.Explicit != nil && job.Explicit.Exact {
		v, err = explicit.Exact(ctx, c, opts)
	} else {
		v, err = explicit.Search(ctx, c, opts)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", job.ProgramName, err)
	}
	return json.Marshal(v)
}
