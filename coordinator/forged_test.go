package coordinator_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/wyvernmc/wyvern/coordinator"
	"github.com/wyvernmc/wyvern/internal/kinds"
	"github.com/wyvernmc/wyvern/jobs"
	"github.com/wyvernmc/wyvern/metrics"
	"github.com/wyvernmc/wyvern/worker"
)

// lockedBuffer is a bytes.Buffer safe for a logger and a reader.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// forgedResult is a trace result envelope of experiment exp, part part,
// whose count outcomes from first are all satisfying.
func forgedResult(exp, part string, first, count uint64) []byte {
	return forgedStates(exp, part, first, count, nil)
}

// forgedStates is forgedResult with states as its state fingerprints.
func forgedStates(exp, part string, first, count uint64, states jobs.Fingerprints) []byte {
	tr := jobs.TraceOutcomes{First: first, Count: count, States: states}
	for i := uint64(0); i < count; i++ {
		tr.Outcomes = append(tr.Outcomes, jobs.Outcome{Index: first + i, Sat: true, Steps: 1})
	}
	p, _ := json.Marshal(tr)
	b, _ := json.Marshal(jobs.Result{Version: jobs.Version, Kind: jobs.KindTrace, Experiment: exp, Part: part,
		Worker: "forger", Payload: p})
	return b
}

// TestForgedMessages: a client that can publish on the results and
// advisory subjects tries what the fault-and-abuse probe did — a result far
// ahead of the plan, a result for a planned job with a range of its own, a
// copy of a genuine result with every trace satisfied, garbage, another
// protocol version, another experiment's result, and max-deliveries
// advisories that are not JetStream's or name no outstanding job — while
// an experiment runs. The experiment finishes with the answer it has
// without the forger; every forgery is logged and counted by reason.
func TestForgedMessages(t *testing.T) {
	ll := frontend(t, "../testdata/mt/counter_race.c")
	const q = "Pr[<=5000](<> counter == 10) {Epsilon=0.01}"
	m := metrics.New()
	var logb lockedBuffer
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
	go (kinds.Coordinator(&coordinator.Coordinator{NC: cnc, Metrics: m.Coordinator, Log: log.New(&logb, "", 0)})).Serve(ctx)
	wnc, err := emb.Connect("worker")
	if err != nil {
		t.Fatal(err)
	}
	go (kinds.Worker(&worker.Worker{NC: wnc, ID: "w0", Slots: 1})).Run(ctx)
	c := &cluster{emb: emb, cancel: cancel, ctx: ctx}

	fnc, err := emb.Connect("forger")
	if err != nil {
		t.Fatal(err)
	}
	defer fnc.Close()
	fjs, err := jetstream.New(fnc)
	if err != nil {
		t.Fatal(err)
	}
	var once, dupOnce sync.Once
	forged := make(chan error, 1)
	advisory := "$JS.EVENT.ADVISORY.CONSUMER.MAX_DELIVERIES." + jobs.StreamJobs + "." + jobs.ConsumerWorkers
	adv := func(typ string, seq uint64) []byte {
		b, _ := json.Marshal(map[string]any{"type": typ, "stream": jobs.StreamJobs, "consumer": jobs.ConsumerWorkers,
			"stream_seq": seq, "deliveries": 5})
		return b
	}
	const maxDeliver = "io.nats.jetstream.advisory.v1.max_deliver"
	// The first job published names the experiment: forge at once.
	jobsSub, err := fnc.Subscribe(jobs.JobSubject("*"), func(msg *nats.Msg) {
		once.Do(func() {
			var j jobs.Job
			if err := jobs.Decode(msg.Data, &j); err != nil {
				forged <- err
				return
			}
			id := j.Experiment
			subj := jobs.ResultSubject(id)
			msgs := [][]byte{
				forgedResult(id, "1200000", 1_200_000, 32),                // far ahead: never planned
				forgedResult(id, "0", 0, 256),                             // planned part, a range of its own
				forgedResult("other", "64", 64, 32),                       // another experiment's
				forgedStates(id, "0", 0, 32, make(jobs.Fingerprints, 17)), // its job's range, a fingerprint cut short
				[]byte("{{{ garbage"),
				[]byte(`{"version":99,"kind":"trace","experiment":"` + id + `","part":"0"}`),
			}
			for _, b := range msgs {
				fnc.Publish(subj, b)
			}
			fnc.Publish(advisory, []byte(`{"type":"not an advisory"}`))
			fnc.Publish(advisory, adv(maxDeliver, 999_999)) // no such job
			forged <- nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	// A copy of the first genuine result of job "0" with every trace
	// satisfied, and an advisory for that job once it is acknowledged.
	// (Subscribed before the experiment starts: a subscription made when
	// the first job is seen can miss job "0"'s result, which a worker may
	// publish at once; two CI runs failed so.) The first genuine result of
	// a part "0" is the attacked experiment's: the clean one comes after.
	resSub, err := fnc.Subscribe(jobs.ResultSubject("*"), func(r *nats.Msg) {
		var res jobs.Result
		if jobs.Decode(r.Data, &res) != nil || res.Worker == "forger" || res.Part != "0" {
			return
		}
		dupOnce.Do(func() {
			id, subj := res.Experiment, r.Subject
			fnc.Publish(subj, forgedResult(id, "0", 0, 32))
			fnc.Publish(subj, forgedResult(id, "32", 0, 32)) // planned part, another range
			go func() {
				time.Sleep(200 * time.Millisecond)
				fnc.Publish(advisory, adv(maxDeliver, 1)) // job "0": done and acknowledged
			}()
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	defer resSub.Unsubscribe()
	if err := fnc.Flush(); err != nil {
		t.Fatal(err)
	}
	attacked, err := c.submit(t, ll, "counter_race.c", q, 11)
	if err != nil {
		t.Fatalf("the attacked experiment failed: %v\nlog:\n%s", err, logb.String())
	}
	if err := <-forged; err != nil {
		t.Fatal(err)
	}
	jobsSub.Unsubscribe()
	// Job "0" is the first message of the jobs stream (the advisory above
	// named it): make sure it was gone when the advisory came.
	if s, err := fjs.Stream(ctx, jobs.StreamJobs); err == nil {
		if _, err := s.GetMsg(ctx, 1); err == nil {
			t.Log("job message 1 is still in the queue")
		}
	}
	clean, err := c.submit(t, ll, "counter_race.c", q, 11)
	if err != nil {
		t.Fatal(err)
	}
	a, b := deterministic(attacked), deterministic(clean)
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	if !bytes.Equal(ja, jb) {
		t.Errorf("the forgeries changed the result:\nattacked: %s\nclean:    %s", ja, jb)
	}
	t.Logf("estimate %.4f over %d runs with and without the forger", attacked.Estimate, attacked.Runs)
	deadline := time.Now().Add(5 * time.Second)
	want := map[string]float64{metrics.RejectUnplanned: 1, metrics.RejectMismatch: 3, metrics.RejectForeign: 1,
		metrics.RejectUndecodable: 2, metrics.RejectAdvisory: 3}
	for {
		short := ""
		for reason, n := range want {
			if got, _ := gauge(t, m, "wyvern_rejected_messages_total", reason); got < n {
				short += fmt.Sprintf(" %s: %v of %v", reason, got, n)
			}
		}
		if short == "" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("wyvern_rejected_messages_total short of the forgeries:%s\nlog:\n%s", short, logb.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	if d, _ := gauge(t, m, "wyvern_experiment_duplicate_results_total", attacked.Experiment); d < 32 {
		t.Errorf("the forged copy of a genuine result was not dropped as a duplicate (%v duplicates)", d)
	}
	l := logb.String()
	for _, w := range []string{`rejected a result (part "1200000", worker "forger"): no such job was published`,
		"range [0, +256) for the planned range [0, +32)", "17 bytes of state fingerprints", "protocol version 99", `experiment "other"`,
		"rejected a max-deliveries advisory", "no such job in the queue"} {
		if !strings.Contains(l, w) {
			t.Errorf("coordinator log lacks %q:\n%s", w, l)
		}
	}
}
