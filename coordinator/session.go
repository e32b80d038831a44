package coordinator

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/wyvernmc/wyvern/jobs"
	"github.com/wyvernmc/wyvern/kind"
	"github.com/wyvernmc/wyvern/metrics"
	"github.com/wyvernmc/wyvern/query"
)

// Runner runs the experiments of one job kind on the coordinator
// (kind.Runner).
type Runner = kind.Runner

// PlannedJob is a job for Session.PublishJobs (kind.PlannedJob).
type PlannedJob = kind.PlannedJob

// session is the coordinator's side of one experiment: what it serves a
// Runner's kind.Session with (it implements kind.Host).
type session struct {
	Exp   jobs.Experiment
	Query *query.Query

	c      *Coordinator
	fail   chan string             // reasons the experiment must fail (max deliveries)
	cancel context.CancelCauseFunc // stops Run (Coordinator.Cancel)

	// Results are accepted only for jobs this session published, or (a
	// resumed experiment) results stored before it started: results stream
	// sequence numbers up to before.
	before    uint64
	nonce     string // this session's, in the message ids of its jobs
	mu        sync.Mutex
	published map[string]bool // parts published by this session
}

// StoredResults is the number of the experiment's results stored before
// this session started (a resumed experiment's; 0 when unknown).
func (s *session) StoredResults(ctx context.Context) int {
	if s.before == 0 {
		return 0
	}
	st, err := s.c.js.Stream(ctx, jobs.StreamResults)
	if err != nil {
		return 0
	}
	subj := jobs.ResultSubject(s.Exp.ID)
	info, err := st.Info(ctx, jetstream.WithSubjectFilter(subj))
	if err != nil {
		return 0
	}
	return int(info.State.Subjects[subj])
}

// planned reports whether part was published by this session.
func (s *session) planned(part string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.published[part]
}

// Reject logs and counts a result that the runner will not use: it matches
// no planned job (reason one of the metrics.Reject* words).
func (s *session) Reject(r *jobs.Result, reason, why string) {
	s.c.reject(reason, "experiment %s: rejected a result (part %q, worker %q): %s", s.Exp.ID, r.Part, r.Worker, why)
}

// Failed delivers the reasons the experiment must fail (a job delivered
// MaxDeliver times without a result): a runner returns the first as its
// error.
func (s *session) Failed() <-chan string { return s.fail }

// Workers is the number of workers heard from recently.
func (s *session) Workers() int { return s.c.Workers() }

// Metrics returns the experiment's metrics (nil without metrics).
func (s *session) Metrics() *metrics.Experiment { return s.c.expMetrics(s.Exp.ID) }

// PublishJobs publishes jobs of the experiment's kind, all at once: it
// waits for JetStream to have stored every one (one round trip for the
// lot instead of one a job), and returns an error if one could not be
// within the retry time.
func (s *session) PublishJobs(ctx context.Context, planned []PlannedJob) error {
	if len(planned) == 0 {
		return nil
	}
	type msg struct {
		id string // the job's message id
		b  []byte
	}
	msgs := make([]msg, len(planned))
	s.mu.Lock()
	if s.published == nil {
		s.published = map[string]bool{}
	}
	for _, p := range planned {
		s.published[p.Part] = true // before publishing: its result may come at once
	}
	s.mu.Unlock()
	for i, p := range planned {
		pb, err := json.Marshal(p.Payload)
		if err != nil {
			return fmt.Errorf("encode job %s/%s: %w", s.Exp.ID, p.Part, err)
		}
		job := jobs.Job{Version: jobs.Version, Kind: s.Exp.Kind, Experiment: s.Exp.ID, Part: p.Part, Program: s.Exp.Program,
			ProgramName: s.Exp.ProgramName, Query: s.Exp.Query, Seed: s.Exp.Seed, Args: s.Exp.Args,
			WrapOverflow: s.Exp.WrapOverflow, Payload: pb}
		b, _ := json.Marshal(job)
		// The message id names the session, so that a resumed experiment
		// can publish the same part again.
		msgs[i] = msg{id: job.ID() + "@" + s.nonce, b: b}
	}
	what := "publish job " + s.Exp.ID + "/" + s.Exp.Kind + "/" + planned[0].Part
	if len(planned) > 1 {
		what = fmt.Sprintf("publish %d jobs of %s", len(planned), s.Exp.ID)
	}
	subj := jobs.JobSubject(s.Exp.ID)
	// Retried while JetStream is unavailable (NATS restarting), the jobs not
	// yet stored only; the message id makes a retry whose first attempt did
	// reach the stream a duplicate JetStream drops.
	return s.c.retry(ctx, what, func(ctx context.Context) error {
		acks := make([]jetstream.PubAckFuture, 0, len(msgs))
		var first error
		for _, m := range msgs {
			ack, err := s.c.js.PublishAsync(subj, m.b, jetstream.WithMsgID(m.id))
			if err != nil {
				first = err
				break
			}
			acks = append(acks, ack)
		}
		var left []msg
		for i, ack := range acks {
			select {
			case <-ack.Ok():
				continue
			case err := <-ack.Err():
				if first == nil {
					first = err
				}
			case <-ctx.Done(): // the attempt's deadline
				if first == nil {
					first = fmt.Errorf("no ack from JetStream: %w", ctx.Err())
				}
			}
			left = append(left, msgs[i])
		}
		msgs = append(left, msgs[len(acks):]...)
		return first
	})
}

// Progress publishes a progress report (core NATS: clients that listen
// show it).
func (s *session) Progress(p jobs.Progress) {
	p.Version, p.Kind = jobs.Version, s.Exp.Kind
	b, _ := json.Marshal(p)
	s.c.NC.Publish(jobs.ProgressSubject(s.Exp.ID), b)
}

// WatchProgress calls f with the experiment's progress reports (those of
// its workers: a long job reports its own) until stop is called.
func (s *session) WatchProgress(f func(jobs.Progress)) (stop func(), err error) {
	sub, err := s.c.NC.Subscribe(jobs.ProgressSubject(s.Exp.ID), func(m *nats.Msg) {
		var p jobs.Progress
		if jobs.Decode(m.Data, &p) == nil {
			f(p)
		}
	})
	if err != nil {
		return nil, fmt.Errorf("progress subscription: %w", err)
	}
	return func() { sub.Unsubscribe() }, nil
}

// PurgeJobs drops the experiment's queued jobs (a resumed experiment plans
// its jobs again).
func (s *session) PurgeJobs(ctx context.Context) {
	s.c.purge(ctx, jobs.StreamJobs, jobs.JobSubject(s.Exp.ID))
}

// PurgeResults drops the experiment's stored results.
func (s *session) PurgeResults(ctx context.Context) {
	s.c.purge(ctx, jobs.StreamResults, jobs.ResultSubject(s.Exp.ID))
}

// Results decodes the experiment's results in a goroutine — all of them,
// or (onlyNew) those published from now on — and hands each to take until
// take returns false, ctx ends or stop is called. Results that are not
// this experiment's (undecodable, another experiment, another kind) or
// answer no job this session published (unless stored before the session
// started: a resumed experiment's) are rejected — logged, counted and
// dropped — never handed to take: anyone who can publish on the results
// subject could have sent them. A stream error is sent on errc (not after
// ctx ends).
func (s *session) Results(ctx context.Context, onlyNew bool, take func(*jobs.Result) bool) (stop func(), errc <-chan error, err error) {
	// The consumer is deleted when the reading stops (stop, take returning
	// false, ctx ending, a stream error): JetStream caps a stream at 1 000
	// consumers, and an ordered consumer left behind lingers until its
	// inactive threshold (5 minutes by default, resultsInactive here, for
	// a coordinator that dies while reading).
	cfg := jetstream.OrderedConsumerConfig{FilterSubjects: []string{jobs.ResultSubject(s.Exp.ID)},
		InactiveThreshold: resultsInactive}
	if onlyNew {
		cfg.DeliverPolicy = jetstream.DeliverNewPolicy
	}
	cons, err := s.c.js.OrderedConsumer(ctx, jobs.StreamResults, cfg)
	if err != nil {
		return nil, nil, fmt.Errorf("results consumer: %w", err)
	}
	iter, err := cons.Messages()
	if err != nil {
		return nil, nil, fmt.Errorf("results consumer: %w", err)
	}
	var once sync.Once
	release := func() {
		once.Do(func() {
			iter.Stop()
			info := cons.CachedInfo()
			if info == nil {
				return
			}
			dctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			if err := s.c.js.DeleteConsumer(dctx, jobs.StreamResults, info.Name); err != nil && !errors.Is(err, jetstream.ErrConsumerNotFound) {
				s.c.logf("experiment %s: delete results consumer %s: %v (JetStream drops it after %v)", s.Exp.ID, info.Name, err, resultsInactive)
			}
		})
	}
	ch := make(chan error, 1)
	go func() {
		defer release()
		for {
			m, err := iter.Next()
			if err != nil {
				if ctx.Err() == nil && err != jetstream.ErrMsgIteratorClosed {
					ch <- fmt.Errorf("results stream: %w", err)
				}
				return
			}
			var r jobs.Result
			if err := jobs.Decode(m.Data(), &r); err != nil {
				s.c.reject(metrics.RejectUndecodable, "experiment %s: rejected a result message (%d bytes): %v", s.Exp.ID, len(m.Data()), err)
				continue
			}
			if r.Experiment != s.Exp.ID || r.Kind != s.Exp.Kind {
				s.Reject(&r, metrics.RejectForeign, fmt.Sprintf("a %q result of experiment %q on the subject of %q experiment %s",
					r.Kind, r.Experiment, s.Exp.Kind, s.Exp.ID))
				continue
			}
			if !s.planned(r.Part) {
				var seq uint64
				if md, err := m.Metadata(); err == nil {
					seq = md.Sequence.Stream
				}
				if seq == 0 || seq > s.before {
					s.Reject(&r, metrics.RejectUnplanned, "no such job was published")
					continue
				}
			}
			if !take(&r) {
				return
			}
		}
	}()
	return release, ch, nil
}

// resultsInactive is how long JetStream keeps a results consumer nobody
// reads (one whose coordinator died before deleting it).
const resultsInactive = 30 * time.Second

// KindOf decides which job kind answers query q with the explicit-state
// options explicit and the bounded model-checking options bmc (nil: none):
// the one place that maps queries to kinds (Submit asks it unless a flag
// named an engine, Submission.Kind; the coordinator for a client that did
// not say).
func KindOf(q *query.Query, explicit *jobs.ExplicitOptions, bmc *jobs.BMCOptions) string {
	switch {
	case bmc != nil:
		return jobs.KindBMC
	case q.Kind == query.Reach || q.Kind == query.Invariant || q.Kind == query.EnumStates:
		return jobs.KindExplicit
	case explicit != nil && explicit.Exact:
		return jobs.KindExplicit
	case q.Enum("Split") != "":
		return jobs.KindSplit
	}
	return jobs.KindTrace
}
