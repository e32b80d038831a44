package coordinator_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/wyvernmc/wyvern/coordinator"
	"github.com/wyvernmc/wyvern/internal/kinds"
	"github.com/wyvernmc/wyvern/internal/testutil"
	"github.com/wyvernmc/wyvern/ir"
	"github.com/wyvernmc/wyvern/jobs"
	"github.com/wyvernmc/wyvern/query"
	"github.com/wyvernmc/wyvern/simulator"
	"github.com/wyvernmc/wyvern/vm"
	"github.com/wyvernmc/wyvern/worker"
)

func needClang(t testing.TB) { t.Helper(); testutil.NeedClang(t) }

// cluster is an in-process NATS server with a coordinator and n workers.
type cluster struct {
	emb    *coordinator.Embedded
	cancel context.CancelFunc
	ctx    context.Context
}

func startCluster(t *testing.T, workers int) *cluster {
	t.Helper()
	return startClusterWith(t, workers, nil)
}

// startClusterWith starts a cluster whose workers are adjusted by tune.
func startClusterWith(t *testing.T, workers int, tune func(*worker.Worker)) *cluster {
	t.Helper()
	emb, err := coordinator.StartEmbedded(t.TempDir(), "")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	c := &cluster{emb: emb, cancel: cancel, ctx: ctx}
	t.Cleanup(func() { cancel(); time.Sleep(50 * time.Millisecond); emb.Shutdown() })
	cnc, err := emb.Connect("coordinator")
	if err != nil {
		t.Fatal(err)
	}
	go (kinds.Coordinator(&coordinator.Coordinator{NC: cnc})).Serve(ctx)
	for i := 0; i < workers; i++ {
		wnc, err := emb.Connect("worker")
		if err != nil {
			t.Fatal(err)
		}
		w := kinds.Worker(&worker.Worker{NC: wnc, ID: fmt.Sprintf("w%d", i), Slots: 2})
		if tune != nil {
			tune(w)
		}
		go w.Run(ctx)
	}
	return c
}

func (c *cluster) submit(t *testing.T, ll []byte, name, q string, seed uint64) (*coordinator.Result, error) {
	t.Helper()
	nc, err := c.emb.Connect("client")
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	ctx, cancel := context.WithTimeout(c.ctx, 3*time.Minute)
	defer cancel()
	return coordinator.Submit(ctx, nc, coordinator.Submission{LL: ll, Name: name, Query: q, Seed: seed, JobSize: 32})
}

func frontend(t *testing.T, path string) []byte {
	t.Helper()
	needClang(t)
	src, err := ir.Frontend(path, ir.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return src.LL
}

// deterministic strips what may differ between runs of the same experiment.
func deterministic(r *coordinator.Result) coordinator.Result {
	c := *r
	c.Experiment = ""
	c.Stats = coordinator.Stats{}
	return c
}

// TestDeterministicAcrossWorkers: the same program, query and seed give the
// same result with 1 worker and with 4.
func TestDeterministicAcrossWorkers(t *testing.T) {
	ll := frontend(t, "../testdata/mt/counter_race.c")
	queries := []string{
		"Pr[<=5000](<> counter == 10)",
		"Pr[<=5000](<> counter == 10) >= 0.2 {Delta=0.02}",
		"Estimate[<=5000,300]{max counter}",
		"EnumStatesSMC <=200 100",
	}
	one := startCluster(t, 1)
	four := startCluster(t, 4)
	for _, q := range queries {
		r1, err := one.submit(t, ll, "counter_race.c", q, 7)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		r4, err := four.submit(t, ll, "counter_race.c", q, 7)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		a, _ := json.Marshal(deterministic(r1))
		b, _ := json.Marshal(deterministic(r4))
		if string(a) != string(b) {
			t.Errorf("%s: 1 worker and 4 workers differ:\n%s\n%s", q, a, b)
		}
		if r1.Runs == 0 {
			t.Errorf("%s: no runs", q)
		}
	}
	// a different seed gives a different sample
	r, err := one.submit(t, ll, "counter_race.c", queries[0], 8)
	if err != nil {
		t.Fatal(err)
	}
	r7, _ := one.submit(t, ll, "counter_race.c", queries[0], 7)
	if simulator.DetailOf(r).Satisfied == simulator.DetailOf(r7).Satisfied && r.Runs == r7.Runs {
		t.Errorf("seeds 7 and 8 gave identical samples (%d of %d)", simulator.DetailOf(r).Satisfied, r.Runs)
	}
}

// TestSafeAndBuggy: a mutex-protected counter and a correct Peterson never
// satisfy the violation; the racy counter does, and its first satisfying
// trace replays to the violation.
func TestSafeAndBuggy(t *testing.T) {
	c := startCluster(t, 2)
	cases := []struct {
		file, q string
		sat     bool
	}{
		{"../testdata/mt/counter_mutex.c", "Pr[<=5000](<> [0.reach_error])", false},
		{"../testdata/mt/peterson.c", "Pr[<=5000](<> Exists (p)([p.reach_error]))", false},
		{"../testdata/mt/peterson_broken.c", "Pr[<=5000](<> Exists (p)([p.reach_error]))", true},
		{"../testdata/mt/deadlock.c", "Pr[<=5000](<> Deadlock)", true},
		{"../testdata/mt/counter_race.c", "Pr[<=5000](<> DataRace)", true},
		{"../testdata/mt/counter_mutex.c", "Pr[<=5000](<> DataRace)", false},
		{"../testdata/mt/counter_race.c", "Pr[<=5000](<> [0.pthread_join] && main::a != 0 && counter < 10)", true},
	}
	for _, tc := range cases {
		ll := frontend(t, tc.file)
		r, err := c.submit(t, ll, filepath.Base(tc.file), tc.q+" {Epsilon=0.02}", 3)
		if err != nil {
			t.Fatalf("%s: %v", tc.file, err)
		}
		if (simulator.DetailOf(r).Satisfied > 0) != tc.sat {
			t.Errorf("%s %s: %d of %d runs satisfy, want satisfying=%v", tc.file, tc.q, simulator.DetailOf(r).Satisfied, r.Runs, tc.sat)
			continue
		}
		if !tc.sat {
			if simulator.DetailOf(r).FirstSatisfying != nil || r.Hi > 0.05 {
				t.Errorf("%s: safe program reported %+v, interval [%g, %g]", tc.file, simulator.DetailOf(r).FirstSatisfying, r.Lo, r.Hi)
			}
			continue
		}
		// replay the first satisfying trace: it must satisfy at the same step
		prog, err := ir.ParseLL(tc.file, ll)
		if err != nil {
			t.Fatal(err)
		}
		q, _ := query.Parse(tc.q)
		cq, err := query.Compile(q, vm.NewMachine(prog))
		if err != nil {
			t.Fatal(err)
		}
		out, _ := simulator.NewTracer(cq).Trace(simulator.DetailOf(r).FirstSatisfying.Seed, simulator.DetailOf(r).FirstSatisfying.Index)
		if !out.Sat || out.Steps != simulator.DetailOf(r).FirstSatisfying.Steps {
			t.Errorf("%s: replay of %+v gives sat=%v at %d steps", tc.file, simulator.DetailOf(r).FirstSatisfying, out.Sat, out.Steps)
		}
	}
}

func writeC(t *testing.T, name, src string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// coinModel reaches reach_error with probability num/den exactly.
func coinModel(num, den int) string {
	return fmt.Sprintf(`#include "wyvern.h"
void reach_error(void) {}
int main(void) {
  if (wyvern_coin(%d, %d)) reach_error();
  return 0;
}
`, num, den)
}

// TestCoverage: over 200 independent experiments (different seeds) the
// default interval covers the true probability at no less than the nominal
// rate, within binomial tolerance. The experiments fold outcomes exactly as
// the coordinator does (through the same Tracer and estimators), without
// NATS, so that 200 experiments stay fast.
func TestCoverage(t *testing.T) {
	if testing.Short() {
		t.Skip("statistical test")
	}
	for _, tc := range []struct {
		num, den int
		eps      string
	}{{3, 10, "0.02"}, {1, 100, "0.005"}, {1, 1000, "0.002"}} {
		p := float64(tc.num) / float64(tc.den)
		path := writeC(t, "coin.c", coinModel(tc.num, tc.den))
		needClang(t)
		prog, err := ir.Load(path, ir.Options{})
		if err != nil {
			t.Fatal(err)
		}
		m := vm.NewMachine(prog)
		q, err := query.Parse("Pr[<=100](<> [0.reach_error]) {Epsilon=" + tc.eps + "}")
		if err != nil {
			t.Fatal(err)
		}
		cq, err := query.Compile(q, m)
		if err != nil {
			t.Fatal(err)
		}
		tr := simulator.NewTracer(cq)
		const reps = 200
		covered := 0
		for seed := uint64(1); seed <= reps; seed++ {
			r, err := simulator.Fold(q, seed, func(i uint64) jobs.Outcome { o, _ := tr.Trace(seed, i); return o })
			if err != nil {
				t.Fatal(err)
			}
			if r.Lo <= p && p <= r.Hi {
				covered++
			}
		}
		alpha := 0.05
		tol := 3 * math.Sqrt(reps*alpha*(1-alpha))
		min := (1-alpha)*reps - tol
		t.Logf("p=%g: %d/%d intervals cover (need >= %.1f)", p, covered, reps, min)
		if float64(covered) < min {
			t.Errorf("p=%g: only %d of %d intervals cover the true value", p, covered, reps)
		}
	}
}

// TestSPRTErrorRates: hypothesis tests on exact models decide within α and β.
func TestSPRTErrorRates(t *testing.T) {
	if testing.Short() {
		t.Skip("statistical test")
	}
	needClang(t)
	for _, tc := range []struct {
		num, den int
		want     string
	}{{40, 100, "accept"}, {20, 100, "reject"}} {
		path := writeC(t, "coin.c", coinModel(tc.num, tc.den))
		prog, err := ir.Load(path, ir.Options{})
		if err != nil {
			t.Fatal(err)
		}
		q, _ := query.Parse("Pr[<=100](<> [0.reach_error]) >= 0.3 {Delta=0.05, Alpha=0.05, Beta=0.05}")
		cq, err := query.Compile(q, vm.NewMachine(prog))
		if err != nil {
			t.Fatal(err)
		}
		tr := simulator.NewTracer(cq)
		qle, _ := query.Parse("Pr[<=100](<> [0.reach_error]) <= 0.3 {Delta=0.05, Alpha=0.05, Beta=0.05}")
		const reps = 200
		wrong := 0
		for seed := uint64(1); seed <= reps; seed++ {
			r, err := simulator.Fold(q, seed, func(i uint64) jobs.Outcome { o, _ := tr.Trace(seed, i); return o })
			if err != nil {
				t.Fatal(err)
			}
			if simulator.DetailOf(r).Decision != tc.want {
				wrong++
			}
			// the same test asked the other way round gives the opposite verdict
			rle, _ := simulator.Fold(qle, seed, func(i uint64) jobs.Outcome { o, _ := tr.Trace(seed, i); return o })
			if (simulator.DetailOf(r).Verdict == "holds") == (simulator.DetailOf(rle).Verdict == "holds") || simulator.DetailOf(r).Decision != simulator.DetailOf(rle).Decision {
				t.Fatalf("seed %d: >= gives %s/%s, <= gives %s/%s", seed, simulator.DetailOf(r).Decision, simulator.DetailOf(r).Verdict, simulator.DetailOf(rle).Decision, simulator.DetailOf(rle).Verdict)
			}
		}
		limit := 0.05*reps + 3*math.Sqrt(reps*0.05*0.95)
		t.Logf("p=%g: %d/%d wrong decisions (limit %.1f)", float64(tc.num)/float64(tc.den), wrong, reps, limit)
		if float64(wrong) > limit {
			t.Errorf("p=%d/%d: %d wrong decisions of %d", tc.num, tc.den, wrong, reps)
		}
	}
}

// TestBadInput: a program rejected at load time fails the experiment cleanly
// (the coordinator never hangs), and a query naming an unknown function or
// with a syntax error points at the column.
func TestBadInput(t *testing.T) {
	c := startCluster(t, 1)
	bad := []byte("declare i32 @mystery()\ndefine i32 @main() {\nentry:\n  %r = call i32 @mystery()\n  ret i32 %r\n}\n")
	_, err := c.submit(t, bad, "bad.ll", "Pr[<=100](<> [0.mystery])", 1)
	if err == nil || !strings.Contains(err.Error(), "mystery") || !strings.Contains(err.Error(), "unknown external") {
		t.Errorf("want a failed experiment naming the missing function, got %v", err)
	}
	_, err = c.submit(t, bad, "bad.ll", "Pr[<=100](<> [0.mystery]", 1)
	if err == nil || !strings.Contains(err.Error(), "column") {
		t.Errorf("want a syntax error with a column, got %v", err)
	}
	// A type of infinite size used to crash every worker given it (a Go
	// stack overflow) and leave the experiment running: it fails cleanly.
	rec := []byte("%s = type { %s, i32 }\n@g = global %s zeroinitializer\ndefine i32 @main() {\nentry:\n  ret i32 0\n}\n")
	for _, q := range []string{"Pr[<=100](<> [0.main])", "E<> [0.main]"} {
		_, err = c.submit(t, rec, "rec.ll", q, 1)
		if err == nil || !strings.Contains(err.Error(), "contains itself by value") {
			t.Errorf("%s on a recursive type: want a failed experiment naming the type, got %v", q, err)
		}
	}
}

// TestCoordinatorRestart stops the coordinator in the middle of an
// experiment and starts another: it resumes from the experiment state and
// the results in JetStream, and the answer equals an uninterrupted run's.
func TestCoordinatorRestart(t *testing.T) {
	ll := frontend(t, "../testdata/mt/counter_race.c")
	const q = "Pr[<=5000](<> counter == 10) {Rule=fixed, Epsilon=0.004}"
	ref, err := startCluster(t, 1).submit(t, ll, "counter_race.c", q, 11)
	if err != nil {
		t.Fatal(err)
	}

	emb, err := coordinator.StartEmbedded(t.TempDir(), "")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(func() { cancel(); time.Sleep(50 * time.Millisecond); emb.Shutdown() })
	coordCtx, stopCoord := context.WithCancel(ctx)
	cnc, _ := emb.Connect("coordinator-1")
	go (kinds.Coordinator(&coordinator.Coordinator{NC: cnc})).Serve(coordCtx)
	wnc, _ := emb.Connect("worker")
	go (kinds.Worker(&worker.Worker{NC: wnc, ID: "w", Slots: 1})).Run(ctx)

	nc, _ := emb.Connect("client")
	defer nc.Close()
	type answer struct {
		r   *coordinator.Result
		err error
	}
	done := make(chan answer, 1)
	var runsSeen atomic.Uint64
	go func() {
		r, err := coordinator.Submit(ctx, nc, coordinator.Submission{LL: ll, Name: "counter_race.c", Query: q, Seed: 11, JobSize: 64,
			Progress: func(p jobs.Progress) { runsSeen.Store(p.Runs) }})
		done <- answer{r, err}
	}()
	deadline := time.Now().Add(time.Minute)
	for runsSeen.Load() < 2000 {
		if time.Now().After(deadline) {
			t.Fatal("no progress before the restart")
		}
		time.Sleep(20 * time.Millisecond)
	}
	atRestart := runsSeen.Load()
	stopCoord()
	time.Sleep(300 * time.Millisecond)
	cnc2, _ := emb.Connect("coordinator-2")
	go (kinds.Coordinator(&coordinator.Coordinator{NC: cnc2})).Serve(ctx)
	select {
	case a := <-done:
		if a.err != nil {
			t.Fatal(a.err)
		}
		x, _ := json.Marshal(deterministic(a.r))
		y, _ := json.Marshal(deterministic(ref))
		if string(x) != string(y) {
			t.Errorf("resumed result differs:\n%s\n%s", x, y)
		}
		// The resumed coordinator went on from the stored results: at most
		// the jobs in flight at the restart (a window) ran twice, not all
		// the traces folded before it.
		if d := a.r.Stats.Duplicates; d > 64*(8+4*1) {
			t.Errorf("%d traces ran twice across the restart (%d had been folded before it)", d, atRestart)
		} else {
			t.Logf("%d traces ran twice across the restart (%d had been folded before it)", d, atRestart)
		}
	case <-time.After(2 * time.Minute):
		t.Fatal("the restarted coordinator did not finish the experiment")
	}
}

// TestMaxDeliveriesFailsExperiment: a job that keeps failing (here a worker
// that takes jobs and never finishes them, as one crashing on them would)
// fails the experiment with a message naming the job, instead of hanging.
func TestMaxDeliveriesFailsExperiment(t *testing.T) {
	emb, err := coordinator.StartEmbedded(t.TempDir(), "")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(func() { cancel(); time.Sleep(50 * time.Millisecond); emb.Shutdown() })
	cnc, _ := emb.Connect("coordinator")
	go (kinds.Coordinator(&coordinator.Coordinator{NC: cnc, AckWait: 300 * time.Millisecond, MaxDeliver: 2})).Serve(ctx)
	// the crashing worker
	wnc, _ := emb.Connect("bad-worker")
	go func() {
		js, _ := jetstream.New(wnc)
		for ctx.Err() == nil {
			cons, err := js.Consumer(ctx, jobs.StreamJobs, jobs.ConsumerWorkers)
			if err != nil {
				time.Sleep(50 * time.Millisecond)
				continue
			}
			batch, err := cons.Fetch(10, jetstream.FetchMaxWait(200*time.Millisecond))
			if err != nil {
				continue
			}
			for range batch.Messages() {
				// take the job and "crash": never ack
			}
		}
	}()
	nc, _ := emb.Connect("client")
	defer nc.Close()
	sctx, scancel := context.WithTimeout(ctx, time.Minute)
	defer scancel()
	ll := []byte("define i32 @main() {\nentry:\n  ret i32 0\n}\n")
	_, err = coordinator.Submit(sctx, nc, coordinator.Submission{LL: ll, Name: "ok.ll", Query: "Pr[<=10](<> true)", Seed: 1})
	if err == nil || !strings.Contains(err.Error(), "delivered 2 times without a result") {
		t.Fatalf("want the experiment to fail on max deliveries, got %v", err)
	}
}
