package worker_test

import (
	"context"
	"encoding/json"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/wyvernmc/wyvern/coordinator"
	"github.com/wyvernmc/wyvern/jobs"
	"github.com/wyvernmc/wyvern/worker"
)

// queue is a bare deployment for tests of the job loop itself: an
// embedded NATS server with the streams and buckets set up, and no
// coordinator (the test publishes jobs and states itself).
type queue struct {
	t   *testing.T
	ctx context.Context
	emb *coordinator.Embedded
	nc  *nats.Conn
	js  jetstream.JetStream
	kv  jetstream.KeyValue
}

func newQueue(t *testing.T, maxDeliver int) *queue {
	t.Helper()
	emb, ctx := embedded(t)
	nc, err := emb.Connect("test")
	if err != nil {
		t.Fatal(err)
	}
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	if err := coordinator.Setup(ctx, js, 10*time.Second, maxDeliver); err != nil {
		t.Fatal(err)
	}
	kv, err := js.KeyValue(ctx, jobs.BucketExperiments)
	if err != nil {
		t.Fatal(err)
	}
	return &queue{t: t, ctx: ctx, emb: emb, nc: nc, js: js, kv: kv}
}

// state stores experiment exp's state.
func (q *queue) state(exp, state string) {
	q.t.Helper()
	b, _ := json.Marshal(jobs.Status{Version: jobs.Version, Experiment: jobs.Experiment{ID: exp}, State: state})
	if _, err := q.kv.Put(q.ctx, exp, b); err != nil {
		q.t.Fatal(err)
	}
}

// job publishes a double job of experiment exp with input n.
func (q *queue) job(exp string, n int) {
	q.t.Helper()
	p, _ := json.Marshal(doubleJob{N: n})
	b, _ := json.Marshal(jobs.Job{Version: jobs.Version, Kind: kindDouble, Experiment: exp, Part: strconv.Itoa(n), Payload: p})
	if _, err := q.js.Publish(q.ctx, jobs.JobSubject(exp), b); err != nil {
		q.t.Fatal(err)
	}
}

// worker starts a worker of one slot running handler h for double jobs.
func (q *queue) worker(h worker.Handler) *worker.Worker {
	q.t.Helper()
	wnc, err := q.emb.Connect("worker")
	if err != nil {
		q.t.Fatal(err)
	}
	w := &worker.Worker{NC: wnc, ID: "w-test", Slots: 1}
	w.Register(kindDouble, func() worker.Handler { return h })
	go w.Run(q.ctx)
	return w
}

// results is the number of experiment exp's results stored.
func (q *queue) results(exp string) int {
	q.t.Helper()
	st, err := q.js.Stream(q.ctx, jobs.StreamResults)
	if err != nil {
		q.t.Fatal(err)
	}
	subj := jobs.ResultSubject(exp)
	info, err := st.Info(q.ctx, jetstream.WithSubjectFilter(subj))
	if err != nil {
		q.t.Fatal(err)
	}
	return int(info.State.Subjects[subj])
}

// consumer is the workers' consumer's state.
func (q *queue) consumer() *jetstream.ConsumerInfo {
	q.t.Helper()
	cons, err := q.js.Consumer(q.ctx, jobs.StreamJobs, jobs.ConsumerWorkers)
	if err != nil {
		q.t.Fatal(err)
	}
	info, err := cons.Info(q.ctx)
	if err != nil {
		q.t.Fatal(err)
	}
	return info
}

// eventually waits (20 s at most) for cond, else fails saying what.
func (q *queue) eventually(what string, cond func() bool) {
	q.t.Helper()
	for deadline := time.Now().Add(20 * time.Second); !cond(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			q.t.Fatalf("never: %s", what)
		}
	}
}

// countGets counts the gets of the experiments bucket anyone sends.
func (q *queue) countGets() *atomic.Int64 {
	q.t.Helper()
	var n atomic.Int64
	for _, subj := range []string{"$JS.API.DIRECT.GET.KV_" + jobs.BucketExperiments + ".>", "$JS.API.STREAM.MSG.GET.KV_" + jobs.BucketExperiments} {
		sub, err := q.nc.Subscribe(subj, func(*nats.Msg) { n.Add(1) })
		if err != nil {
			q.t.Fatal(err)
		}
		q.t.Cleanup(func() { sub.Unsubscribe() })
	}
	if err := q.nc.Flush(); err != nil {
		q.t.Fatal(err)
	}
	return &n
}

// TestStoppedExperimentWatched: a worker reads an experiment's state once,
// not once a job (a get a job was a round trip a job), and learns that
// the experiment stopped from its watch of the bucket, without reading it
// again; the stopped experiment's jobs are then skipped (acknowledged
// without running or a result).
func TestStoppedExperimentWatched(t *testing.T) {
	defer worker.SetStatusMaxAge(time.Hour)() // only the watch can tell the stop
	q := newQueue(t, 5)
	gets := q.countGets()
	q.state("e1", jobs.StateRunning)
	w := q.worker(doubleHandler{})
	for i := range 20 {
		q.job("e1", i)
	}
	q.eventually("20 results", func() bool { return q.results("e1") == 20 })
	if n := gets.Load(); n > 1 {
		t.Errorf("%d gets of the experiments bucket for 20 jobs of one experiment, want at most 1", n)
	}
	q.state("e1", jobs.StateDone)
	q.eventually("the worker knows e1 stopped", func() bool { return worker.KnowsStopped(w, "e1") })
	for i := 20; i < 30; i++ {
		q.job("e1", i)
	}
	q.eventually("the queue empty", func() bool { c := q.consumer(); return c.NumPending == 0 && c.NumAckPending == 0 })
	if n := q.results("e1"); n != 20 {
		t.Errorf("%d results after the stop, want 20: jobs of a stopped experiment ran", n)
	}
	if n := gets.Load(); n > 1 {
		t.Errorf("%d gets of the experiments bucket, want at most 1", n)
	}
}

// TestResultNotStoredHandsJobBack: results are published asynchronously,
// but a job is acknowledged only once its result is stored: a result the
// results stream refuses (full) leaves the job unacknowledged and
// delivered again, and it completes once the stream takes results again.
func TestResultNotStoredHandsJobBack(t *testing.T) {
	q := newQueue(t, -1)
	st, err := q.js.Stream(q.ctx, jobs.StreamResults)
	if err != nil {
		t.Fatal(err)
	}
	cfg := st.CachedInfo().Config
	full := cfg
	full.MaxMsgs, full.Discard = 1, jetstream.DiscardNew
	if _, err := q.js.UpdateStream(q.ctx, full); err != nil {
		t.Fatal(err)
	}
	q.state("e2", jobs.StateRunning)
	q.worker(doubleHandler{})
	q.job("e2", 1)
	q.job("e2", 2)
	q.eventually("the refused job delivered again", func() bool { return q.consumer().NumRedelivered > 0 })
	if c := q.consumer(); c.NumPending+uint64(c.NumAckPending) == 0 {
		t.Fatalf("the job whose result was refused was acknowledged: %+v", c)
	}
	if n := q.results("e2"); n != 1 {
		t.Fatalf("%d results stored, want 1", n)
	}
	if _, err := q.js.UpdateStream(q.ctx, cfg); err != nil {
		t.Fatal(err)
	}
	q.eventually("both results stored and the queue empty", func() bool {
		c := q.consumer()
		return q.results("e2") == 2 && c.NumPending == 0 && c.NumAckPending == 0
	})
}

// gateHandler doubles like doubleHandler, but the jobs named in release
// (Job.ID) wait until their channel is closed.
type gateHandler struct {
	release map[string]chan struct{}
	started chan string
}

func (g gateHandler) Handle(ctx context.Context, j *worker.Job) error {
	var d doubleJob
	if err := json.Unmarshal(j.Payload, &d); err != nil {
		return j.Fail(ctx, err)
	}
	g.started <- j.ID()
	if ch := g.release[j.ID()]; ch != nil {
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return j.Publish(ctx, doubleJob{N: 2 * d.N})
}

// TestFetchOneAhead: while a job runs whose experiment's jobs have been
// short, a slot fetches the next job (its fetch's round trip is off the
// job's path), one and no more; while the first job of an experiment runs
// (it may be a long one: an explicit-state search is one job) it fetches
// none, so that no job waits behind a long one while other workers could
// run it.
func TestFetchOneAhead(t *testing.T) {
	q := newQueue(t, 5)
	q.state("e3", jobs.StateRunning)
	q.state("e4", jobs.StateRunning)
	g := gateHandler{release: map[string]chan struct{}{"e3/double/1": make(chan struct{}), "e4/double/1": make(chan struct{})},
		started: make(chan string, 100)}
	q.worker(g)
	q.job("e3", 0) // short
	q.eventually("job 0 done", func() bool { return q.results("e3") == 1 })
	for i := 1; i <= 4; i++ {
		q.job("e3", i)
	}
	q.eventually("job 1 running and job 2 fetched ahead", func() bool { return q.consumer().NumAckPending == 2 })
	time.Sleep(300 * time.Millisecond) // time for a slot that fetched more to show it
	if c := q.consumer(); c.NumAckPending != 2 {
		t.Errorf("%d jobs held by a slot running one, want 2", c.NumAckPending)
	}
	close(g.release["e3/double/1"])
	q.eventually("e3's jobs done", func() bool { return q.results("e3") == 5 })
	q.eventually("the queue empty", func() bool { c := q.consumer(); return c.NumPending == 0 && c.NumAckPending == 0 })

	for len(g.started) > 0 {
		<-g.started
	}
	q.job("e4", 1) // the first job of e4 blocks
	q.job("e4", 2)
	if id := <-g.started; id != "e4/double/1" {
		t.Fatalf("started job %s, want e4/double/1", id)
	}
	time.Sleep(300 * time.Millisecond) // time for a slot that fetched ahead to show it
	if c := q.consumer(); c.NumAckPending != 1 {
		t.Errorf("%d jobs held while the first job of an experiment runs, want 1", c.NumAckPending)
	}
	close(g.release["e4/double/1"])
	q.eventually("e4's jobs done", func() bool { return q.results("e4") == 2 })
}
