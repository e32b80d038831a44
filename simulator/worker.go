package simulator

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/wyvernmc/wyvern/ir"
	"github.com/wyvernmc/wyvern/jobs"
	"github.com/wyvernmc/wyvern/metrics"
	"github.com/wyvernmc/wyvern/query"
	"github.com/wyvernmc/wyvern/splitting"
	"github.com/wyvernmc/wyvern/vm"
)

// Worker pulls trace jobs from the shared durable consumer, runs them and
// publishes their results. Programs are fetched once by content hash and
// cached compiled.
type Worker struct {
	NC    *nats.Conn
	ID    string
	Slots int // concurrent jobs (goroutines); default 1
	// MaxResultBytes bounds a splitting result message (default
	// DefaultMaxResultBytes).
	MaxResultBytes int
	// Metrics, when set, receives the worker's job starts and ends
	// (traces, steps, satisfying traces, time per job); nil: no metrics.
	Metrics *metrics.Set

	traces, steps atomic.Uint64
	wm            *metrics.Worker // from Metrics, set by Run

	mu       sync.Mutex
	machines map[string]*machineEntry // by program hash
}

type machineEntry struct {
	once sync.Once
	m    *vm.Machine
	err  error
}

// Traces and Steps report the worker's totals.
func (w *Worker) Traces() uint64 { return w.traces.Load() }

// Steps reports the total steps simulated.
func (w *Worker) Steps() uint64 { return w.steps.Load() }

// Run serves jobs until ctx is cancelled.
func (w *Worker) Run(ctx context.Context) error {
	if w.Slots <= 0 {
		w.Slots = 1
	}
	w.machines = map[string]*machineEntry{}
	if w.Metrics != nil {
		w.wm = w.Metrics.Worker(w.ID)
	}
	js, err := jetstream.New(w.NC)
	if err != nil {
		return fmt.Errorf("worker %s: jetstream: %w", w.ID, err)
	}
	cons, err := waitConsumer(ctx, js)
	if err != nil {
		return fmt.Errorf("worker %s: %w", w.ID, err)
	}
	kv, err := waitBucket(ctx, js)
	if err != nil {
		return fmt.Errorf("worker %s: %w", w.ID, err)
	}
	// Heartbeats only while the job loops run: a worker that stopped serving
	// must not look alive.
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	go w.heartbeat(ctx)
	var wg sync.WaitGroup
	errs := make(chan error, w.Slots)
	for i := 0; i < w.Slots; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := w.loop(ctx, js, cons, kv); err != nil {
				errs <- err
				stop()
			}
		}()
	}
	wg.Wait()
	close(errs)
	return <-errs
}

// waitConsumer waits for the coordinator to have created the job stream.
func waitConsumer(ctx context.Context, js jetstream.JetStream) (jetstream.Consumer, error) {
	for {
		cons, err := js.Consumer(ctx, jobs.StreamJobs, jobs.ConsumerWorkers)
		if err == nil {
			return cons, nil
		}
		if !errors.Is(err, jetstream.ErrStreamNotFound) && !errors.Is(err, jetstream.ErrConsumerNotFound) {
			return nil, fmt.Errorf("job consumer: %w", err)
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// waitBucket waits for the experiments bucket.
func waitBucket(ctx context.Context, js jetstream.JetStream) (jetstream.KeyValue, error) {
	for {
		kv, err := js.KeyValue(ctx, jobs.BucketExperiments)
		if err == nil {
			return kv, nil
		}
		if !errors.Is(err, jetstream.ErrBucketNotFound) {
			return nil, fmt.Errorf("experiments bucket: %w", err)
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
}

func (w *Worker) heartbeat(ctx context.Context) {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		hb := jobs.Heartbeat{Version: jobs.Version, Worker: w.ID, Slots: w.Slots, Traces: w.Traces(),
			Steps: w.Steps(), Time: float64(time.Now().UnixNano()) / 1e9}
		b, _ := json.Marshal(hb)
		w.NC.Publish(jobs.HeartbeatSubject(w.ID), b)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// runners are a job loop's compiled queries, by program hash and query
// (query.Compiled is not safe for concurrent use: one set per goroutine).
type runners struct {
	tracers  map[string]*Tracer
	splitter map[string]*splitting.Runner
}

func (w *Worker) loop(ctx context.Context, js jetstream.JetStream, cons jetstream.Consumer, kv jetstream.KeyValue) error {
	tracers := &runners{tracers: map[string]*Tracer{}, splitter: map[string]*splitting.Runner{}}
	for ctx.Err() == nil {
		batch, err := cons.Fetch(1, jetstream.FetchMaxWait(time.Second))
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			time.Sleep(100 * time.Millisecond)
			continue
		}
		for msg := range batch.Messages() {
			w.handle(ctx, js, kv, msg, tracers)
		}
	}
	return nil
}

func (w *Worker) handle(ctx context.Context, js jetstream.JetStream, kv jetstream.KeyValue, msg jetstream.Msg, rs *runners) {
	var job jobs.TraceJob
	if err := jobs.Decode(msg.Data(), &job); err != nil {
		msg.Term() // a message no worker of this version can run
		return
	}
	// Skip jobs of experiments that have already stopped.
	if e, err := kv.Get(ctx, job.Experiment); err == nil {
		var st jobs.Status
		if jobs.Decode(e.Value(), &st) == nil && st.State != jobs.StateRunning {
			msg.Ack()
			return
		}
	}
	if job.Kind == jobs.KindExplicit {
		w.handleExplicit(ctx, js, msg, &job)
		return
	}
	if job.Kind == jobs.KindSplit {
		w.handleSplit(ctx, js, msg, &job, rs)
		return
	}
	res := jobs.TraceResult{Version: jobs.Version, Experiment: job.Experiment, First: job.First, Count: job.Count, Worker: w.ID}
	start := time.Now()
	key := job.Program + "\x00" + job.Query
	tr, ok := rs.tracers[key]
	if !ok {
		c, err := w.compile(ctx, js, &job)
		if err != nil {
			res.Error = err.Error()
		} else {
			tr = NewTracer(c)
			rs.tracers[key] = tr
		}
	}
	if tr != nil {
		w.jobStarted()
		// Keep the job from being redelivered while it runs.
		done := keepAlive(msg)
		if tr.States != nil {
			clear(tr.States)
		}
		var sat uint64
		for i := uint64(0); i < job.Count && ctx.Err() == nil; i++ {
			out, _ := tr.Trace(job.Seed, job.First+i)
			res.Outcomes = append(res.Outcomes, out)
			res.Steps += out.Steps
			if out.Sat {
				sat++
			}
		}
		close(done)
		if ctx.Err() != nil {
			w.jobAbandoned()
			msg.Nak()
			return
		}
		for h := range tr.States {
			res.States = append(res.States, [2]uint64{h[0], h[1]})
		}
		w.traces.Add(job.Count)
		w.steps.Add(res.Steps)
		w.jobDone(job.Count, res.Steps, sat, time.Since(start))
	}
	res.Elapsed = time.Since(start).Seconds()
	b, _ := json.Marshal(res)
	if _, err := js.Publish(ctx, jobs.ResultSubject(job.Experiment), b); err != nil {
		msg.Nak() // the result did not reach the stream: let another delivery try
		return
	}
	msg.Ack()
}

// keepAlive tells JetStream every 2 s that msg's job is still running,
// until the returned channel is closed.
func keepAlive(msg jetstream.Msg) chan struct{} {
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(2 * time.Second)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				msg.InProgress()
			}
		}
	}()
	return done
}

// DefaultMaxResultBytes bounds a result message (NATS's default payload
// limit is 1 MiB); a splitting job's segments are sent in as many messages
// as needed.
const DefaultMaxResultBytes = 512 << 10

// handleSplit runs a job of importance-splitting segments and publishes
// their outcomes, in several messages when they are large (each segment
// may carry state snapshots).
func (w *Worker) handleSplit(ctx context.Context, js jetstream.JetStream, msg jetstream.Msg, job *jobs.TraceJob, rs *runners) {
	start := time.Now()
	res := jobs.TraceResult{Version: jobs.Version, Kind: jobs.KindSplit, Experiment: job.Experiment, Rep: job.Rep,
		Stage: job.Stage, First: job.First, Worker: w.ID}
	publish := func(r *jobs.TraceResult) bool {
		r.Elapsed = time.Since(start).Seconds()
		b, _ := json.Marshal(r)
		if _, err := js.Publish(ctx, jobs.ResultSubject(job.Experiment), b); err != nil {
			msg.Nak() // the result did not reach the stream: let another delivery try
			return false
		}
		return true
	}
	key := job.Program + "\x00" + job.Query
	run, ok := rs.splitter[key]
	if !ok {
		c, err := w.compile(ctx, js, job)
		if err == nil {
			run, err = splitting.NewRunner(c)
		}
		if err != nil {
			res.Error = err.Error()
			if publish(&res) {
				msg.Ack()
			}
			return
		}
		rs.splitter[key] = run
	}
	done := keepAlive(msg)
	defer close(done)
	w.jobStarted()
	var segs, steps, sat uint64
	finished := false
	defer func() {
		if finished {
			w.jobDone(segs, steps, sat, time.Since(start))
		} else {
			w.jobAbandoned()
		}
	}()
	b := &splitting.Batch{Rep: job.Rep, Stage: job.Stage, Starts: job.Starts}
	size := 0
	// flush publishes the segments gathered so far; the next message
	// starts where this one ends.
	flush := func() bool {
		if len(res.Segments) == 0 {
			return true
		}
		res.Count = uint64(len(res.Segments))
		if !publish(&res) {
			return false
		}
		res.First += res.Count
		res.Segments, res.Steps, size = nil, 0, 0
		return true
	}
	for _, t := range job.Tasks {
		if ctx.Err() != nil {
			msg.Nak()
			return
		}
		seg, err := run.Run(job.Seed, b, t)
		if err != nil {
			res.Error = err.Error()
			res.Segments = nil
			if publish(&res) {
				msg.Ack()
			}
			return
		}
		segs++
		steps += seg.Steps
		if seg.Sat {
			sat++
		}
		for _, r := range seg.Records {
			size += len(r.Snap)*4/3 + 64
		}
		res.Segments = append(res.Segments, seg)
		res.Steps += seg.Steps
		w.traces.Add(1)
		w.steps.Add(seg.Steps)
		if size >= w.maxResultBytes()*3/4 && !flush() {
			return
		}
	}
	if !flush() {
		return
	}
	finished = true
	msg.Ack()
}

// jobStarted, jobDone and jobAbandoned report to the worker's metrics, if any.
func (w *Worker) jobStarted() {
	if w.wm != nil {
		w.wm.JobStarted()
	}
}

func (w *Worker) jobDone(traces, steps, sat uint64, elapsed time.Duration) {
	if w.wm != nil {
		w.wm.JobDone(traces, steps, sat, elapsed)
	}
}

func (w *Worker) jobAbandoned() {
	if w.wm != nil {
		w.wm.JobAbandoned()
	}
}

// compile loads (once per worker) the job's program and compiles its query.
func (w *Worker) compile(ctx context.Context, js jetstream.JetStream, job *jobs.TraceJob) (*query.Compiled, error) {
	w.mu.Lock()
	e, ok := w.machines[job.Program]
	if !ok {
		e = &machineEntry{}
		w.machines[job.Program] = e
	}
	w.mu.Unlock()
	e.once.Do(func() {
		obs, err := js.ObjectStore(ctx, jobs.BucketPrograms)
		if err != nil {
			e.err = fmt.Errorf("programs bucket: %w", err)
			return
		}
		ll, err := obs.GetBytes(ctx, job.Program)
		if err != nil {
			e.err = fmt.Errorf("fetch program %s: %w", job.ProgramName, err)
			return
		}
		prog, err := ir.ParseLL(job.ProgramName, ll)
		if err != nil {
			e.err = err
			return
		}
		e.m = vm.NewMachine(prog)
	})
	if e.err != nil {
		return nil, e.err
	}
	q, err := query.Parse(job.Query)
	if err != nil {
		return nil, err
	}
	return query.Compile(q, e.m)
}

func (w *Worker) maxResultBytes() int {
	if w.MaxResultBytes > 0 {
		return w.MaxResultBytes
	}
	return DefaultMaxResultBytes
}
