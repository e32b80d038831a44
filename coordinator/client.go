package coordinator

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/nats-io/nuid"

	"github.com/wyvernmc/wyvern/jobs"
	"github.com/wyvernmc/wyvern/query"
)

// Submission is what a client asks for.
type Submission struct {
	LL      []byte // the program's LLVM assembly
	Name    string // the user's file name
	Query   string
	Seed    uint64
	JobSize int // traces per job (default 64)
	// Explicit, if set, asks for an explicit-state search with these
	// options (E<>, A[], EnumStates) or, with Exact, the exact probability.
	Explicit *jobs.ExplicitOptions
	// BMC, if set, asks for bounded model checking with these options
	// (Kind KindBMC).
	BMC *jobs.BMCOptions
	// Termination, with Kind KindTermination, configures a termination
	// analysis.
	Termination *jobs.TerminationOptions
	// Args are the program's command-line arguments after argv[0].
	Args []string
	// WrapOverflow, if set, makes the program's overflow of add, sub, mul,
	// shl and abs wrap around instead of being an error Overflow
	// (ir.Program.WrapOverflow), in every job of the experiment.
	WrapOverflow bool
	// Kind, if set, is the job kind that answers the query (a kind chosen by
	// a flag, e.g. an engine); by default KindOf decides.
	Kind string
	// Progress, if set, receives the coordinator's progress reports.
	Progress func(jobs.Progress)
	// NoWorkers, if set, is called when no worker has been heard from for
	// a while (once).
	NoWorkers func()
	// Silent, if set, is called once when neither progress nor a change of
	// the experiment has come for SilentAfter (default 15 s): the
	// coordinator may be down (Submit keeps waiting; a restarted
	// coordinator resumes the experiment).
	Silent      func(time.Duration)
	SilentAfter time.Duration
}

// Submit uploads the program (once, by content hash), submits the
// experiment to the coordinator and waits for its result.
func Submit(ctx context.Context, nc *nats.Conn, s Submission) (*Result, error) {
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, fmt.Errorf("submit: jetstream: %w", err)
	}
	obs, err := waitObjectStore(ctx, js)
	if err != nil {
		return nil, err
	}
	hash := jobs.ProgramHash(s.LL)
	if _, err := obs.GetInfo(ctx, hash); err != nil {
		if _, err := obs.PutBytes(ctx, hash, s.LL); err != nil {
			return nil, fmt.Errorf("upload program %s: %w", s.Name, err)
		}
	}
	kv, err := js.KeyValue(ctx, jobs.BucketExperiments)
	if err != nil {
		return nil, fmt.Errorf("submit: %w", err)
	}
	q, err := query.Parse(s.Query)
	if err != nil {
		return nil, err
	}
	kind := s.Kind
	if kind == "" {
		kind = KindOf(q, s.Explicit, s.BMC)
	}
	exp := jobs.Experiment{Version: jobs.Version, ID: nuid.Next(), Program: hash, ProgramName: s.Name, Kind: kind,
		Query: s.Query, Seed: s.Seed, JobSize: s.JobSize, Explicit: s.Explicit, BMC: s.BMC, Termination: s.Termination, Args: s.Args,
		WrapOverflow: s.WrapOverflow, Created: time.Now().UTC()}
	var lastNews atomic.Int64 // progress or a change of the experiment
	lastNews.Store(time.Now().UnixNano())
	if s.Progress != nil || s.Silent != nil {
		sub, err := nc.Subscribe(jobs.ProgressSubject(exp.ID), func(m *nats.Msg) {
			var p jobs.Progress
			if jobs.Decode(m.Data, &p) == nil {
				lastNews.Store(time.Now().UnixNano())
				if s.Progress != nil {
					s.Progress(p)
				}
			}
		})
		if err != nil {
			return nil, fmt.Errorf("submit: %w", err)
		}
		defer sub.Unsubscribe()
	}
	silentAfter := s.SilentAfter
	if silentAfter <= 0 {
		silentAfter = 15 * time.Second
	}
	watch, err := kv.Watch(ctx, exp.ID)
	if err != nil {
		return nil, fmt.Errorf("submit: watch experiment: %w", err)
	}
	defer watch.Stop()
	// While it waits, the submitter answers the coordinator's checks that
	// it is still there; gone, the experiment is cancelled.
	waiting, err := nc.Subscribe(jobs.WaitingSubject(exp.ID), func(m *nats.Msg) { m.Respond(nil) })
	if err != nil {
		return nil, fmt.Errorf("submit: %w", err)
	}
	defer waiting.Unsubscribe()
	// Interrupted (ctx ends: Ctrl-C), it cancels the experiment: workers
	// are freed at once, not after hours of a run nobody waits for.
	submitted := false
	defer func() {
		if submitted && ctx.Err() != nil {
			cctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			defer cancel()
			Cancel(cctx, nc, exp.ID, "its submitter was interrupted")
		}
	}()
	b, _ := json.Marshal(exp)
	var reply *nats.Msg
	for attempt := 0; ; attempt++ {
		reply, err = nc.RequestWithContext(ctx, jobs.SubjectSubmit, b)
		if err == nil {
			break
		}
		if !errors.Is(err, nats.ErrNoResponders) || attempt > 50 {
			return nil, fmt.Errorf("submit to coordinator: %w", err)
		}
		select { // the coordinator may still be starting
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
	var sr jobs.SubmitReply
	if err := jobs.Decode(reply.Data, &sr); err != nil {
		return nil, fmt.Errorf("coordinator reply: %w", err)
	}
	if sr.Error != "" {
		return nil, errors.New(sr.Error)
	}
	submitted = true
	lastNews.Store(time.Now().UnixNano())
	warned, silent := false, false
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	var lastWorker atomic.Int64
	lastWorker.Store(time.Now().UnixNano())
	if hb, err := nc.Subscribe(jobs.HeartbeatAll, func(*nats.Msg) { lastWorker.Store(time.Now().UnixNano()) }); err == nil {
		defer hb.Unsubscribe()
	}
	for {
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-tick.C:
			if !warned && time.Since(time.Unix(0, lastWorker.Load())) > 5*time.Second && s.NoWorkers != nil {
				warned = true
				s.NoWorkers()
			}
			switch d := time.Since(time.Unix(0, lastNews.Load())); {
			case d <= silentAfter:
				silent = false // news again: warn again after the next silence
			case !silent && s.Silent != nil:
				silent = true
				s.Silent(d.Round(time.Second))
			}
		case e, ok := <-watch.Updates():
			if !ok {
				if err := ctx.Err(); err != nil {
					// the watch closes when ctx ends: both cases may be
					// ready, and select picks either
					return nil, err
				}
				return nil, errors.New("experiment watch closed")
			}
			if e == nil {
				continue
			}
			lastNews.Store(time.Now().UnixNano())
			var st jobs.Status
			if err := jobs.Decode(e.Value(), &st); err != nil {
				return nil, err
			}
			switch st.State {
			case jobs.StateFailed:
				if st.Refused {
					return nil, fmt.Errorf("experiment refused: %w", Refusal(st.Error))
				}
				return nil, fmt.Errorf("experiment failed: %s", st.Error)
			case jobs.StateDone:
				var r Result
				if err := json.Unmarshal(st.Result, &r); err != nil {
					return nil, fmt.Errorf("experiment result: %w", err)
				}
				return &r, nil
			}
		}
	}
}

// Cancel asks the coordinator to stop experiment id (`wyvern cancel`):
// it fails with "cancelled: reason", its queued jobs are dropped and
// workers abandon its running jobs.
func Cancel(ctx context.Context, nc *nats.Conn, id, reason string) error {
	b, _ := json.Marshal(jobs.CancelRequest{Version: jobs.Version, Experiment: id, Reason: reason})
	reply, err := nc.RequestWithContext(ctx, jobs.SubjectCancel, b)
	if err != nil {
		return fmt.Errorf("cancel experiment %s: %w", id, err)
	}
	var r jobs.SubmitReply
	if err := jobs.Decode(reply.Data, &r); err != nil {
		return fmt.Errorf("cancel experiment %s: coordinator reply: %w", id, err)
	}
	if r.Error != "" {
		return fmt.Errorf("cancel experiment %s: %s", id, r.Error)
	}
	return nil
}

func waitObjectStore(ctx context.Context, js jetstream.JetStream) (jetstream.ObjectStore, error) {
	for i := 0; ; i++ {
		obs, err := js.ObjectStore(ctx, jobs.BucketPrograms)
		if err == nil {
			return obs, nil
		}
		if i > 50 {
			return nil, fmt.Errorf("programs bucket %s not found: is a coordinator running? (%w)", jobs.BucketPrograms, err)
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
}
