package coordinator_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/wyvernmc/wyvern/coordinator"
	"github.com/wyvernmc/wyvern/internal/kinds"
	"github.com/wyvernmc/wyvern/jobs"
	"github.com/wyvernmc/wyvern/worker"
)

// spinC never satisfies its query's proposition: a trace of Pr[<=10^12]
// runs for hours.
const spinC = `
unsigned x;
int never;
int main(void) { while (1) x++; }
`

// TestCancel: an experiment whose submitter is gone stops — interrupted
// (Submit's context ends: Ctrl-C), `wyvern cancel ID` (coordinator.Cancel
// from another client), or killed (its connection closed: the coordinator's
// check finds no one waiting). Its state becomes failed with the reason,
// the worker abandons the trace it is in (10^12 steps) and takes the next
// experiment, which answers at once. Before, Ctrl-C left both workers busy
// for hours and the next experiment waited.
func TestCancel(t *testing.T) {
	spin := frontend(t, writeC(t, "spin.c", spinC))
	coin := frontend(t, writeC(t, "coin.c", coinModel(1, 2)))
	emb, err := coordinator.StartEmbedded(t.TempDir(), "")
	if err != nil {
		t.Fatal(err)
	}
	ctx, stopAll := context.WithCancel(context.Background())
	t.Cleanup(func() { stopAll(); time.Sleep(50 * time.Millisecond); emb.Shutdown() })
	cnc, err := emb.Connect("coordinator")
	if err != nil {
		t.Fatal(err)
	}
	go (kinds.Coordinator(&coordinator.Coordinator{NC: cnc, SubmitterCheck: 200 * time.Millisecond})).Serve(ctx)
	wnc, err := emb.Connect("worker")
	if err != nil {
		t.Fatal(err)
	}
	go (kinds.Worker(&worker.Worker{NC: wnc, ID: "w0", Slots: 1})).Run(ctx)
	probe, err := emb.Connect("probe")
	if err != nil {
		t.Fatal(err)
	}
	defer probe.Close()
	js, err := jetstream.New(probe)
	if err != nil {
		t.Fatal(err)
	}

	const spinQuery = "Pr[<=1000000000000](<> never == 1)"
	interrupt := func(cancel context.CancelFunc, _ interface{ Close() }, _ string) { cancel() }
	for _, tc := range []struct {
		name  string
		query string                                                                  // default spinQuery
		stop  func(cancel context.CancelFunc, client interface{ Close() }, id string) // ends the submitter's wait
		want  string                                                                  // in the experiment's error
	}{
		{"interrupted", "", interrupt, "cancelled: its submitter was interrupted"},
		{"splitting, interrupted", spinQuery + " {Split=fixed, Score=never, Levels=[1]}", interrupt, "cancelled: its submitter was interrupted"},
		{"wyvern cancel", "", func(_ context.CancelFunc, _ interface{ Close() }, id string) {
			if err := coordinator.Cancel(ctx, probe, id, "by the test"); err != nil {
				t.Errorf("cancel %s: %v", id, err)
			}
		}, "cancelled: by the test"},
		{"submitter killed", "", func(_ context.CancelFunc, client interface{ Close() }, _ string) { client.Close() }, "cancelled: its submitter is gone"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			client, err := emb.Connect("client")
			if err != nil {
				t.Fatal(err)
			}
			defer client.Close()
			sctx, cancel := context.WithCancel(ctx)
			defer cancel()
			// The experiment runs once a worker holds one of its jobs: a
			// progress report comes every 0.5 s; look at the queue then.
			running := make(chan string, 1)
			var id atomic.Value
			var reported atomic.Bool
			done := make(chan error, 1)
			go func() {
				q := tc.query
				if q == "" {
					q = spinQuery
				}
				_, err := coordinator.Submit(sctx, client, coordinator.Submission{LL: spin, Name: "spin.c",
					Query: q, Seed: 1, JobSize: 1,
					Progress: func(jobs.Progress) {
						if reported.CompareAndSwap(false, true) {
							running <- ""
						}
					}})
				done <- err
			}()
			select {
			case <-running:
			case <-time.After(30 * time.Second):
				t.Fatal("no progress report in 30 s")
			}
			kv, err := js.KeyValue(ctx, jobs.BucketExperiments)
			if err != nil {
				t.Fatal(err)
			}
			// The experiment's id: the one running key.
			keys, err := kv.ListKeys(ctx)
			if err != nil {
				t.Fatal(err)
			}
			for k := range keys.Keys() {
				e, err := kv.Get(ctx, k)
				if err == nil && strings.Contains(string(e.Value()), `"state":"running"`) {
					id.Store(k)
				}
			}
			exp, _ := id.Load().(string)
			if exp == "" {
				t.Fatal("no running experiment in the bucket")
			}
			waitFor(t, "a worker holds one of its jobs", func() bool { return ackPending(t, js) > 0 })
			watch, err := kv.Watch(ctx, exp)
			if err != nil {
				t.Fatal(err)
			}
			defer watch.Stop()
			start := time.Now()
			tc.stop(cancel, client, exp)
			for st := (jobs.Status{}); st.State != jobs.StateFailed; {
				select {
				case e := <-watch.Updates():
					if e != nil {
						jobs.Decode(e.Value(), &st)
						if st.State == jobs.StateDone {
							t.Fatalf("experiment %s done", exp)
						}
						if st.State == jobs.StateFailed && !strings.Contains(st.Error, tc.want) {
							t.Fatalf("experiment %s failed with %q, want %q", exp, st.Error, tc.want)
						}
					}
				case <-time.After(30 * time.Second):
					t.Fatalf("experiment %s still running 30 s after its submitter went", exp)
				}
			}
			waitFor(t, "the worker abandons the job and the queue is empty", func() bool { return ackPending(t, js) == 0 && pending(t, js) == 0 })
			t.Logf("%s: experiment failed and the worker freed %v after the submitter went", tc.name, time.Since(start).Round(time.Millisecond))
			if strings.HasSuffix(tc.name, "interrupted") {
				if err := <-done; !errors.Is(err, context.Canceled) {
					t.Errorf("Submit returned %v, want the context's error", err)
				}
			}
			// The next experiment answers at once.
			nc, err := emb.Connect("next")
			if err != nil {
				t.Fatal(err)
			}
			defer nc.Close()
			nctx, ncancel := context.WithTimeout(ctx, 30*time.Second)
			defer ncancel()
			if _, err := coordinator.Submit(nctx, nc, coordinator.Submission{LL: coin, Name: "coin.c", Query: "Pr[<=10](<> [0.reach_error]) >= 0.9", Seed: 1}); err != nil {
				t.Fatalf("the next experiment: %v", err)
			}
		})
	}
}

func consumerInfo(t *testing.T, js jetstream.JetStream) *jetstream.ConsumerInfo {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	cons, err := js.Consumer(ctx, jobs.StreamJobs, jobs.ConsumerWorkers)
	if err != nil {
		t.Fatal(err)
	}
	info, err := cons.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return info
}

func ackPending(t *testing.T, js jetstream.JetStream) int { return consumerInfo(t, js).NumAckPending }
func pending(t *testing.T, js jetstream.JetStream) uint64 { return consumerInfo(t, js).NumPending }

// waitFor polls cond (every 50 ms) for up to 30 s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("not in 30 s: %s", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestOperatorLimits: the coordinator refuses, at submission, experiments
// past its operator's limits, naming the limit; those within them run.
func TestOperatorLimits(t *testing.T) {
	coin := frontend(t, writeC(t, "coin.c", coinModel(1, 2)))
	emb, err := coordinator.StartEmbedded(t.TempDir(), "")
	if err != nil {
		t.Fatal(err)
	}
	ctx, stopAll := context.WithCancel(context.Background())
	t.Cleanup(func() { stopAll(); time.Sleep(50 * time.Millisecond); emb.Shutdown() })
	cnc, err := emb.Connect("coordinator")
	if err != nil {
		t.Fatal(err)
	}
	lim := coordinator.Limits{MaxBound: 1000, MaxRuns: 5000, MaxJobSize: 100}
	go (kinds.Coordinator(&coordinator.Coordinator{NC: cnc, Limits: lim})).Serve(ctx)
	wnc, err := emb.Connect("worker")
	if err != nil {
		t.Fatal(err)
	}
	go (kinds.Worker(&worker.Worker{NC: wnc, ID: "w0", Slots: 1})).Run(ctx)
	for _, tc := range []struct {
		name, query string
		jobSize     int
		want        string // "": runs
	}{
		{"within the limits", "Pr[<=1000](<> [0.reach_error]) >= 0.9 {MaxRuns=5000}", 64, ""},
		{"step bound", "Pr[<=1000000000000](<> [0.reach_error])", 64, "step bound 1000000000000 is above this coordinator's maximum of 1000 (--max-bound)"},
		{"runs of Epsilon", "Pr[<=100](<> [0.reach_error]) {Epsilon=0.001}", 64, "above this coordinator's maximum of 5000 (--max-runs)"},
		{"runs of Estimate", "Estimate[<=100,100000]{max 1}", 64, "may need 100000 runs, above this coordinator's maximum of 5000 (--max-runs)"},
		{"job size", "Pr[<=100](<> [0.reach_error]) >= 0.9", 1000, "job size 1000 is above this coordinator's maximum of 100 traces per job (--max-job-size)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			nc, err := emb.Connect("client")
			if err != nil {
				t.Fatal(err)
			}
			defer nc.Close()
			sctx, cancel := context.WithTimeout(ctx, time.Minute)
			defer cancel()
			_, err = coordinator.Submit(sctx, nc, coordinator.Submission{LL: coin, Name: "coin.c", Query: tc.query, Seed: 1, JobSize: tc.jobSize})
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("error %v, want %q", err, tc.want)
			}
		})
	}
}

// TestSkewedWorkerHeartbeat: the coordinator names, once, a worker whose
// heartbeats are of another protocol version (a worker of an older build
// refuses every job and says nothing else).
func TestSkewedWorkerHeartbeat(t *testing.T) {
	emb, err := coordinator.StartEmbedded(t.TempDir(), "")
	if err != nil {
		t.Fatal(err)
	}
	ctx, stopAll := context.WithCancel(context.Background())
	t.Cleanup(func() { stopAll(); time.Sleep(50 * time.Millisecond); emb.Shutdown() })
	cnc, err := emb.Connect("coordinator")
	if err != nil {
		t.Fatal(err)
	}
	var logb lockedBuffer
	go (kinds.Coordinator(&coordinator.Coordinator{NC: cnc, Log: log.New(&logb, "", 0)})).Serve(ctx)
	nc, err := emb.Connect("old worker")
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	want := fmt.Sprintf("worker old speaks protocol version %d, this coordinator %d: it refuses every job", jobs.Version-1, jobs.Version)
	hb := fmt.Sprintf(`{"version":%d,"worker":"old","slots":1}`, jobs.Version-1)
	waitFor(t, "the coordinator names the worker", func() bool {
		nc.Publish(jobs.HeartbeatSubject("old"), []byte(hb))
		nc.Flush()
		return strings.Contains(logb.String(), want)
	})
	for i := 0; i < 5; i++ {
		nc.Publish(jobs.HeartbeatSubject("old"), []byte(hb))
	}
	// A second worker's, after them on the same subscription: once it is
	// named, the five were handled.
	nc.Publish(jobs.HeartbeatSubject("old2"), []byte(strings.Replace(hb, `"old"`, `"old2"`, 1)))
	nc.Flush()
	waitFor(t, "the second worker is named", func() bool { return strings.Contains(logb.String(), "worker old2 speaks") })
	if n := strings.Count(logb.String(), want); n != 1 {
		t.Errorf("named %d times, want once:\n%s", n, logb.String())
	}
}
