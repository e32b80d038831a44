// Package metrics holds Wyvern's Prometheus metrics: what the coordinator
// and the simulator workers export on /metrics (`--metrics ADDR`) for
// Prometheus and the Grafana dashboard in deploy/.
//
// Everything lives on a registry of its own (never the global one), with the
// Go runtime and process collectors. Labels are bounded: series carry at most
// an experiment id or a worker id, and an experiment's series are deleted
// shortly after it finishes (Experiment.Finish, SetKeepFinished), a worker's
// when it is forgotten (ForgetWorker), so a long-lived coordinator does not
// accumulate them.
//
// Each component has its own collectors, registered on a
// prometheus.Registerer: Workers (the simulator workers' job counters) and
// Coordinator (the job queue, the workers' heartbeats, the experiments). A
// Set puts both on one registry, for `wyvern check`, which runs the
// coordinator and the workers in one process:
//
//	reg := metrics.NewRegistry()
//	ws := metrics.NewWorkers(reg)           // in a worker process
//	w := ws.Worker("host-1234")
//	w.JobStarted()
//	w.JobDone(traces, steps, satisfying, elapsed)
//
//	co := metrics.NewCoordinator(reg)       // in the coordinator process
//	e := co.Experiment(id)
//	e.Progress(metrics.Progress{Runs: ..., Estimate: ..., Lo: ..., Hi: ...})
//	e.Finish(err == nil)                    // counts it; its series go 15 s later
//
//	addr, err := metrics.Serve(ctx, ":9090", reg)
//
// All methods are safe for concurrent use.
package metrics

import (
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
)

// Label names. No other labels are used.
const (
	LabelExperiment = "experiment"
	LabelWorker     = "worker"
	LabelReason     = "reason" // why a message was rejected (a fixed word)
)

// Set is both components' metrics on one registry.
type Set struct {
	*Workers
	*Coordinator
	reg *prometheus.Registry
}

// New returns a Set on a fresh registry (NewRegistry) with the workers'
// and the coordinator's collectors.
func New() *Set {
	reg := NewRegistry()
	return &Set{Workers: NewWorkers(reg), Coordinator: NewCoordinator(reg), reg: reg}
}

// Registry is the Set's registry, for Serve or to register more collectors.
func (s *Set) Registry() *prometheus.Registry { return s.reg }

// ForgetWorker deletes every series of a worker, on both sides.
func (s *Set) ForgetWorker(worker string) {
	s.Workers.ForgetWorker(worker)
	s.Coordinator.ForgetWorker(worker)
}

// NewRegistry returns a fresh registry with the Go runtime collector
// (go_*) and the process collector (process_*).
func NewRegistry() *prometheus.Registry {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return reg
}

// Workers are the simulator workers' metrics, by worker id.
type Workers struct {
	traces     *prometheus.CounterVec
	steps      *prometheus.CounterVec
	satisfying *prometheus.CounterVec
	jobsDone   *prometheus.CounterVec
	jobsActive *prometheus.GaugeVec
	jobSeconds *prometheus.HistogramVec
	rejected   *prometheus.CounterVec
	vecs       []deleter // every vector, all labelled by worker
}

// Coordinator is the coordinator's metrics: the job queue, the workers as
// seen through their heartbeats, and the experiments.
type Coordinator struct {
	now  func() time.Time // the clock (tests replace it)
	keep time.Duration    // how long a finished experiment's series stay

	// The job queue.
	jobsQueued      prometheus.Gauge
	jobsInFlight    prometheus.Gauge
	jobsRedelivered prometheus.Gauge
	jobsPublished   *prometheus.CounterVec
	jobsExhausted   prometheus.Counter
	duplicates      *prometheus.CounterVec
	rejected        *prometheus.CounterVec // by reason

	// Workers as seen through their heartbeats.
	lastSeen       *prometheus.GaugeVec
	workerRate     *prometheus.GaugeVec
	workerStepRate *prometheus.GaugeVec
	workersAlive   prometheus.Gauge

	// Experiments.
	running     prometheus.Gauge
	completed   prometheus.Counter
	failed      prometheus.Counter
	expStart    *prometheus.GaugeVec
	runs        *prometheus.GaugeVec
	satRuns     *prometheus.GaugeVec
	planned     *prometheus.GaugeVec
	expSteps    *prometheus.GaugeVec
	estimate    *prometheus.GaugeVec
	lower       *prometheus.GaugeVec
	upper       *prometheus.GaugeVec
	runsPerSec  *prometheus.GaugeVec
	llr         *prometheus.GaugeVec
	llrLower    *prometheus.GaugeVec
	llrUpper    *prometheus.GaugeVec
	level       *prometheus.GaugeVec
	threshold   *prometheus.GaugeVec
	condProb    *prometheus.GaugeVec
	product     *prometheus.GaugeVec
	states      *prometheus.GaugeVec
	statesRate  *prometheus.GaugeVec
	queue       *prometheus.GaugeVec
	depth       *prometheus.GaugeVec
	expVecs     []deleter // every vector labelled by experiment
	workerVecs  []deleter // every vector labelled by worker
	mu          sync.Mutex
	beats       map[string]beat       // last heartbeat per worker
	explicitAt  map[string]stateCount // last explicit-state report per experiment
	experiments map[string]*Experiment
}

type deleter interface {
	DeleteLabelValues(...string) bool
}

type beat struct {
	at            time.Time
	traces, steps uint64
}

type stateCount struct {
	at     time.Time
	states uint64
}

// NewWorkers registers the workers' collectors on reg.
func NewWorkers(reg prometheus.Registerer) *Workers {
	s := &Workers{}
	byWorker := []string{LabelWorker}
	wc := func(name, help string) *prometheus.CounterVec {
		v := prometheus.NewCounterVec(prometheus.CounterOpts{Name: name, Help: help}, byWorker)
		reg.MustRegister(v)
		s.vecs = append(s.vecs, v)
		return v
	}
	s.traces = wc("wyvern_worker_traces_total", "Traces simulated by the worker.")
	s.steps = wc("wyvern_worker_steps_total", "Steps (LLVM instructions) simulated by the worker.")
	s.satisfying = wc("wyvern_worker_satisfying_traces_total", "Traces simulated by the worker that satisfied their query.")
	s.jobsDone = wc("wyvern_worker_jobs_total", "Jobs the worker has finished.")
	s.rejected = wc("wyvern_worker_rejected_jobs_total", "Jobs the worker refused and terminated: undecodable, of another protocol version, or above the size bounds.")
	s.jobsActive = prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "wyvern_worker_jobs_running", Help: "Jobs the worker is running now."}, byWorker)
	reg.MustRegister(s.jobsActive)
	s.jobSeconds = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "wyvern_worker_job_duration_seconds",
		Help:    "Time the worker took to run a job.",
		Buckets: prometheus.ExponentialBuckets(0.001, 4, 10), // 1 ms .. 262 s
	}, byWorker)
	reg.MustRegister(s.jobSeconds)
	s.vecs = append(s.vecs, s.jobsActive, s.jobSeconds)
	return s
}

// ForgetWorker deletes the worker's series.
func (s *Workers) ForgetWorker(worker string) {
	for _, v := range s.vecs {
		v.DeleteLabelValues(worker)
	}
}

// NewCoordinator registers the coordinator's collectors on reg.
func NewCoordinator(reg prometheus.Registerer) *Coordinator {
	s := &Coordinator{
		now:         time.Now,
		keep:        DefaultKeepFinished,
		beats:       map[string]beat{},
		explicitAt:  map[string]stateCount{},
		experiments: map[string]*Experiment{},
	}
	byWorker := []string{LabelWorker}
	byExp := []string{LabelExperiment}
	wg := func(name, help string) *prometheus.GaugeVec {
		v := prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: name, Help: help}, byWorker)
		reg.MustRegister(v)
		s.workerVecs = append(s.workerVecs, v)
		return v
	}
	eg := func(name, help string) *prometheus.GaugeVec {
		v := prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: name, Help: help}, byExp)
		reg.MustRegister(v)
		s.expVecs = append(s.expVecs, v)
		return v
	}
	ec := func(name, help string) *prometheus.CounterVec {
		v := prometheus.NewCounterVec(prometheus.CounterOpts{Name: name, Help: help}, byExp)
		reg.MustRegister(v)
		s.expVecs = append(s.expVecs, v)
		return v
	}
	g := func(name, help string) prometheus.Gauge {
		v := prometheus.NewGauge(prometheus.GaugeOpts{Name: name, Help: help})
		reg.MustRegister(v)
		return v
	}
	c := func(name, help string) prometheus.Counter {
		v := prometheus.NewCounter(prometheus.CounterOpts{Name: name, Help: help})
		reg.MustRegister(v)
		return v
	}

	s.jobsQueued = g("wyvern_jobs_queued", "Jobs waiting in the work queue, not yet delivered to a worker.")
	s.jobsInFlight = g("wyvern_jobs_in_flight", "Jobs delivered to a worker and not yet acknowledged.")
	s.jobsRedelivered = g("wyvern_jobs_redelivered", "Jobs delivered more than once and not yet acknowledged.")
	s.jobsPublished = ec("wyvern_experiment_jobs_published_total", "Jobs the coordinator has published for the experiment.")
	s.jobsExhausted = c("wyvern_jobs_max_deliveries_total", "Jobs that reached the maximum number of deliveries without a result.")
	s.duplicates = ec("wyvern_experiment_duplicate_results_total", "Trace outcomes received more than once (redeliveries) and dropped.")
	s.rejected = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "wyvern_rejected_messages_total",
		Help: "Messages the coordinator refused (results that match no planned, outstanding job; undecodable results; advisories that match no outstanding job), by reason."},
		[]string{LabelReason})
	reg.MustRegister(s.rejected)
	for _, r := range []string{RejectUndecodable, RejectForeign, RejectUnplanned, RejectMismatch, RejectAdvisory, RejectSkew} {
		s.rejected.WithLabelValues(r) // every reason's series, at 0
	}

	s.lastSeen = wg("wyvern_worker_last_seen_timestamp_seconds", "Unix time of the worker's last heartbeat.")
	s.workerRate = wg("wyvern_worker_throughput_traces_per_second", "Worker throughput between its last two heartbeats.")
	s.workerStepRate = wg("wyvern_worker_throughput_steps_per_second", "Worker steps per second between its last two heartbeats.")
	s.workersAlive = g("wyvern_workers_alive", "Workers heard from recently.")

	s.running = g("wyvern_experiments_running", "Experiments running now.")
	s.completed = c("wyvern_experiments_completed_total", "Experiments that finished with a result.")
	s.failed = c("wyvern_experiments_failed_total", "Experiments that failed.")
	s.expStart = eg("wyvern_experiment_start_timestamp_seconds", "Unix time the experiment started.")
	s.runs = eg("wyvern_experiment_runs", "Runs folded into the estimator so far (in trace-index order).")
	s.satRuns = eg("wyvern_experiment_satisfying_runs", "Folded runs that satisfied the query.")
	s.planned = eg("wyvern_experiment_planned_runs", "Runs the experiment is expected to need (a bound, except for hypothesis tests; 0: not known in advance).")
	s.expSteps = eg("wyvern_experiment_steps", "Steps of the folded runs.")
	s.estimate = eg("wyvern_experiment_estimate", "Current estimate (probability or mean).")
	s.lower = eg("wyvern_experiment_interval_lower", "Lower bound of the current confidence interval.")
	s.upper = eg("wyvern_experiment_interval_upper", "Upper bound of the current confidence interval.")
	s.runsPerSec = eg("wyvern_experiment_runs_per_second", "Runs folded per second since the experiment started.")
	s.llr = eg("wyvern_experiment_sprt_log_likelihood_ratio", "Wald SPRT: current log-likelihood ratio.")
	s.llrLower = eg("wyvern_experiment_sprt_lower_bound", "Wald SPRT: the log-likelihood ratio at or below which H0 is accepted.")
	s.llrUpper = eg("wyvern_experiment_sprt_upper_bound", "Wald SPRT: the log-likelihood ratio at or above which H0 is rejected.")
	s.level = eg("wyvern_splitting_level", "Importance splitting: index of the current level (0 = the initial states).")
	s.threshold = eg("wyvern_splitting_level_threshold", "Importance splitting: score threshold of the current level.")
	s.condProb = eg("wyvern_splitting_conditional_probability", "Importance splitting: estimated probability of reaching the current level from the previous one.")
	s.product = eg("wyvern_splitting_estimate", "Importance splitting: running product of the conditional probabilities.")
	s.states = eg("wyvern_explicit_states", "Explicit-state search: distinct states found.")
	s.statesRate = eg("wyvern_explicit_states_per_second", "Explicit-state search: states found per second between the last two reports.")
	s.queue = eg("wyvern_explicit_queue_states", "Explicit-state search: states waiting to be expanded.")
	s.depth = eg("wyvern_explicit_depth", "Explicit-state search: depth (BFS level) reached.")
	return s
}

// ---- Worker side ----

// Worker is one simulator worker's metrics.
type Worker struct {
	s  *Workers
	id string
}

// Worker returns the metrics of worker id, creating its series at 0.
func (s *Workers) Worker(id string) *Worker {
	for _, v := range []*prometheus.CounterVec{s.traces, s.steps, s.satisfying, s.jobsDone, s.rejected} {
		v.WithLabelValues(id)
	}
	s.jobsActive.WithLabelValues(id)
	return &Worker{s: s, id: id}
}

// JobStarted records that the worker started a job.
func (w *Worker) JobStarted() { w.s.jobsActive.WithLabelValues(w.id).Inc() }

// JobDone records a finished job: traces simulated, their steps, how many
// satisfied the query, and the time the job took. It also ends the job
// counted by JobStarted.
func (w *Worker) JobDone(traces, steps, satisfying uint64, elapsed time.Duration) {
	s := w.s
	s.traces.WithLabelValues(w.id).Add(float64(traces))
	s.steps.WithLabelValues(w.id).Add(float64(steps))
	s.satisfying.WithLabelValues(w.id).Add(float64(satisfying))
	s.jobsDone.WithLabelValues(w.id).Inc()
	s.jobSeconds.WithLabelValues(w.id).Observe(elapsed.Seconds())
	s.jobsActive.WithLabelValues(w.id).Dec()
}

// JobAbandoned ends a job counted by JobStarted that produced no result
// (cancelled, handed back to the queue).
func (w *Worker) JobAbandoned() { w.s.jobsActive.WithLabelValues(w.id).Dec() }

// JobRejected counts a job the worker refused (undecodable, another
// protocol version, too large) and terminated.
func (w *Worker) JobRejected() { w.s.rejected.WithLabelValues(w.id).Inc() }

// ---- Coordinator side: queue and workers ----

// Jobs sets the work queue's state: jobs waiting, delivered but not
// acknowledged, and redelivered but not acknowledged (e.g. from the job
// consumer's info: NumPending, NumAckPending, NumRedelivered).
func (s *Coordinator) Jobs(queued, inFlight, redelivered int) {
	s.jobsQueued.Set(float64(queued))
	s.jobsInFlight.Set(float64(inFlight))
	s.jobsRedelivered.Set(float64(redelivered))
}

// JobExhausted counts a job that reached its maximum number of deliveries.
func (s *Coordinator) JobExhausted() { s.jobsExhausted.Inc() }

// Rejected counts a message the coordinator refused; reason is one of a
// few fixed words (RejectUndecodable, ...), never text from the message.
func (s *Coordinator) Rejected(reason string) { s.rejected.WithLabelValues(reason).Inc() }

// Reasons of Coordinator.Rejected.
const (
	RejectUndecodable = "undecodable" // not a result of this protocol version
	RejectForeign     = "foreign"     // another experiment's or another kind's result on this experiment's subject
	RejectUnplanned   = "unplanned"   // a result for a job this coordinator did not publish
	RejectMismatch    = "mismatch"    // a result whose content does not match its job (range, count, indices)
	RejectAdvisory    = "advisory"    // an advisory for no outstanding job of this coordinator
	RejectSkew        = "skew"        // a version-skew notice for no experiment running here
)

// Heartbeat records a worker's heartbeat: when it was sent and the worker's
// totals then. The worker's throughput is computed from consecutive
// heartbeats; a restarted worker (totals going down) starts afresh.
func (s *Coordinator) Heartbeat(worker string, at time.Time, traces, steps uint64) {
	s.mu.Lock()
	prev, ok := s.beats[worker]
	s.beats[worker] = beat{at: at, traces: traces, steps: steps}
	s.mu.Unlock()
	s.lastSeen.WithLabelValues(worker).Set(float64(at.UnixNano()) / 1e9)
	if ok && at.After(prev.at) && traces >= prev.traces && steps >= prev.steps {
		dt := at.Sub(prev.at).Seconds()
		s.workerRate.WithLabelValues(worker).Set(float64(traces-prev.traces) / dt)
		s.workerStepRate.WithLabelValues(worker).Set(float64(steps-prev.steps) / dt)
	} else if !ok {
		s.workerRate.WithLabelValues(worker).Set(0)
		s.workerStepRate.WithLabelValues(worker).Set(0)
	}
}

// WorkersAlive sets the number of workers heard from recently.
func (s *Coordinator) WorkersAlive(n int) { s.workersAlive.Set(float64(n)) }

// ForgetWorker deletes the series of a worker gone for good.
func (s *Coordinator) ForgetWorker(worker string) {
	s.mu.Lock()
	delete(s.beats, worker)
	s.mu.Unlock()
	for _, v := range s.workerVecs {
		v.DeleteLabelValues(worker)
	}
}

// ---- Coordinator side: experiments ----

// Experiment is one experiment's metrics.
type Experiment struct {
	s  *Coordinator
	id string

	mu   sync.RWMutex // updates hold it shared, Finish exclusively
	done bool
}

// update runs f unless the experiment has finished, so that a late update
// cannot bring back series Finish deleted.
func (e *Experiment) update(f func(s *Coordinator, id string)) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	if !e.done {
		f(e.s, e.id)
	}
}

// Experiment returns the metrics of experiment id. The first call for an id
// counts it as running and records its start time; later calls (until
// Finish) return the same handle.
func (s *Coordinator) Experiment(id string) *Experiment {
	s.mu.Lock()
	defer s.mu.Unlock()
	if e, ok := s.experiments[id]; ok {
		return e
	}
	e := &Experiment{s: s, id: id}
	s.experiments[id] = e
	s.running.Set(float64(len(s.experiments)))
	s.expStart.WithLabelValues(id).Set(float64(s.now().UnixNano()) / 1e9)
	s.runs.WithLabelValues(id)
	s.jobsPublished.WithLabelValues(id)
	s.duplicates.WithLabelValues(id)
	return e
}

// Progress is an experiment's state after some runs were folded.
type Progress struct {
	Runs, Satisfied uint64
	Planned         uint64 // at most this many runs (0: unknown)
	Steps           uint64 // steps of the folded runs
	Estimate        float64
	Lo, Hi          float64 // confidence interval
	RunsPerSec      float64
}

// Progress records the experiment's progress.
func (e *Experiment) Progress(p Progress) {
	e.update(func(s *Coordinator, id string) {
		s.runs.WithLabelValues(id).Set(float64(p.Runs))
		s.satRuns.WithLabelValues(id).Set(float64(p.Satisfied))
		s.planned.WithLabelValues(id).Set(float64(p.Planned))
		s.expSteps.WithLabelValues(id).Set(float64(p.Steps))
		s.estimate.WithLabelValues(id).Set(p.Estimate)
		s.lower.WithLabelValues(id).Set(p.Lo)
		s.upper.WithLabelValues(id).Set(p.Hi)
		s.runsPerSec.WithLabelValues(id).Set(p.RunsPerSec)
	})
}

// SPRT records a hypothesis test's log-likelihood ratio and its two
// decision bounds (H0 accepted at or below lower, rejected at or above upper).
func (e *Experiment) SPRT(llr, lower, upper float64) {
	e.update(func(s *Coordinator, id string) {
		s.llr.WithLabelValues(id).Set(llr)
		s.llrLower.WithLabelValues(id).Set(lower)
		s.llrUpper.WithLabelValues(id).Set(upper)
	})
}

// JobsPublished counts n jobs published for the experiment.
func (e *Experiment) JobsPublished(n int) {
	e.update(func(s *Coordinator, id string) { s.jobsPublished.WithLabelValues(id).Add(float64(n)) })
}

// Duplicates counts n trace outcomes dropped as duplicates.
func (e *Experiment) Duplicates(n int) {
	e.update(func(s *Coordinator, id string) { s.duplicates.WithLabelValues(id).Add(float64(n)) })
}

// SplittingLevel records that importance splitting reached level index
// (score threshold), with conditional probability condProb of reaching it
// from the previous level and product the running product of the
// conditional probabilities (the estimate so far).
func (e *Experiment) SplittingLevel(index int, threshold, condProb, product float64) {
	e.update(func(s *Coordinator, id string) {
		s.level.WithLabelValues(id).Set(float64(index))
		s.threshold.WithLabelValues(id).Set(threshold)
		s.condProb.WithLabelValues(id).Set(condProb)
		s.product.WithLabelValues(id).Set(product)
	})
}

// Explicit records an explicit-state search's progress: distinct states,
// states waiting in the queue, and the depth reached. States per second are
// computed from the previous report.
func (e *Experiment) Explicit(states, queue uint64, depth int) {
	e.update(func(s *Coordinator, id string) {
		now := s.now()
		s.mu.Lock()
		prev, ok := s.explicitAt[id]
		s.explicitAt[id] = stateCount{at: now, states: states}
		s.mu.Unlock()
		s.states.WithLabelValues(id).Set(float64(states))
		s.queue.WithLabelValues(id).Set(float64(queue))
		s.depth.WithLabelValues(id).Set(float64(depth))
		switch {
		case !ok:
			s.statesRate.WithLabelValues(id).Set(0)
		case now.After(prev.at) && states >= prev.states:
			s.statesRate.WithLabelValues(id).Set(float64(states-prev.states) / now.Sub(prev.at).Seconds())
		}
	})
}

// Finish counts the experiment as completed (ok) or failed, stops counting
// it as running, and deletes every series labelled with it after the Set's
// keep-finished delay (SetKeepFinished), so that Prometheus scrapes the final
// values of even a short experiment. Later updates through e do nothing;
// calling Finish again does nothing either. If an experiment with the same id
// starts again before the delay is over (a resumed experiment), its series
// are kept.
func (e *Experiment) Finish(ok bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.done {
		return
	}
	e.done = true
	s := e.s
	s.mu.Lock()
	delete(s.experiments, e.id)
	delete(s.explicitAt, e.id)
	s.running.Set(float64(len(s.experiments)))
	keep := s.keep
	s.mu.Unlock()
	if ok {
		s.completed.Inc()
	} else {
		s.failed.Inc()
	}
	if keep <= 0 {
		s.deleteSeries(e.id)
		return
	}
	time.AfterFunc(keep, func() { s.deleteSeries(e.id) })
}

// deleteSeries deletes the series of experiment id unless it runs again.
func (s *Coordinator) deleteSeries(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, again := s.experiments[id]; again {
		return
	}
	for _, v := range s.expVecs {
		v.DeleteLabelValues(id)
	}
}

// DefaultKeepFinished is how long a finished experiment's series stay by
// default: three scrapes at the deployment's 5 s interval.
const DefaultKeepFinished = 15 * time.Second

// SetKeepFinished sets how long a finished experiment's series stay before
// Finish deletes them (0: at once).
func (s *Coordinator) SetKeepFinished(d time.Duration) {
	s.mu.Lock()
	s.keep = d
	s.mu.Unlock()
}

// ID is the experiment's id (its label value).
func (e *Experiment) ID() string { return e.id }
