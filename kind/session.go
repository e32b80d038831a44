package kind

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/wyvernmc/wyvern/jobs"
	"github.com/wyvernmc/wyvern/metrics"
	"github.com/wyvernmc/wyvern/query"
)

// Runner runs the experiments of one job kind on the coordinator: it
// plans and publishes jobs, folds their results, decides when the
// experiment is done and builds its result. It is registered under its
// kind's name (internal/kinds); the coordinator owns everything around it
// (submission, persistence, resumption, failures reported by JetStream,
// metrics registration).
type Runner interface {
	// Check refuses, at submission, an experiment this kind cannot run
	// (before anything is stored or published).
	Check(q *query.Query, exp *jobs.Experiment) error
	// Run runs the experiment to its result. A resumed experiment runs
	// again from its stored description; results already in the stream
	// may be read back (Session.Results with onlyNew false).
	Run(ctx context.Context, s *Session) (*Result, error)
}

// RunLimiter is a Runner whose experiments plan a number of runs known
// at submission (the most a coordinator's --max-runs allows).
type RunLimiter interface {
	RunLimit(q *query.Query) (uint64, error)
}

// Host is what the coordinator provides a Session with: its NATS streams
// and bookkeeping for one experiment.
type Host interface {
	PublishJobs(ctx context.Context, planned []PlannedJob) error
	Results(ctx context.Context, onlyNew bool, take func(*jobs.Result) bool) (stop func(), errc <-chan error, err error)
	Progress(p jobs.Progress)
	WatchProgress(f func(jobs.Progress)) (stop func(), err error)
	PurgeJobs(ctx context.Context)
	PurgeResults(ctx context.Context)
	StoredResults(ctx context.Context) int
	Reject(r *jobs.Result, reason, why string)
	Failed() <-chan string
	Workers() int
	Metrics() *metrics.Experiment
}

// Session is what a Runner gets from the coordinator for one experiment:
// the experiment, its parsed query, and the coordinator's services —
// nothing more.
type Session struct {
	Exp   jobs.Experiment
	Query *query.Query
	host  Host
}

// NewSession makes the session of experiment exp (query q) served by h.
func NewSession(exp jobs.Experiment, q *query.Query, h Host) *Session {
	return &Session{Exp: exp, Query: q, host: h}
}

// PlannedJob is a job for PublishJobs: part names it uniquely within the
// experiment, Payload is the kind's.
type PlannedJob struct {
	Part    string
	Payload any
}

// PublishJob publishes a job of the experiment's kind with the kind's
// payload; part names it uniquely within the experiment.
func (s *Session) PublishJob(ctx context.Context, part string, payload any) error {
	return s.host.PublishJobs(ctx, []PlannedJob{{Part: part, Payload: payload}})
}

// PublishJobs publishes jobs of the experiment's kind, all at once: it
// returns once JetStream has stored every one, or an error if one could
// not be within the retry time.
func (s *Session) PublishJobs(ctx context.Context, planned []PlannedJob) error {
	return s.host.PublishJobs(ctx, planned)
}

// Results decodes the experiment's results in a goroutine — all of them,
// or (onlyNew) those published from now on — and hands each to take until
// take returns false, ctx ends or stop is called. Results that are not
// this experiment's or answer no job this session published are rejected,
// never handed to take. A stream error is sent on errc.
func (s *Session) Results(ctx context.Context, onlyNew bool, take func(*jobs.Result) bool) (stop func(), errc <-chan error, err error) {
	return s.host.Results(ctx, onlyNew, take)
}

// Progress publishes a progress report (clients that listen show it).
func (s *Session) Progress(p jobs.Progress) { s.host.Progress(p) }

// WatchProgress calls f with the progress reports of the experiment's
// workers (a long job reports its own) until stop is called.
func (s *Session) WatchProgress(f func(jobs.Progress)) (stop func(), err error) {
	return s.host.WatchProgress(f)
}

// PurgeJobs drops the experiment's queued jobs (a resumed experiment plans
// its jobs again).
func (s *Session) PurgeJobs(ctx context.Context) { s.host.PurgeJobs(ctx) }

// PurgeResults drops the experiment's stored results.
func (s *Session) PurgeResults(ctx context.Context) { s.host.PurgeResults(ctx) }

// StoredResults is the number of the experiment's results stored before
// this session started (a resumed experiment's; 0 when unknown).
func (s *Session) StoredResults(ctx context.Context) int { return s.host.StoredResults(ctx) }

// Reject logs and counts a result that the runner will not use: it matches
// no planned job (reason one of the metrics.Reject* words).
func (s *Session) Reject(r *jobs.Result, reason, why string) { s.host.Reject(r, reason, why) }

// Failed delivers the reasons the experiment must fail (a job delivered
// MaxDeliver times without a result): a runner returns the first as its
// error.
func (s *Session) Failed() <-chan string { return s.host.Failed() }

// Workers is the number of workers heard from recently.
func (s *Session) Workers() int { return s.host.Workers() }

// Metrics returns the experiment's metrics (nil without metrics).
func (s *Session) Metrics() *metrics.Experiment { return s.host.Metrics() }

// OneJob runs an experiment that is one job: it drops queued jobs of the
// experiment, publishes the job (unless its result is already in the
// stream: a job finished before a coordinator restart is used as it is)
// and waits for its result, the experiment's failure or ctx. A result
// that reports an error is returned as that error.
func (s *Session) OneJob(ctx context.Context, part string, payload any) (*jobs.Result, error) {
	s.PurgeJobs(ctx)
	results := make(chan *jobs.Result, 1)
	stop, intake, err := s.Results(ctx, false, func(r *jobs.Result) bool {
		results <- r
		return false
	})
	if err != nil {
		return nil, err
	}
	defer stop()
	if err := s.PublishJob(ctx, part, payload); err != nil {
		return nil, err
	}
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case why := <-s.Failed():
		return nil, errors.New(why)
	case err := <-intake:
		return nil, err
	case r := <-results:
		if r.Error != "" && r.Refused {
			return nil, Refusal(fmt.Sprintf("worker %s: %s", r.Worker, r.Error))
		}
		if r.Error != "" {
			return nil, fmt.Errorf("worker %s: %s", r.Worker, r.Error)
		}
		return r, nil
	}
}

// DecodePayload decodes a result's payload into the kind's result type.
func DecodePayload(r *jobs.Result, v any) error {
	if err := json.Unmarshal(r.Payload, v); err != nil {
		return fmt.Errorf("%s result %s/%s from worker %s: %w", r.Kind, r.Experiment, r.Part, r.Worker, err)
	}
	return nil
}
