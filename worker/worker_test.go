package worker_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/wyvernmc/wyvern/coordinator"
	"github.com/wyvernmc/wyvern/jobs"
	"github.com/wyvernmc/wyvern/kind"
	"github.com/wyvernmc/wyvern/metrics"
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
	if d.N == 14 { // a result above NATS's maximum message size (the in-process server's)
		return j.Publish(ctx, map[string]string{"big": strings.Repeat("x", coordinator.EmbeddedMaxPayload+1)})
	}
	if d.N == 13 {
		var unlucky []int
		_ = unlucky[d.N] // a bug: panics
	}
	j.Count(1, 0, 0)
	return j.Publish(ctx, doubleJob{N: 2 * d.N})
}

type doubleRunner struct{}

func (doubleRunner) Check(q *query.Query, exp *jobs.Experiment) error { return nil }

func (doubleRunner) Run(ctx context.Context, s *kind.Session) (*coordinator.Result, error) {
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

// embedded starts an embedded NATS server, shut down (after the context
// returned is cancelled) when the test ends.
// await calls get until it succeeds, failing the test when ctx ends first
// (a stream or bucket that a coordinator creates as it starts).
func await[T any](t *testing.T, ctx context.Context, get func(context.Context) (T, error)) T {
	t.Helper()
	for {
		v, err := get(ctx)
		if err == nil {
			return v
		}
		if ctx.Err() != nil {
			t.Fatal(err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func embedded(t *testing.T) (*coordinator.Embedded, context.Context) {
	t.Helper()
	emb, err := coordinator.StartEmbedded(t.TempDir(), "")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(func() { cancel(); time.Sleep(50 * time.Millisecond); emb.Shutdown() })
	return emb, ctx
}

// cluster starts an embedded NATS server, a coordinator running the
// double kind and one worker that runs the given kinds.
func cluster(t *testing.T, workerKinds ...string) *coordinator.Embedded {
	t.Helper()
	return clusterAck(t, 500*time.Millisecond, workerKinds...)
}

// clusterAck is cluster with the jobs' acknowledgement wait ack.
func clusterAck(t *testing.T, ack time.Duration, workerKinds ...string) *coordinator.Embedded {
	t.Helper()
	emb, ctx := embedded(t)
	cnc, err := emb.Connect("coordinator")
	if err != nil {
		t.Fatal(err)
	}
	co := &coordinator.Coordinator{NC: cnc, AckWait: ack, MaxDeliver: 2}
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

// TestHandlerPanic: a job whose handler panics fails its experiment at
// once with a message saying the worker crashed and why, and the worker
// goes on serving (it used to die, and every worker after it, until the
// job ran out of deliveries).
func TestHandlerPanic(t *testing.T) {
	emb := cluster(t, kindDouble)
	_, err := submit(t, emb, 13)
	if err == nil || !strings.Contains(err.Error(), "crashed running job") || !strings.Contains(err.Error(), "index out of range") {
		t.Fatalf("a job that panics the handler: error %v", err)
	}
	if r, err := submit(t, emb, 10); err != nil || r.Estimate != 26 {
		t.Errorf("the worker after the panic: %v, %v", r, err)
	}
}

// TestResultTooLarge: a result above the server's maximum message size
// fails its experiment at once saying so (it used to be refused by NATS,
// delivered again and again, and reported as workers crashing).
func TestResultTooLarge(t *testing.T) {
	// (a 32 MiB result takes the handler longer to build than cluster's
	// acknowledgement wait of 500 ms)
	emb := clusterAck(t, 10*time.Second, kindDouble)
	_, err := submit(t, emb, 14)
	if err == nil || !strings.Contains(err.Error(), "above the NATS server's maximum message size") {
		t.Fatalf("a job with a 32 MiB result: error %v", err)
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

// TestOversizedTraceJob: jobs no coordinator plans — a trace job asking for
// more traces than a job may hold (10^12: it grew a worker to 3.8 GB),
// an undecodable message, a message of another protocol version — are
// logged, counted and terminated without running and without a result
// (which could fail a real experiment), and the worker goes on serving.
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
	var logb syncBuffer
	reg := prometheus.NewRegistry()
	w := &worker.Worker{NC: wnc, ID: "w-trace", Slots: 1, Log: log.New(&logb, "", 0), Metrics: metrics.NewWorkers(reg)}
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
	// The forged jobs name an experiment that runs (a worker does not run
	// jobs of experiments no coordinator started: TestUnknownExperiment).
	kv, err := js.KeyValue(ctx, jobs.BucketExperiments)
	for deadline := time.Now().Add(20 * time.Second); err != nil && time.Now().Before(deadline); {
		time.Sleep(50 * time.Millisecond) // the coordinator is creating it
		kv, err = js.KeyValue(ctx, jobs.BucketExperiments)
	}
	if err != nil {
		t.Fatal(err)
	}
	running, _ := json.Marshal(jobs.Status{Version: jobs.Version, State: jobs.StateRunning})
	if _, err := kv.Put(ctx, "forged", running); err != nil {
		t.Fatal(err)
	}
	payload, _ := json.Marshal(jobs.TraceRange{First: 0, Count: 1_000_000_000_000})
	job, _ := json.Marshal(jobs.Job{Version: jobs.Version, Kind: jobs.KindTrace, Experiment: "forged", Part: "0",
		Program: "none", Query: "Pr[<=10](<> [0.main])", Payload: payload})
	for _, m := range [][]byte{[]byte("{not json"), []byte(`{"version":99,"kind":"trace"}`), job} {
		if _, err := js.Publish(ctx, jobs.JobSubject("forged"), m); err != nil {
			t.Fatal(err)
		}
	}
	want := []string{"undecodable job message (9 bytes)", "protocol version 99", "asks for 1000000000000 traces"}
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) && !containsAll(logb.String(), want) {
		time.Sleep(50 * time.Millisecond)
	}
	if !containsAll(logb.String(), want) {
		t.Fatalf("worker log lacks %q:\n%s", want, logb.String())
	}
	select {
	case m := <-results:
		t.Errorf("a rejected job produced a result: %s", m.Data)
	case <-time.After(500 * time.Millisecond):
	}
	if n := metricSum(t, reg, "wyvern_worker_rejected_jobs_total"); n != 3 {
		t.Errorf("wyvern_worker_rejected_jobs_total = %v, want 3", n)
	}
	// Terminated, not redelivered: nothing is left in the queue for the consumer.
	cons, err := js.Consumer(ctx, jobs.StreamJobs, jobs.ConsumerWorkers)
	if err != nil {
		t.Fatal(err)
	}
	if info, err := cons.Info(ctx); err != nil || info.NumAckPending != 0 || info.NumPending != 0 {
		t.Errorf("consumer after the rejections: %+v, %v", info, err)
	}
}

// TestUnknownExperiment: a job of an experiment no coordinator started
// (none in the bucket: 2 000 forged jobs left 2 000 error results in the
// results stream) is dropped without running and without a result.
func TestUnknownExperiment(t *testing.T) {
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
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	payload, _ := json.Marshal(jobs.TraceRange{First: 0, Count: 1})
	const n = 20
	for i := 0; i < n; i++ {
		exp := fmt.Sprintf("madeup%d", i)
		job, _ := json.Marshal(jobs.Job{Version: jobs.Version, Kind: jobs.KindTrace, Experiment: exp, Part: "0",
			Program: "none", Query: "Pr[<=10](<> [0.main])", Payload: payload})
		if _, err := js.Publish(ctx, jobs.JobSubject(exp), job); err != nil {
			t.Fatal(err)
		}
	}
	// (the worker's Run creates the consumer: it may not be there yet)
	wait, stop := context.WithTimeout(ctx, 30*time.Second)
	defer stop()
	cons := await(t, wait, func(ctx context.Context) (jetstream.Consumer, error) {
		return js.Consumer(ctx, jobs.StreamJobs, jobs.ConsumerWorkers)
	})
	deadline := time.Now().Add(30 * time.Second)
	for {
		info, err := cons.Info(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if info.NumPending == 0 && info.NumAckPending == 0 && info.AckFloor.Stream >= n {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the %d forged jobs are not all taken in 30 s: %+v", n, info)
		}
		time.Sleep(50 * time.Millisecond)
	}
	st, err := js.Stream(ctx, jobs.StreamResults)
	if err != nil {
		t.Fatal(err)
	}
	info, err := st.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if info.State.Msgs != 0 {
		t.Errorf("%d results stored for %d jobs of experiments no coordinator started", info.State.Msgs, n)
	}
}

// metricSum sums the series of metric name in reg.
func metricSum(t *testing.T, reg *prometheus.Registry, name string) float64 {
	t.Helper()
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	sum := 0.0
	for _, mf := range mfs {
		if mf.GetName() != name {
			continue
		}
		for _, m := range mf.GetMetric() {
			sum += m.GetCounter().GetValue() + m.GetGauge().GetValue()
		}
	}
	return sum
}

func containsAll(s string, subs []string) bool {
	for _, w := range subs {
		if !strings.Contains(s, w) {
			return false
		}
	}
	return true
}

// syncBuffer is a bytes.Buffer safe for a logger and a reader.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
