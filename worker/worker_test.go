package worker_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/wyvernmc/wyvern/coordinator"
	"github.com/wyvernmc/wyvern/jobs"
	"github.com/wyvernmc/wyvern/query"
	"github.com/wyvernmc/wyvern/simulator"
	"github.com/wyvernmc/wyvern/worker"
)

// A job kind of the test's own: the runner publishes three jobs carrying a
// number, the handler doubles it, the runner adds the answers. It shows
// what a kind is: a handler and a runner, registered under one name.
const kindDouble = "double"

type doubleJob struct{ N int }

type doubleHandler struct{}

func (doubleHandler) Handle(ctx context.Context, j *worker.Job) error {
	var d doubleJob
	if err := json.Unmarshal(j.Payload, &d); err != nil {
		return j.Fail(ctx, err)
	}
	if d.N < 0 {
		return j.Fail(ctx, fmt.Errorf("negative input %d", d.N))
	}
	j.Count(1, 0, 0)
	return j.Publish(ctx, doubleJob{N: 2 * d.N})
}

type doubleRunner struct{}

func (doubleRunner) Check(q *query.Query, exp *jobs.Experiment) error { return nil }

func (doubleRunner) Run(ctx context.Context, s *coordinator.Session) (*coordinator.Result, error) {
	inputs := []int{1, 2, int(s.Exp.Seed)}
	got := make(chan *jobs.Result, len(inputs))
	stop, errc, err := s.Results(ctx, false, func(r *jobs.Result) bool { got <- r; return true })
	if err != nil {
		return nil, err
	}
	defer stop()
	for i, n := range inputs {
		if err := s.PublishJob(ctx, fmt.Sprint(i), doubleJob{N: n}); err != nil {
			return nil, err
		}
	}
	sum := 0
	for range inputs {
		select {
		case r := <-got:
			if r.Error != "" {
				return nil, errors.New(r.Error)
			}
			var d doubleJob
			if err := json.Unmarshal(r.Payload, &d); err != nil {
				return nil, err
			}
			sum += d.N
		case err := <-errc:
			return nil, err
		case why := <-s.Failed():
			return nil, errors.New(why)
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	return &coordinator.Result{Kind: kindDouble, Estimate: float64(sum)}, nil
}

// cluster starts an embedded NATS server, a coordinator running the
// double kind and one worker that runs the given kinds.
func cluster(t *testing.T, workerKinds ...string) *coordinator.Embedded {
	t.Helper()
	emb, err := coordinator.StartEmbedded(t.TempDir(), "")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(func() { cancel(); time.Sleep(50 * time.Millisecond); emb.Shutdown() })
	cnc, err := emb.Connect("coordinator")
	if err != nil {
		t.Fatal(err)
	}
	co := &coordinator.Coordinator{NC: cnc, AckWait: 500 * time.Millisecond, MaxDeliver: 2}
	co.Register(kindDouble, doubleRunner{})
	go co.Serve(ctx)
	wnc, err := emb.Connect("worker")
	if err != nil {
		t.Fatal(err)
	}
	w := &worker.Worker{NC: wnc, ID: "w0", Slots: 2}
	for _, k := range workerKinds {
		w.Register(k, func() worker.Handler { return doubleHandler{} })
	}
	go w.Run(ctx)
	return emb
}

func submit(t *testing.T, emb *coordinator.Embedded, seed uint64) (*coordinator.Result, error) {
	t.Helper()
	nc, err := emb.Connect("client")
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	// The query only needs to parse; the kind decides what runs.
	return coordinator.Submit(ctx, nc, coordinator.Submission{LL: []byte("; a program\n"), Name: "p.ll", Query: "EnumStates", Seed: seed, Kind: kindDouble})
}

// TestNewKind: a kind registered on the coordinator and the worker runs
// end to end through NATS; a job the handler refuses fails the experiment
// with the handler's reason.
func TestNewKind(t *testing.T) {
	emb := cluster(t, kindDouble)
	r, err := submit(t, emb, 10)
	if err != nil {
		t.Fatal(err)
	}
	if r.Kind != kindDouble || r.Estimate != 2*(1+2+10) {
		t.Errorf("result %s %g, want %s %d", r.Kind, r.Estimate, kindDouble, 2*13)
	}
	_, err = submit(t, emb, uint64(1)<<63) // int(seed) < 0: the handler refuses it
	if err == nil || !strings.Contains(err.Error(), "negative input") {
		t.Errorf("refused job: error %v", err)
	}
}

// TestUnknownKind: a worker that does not run a kind fails its jobs, and
// the experiment, naming the kind.
func TestUnknownKind(t *testing.T) {
	emb := cluster(t /* no kinds but one it is never sent */, "other")
	_, err := submit(t, emb, 1)
	if err == nil || !strings.Contains(err.Error(), `does not run "double" jobs`) {
		t.Errorf("error %v", err)
	}
}

// TestOversizedTraceJob: a trace job asking for more traces than a job may
// hold (a forged or corrupted job) fails at once with the reason, instead
// of growing the worker without bound; an undecodable message is dropped.
func TestOversizedTraceJob(t *testing.T) {
	emb := cluster(t)
	nc, err := emb.Connect("forger")
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	wnc, err := emb.Connect("worker2")
	if err != nil {
		t.Fatal(err)
	}
	w := &worker.Worker{NC: wnc, ID: "w-trace", Slots: 1}
	w.Register(jobs.KindTrace, simulator.NewTraceHandler)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go w.Run(ctx)
	results := make(chan *nats.Msg, 4)
	sub, err := nc.ChanSubscribe(jobs.ResultSubject("forged"), results)
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Unsubscribe()
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := js.Publish(ctx, jobs.JobSubject("forged"), []byte("{not json")); err != nil {
		t.Fatal(err)
	}
	payload, _ := json.Marshal(jobs.TraceRange{First: 0, Count: 1_000_000_000_000})
	job, _ := json.Marshal(jobs.Job{Version: jobs.Version, Kind: jobs.KindTrace, Experiment: "forged", Part: "0",
		Program: "none", Query: "Pr[<=10](<> [0.main])", Payload: payload})
	if _, err := js.Publish(ctx, jobs.JobSubject("forged"), job); err != nil {
		t.Fatal(err)
	}
	select {
	case m := <-results:
		var r jobs.Result
		if err := jobs.Decode(m.Data, &r); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(r.Error, "at most") {
			t.Errorf("result of an oversized job: %+v", r)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("no result for an oversized job")
	}
}
