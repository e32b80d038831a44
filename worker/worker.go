// Package worker is the generic NATS job loop every job kind runs in: it
// fetches jobs from the shared durable consumer, skips those of stopped
// experiments, keeps a running job from being redelivered, hands the job
// to the handler registered for its kind, publishes the results the
// handler produces, acknowledges (or, when the worker stops mid-job,
// returns) the job, sends heartbeats and reports metrics. Programs are
// fetched once by content hash and cached compiled.
//
// A job costs as few NATS round trips on the job's path as the guarantees
// allow (on a cluster each is 0.2-1 ms, against jobs of ~10 ms): the
// experiments' states come from a watch of the bucket, not a get a job
// (statuses); a job's results are published asynchronously and the job
// acknowledged once JetStream has stored them all, while the loop goes on
// with the next job (Job.stored, slot.complete); and while a short job
// runs, the next one is already fetched (one ahead, slot.handle).
//
// A job kind plugs in with a Handler (one per job loop, so it may cache
// compiled queries) registered under the kind's name; see
// docs/architecture.md.
package worker

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"math"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/wyvernmc/wyvern/ir"
	"github.com/wyvernmc/wyvern/jobs"
	"github.com/wyvernmc/wyvern/metrics"
	"github.com/wyvernmc/wyvern/query"
	"github.com/wyvernmc/wyvern/vm"
)

// Handler runs the jobs of one kind. Handle decodes j.Payload, runs the
// job and publishes its result(s) with j.Publish, or j.Fail when the job
// can never run (the loop acknowledges it either way, once JetStream has
// stored what was published, and hands it back for another delivery if it
// did not). It returns an error only when the job must be delivered again:
// the context ended, or a result could not be published.
type Handler interface {
	Handle(ctx context.Context, j *Job) error
}

// Factory makes a handler for one job loop: a handler is used by one
// goroutine at a time.
type Factory func() Handler

// DefaultMaxResultBytes bounds a result message (NATS's default payload
// limit is 1 MiB); handlers with large results send them in several
// messages (Job.MaxResultBytes).
const DefaultMaxResultBytes = 512 << 10

// Worker serves jobs of the registered kinds.
type Worker struct {
	NC    *nats.Conn
	ID    string
	Slots int // concurrent jobs (goroutines); default 1
	// MaxResultBytes bounds a result message (default
	// DefaultMaxResultBytes).
	MaxResultBytes int
	// Metrics, when set, receives the worker's job starts and ends
	// (traces, steps, satisfying traces, time per job); nil: no metrics.
	Metrics *metrics.Workers
	// Log, when set, receives what the worker drops or refuses (messages
	// it cannot decode, jobs of kinds it does not run); nil: quiet.
	Log *log.Logger
	// Limits are the per-run limits of the programs the worker runs (zero
	// fields: vm's defaults); every worker of a deployment should use the
	// same, since a run's outcome depends on them.
	Limits vm.Limits
	// MaxProgramBytes bounds the loaded programs the worker keeps (their
	// vm.Machine.Footprint): past it, the least recently used are dropped
	// and loaded again when a job needs them. 0: DefaultMaxProgramBytes.
	MaxProgramBytes uint64

	kinds map[string]Factory
	// protocol is the protocol version the worker speaks (0: jobs.Version;
	// tests set another to play a worker of another build).
	protocol int

	traces, steps atomic.Uint64
	wm            *metrics.Worker // from Metrics, set by Run

	mu           sync.Mutex
	machines     map[string]*machineEntry // by program hash and arguments
	machineBytes uint64                   // their footprints
	tick         uint64                   // the clock of machineEntry.used

	statuses *statuses // the experiments' states, set by Run (under mu: tests read it)
}

type machineEntry struct {
	once  sync.Once
	m     *vm.Machine
	err   error
	bytes uint64 // counted in Worker.machineBytes (under Worker.mu)
	used  uint64 // Worker.tick when a job last asked for it (under Worker.mu)
}

// HandlerCache bounds the compiled queries (per program and query) a
// handler keeps: a handler that would keep more drops those it has, so
// that the programs the worker's cache drops are not kept alive by them.
const HandlerCache = 2

// DefaultMaxProgramBytes is Worker.MaxProgramBytes's default.
const DefaultMaxProgramBytes = 1 << 30

// minEntryBytes is what an entry costs at least (one that failed to load
// holds only its error): the cache stays bounded in entries too.
const minEntryBytes = 1 << 10

// cacheMachine counts e's footprint and drops the least recently used
// other programs while the cache is above MaxProgramBytes. Jobs running
// them keep their machines; the next job loads its program again.
func (w *Worker) cacheMachine(key string, e *machineEntry) {
	cost := uint64(minEntryBytes)
	if e.m != nil {
		cost = max(cost, e.m.Footprint())
	}
	limit := w.MaxProgramBytes
	if limit == 0 {
		limit = DefaultMaxProgramBytes
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.machines[key] != e || e.bytes != 0 {
		return // dropped meanwhile, or counted
	}
	e.bytes = cost
	w.machineBytes += cost
	var freed uint64
	defer func() {
		if freed >= 64<<20 {
			// Large programs were dropped: give their memory back now, not
			// when the heap next doubles (GOGC) and the OS gets it later.
			go debug.FreeOSMemory()
		}
	}()
	for w.machineBytes > limit && len(w.machines) > 1 {
		var oldest string
		var at uint64 = math.MaxUint64
		for k, o := range w.machines {
			if o != e && o.bytes != 0 && o.used < at {
				oldest, at = k, o.used
			}
		}
		if oldest == "" {
			return
		}
		freed += w.machines[oldest].bytes
		w.machineBytes -= w.machines[oldest].bytes
		delete(w.machines, oldest)
		w.logf("dropped program %s from the cache (%d MiB of programs kept, at most %d MiB)", oldest, w.machineBytes>>20, limit>>20)
	}
}

// Register makes the worker run jobs of kind with handlers from f.
func (w *Worker) Register(kind string, f Factory) {
	if w.kinds == nil {
		w.kinds = map[string]Factory{}
	}
	w.kinds[kind] = f
}

// Traces reports the worker's total of traces (or segments) run.
func (w *Worker) Traces() uint64 { return w.traces.Load() }

// Steps reports the total steps simulated.
func (w *Worker) Steps() uint64 { return w.steps.Load() }

// Run serves jobs until ctx is cancelled.
func (w *Worker) Run(ctx context.Context) error {
	if w.Slots <= 0 {
		w.Slots = 1
	}
	if len(w.kinds) == 0 {
		return fmt.Errorf("worker %s: no job kinds registered", w.ID)
	}
	w.machines = map[string]*machineEntry{}
	if w.Metrics != nil {
		w.wm = w.Metrics.Worker(w.ID)
	}
	// Results are published asynchronously (Job.publish); an ack that does
	// not come within the time a synchronous publish waits fails the job
	// as a synchronous publish would.
	js, err := jetstream.New(w.NC, jetstream.WithPublishAsyncTimeout(resultAckWait))
	if err != nil {
		return fmt.Errorf("worker %s: jetstream: %w", w.ID, err)
	}
	cons, err := waitConsumer(ctx, js)
	if err != nil {
		return fmt.Errorf("worker %s: %w", w.ID, err)
	}
	if err := w.checkProtocol(ctx, js); err != nil {
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
	st := &statuses{kv: kv, log: w.logf}
	st.watch(ctx)
	w.mu.Lock()
	w.statuses = st
	w.mu.Unlock()
	go w.heartbeat(ctx)
	var wg sync.WaitGroup
	errs := make(chan error, w.Slots)
	for i := 0; i < w.Slots; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := w.loop(ctx, js, cons, st); err != nil {
				errs <- err
				stop()
			}
		}()
	}
	wg.Wait()
	close(errs)
	return <-errs
}

// version is the protocol version the worker speaks.
func (w *Worker) version() int {
	if w.protocol != 0 {
		return w.protocol
	}
	return jobs.Version
}

// checkProtocol refuses to serve a job stream set up by a coordinator of
// another protocol version (jobs.StreamMetaProtocol): every job would be
// refused.
func (w *Worker) checkProtocol(ctx context.Context, js jetstream.JetStream) error {
	st, err := js.Stream(ctx, jobs.StreamJobs)
	if err != nil {
		return fmt.Errorf("job stream: %w", err)
	}
	v, ok := st.CachedInfo().Config.Metadata[jobs.StreamMetaProtocol]
	if !ok || v == strconv.Itoa(w.version()) {
		return nil // (a stream set up before the version was recorded: the jobs say)
	}
	return fmt.Errorf("this worker speaks protocol version %d, the coordinator that set up %s speaks version %s: run a worker of the coordinator's build (wyvern --version)",
		w.version(), jobs.StreamJobs, v)
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

// resultAckWait bounds the wait for JetStream to store a result (a
// synchronous publish's default timeout): a job whose result is not
// stored by then is handed back for another delivery.
const resultAckWait = 5 * time.Second

// prefetchBelow: while a job runs whose experiment's previous job in the
// same slot took less, the slot fetches the next job (one ahead). Only
// short jobs need it (a round trip of 1 ms is 10 % of a 10 ms job and
// 0.4 % of a 250 ms one), and a job fetched ahead waits for the running
// one: about as long as the jobs of an experiment that has shown short
// ones, never behind a long job of another kind or experiment (an
// explicit-state search is one job: nothing is fetched while it runs).
const prefetchBelow = 250 * time.Millisecond

// held is a job message the worker holds: fetched (maybe ahead), running,
// or waiting for its results to be stored. Its deadline is extended until
// release.
type held struct {
	msg  jetstream.Msg
	stop chan struct{} // ends keepAlive
}

func (h *held) release() { close(h.stop) }

// slot is one job loop: Slots of them run at once, each one job at a time.
type slot struct {
	w        *Worker
	js       jetstream.JetStream
	cons     jetstream.Consumer
	st       *statuses
	handlers map[string]Handler // this loop's, made on first use

	next       chan *held    // the job being fetched ahead, or nil
	completing chan struct{} // closed when the last job's completion has acked or returned it; nil: none
	lastExp    string        // the experiment of the last job run,
	lastDur    time.Duration // and how long it ran
}

func (w *Worker) loop(ctx context.Context, js jetstream.JetStream, cons jetstream.Consumer, st *statuses) error {
	s := &slot{w: w, js: js, cons: cons, st: st, handlers: map[string]Handler{}}
	defer s.drain()
	for ctx.Err() == nil {
		var h *held
		if s.next != nil {
			h = <-s.next
			s.next = nil
		}
		if h == nil {
			var err error
			if h, err = w.fetch(cons); err != nil {
				if ctx.Err() != nil {
					return nil
				}
				time.Sleep(100 * time.Millisecond)
				continue
			}
			if h == nil {
				continue // none within FetchMaxWait
			}
		}
		if ctx.Err() != nil {
			h.msg.Nak() // shutting down: another worker takes it at once
			h.release()
			return nil
		}
		s.handle(ctx, h)
	}
	return nil
}

// drain hands back the job fetched ahead, if any, and waits for the last
// job's results to be stored and the job acknowledged (or handed back).
func (s *slot) drain() {
	if s.next != nil {
		if h := <-s.next; h != nil {
			h.msg.Nak()
			h.release()
		}
		s.next = nil
	}
	if s.completing != nil {
		<-s.completing
	}
}

// fetch fetches one job (nil: none came within a second) and keeps it
// from being redelivered until it is released.
func (w *Worker) fetch(cons jetstream.Consumer) (*held, error) {
	batch, err := cons.Fetch(1, jetstream.FetchMaxWait(time.Second))
	if err != nil {
		return nil, fmt.Errorf("worker %s: fetch a job: %w", w.ID, err)
	}
	var h *held
	for msg := range batch.Messages() {
		h = &held{msg: msg, stop: keepAlive(msg)}
	}
	return h, nil
}

// prefetch fetches the next job while the current one runs.
func (s *slot) prefetch() {
	ch := make(chan *held, 1)
	s.next = ch
	go func() {
		h, _ := s.w.fetch(s.cons) // an error: the loop fetches again, and sees it
		ch <- h
	}()
}

func (s *slot) handle(ctx context.Context, h *held) {
	w, msg := s.w, h.msg
	j := &Job{w: w, js: s.js, start: time.Now()}
	if err := w.decodeJob(msg, &j.Job); err != nil {
		w.reject(msg, err)
		h.release()
		return
	}
	// Skip jobs of experiments that have already stopped.
	if s.st.stopped(ctx, j.Experiment) {
		msg.Ack()
		h.release()
		return
	}
	if j.Experiment == s.lastExp && s.lastDur < prefetchBelow {
		s.prefetch()
	}
	handler, ok := s.handlers[j.Kind]
	if !ok {
		f := w.kinds[j.Kind]
		if f == nil {
			// A kind this worker does not run: fail the job (every worker
			// of a deployment runs the same kinds).
			w.logf("job %s: kind %q is not registered here", j.ID(), j.Kind)
			if j.Fail(ctx, fmt.Errorf("worker %s does not run %q jobs", w.ID, j.Kind)) == nil {
				s.complete(j, h, false)
			} else {
				msg.Nak()
				h.release()
			}
			return
		}
		handler = f()
		s.handlers[j.Kind] = handler
	}
	if w.wm != nil {
		w.wm.JobStarted()
	}
	// The job runs until its experiment stops (cancelled, failed, done):
	// then it is abandoned, not handed back.
	jctx, cancel := context.WithCancel(ctx)
	untrack := s.st.track(j.Experiment, cancel)
	err := w.run(jctx, handler, j)
	untrack()
	stopped := jctx.Err() != nil && ctx.Err() == nil
	cancel()
	s.lastExp, s.lastDur = j.Experiment, time.Since(j.start)
	if stopped {
		w.logf("job %s: abandoned after %v: its experiment stopped", j.ID(), time.Since(j.start).Round(time.Millisecond))
		if w.wm != nil {
			w.wm.JobAbandoned()
		}
		msg.Ack() // nobody needs it: never delivered again
		h.release()
		return
	}
	var rej *rejectError
	if errors.As(err, &rej) {
		if w.wm != nil {
			w.wm.JobAbandoned()
		}
		w.reject(msg, fmt.Errorf("job %s: %w", j.ID(), rej.err))
		h.release()
		return
	}
	if err != nil || ctx.Err() != nil {
		if w.wm != nil {
			w.wm.JobAbandoned()
		}
		msg.Nak() // shutting down, or the result did not reach the stream: another delivery tries
		h.release()
		return
	}
	s.complete(j, h, true)
}

// complete acknowledges the job once JetStream has stored every result it
// published, or hands it back for another delivery if one was not stored,
// while the slot goes on with the next job. One job completes at a time
// in a slot: a slot holds at most a job completing, a job running and a
// job fetched ahead.
func (s *slot) complete(j *Job, h *held, ran bool) {
	if s.completing != nil {
		<-s.completing
	}
	done := make(chan struct{})
	s.completing = done
	w := s.w
	go func() {
		defer close(done)
		defer h.release()
		if err := j.stored(); err != nil {
			w.logf("job %s: %v; handing it back", j.ID(), err)
			if ran && w.wm != nil {
				w.wm.JobAbandoned()
			}
			h.msg.Nak()
			return
		}
		if ran && w.wm != nil {
			w.wm.JobDone(j.traces, j.steps, j.sat, time.Since(j.start))
		}
		h.msg.Ack()
	}()
}

// decodeJob decodes a job message. A job of another protocol version is
// also told to the coordinator (jobs.SkewNotice), which fails its
// experiment naming this worker and both versions: no worker of this
// version can run it, and terminated, it would never get a result.
func (w *Worker) decodeJob(msg jetstream.Msg, job *jobs.Job) error {
	var hdr struct {
		Version int `json:"version"`
	}
	if err := json.Unmarshal(msg.Data(), &hdr); err != nil {
		return fmt.Errorf("an undecodable job message (%d bytes): %w", len(msg.Data()), err)
	}
	if hdr.Version != w.version() {
		n := jobs.SkewNotice{Worker: w.ID, WorkerVersion: w.version(), JobVersion: hdr.Version,
			Experiment: strings.TrimPrefix(msg.Subject(), jobs.JobSubject(""))}
		if md, err := msg.Metadata(); err == nil {
			n.Seq = md.Sequence.Stream
		}
		b, _ := json.Marshal(n)
		w.NC.Publish(jobs.SubjectSkew, b)
		return fmt.Errorf("a job of experiment %s of protocol version %d; this worker speaks %d: run workers of the coordinator's build (wyvern --version)",
			n.Experiment, hdr.Version, w.version())
	}
	if err := jobs.Decode(msg.Data(), job); err != nil {
		return fmt.Errorf("an undecodable job message (%d bytes): %w", len(msg.Data()), err)
	}
	return nil
}

// run runs a job's handler. A handler that panics (a bug the job's
// program or payload triggers) fails the job with the panic, instead of
// killing the worker and, delivery after delivery, every other worker.
func (w *Worker) run(ctx context.Context, h Handler, j *Job) (err error) {
	defer func() {
		if r := recover(); r != nil {
			w.logf("job %s: the handler panicked: %v\n%s", j.ID(), r, debug.Stack())
			err = j.Fail(ctx, fmt.Errorf("worker %s crashed running job %s: %v", w.ID, j.ID(), r))
		}
	}()
	return h.Handle(ctx, j)
}

// Reject is what a handler returns for a job no coordinator plans (a
// payload beyond the kind's bounds: forged or corrupted): the worker logs
// it, counts it and terminates the message without publishing a result,
// so that a forged job can neither run nor fail an experiment.
func Reject(err error) error { return &rejectError{err} }

type rejectError struct{ err error }

func (e *rejectError) Error() string { return "rejected: " + e.err.Error() }
func (e *rejectError) Unwrap() error { return e.err }

// reject logs, counts and terminates a job message the worker refuses.
func (w *Worker) reject(msg jetstream.Msg, why error) {
	w.logf("rejected %v; terminating it", why)
	if w.wm != nil {
		w.wm.JobRejected()
	}
	msg.Term() // no worker of this version can run it: never redelivered
}

func (w *Worker) logf(format string, args ...any) {
	if w.Log != nil {
		w.Log.Printf(format, args...)
	}
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

// Job is a job being run, with what a handler needs from the worker.
type Job struct {
	jobs.Job
	w             *Worker
	js            jetstream.JetStream
	start         time.Time
	traces, steps uint64
	sat           uint64
	acks          []jetstream.PubAckFuture // of the results published
}

// Worker is the running worker's id.
func (j *Job) Worker() string { return j.w.ID }

// Compile loads the job's program (once per worker process) and compiles
// its query for this job loop.
func (j *Job) Compile(ctx context.Context) (*query.Compiled, error) {
	m, err := j.Machine(ctx)
	if err != nil {
		return nil, err
	}
	q, err := query.Parse(j.Query)
	if err != nil {
		return nil, err
	}
	return query.Compile(q, m)
}

// Machine returns the job's program with its command-line arguments and
// its overflow semantics (WrapOverflow), loaded once per worker process,
// with the leak checks its query needs (a machine per set of checks).
func (j *Job) Machine(ctx context.Context) (*vm.Machine, error) {
	w := j.w
	key := j.Program
	if len(j.Args) > 0 {
		key = fmt.Sprintf("%s %q", j.Program, j.Args)
	}
	var leaks vm.LeakChecks
	if q, err := query.Parse(j.Query); err == nil {
		leaks = query.LeakChecksOf(q)
	}
	if leaks != 0 {
		key = fmt.Sprintf("%s leaks=%d", key, leaks)
	}
	if j.WrapOverflow {
		key += " wrap"
	}
	w.mu.Lock()
	e, ok := w.machines[key]
	if !ok {
		e = &machineEntry{}
		w.machines[key] = e
	}
	w.tick++
	e.used = w.tick
	w.mu.Unlock()
	loaded := false
	e.once.Do(func() {
		loaded = true
		obs, err := j.js.ObjectStore(ctx, jobs.BucketPrograms)
		if err != nil {
			e.err = fmt.Errorf("programs bucket: %w: %w", errUnavailable, err)
			return
		}
		ll, err := obs.GetBytes(ctx, j.Program)
		if err != nil {
			e.err = fmt.Errorf("fetch program %s: %w", j.ProgramName, err)
			if !errors.Is(err, jetstream.ErrObjectNotFound) {
				e.err = fmt.Errorf("fetch program %s: %w: %w", j.ProgramName, errUnavailable, err)
			}
			return
		}
		prog, err := ir.ParseLL(j.ProgramName, ll)
		if err != nil {
			e.err = err
			return
		}
		if j.WrapOverflow {
			prog.WrapOverflow()
		}
		e.m = vm.NewMachineArgs(prog, j.Args)
		e.m.Leaks = leaks
		w.Limits.Apply(e.m)
	})
	if errors.Is(e.err, errUnavailable) {
		// Not the program's fault (NATS restarting): the next job tries
		// again.
		w.mu.Lock()
		if w.machines[key] == e {
			w.machineBytes -= e.bytes
			delete(w.machines, key)
		}
		w.mu.Unlock()
	} else if loaded {
		w.cacheMachine(key, e)
	}
	return e.m, e.err
}

// errUnavailable marks errors of NATS or JetStream being unavailable: the
// job is handed back for another delivery instead of failing.
var errUnavailable = errors.New("NATS unavailable")

// Publish sends one result message with payload (the kind's result type).
// It does not wait for JetStream to store it: the worker acknowledges the
// job once every result is stored, and hands it back otherwise.
func (j *Job) Publish(ctx context.Context, payload any) error {
	b, err := json.Marshal(payload)
	if err != nil {
		return fmt.Errorf("encode result of %s: %w", j.ID(), err)
	}
	return j.publish(ctx, jobs.Result{Payload: b})
}

// Fail publishes that the job can never run, and why. A failure that is
// NATS being unavailable (fetching the program) is no reason to fail the
// experiment: Fail returns it and the job is delivered again.
func (j *Job) Fail(ctx context.Context, why error) error {
	if errors.Is(why, errUnavailable) {
		j.w.logf("job %s: %v; handing it back", j.ID(), why)
		return why
	}
	var rf *Refusal
	return j.publish(ctx, jobs.Result{Error: why.Error(), Refused: errors.As(why, &rf)})
}

// Refusal marks a job's error as a refusal: the engine does not support
// the job's input (a program construct it cannot handle), which is the
// submitter's to change, not a failure of the worker or the cluster. Fail
// publishes it with jobs.Result.Refused set; the submitter reports it as
// bad input (exit status 2).
type Refusal struct{ Err error }

func (r *Refusal) Error() string { return r.Err.Error() }
func (r *Refusal) Unwrap() error { return r.Err }

func (j *Job) publish(ctx context.Context, r jobs.Result) error {
	r.Version, r.Kind, r.Experiment, r.Part, r.Worker = jobs.Version, j.Kind, j.Experiment, j.Part, j.w.ID
	r.Elapsed = time.Since(j.start).Seconds()
	b, _ := json.Marshal(r)
	if max := j.w.NC.MaxPayload(); max > 0 && int64(len(b)) > max-1024 {
		// NATS would refuse it, the job would be delivered again and again
		// and the experiment fail as if workers crashed: say what is wrong.
		j.w.logf("job %s: a result of %d bytes is above the server's maximum message size", j.ID(), len(b))
		if r.Payload == nil {
			r.Error = r.Error[:min(len(r.Error), 4096)]
		} else {
			r.Payload, r.Error = nil, fmt.Sprintf("the result of job %s is %d bytes, above the NATS server's maximum message size of %d bytes (max_payload): use smaller jobs (--job-size) or raise max_payload", j.ID(), len(b), max)
		}
		b, _ = json.Marshal(r)
	}
	// Asynchronous: the loop acknowledges the job once every result is
	// stored (stored), and runs the next job meanwhile.
	ack, err := j.js.PublishAsync(jobs.ResultSubject(j.Experiment), b)
	if err != nil {
		return fmt.Errorf("publish result of %s: %w", j.ID(), err)
	}
	j.acks = append(j.acks, ack)
	return nil
}

// stored waits until JetStream has stored every result the job published
// (nil), or one could not be (an error: the job must be delivered again).
func (j *Job) stored() error {
	for i, ack := range j.acks {
		select {
		case <-ack.Ok():
		case err := <-ack.Err():
			return fmt.Errorf("result %d of %s was not stored: %w", i+1, j.ID(), err)
		case <-time.After(resultAckWait + time.Second): // WithPublishAsyncTimeout's error should come first
			return fmt.Errorf("result %d of %s: no ack from JetStream in %v", i+1, j.ID(), resultAckWait)
		}
	}
	return nil
}

// Progress publishes a progress report for the job's experiment (core
// NATS, not stored).
func (j *Job) Progress(p jobs.Progress) {
	p.Version, p.Kind = jobs.Version, j.Kind
	b, _ := json.Marshal(p)
	j.w.NC.Publish(jobs.ProgressSubject(j.Experiment), b)
}

// Count adds runs (traces or segments), steps and satisfying runs to the
// worker's totals and the job's metrics.
func (j *Job) Count(runs, steps, sat uint64) {
	j.traces += runs
	j.steps += steps
	j.sat += sat
	j.w.traces.Add(runs)
	j.w.steps.Add(steps)
}

// MaxResultBytes bounds one result message.
func (j *Job) MaxResultBytes() int {
	if j.w.MaxResultBytes > 0 {
		return j.w.MaxResultBytes
	}
	return DefaultMaxResultBytes
}
