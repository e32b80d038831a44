// Package coordinator runs experiments: it accepts submissions, keeps each
// experiment's state in JetStream (so that a restarted coordinator
// resumes), fails experiments whose jobs workers cannot finish, and hands
// each experiment to the Runner of its job kind (Register): TraceRunner
// plans trace jobs and folds their outcomes strictly in trace-index order
// into the estimators; SplitRunner drives importance splitting through
// segment jobs; ExplicitRunner runs a search as one job. Results, their
// text and JSON forms, and the client (Submit) live here too.
package coordinator

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"math"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/nats-io/nuid"

	"github.com/wyvernmc/wyvern/jobs"
	"github.com/wyvernmc/wyvern/kind"
	"github.com/wyvernmc/wyvern/metrics"
	"github.com/wyvernmc/wyvern/query"
)

// Coordinator serves experiment submissions.
type Coordinator struct {
	NC         *nats.Conn
	AckWait    time.Duration // job redelivery timeout (default 10 s; workers extend it while running)
	MaxDeliver int           // deliveries of a job before the experiment fails (default 5)
	// RetryFor is how long JetStream operations are retried while NATS is
	// unavailable before the experiment fails (default DefaultRetryFor).
	RetryFor time.Duration
	Log      *log.Logger // nil: quiet
	// Metrics, when set, receives the workers' heartbeats, the job queue's
	// state and every experiment's progress; nil: no metrics.
	Metrics *metrics.Coordinator
	// Limits are the operator's bounds on what a submission may ask for
	// (zero fields: none): an experiment past one is refused at
	// submission, naming the limit.
	Limits Limits
	// SubmitterCheck is how often a running experiment's submitter is
	// asked whether it still waits (jobs.WaitingSubject); the experiment is
	// cancelled after two checks without a responder. Default 5 s;
	// negative: never.
	SubmitterCheck time.Duration
	// Store bounds what JetStream keeps (zero fields: DefaultStoreLimits).
	Store StoreLimits

	js  jetstream.JetStream
	kv  jetstream.KeyValue
	obs jetstream.ObjectStore

	runners map[string]Runner // by job kind

	mu      sync.Mutex
	running map[string]*session
	workers map[string]time.Time // last heartbeat
	skewed  map[string]bool      // workers of another version heard from ("id@version"), at most 1000
}

// Limits are a coordinator's operator limits (Coordinator.Limits).
type Limits struct {
	MaxBound   uint64 // the largest step bound of a query (Pr[<=N], Estimate[<=N,R], ...)
	MaxRuns    uint64 // the most traces a trace experiment may plan (its rule's limit: Okamoto's N, MaxRuns, R)
	MaxJobSize int    // the most traces per job (below jobs.MaxTraceJob)
}

// check refuses an experiment past the limits.
func (l Limits) check(r Runner, q *query.Query, exp *jobs.Experiment) error {
	if l.MaxBound > 0 && q.Bound > l.MaxBound {
		return fmt.Errorf("step bound %d is above this coordinator's maximum of %d (--max-bound)", q.Bound, l.MaxBound)
	}
	if l.MaxJobSize > 0 && exp.JobSize > l.MaxJobSize {
		return fmt.Errorf("job size %d is above this coordinator's maximum of %d traces per job (--max-job-size)", exp.JobSize, l.MaxJobSize)
	}
	if rl, ok := r.(kind.RunLimiter); ok && l.MaxRuns > 0 {
		n, err := rl.RunLimit(q)
		if err != nil {
			return err
		}
		if n > l.MaxRuns {
			return fmt.Errorf("the query may need %d runs, above this coordinator's maximum of %d (--max-runs): lower its runs (R, MaxRuns) or raise Epsilon", n, l.MaxRuns)
		}
	}
	return nil
}

// Register makes the coordinator run experiments of kind name with r.
func (c *Coordinator) Register(name string, r Runner) {
	if c.runners == nil {
		c.runners = map[string]Runner{}
	}
	c.runners[name] = r
}

func (c *Coordinator) logf(format string, args ...any) {
	if c.Log != nil {
		c.Log.Printf(format, args...)
	}
}

// StoreLimits bound what JetStream keeps for a coordinator: a zero field
// takes the default of DefaultStoreLimits. Past its bytes the results
// stream drops its oldest results (of experiments long folded); the job
// stream refuses new jobs (the experiment publishing them fails, saying
// so); the experiments bucket forgets experiments not written for its age
// (a worker then drops their jobs); the programs bucket drops programs
// older than its age (a submission uploads its program again).
type StoreLimits struct {
	ResultsMaxBytes     int64
	ResultsMaxAge       time.Duration
	JobsMaxBytes        int64
	ExperimentsMaxBytes int64
	ExperimentsMaxAge   time.Duration
	ProgramsMaxBytes    int64
	ProgramsMaxAge      time.Duration
}

// DefaultStoreLimits are the store limits of a coordinator that sets none.
var DefaultStoreLimits = StoreLimits{
	ResultsMaxBytes: 4 << 30, ResultsMaxAge: 7 * 24 * time.Hour,
	JobsMaxBytes:        1 << 30,
	ExperimentsMaxBytes: 1 << 30, ExperimentsMaxAge: 30 * 24 * time.Hour,
	ProgramsMaxBytes: 2 << 30, ProgramsMaxAge: 30 * 24 * time.Hour,
}

// withDefaults fills l's zero fields from DefaultStoreLimits.
func (l StoreLimits) withDefaults() StoreLimits {
	d := DefaultStoreLimits
	pick := func(v *int64, def int64) {
		if *v == 0 {
			*v = def
		}
	}
	pickD := func(v *time.Duration, def time.Duration) {
		if *v == 0 {
			*v = def
		}
	}
	pick(&l.ResultsMaxBytes, d.ResultsMaxBytes)
	pickD(&l.ResultsMaxAge, d.ResultsMaxAge)
	pick(&l.JobsMaxBytes, d.JobsMaxBytes)
	pick(&l.ExperimentsMaxBytes, d.ExperimentsMaxBytes)
	pickD(&l.ExperimentsMaxAge, d.ExperimentsMaxAge)
	pick(&l.ProgramsMaxBytes, d.ProgramsMaxBytes)
	pickD(&l.ProgramsMaxAge, d.ProgramsMaxAge)
	return l
}

// Setup creates (or checks) the streams, the workers' durable consumer and
// the buckets with the default store limits. It is idempotent.
func Setup(ctx context.Context, js jetstream.JetStream, ackWait time.Duration, maxDeliver int) error {
	return SetupStore(ctx, js, ackWait, maxDeliver, StoreLimits{}, nil)
}

// SetupStore is Setup with store limits (zero fields: the defaults). A
// server whose JetStream storage cannot reserve a byte limit gets the
// stream without it (logged with logf, if set).
func SetupStore(ctx context.Context, js jetstream.JetStream, ackWait time.Duration, maxDeliver int, l StoreLimits, logf func(string, ...any)) error {
	l = l.withDefaults()
	// bytes retries op without its byte limit when the server cannot
	// reserve it (a small disk: nats-server refuses a stream whose
	// MaxBytes passes its storage).
	bytes := func(name string, limit *int64, op func() error) error {
		err := op()
		if err != nil && strings.Contains(err.Error(), "insufficient") {
			if logf != nil {
				logf("%s: JetStream cannot reserve %d MiB (%v): no byte limit", name, *limit>>20, err)
			}
			*limit = 0
			err = op()
		}
		return err
	}
	// Buckets and the results stream first, the workers' consumer last: a
	// worker starts serving once it sees the consumer, and then needs the rest.
	if err := bytes(jobs.BucketExperiments, &l.ExperimentsMaxBytes, func() error {
		_, err := js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: jobs.BucketExperiments, Storage: jetstream.FileStorage,
			MaxBytes: l.ExperimentsMaxBytes, TTL: l.ExperimentsMaxAge})
		return err
	}); err != nil {
		return fmt.Errorf("create bucket %s: %w", jobs.BucketExperiments, err)
	}
	if err := bytes(jobs.BucketPrograms, &l.ProgramsMaxBytes, func() error {
		_, err := js.CreateOrUpdateObjectStore(ctx, jetstream.ObjectStoreConfig{Bucket: jobs.BucketPrograms, Storage: jetstream.FileStorage,
			MaxBytes: l.ProgramsMaxBytes, TTL: l.ProgramsMaxAge})
		return err
	}); err != nil {
		return fmt.Errorf("create bucket %s: %w", jobs.BucketPrograms, err)
	}
	if err := bytes(jobs.StreamResults, &l.ResultsMaxBytes, func() error {
		_, err := js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{
			Name: jobs.StreamResults, Subjects: []string{jobs.ResultSubject("*")},
			Retention: jetstream.LimitsPolicy, Storage: jetstream.FileStorage, MaxAge: l.ResultsMaxAge, MaxBytes: l.ResultsMaxBytes,
		})
		return err
	}); err != nil {
		return fmt.Errorf("create stream %s: %w", jobs.StreamResults, err)
	}
	if err := bytes(jobs.StreamJobs, &l.JobsMaxBytes, func() error {
		_, err := js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{
			Name: jobs.StreamJobs, Subjects: []string{jobs.JobSubject("*")},
			Retention: jetstream.WorkQueuePolicy, Storage: jetstream.FileStorage, MaxBytes: l.JobsMaxBytes, Discard: jetstream.DiscardNew,
			Metadata: map[string]string{jobs.StreamMetaProtocol: strconv.Itoa(jobs.Version)},
		})
		return err
	}); err != nil {
		return fmt.Errorf("create stream %s: %w", jobs.StreamJobs, err)
	}
	if _, err := js.CreateOrUpdateConsumer(ctx, jobs.StreamJobs, jetstream.ConsumerConfig{
		Durable: jobs.ConsumerWorkers, AckPolicy: jetstream.AckExplicitPolicy,
		AckWait: ackWait, MaxDeliver: maxDeliver, MaxAckPending: 10000,
	}); err != nil {
		return fmt.Errorf("create consumer %s: %w", jobs.ConsumerWorkers, err)
	}
	return nil
}

// Serve sets up JetStream, resumes experiments left running by an earlier
// coordinator and serves submissions until ctx ends.
func (c *Coordinator) Serve(ctx context.Context) error {
	if c.AckWait == 0 {
		c.AckWait = 10 * time.Second
	}
	if c.MaxDeliver == 0 {
		c.MaxDeliver = 5
	}
	if len(c.runners) == 0 {
		return errors.New("coordinator: no job kinds registered")
	}
	c.running = map[string]*session{}
	c.workers = map[string]time.Time{}
	// Jobs are published asynchronously (Session.PublishJobs): an ack that
	// never comes (NATS restarted) resolves as an error after the time an
	// attempt waits, instead of staying pending for ever.
	js, err := jetstream.New(c.NC, jetstream.WithPublishAsyncTimeout(attemptTime))
	if err != nil {
		return fmt.Errorf("coordinator: jetstream: %w", err)
	}
	c.js = js
	if err := SetupStore(ctx, js, c.AckWait, c.MaxDeliver, c.Store, c.logf); err != nil {
		return fmt.Errorf("coordinator: %w", err)
	}
	if c.kv, err = js.KeyValue(ctx, jobs.BucketExperiments); err != nil {
		return fmt.Errorf("coordinator: %w", err)
	}
	if c.obs, err = js.ObjectStore(ctx, jobs.BucketPrograms); err != nil {
		return fmt.Errorf("coordinator: %w", err)
	}
	hb, err := c.NC.Subscribe(jobs.HeartbeatAll, func(m *nats.Msg) {
		var h jobs.Heartbeat
		if jobs.Decode(m.Data, &h) == nil {
			c.mu.Lock()
			c.workers[h.Worker] = time.Now()
			c.mu.Unlock()
			if c.Metrics != nil {
				sec, frac := math.Modf(h.Time)
				c.Metrics.Heartbeat(h.Worker, time.Unix(int64(sec), int64(frac*1e9)), h.Traces, h.Steps)
			}
			return
		}
		c.skewedWorker(m.Data)
	})
	if err != nil {
		return fmt.Errorf("coordinator: %w", err)
	}
	defer hb.Unsubscribe()
	adv, err := c.NC.Subscribe("$JS.EVENT.ADVISORY.CONSUMER.MAX_DELIVERIES."+jobs.StreamJobs+"."+jobs.ConsumerWorkers,
		func(m *nats.Msg) { c.maxDelivered(ctx, m.Data) })
	if err != nil {
		return fmt.Errorf("coordinator: %w", err)
	}
	defer adv.Unsubscribe()
	sub, err := c.NC.Subscribe(jobs.SubjectSubmit, func(m *nats.Msg) { c.submit(ctx, m) })
	if err != nil {
		return fmt.Errorf("coordinator: %w", err)
	}
	defer sub.Unsubscribe()
	ssub, err := c.NC.Subscribe(jobs.SubjectSkew, func(m *nats.Msg) { c.skew(m.Data) })
	if err != nil {
		return fmt.Errorf("coordinator: %w", err)
	}
	defer ssub.Unsubscribe()
	csub, err := c.NC.Subscribe(jobs.SubjectCancel, c.cancelRequest)
	if err != nil {
		return fmt.Errorf("coordinator: %w", err)
	}
	defer csub.Unsubscribe()
	if c.Metrics != nil {
		go c.queueMetrics(ctx)
	}
	c.resume(ctx)
	<-ctx.Done()
	return nil
}

// queueMetrics reports the job queue (from the workers' consumer) and the
// workers alive every second until ctx ends.
func (c *Coordinator) queueMetrics(ctx context.Context) {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		if cons, err := c.js.Consumer(ctx, jobs.StreamJobs, jobs.ConsumerWorkers); err == nil {
			if info, err := cons.Info(ctx); err == nil {
				c.Metrics.Jobs(int(info.NumPending), info.NumAckPending, info.NumRedelivered)
			}
		}
		c.Metrics.WorkersAlive(c.Workers())
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// expMetrics returns experiment id's metrics, nil without metrics.
func (c *Coordinator) expMetrics(id string) *metrics.Experiment {
	if c.Metrics == nil {
		return nil
	}
	return c.Metrics.Experiment(id)
}

// Workers returns the number of workers heard from in the last 3 seconds.
func (c *Coordinator) Workers() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, t := range c.workers {
		if time.Since(t) < 3*time.Second {
			n++
		}
	}
	return n
}

func (c *Coordinator) submit(ctx context.Context, m *nats.Msg) {
	reply := func(r jobs.SubmitReply) {
		r.Version = jobs.Version
		b, _ := json.Marshal(r)
		m.Respond(b)
	}
	var exp jobs.Experiment
	if err := jobs.Decode(m.Data, &exp); err != nil {
		reply(jobs.SubmitReply{Error: err.Error()})
		return
	}
	q, err := query.Parse(exp.Query)
	if err == nil {
		if exp.Kind == "" {
			exp.Kind = KindOf(q, exp.Explicit, exp.BMC)
		}
		if r := c.runners[exp.Kind]; r == nil {
			err = fmt.Errorf("this coordinator does not run %q experiments", exp.Kind)
		} else {
			err = r.Check(q, &exp)
		}
	}
	if err != nil {
		reply(jobs.SubmitReply{Error: err.Error()})
		return
	}
	if _, err := c.obs.GetInfo(ctx, exp.Program); err != nil {
		reply(jobs.SubmitReply{Error: fmt.Sprintf("program %s (%s) is not in the %s bucket: %v", exp.ProgramName, exp.Program, jobs.BucketPrograms, err)})
		return
	}
	if exp.JobSize <= 0 {
		exp.JobSize = 64
	}
	if exp.JobSize > jobs.MaxTraceJob {
		reply(jobs.SubmitReply{Error: fmt.Sprintf("job size %d is above the maximum of %d traces per job", exp.JobSize, jobs.MaxTraceJob)})
		return
	}
	if err := c.Limits.check(c.runners[exp.Kind], q, &exp); err != nil {
		reply(jobs.SubmitReply{Error: err.Error()})
		return
	}
	st := jobs.Status{Version: jobs.Version, Experiment: exp, State: jobs.StateRunning, Updated: time.Now()}
	b, _ := json.Marshal(st)
	if _, err := c.kv.Create(ctx, exp.ID, b); err != nil {
		reply(jobs.SubmitReply{Error: fmt.Sprintf("experiment %s: %v", exp.ID, err)})
		return
	}
	c.start(ctx, exp)
	reply(jobs.SubmitReply{ID: exp.ID})
}

// resume restarts the experiments an earlier coordinator left running.
func (c *Coordinator) resume(ctx context.Context) {
	keys, err := c.kv.ListKeys(ctx)
	if err != nil {
		if !errors.Is(err, jetstream.ErrNoKeysFound) {
			c.logf("cannot list experiments to resume: %v", err)
		}
		return
	}
	for k := range keys.Keys() {
		e, err := c.kv.Get(ctx, k)
		if err != nil {
			continue
		}
		var st jobs.Status
		if jobs.Decode(e.Value(), &st) == nil && st.State == jobs.StateRunning {
			c.logf("resuming experiment %s", k)
			c.start(ctx, st.Experiment)
		}
	}
}

func (c *Coordinator) start(ctx context.Context, exp jobs.Experiment) {
	sctx, cancel := context.WithCancelCause(ctx)
	e := &session{Exp: exp, c: c, fail: make(chan string, 4), nonce: nuid.Next(), cancel: cancel}
	c.mu.Lock()
	if _, dup := c.running[exp.ID]; dup {
		c.mu.Unlock()
		cancel(nil)
		return
	}
	c.running[exp.ID] = e
	c.mu.Unlock()
	go func() {
		defer cancel(nil)
		go c.watchSubmitter(sctx, e)
		res, err := c.run(sctx, e)
		c.mu.Lock()
		delete(c.running, exp.ID)
		c.mu.Unlock()
		if ctx.Err() != nil {
			return // shutting down: the experiment stays "running" and resumes later
		}
		if sctx.Err() != nil {
			res, err = nil, context.Cause(sctx) // cancelled: the reason
		}
		c.finish(exp, res, err)
	}()
}

// cancelRequest stops the running experiment a CancelRequest names.
func (c *Coordinator) cancelRequest(m *nats.Msg) {
	reply := func(r jobs.SubmitReply) {
		r.Version = jobs.Version
		b, _ := json.Marshal(r)
		m.Respond(b)
	}
	var req jobs.CancelRequest
	if err := jobs.Decode(m.Data, &req); err != nil {
		reply(jobs.SubmitReply{Error: err.Error()})
		return
	}
	reason := req.Reason
	if reason == "" {
		reason = "on request"
	}
	if !c.Cancel(req.Experiment, reason) {
		reply(jobs.SubmitReply{ID: req.Experiment, Error: fmt.Sprintf("experiment %s is not running on this coordinator", req.Experiment)})
		return
	}
	reply(jobs.SubmitReply{ID: req.Experiment})
}

// Cancel stops running experiment id (false: none runs here): it fails
// with "cancelled: reason", its queued jobs are dropped and workers
// abandon its running jobs at their next slice.
func (c *Coordinator) Cancel(id, reason string) bool {
	c.mu.Lock()
	e := c.running[id]
	c.mu.Unlock()
	if e == nil || e.cancel == nil {
		return false
	}
	c.logf("experiment %s: cancelled: %s", id, reason)
	e.cancel(fmt.Errorf("cancelled: %s", reason))
	return true
}

// watchSubmitter cancels e when its submitter no longer waits for it: two
// checks in a row find no responder on its waiting subject.
func (c *Coordinator) watchSubmitter(ctx context.Context, e *session) {
	every := c.SubmitterCheck
	if every == 0 {
		every = 5 * time.Second
	}
	if every < 0 {
		return
	}
	t := time.NewTicker(every)
	defer t.Stop()
	misses := 0
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		rctx, cancel := context.WithTimeout(ctx, every)
		_, err := c.NC.RequestWithContext(rctx, jobs.WaitingSubject(e.Exp.ID), nil)
		cancel()
		switch {
		case err == nil:
			misses = 0
		case errors.Is(err, nats.ErrNoResponders):
			if misses++; misses >= 2 {
				c.Cancel(e.Exp.ID, fmt.Sprintf("its submitter is gone (no answer on %s for %v)", jobs.WaitingSubject(e.Exp.ID), 2*every))
				return
			}
		}
	}
}

func (c *Coordinator) finish(exp jobs.Experiment, res *Result, err error) {
	ctx, cancel := context.WithTimeout(context.Background(), c.retryFor()+10*time.Second)
	defer cancel()
	st := jobs.Status{Version: jobs.Version, Experiment: exp, State: jobs.StateDone, Updated: time.Now()}
	if err != nil {
		st.State, st.Error, st.Refused = jobs.StateFailed, err.Error(), errors.Is(err, ErrRefused)
		c.logf("experiment %s failed: %v", exp.ID, err)
	} else {
		if q, perr := query.Parse(exp.Query); perr == nil {
			describe(res, q, &exp, c.runners[exp.Kind])
		}
		st.Result, _ = json.Marshal(res)
		c.logf("experiment %s done: %d runs", exp.ID, res.Runs)
	}
	b, _ := json.Marshal(st)
	// The final values are in the metrics before anyone sees the result.
	em := c.expMetrics(exp.ID)
	if em != nil && err == nil {
		reportResult(em, res)
	}
	if em != nil {
		em.Finish(err == nil)
	}
	if perr := c.retry(ctx, "store the result of experiment "+exp.ID, func(ctx context.Context) error {
		_, err := c.kv.Put(ctx, exp.ID, b)
		return err
	}); perr != nil {
		c.logf("experiment %s: %v", exp.ID, perr)
	}
	// Drop the jobs nobody needs any more (workers also skip them).
	c.purge(ctx, jobs.StreamJobs, jobs.JobSubject(exp.ID))
}

// maxDelivered fails the experiment whose job exhausted its deliveries.
// Anyone allowed to publish on the advisory subject could forge one, so
// an advisory is believed only when it is JetStream's max-deliveries
// advisory for the workers' consumer, names at least MaxDeliver
// deliveries, and points at a job still in the queue that a running
// experiment of this coordinator published; others are rejected (logged
// and counted).
func (c *Coordinator) maxDelivered(ctx context.Context, data []byte) {
	var adv struct {
		Type       string `json:"type"`
		Stream     string `json:"stream"`
		Consumer   string `json:"consumer"`
		StreamSeq  uint64 `json:"stream_seq"`
		Deliveries int    `json:"deliveries"`
	}
	if err := json.Unmarshal(data, &adv); err != nil {
		c.reject(metrics.RejectAdvisory, "rejected a max-deliveries advisory: %v", err)
		return
	}
	if adv.Type != "io.nats.jetstream.advisory.v1.max_deliver" || adv.Stream != jobs.StreamJobs ||
		adv.Consumer != jobs.ConsumerWorkers || adv.Deliveries < c.MaxDeliver || adv.StreamSeq == 0 {
		c.reject(metrics.RejectAdvisory, "rejected a max-deliveries advisory (type %q, stream %q, consumer %q, %d deliveries of at least %d): not JetStream's for the workers' consumer",
			adv.Type, adv.Stream, adv.Consumer, adv.Deliveries, c.MaxDeliver)
		return
	}
	s, err := c.js.Stream(ctx, jobs.StreamJobs)
	if err != nil {
		c.logf("max-deliveries advisory for job message %d: %v", adv.StreamSeq, err)
		return
	}
	raw, err := s.GetMsg(ctx, adv.StreamSeq)
	if err != nil {
		c.reject(metrics.RejectAdvisory, "rejected a max-deliveries advisory for job message %d: no such job in the queue (%v)", adv.StreamSeq, err)
		return
	}
	var job jobs.Job
	if err := jobs.Decode(raw.Data, &job); err != nil {
		c.logf("job message %d exhausted its deliveries and cannot be decoded: %v", adv.StreamSeq, err)
		s.DeleteMsg(ctx, adv.StreamSeq)
		return
	}
	c.mu.Lock()
	e := c.running[job.Experiment]
	c.mu.Unlock()
	if e == nil || !e.planned(job.Part) {
		c.reject(metrics.RejectAdvisory, "rejected a max-deliveries advisory for job %s: no running experiment here published it", job.ID())
		return
	}
	if c.Metrics != nil {
		c.Metrics.JobExhausted()
	}
	select {
	case e.fail <- fmt.Sprintf("job %s was delivered %d times without a result: workers crashed or timed out running it",
		job.ID(), adv.Deliveries):
	default: // the experiment is failing already
	}
	s.DeleteMsg(ctx, adv.StreamSeq)
}

// skewedWorker logs, once per worker, a heartbeat of another protocol
// version: that worker refuses every job (a worker of a build from before
// version-skew notices says nothing else).
func (c *Coordinator) skewedWorker(data []byte) {
	var h struct {
		Version int    `json:"version"`
		Worker  string `json:"worker"`
	}
	if json.Unmarshal(data, &h) != nil || h.Version == jobs.Version || h.Worker == "" {
		return
	}
	key := fmt.Sprintf("%s@%d", h.Worker, h.Version)
	c.mu.Lock()
	if c.skewed == nil {
		c.skewed = map[string]bool{}
	}
	seen := c.skewed[key] || len(c.skewed) >= 1000
	c.skewed[key] = true
	c.mu.Unlock()
	if !seen {
		c.logf("worker %s speaks protocol version %d, this coordinator %d: it refuses every job; run workers of version %d (wyvern --version)",
			h.Worker, h.Version, jobs.Version, jobs.Version)
	}
}

// skew fails the running experiment whose job a worker of another
// protocol version refused (jobs.SkewNotice): no worker would ever answer
// that job, and the experiment would wait for ever. A notice for no
// experiment running here is rejected (logged and counted): anyone allowed
// to publish on the subject could forge one.
func (c *Coordinator) skew(data []byte) {
	var n jobs.SkewNotice
	if err := json.Unmarshal(data, &n); err != nil {
		c.reject(metrics.RejectSkew, "rejected a version-skew notice: %v", err)
		return
	}
	c.mu.Lock()
	e := c.running[n.Experiment]
	c.mu.Unlock()
	if e == nil || n.JobVersion != jobs.Version || n.WorkerVersion == jobs.Version {
		c.reject(metrics.RejectSkew, "rejected a version-skew notice of worker %q (version %d, job version %d) for experiment %q: no such experiment runs here at version %d",
			n.Worker, n.WorkerVersion, n.JobVersion, n.Experiment, jobs.Version)
		return
	}
	why := fmt.Sprintf("worker %s speaks protocol version %d and refused a job of this coordinator's version %d: run workers of version %d (wyvern --version), or stop that worker",
		n.Worker, n.WorkerVersion, jobs.Version, jobs.Version)
	c.logf("experiment %s: %s", n.Experiment, why)
	select {
	case e.fail <- why:
	default: // the experiment is failing already
	}
}

// DefaultRetryFor is how long JetStream operations are retried while
// NATS is unavailable (Coordinator.RetryFor).
const DefaultRetryFor = 2 * time.Minute

func (c *Coordinator) retryFor() time.Duration {
	if c.RetryFor > 0 {
		return c.RetryFor
	}
	return DefaultRetryFor
}

// retry runs op (with a 5 s deadline per attempt) until it succeeds, ctx
// ends or retryFor has passed, waiting 0.1 s, 0.2 s, ... up to 2 s between
// attempts: while NATS restarts every JetStream request fails, and an
// experiment must not fail with it. The first failure is logged.
// attemptTime bounds one attempt of retry (and an asynchronous publish's
// wait for its ack).
const attemptTime = 5 * time.Second

func (c *Coordinator) retry(ctx context.Context, what string, op func(context.Context) error) error {
	deadline := time.Now().Add(c.retryFor())
	wait := 100 * time.Millisecond
	for attempt := 1; ; attempt++ {
		actx, cancel := context.WithTimeout(ctx, attemptTime)
		err := op(actx)
		cancel()
		if err == nil {
			if attempt > 1 {
				c.logf("%s: done after %d attempts", what, attempt)
			}
			return nil
		}
		if ctx.Err() != nil {
			return fmt.Errorf("%s: %w", what, ctx.Err())
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s: %w (retried for %s)", what, err, c.retryFor())
		}
		if attempt == 1 {
			c.logf("%s: %v; retrying", what, err)
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%s: %w", what, ctx.Err())
		case <-time.After(wait):
		}
		wait = min(2*wait, 2*time.Second)
	}
}

// reject logs and counts a message the coordinator refuses; reason is a
// metrics.Reject* word.
func (c *Coordinator) reject(reason, format string, args ...any) {
	c.logf(format, args...)
	if c.Metrics != nil {
		c.Metrics.Rejected(reason)
	}
}

// purge drops the messages of a subject from a stream.
func (c *Coordinator) purge(ctx context.Context, stream, subject string) {
	if s, err := c.js.Stream(ctx, stream); err == nil {
		s.Purge(ctx, jetstream.WithPurgeSubject(subject))
	}
}

// run runs one experiment with the runner of its kind.
func (c *Coordinator) run(ctx context.Context, s *session) (*Result, error) {
	q, err := query.Parse(s.Exp.Query)
	if err != nil {
		return nil, err
	}
	s.Query = q
	// Results stored before now are a resumed experiment's (its jobs were
	// published by an earlier coordinator); later ones must answer a job
	// this session publishes.
	if st, err := c.js.Stream(ctx, jobs.StreamResults); err == nil {
		if info, err := st.Info(ctx); err == nil {
			s.before = info.State.LastSeq
		}
	}
	r := c.runners[s.Exp.Kind]
	if r == nil {
		return nil, fmt.Errorf("this coordinator does not run %q experiments", s.Exp.Kind)
	}
	return r.Run(ctx, kind.NewSession(s.Exp, q, s))
}

// reportResult sets an experiment's metrics to its final result.
func reportResult(em *metrics.Experiment, res *Result) {
	p := metrics.Progress{Runs: res.Runs, Steps: res.Steps, Estimate: res.Estimate,
		Lo: res.Lo, Hi: res.Hi, RunsPerSec: res.Stats.RunsPerSec, Planned: res.Runs}
	if mr, ok := res.Detail.(kind.MetricsReporter); ok {
		mr.ReportMetrics(em, &p)
	}
	em.Progress(p)
}
