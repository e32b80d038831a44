package metrics

import (
	"context"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// scrape fetches url and parses the text exposition.
func scrape(t *testing.T, url string) map[string]*dto.MetricFamily {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatalf("scrape %s: %v", url, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("scrape %s: %s: %s", url, resp.Status, b)
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	mfs, err := p.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatalf("parse exposition of %s: %v", url, err)
	}
	return mfs
}

// value returns the value of the series of family name with the given
// label values (label name → value), and whether it exists.
func value(mfs map[string]*dto.MetricFamily, name string, labels map[string]string) (float64, bool) {
	mf, ok := mfs[name]
	if !ok {
		return 0, false
	}
next:
	for _, m := range mf.GetMetric() {
		got := map[string]string{}
		for _, lp := range m.GetLabel() {
			got[lp.GetName()] = lp.GetValue()
		}
		if len(got) != len(labels) {
			continue
		}
		for k, v := range labels {
			if got[k] != v {
				continue next
			}
		}
		switch {
		case m.Counter != nil:
			return m.GetCounter().GetValue(), true
		case m.Gauge != nil:
			return m.GetGauge().GetValue(), true
		case m.Histogram != nil:
			return float64(m.GetHistogram().GetSampleCount()), true
		}
	}
	return 0, false
}

func want(t *testing.T, mfs map[string]*dto.MetricFamily, name string, labels map[string]string, v float64) {
	t.Helper()
	got, ok := value(mfs, name, labels)
	if !ok {
		t.Errorf("%s%v: no such series", name, labels)
		return
	}
	if math.Abs(got-v) > 1e-9*math.Max(1, math.Abs(v)) {
		t.Errorf("%s%v = %g, want %g", name, labels, got, v)
	}
}

// fakeClock is a settable clock.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

func TestScrapeValuesAndLabels(t *testing.T) {
	s := New()
	clk := &fakeClock{t: time.Unix(1_700_000_000, 0)}
	s.now = clk.now
	srv := httptest.NewServer(Handler(s.Registry()))
	defer srv.Close()

	w := s.Worker("w1")
	w.JobStarted()
	w.JobStarted()
	w.JobDone(256, 10_000, 3, 1500*time.Millisecond)
	w.JobStarted()
	w.JobDone(100, 5_000, 1, 20*time.Millisecond)
	s.Worker("w2") // registered, nothing done yet

	e := s.Experiment("exp-a")
	e.JobsPublished(8)
	e.Duplicates(2)
	e.Progress(Progress{Runs: 356, Satisfied: 4, Planned: 1000, Steps: 15_000, Estimate: 4.0 / 356, Lo: 0.003, Hi: 0.028, RunsPerSec: 237.5})
	e.SPRT(-1.25, -2.94, 2.94)
	e.SplittingLevel(3, 12.5, 0.25, 0.015625)
	e.Explicit(1000, 50, 7)
	clk.advance(2 * time.Second)
	e.Explicit(5000, 80, 9)
	s.Jobs(12, 4, 1)
	s.JobExhausted()
	s.Heartbeat("w1", clk.now(), 100, 1000)
	s.Heartbeat("w1", clk.now().Add(2*time.Second), 700, 31_000)
	s.WorkersAlive(2)

	mfs := scrape(t, srv.URL)
	w1 := map[string]string{LabelWorker: "w1"}
	w2 := map[string]string{LabelWorker: "w2"}
	ea := map[string]string{LabelExperiment: "exp-a"}
	want(t, mfs, "wyvern_worker_traces_total", w1, 356)
	want(t, mfs, "wyvern_worker_steps_total", w1, 15_000)
	want(t, mfs, "wyvern_worker_satisfying_traces_total", w1, 4)
	want(t, mfs, "wyvern_worker_jobs_total", w1, 2)
	want(t, mfs, "wyvern_worker_jobs_running", w1, 1)
	want(t, mfs, "wyvern_worker_job_duration_seconds", w1, 2) // sample count
	want(t, mfs, "wyvern_worker_traces_total", w2, 0)
	want(t, mfs, "wyvern_experiment_jobs_published_total", ea, 8)
	want(t, mfs, "wyvern_experiment_duplicate_results_total", ea, 2)
	want(t, mfs, "wyvern_experiment_runs", ea, 356)
	want(t, mfs, "wyvern_experiment_satisfying_runs", ea, 4)
	want(t, mfs, "wyvern_experiment_planned_runs", ea, 1000)
	want(t, mfs, "wyvern_experiment_steps", ea, 15_000)
	want(t, mfs, "wyvern_experiment_estimate", ea, 4.0/356)
	want(t, mfs, "wyvern_experiment_interval_lower", ea, 0.003)
	want(t, mfs, "wyvern_experiment_interval_upper", ea, 0.028)
	want(t, mfs, "wyvern_experiment_runs_per_second", ea, 237.5)
	want(t, mfs, "wyvern_experiment_start_timestamp_seconds", ea, 1_700_000_000)
	want(t, mfs, "wyvern_experiment_sprt_log_likelihood_ratio", ea, -1.25)
	want(t, mfs, "wyvern_experiment_sprt_lower_bound", ea, -2.94)
	want(t, mfs, "wyvern_experiment_sprt_upper_bound", ea, 2.94)
	want(t, mfs, "wyvern_splitting_level", ea, 3)
	want(t, mfs, "wyvern_splitting_level_threshold", ea, 12.5)
	want(t, mfs, "wyvern_splitting_conditional_probability", ea, 0.25)
	want(t, mfs, "wyvern_splitting_estimate", ea, 0.015625)
	want(t, mfs, "wyvern_explicit_states", ea, 5000)
	want(t, mfs, "wyvern_explicit_queue_states", ea, 80)
	want(t, mfs, "wyvern_explicit_depth", ea, 9)
	want(t, mfs, "wyvern_explicit_states_per_second", ea, 2000) // (5000-1000)/2 s
	want(t, mfs, "wyvern_jobs_queued", nil, 12)
	want(t, mfs, "wyvern_jobs_in_flight", nil, 4)
	want(t, mfs, "wyvern_jobs_redelivered", nil, 1)
	want(t, mfs, "wyvern_jobs_max_deliveries_total", nil, 1)
	want(t, mfs, "wyvern_worker_last_seen_timestamp_seconds", w1, 1_700_000_004)
	want(t, mfs, "wyvern_worker_throughput_traces_per_second", w1, 300)   // 600 traces / 2 s
	want(t, mfs, "wyvern_worker_throughput_steps_per_second", w1, 15_000) // 30000 steps / 2 s
	want(t, mfs, "wyvern_workers_alive", nil, 2)
	want(t, mfs, "wyvern_experiments_running", nil, 1)

	// Types follow the names' conventions.
	for name, mf := range mfs {
		if !strings.HasPrefix(name, "wyvern_") {
			continue
		}
		isCounter := mf.GetType() == dto.MetricType_COUNTER
		if isCounter != strings.HasSuffix(name, "_total") {
			t.Errorf("%s is a %s: counters and only counters end in _total", name, mf.GetType())
		}
		if mf.GetHelp() == "" {
			t.Errorf("%s has no help text", name)
		}
		for _, m := range mf.GetMetric() {
			for _, lp := range m.GetLabel() {
				switch lp.GetName() {
				case LabelExperiment, LabelWorker:
				case LabelReason: // a fixed word: bounded
					if !slices.Contains([]string{RejectUndecodable, RejectForeign, RejectUnplanned, RejectMismatch, RejectAdvisory, RejectSkew}, lp.GetValue()) {
						t.Errorf("%s has reason %q, not one of the fixed words", name, lp.GetValue())
					}
				default:
					t.Errorf("%s has label %q: only %s, %s and %s are allowed", name, lp.GetName(), LabelExperiment, LabelWorker, LabelReason)
				}
			}
		}
	}
	// The Go runtime and process collectors are on the registry.
	for _, name := range []string{"go_goroutines", "go_memstats_alloc_bytes", "go_gc_duration_seconds", "process_cpu_seconds_total"} {
		if _, ok := mfs[name]; !ok {
			t.Errorf("%s missing: runtime/process collector not registered", name)
		}
	}
}

// countSeries counts the series labelled with experiment exp.
func countSeries(mfs map[string]*dto.MetricFamily, exp string) int {
	n := 0
	for _, mf := range mfs {
		for _, m := range mf.GetMetric() {
			for _, lp := range m.GetLabel() {
				if lp.GetName() == LabelExperiment && lp.GetValue() == exp {
					n++
				}
			}
		}
	}
	return n
}

func TestFinishDeletesExperimentSeries(t *testing.T) {
	s := New()
	s.SetKeepFinished(0)
	srv := httptest.NewServer(Handler(s.Registry()))
	defer srv.Close()
	a, b := s.Experiment("a"), s.Experiment("b")
	if s.Experiment("a") != a {
		t.Fatal("Experiment(id) returned a new handle for a running experiment")
	}
	for _, e := range []*Experiment{a, b} {
		e.Progress(Progress{Runs: 10, Estimate: 0.5, Lo: 0.2, Hi: 0.8})
		e.SPRT(0.1, -1, 1)
		e.SplittingLevel(1, 2, 0.5, 0.5)
		e.Explicit(10, 1, 1)
		e.JobsPublished(1)
	}
	s.Worker("w").JobDone(1, 1, 0, time.Millisecond)

	mfs := scrape(t, srv.URL)
	if n := countSeries(mfs, "a"); n < 20 {
		t.Fatalf("experiment a has %d series before Finish, want ≥ 20", n)
	}
	want(t, mfs, "wyvern_experiments_running", nil, 2)

	a.Finish(true)
	a.Progress(Progress{Runs: 11}) // late update: must not bring series back
	a.Finish(false)                // second Finish: no effect
	mfs = scrape(t, srv.URL)
	if n := countSeries(mfs, "a"); n != 0 {
		t.Errorf("experiment a still has %d series after Finish", n)
	}
	if n := countSeries(mfs, "b"); n < 20 {
		t.Errorf("experiment b lost series when a finished: %d left", n)
	}
	want(t, mfs, "wyvern_experiment_runs", map[string]string{LabelExperiment: "b"}, 10)
	want(t, mfs, "wyvern_experiments_running", nil, 1)
	want(t, mfs, "wyvern_experiments_completed_total", nil, 1)
	want(t, mfs, "wyvern_experiments_failed_total", nil, 0)
	want(t, mfs, "wyvern_worker_traces_total", map[string]string{LabelWorker: "w"}, 1)

	b.Finish(false)
	mfs = scrape(t, srv.URL)
	want(t, mfs, "wyvern_experiments_failed_total", nil, 1)
	want(t, mfs, "wyvern_experiments_running", nil, 0)
	if n := countSeries(mfs, "b"); n != 0 {
		t.Errorf("experiment b still has %d series after Finish", n)
	}

	// A resumed experiment with the same id starts afresh.
	s.Experiment("a").Progress(Progress{Runs: 3})
	want(t, scrape(t, srv.URL), "wyvern_experiment_runs", map[string]string{LabelExperiment: "a"}, 3)
}

// With a keep-finished delay the final values stay scrapeable for a while,
// then go; an experiment resumed under the same id keeps its series.
func TestFinishKeepsSeriesForAWhile(t *testing.T) {
	s := New()
	const keep = 300 * time.Millisecond
	s.SetKeepFinished(keep)
	srv := httptest.NewServer(Handler(s.Registry()))
	defer srv.Close()
	ea := map[string]string{LabelExperiment: "a"}

	a := s.Experiment("a")
	a.Progress(Progress{Runs: 100, Estimate: 0.25, Lo: 0.2, Hi: 0.3})
	finished := time.Now()
	a.Finish(true)
	a.Progress(Progress{Runs: 200, Estimate: 0.5}) // ignored: finished
	mfs := scrape(t, srv.URL)
	if time.Since(finished) < keep {
		want(t, mfs, "wyvern_experiment_estimate", ea, 0.25)
		want(t, mfs, "wyvern_experiment_runs", ea, 100)
	}
	want(t, mfs, "wyvern_experiments_running", nil, 0)
	want(t, mfs, "wyvern_experiments_completed_total", nil, 1)
	deadline := time.Now().Add(5 * time.Second)
	for countSeries(scrape(t, srv.URL), "a") > 0 {
		if time.Now().After(deadline) {
			t.Fatal("a finished experiment's series were never deleted")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if time.Since(finished) < keep {
		t.Errorf("series deleted after %v, before the %v delay", time.Since(finished), keep)
	}

	// Finished, then resumed under the same id before the delay is over.
	b := s.Experiment("b")
	b.Finish(false)
	b2 := s.Experiment("b")
	b2.Progress(Progress{Runs: 7})
	time.Sleep(2 * keep)
	want(t, scrape(t, srv.URL), "wyvern_experiment_runs", map[string]string{LabelExperiment: "b"}, 7)
}

func TestForgetWorker(t *testing.T) {
	s := New()
	srv := httptest.NewServer(Handler(s.Registry()))
	defer srv.Close()
	now := time.Unix(100, 0)
	s.Worker("gone").JobDone(5, 50, 1, time.Second)
	s.Heartbeat("gone", now, 5, 50)
	s.Worker("stays").JobDone(7, 70, 0, time.Second)
	s.Heartbeat("stays", now, 7, 70)
	s.ForgetWorker("gone")
	mfs := scrape(t, srv.URL)
	for name, mf := range mfs {
		for _, m := range mf.GetMetric() {
			for _, lp := range m.GetLabel() {
				if lp.GetName() == LabelWorker && lp.GetValue() == "gone" {
					t.Errorf("%s still has a series for a forgotten worker", name)
				}
			}
		}
	}
	want(t, mfs, "wyvern_worker_traces_total", map[string]string{LabelWorker: "stays"}, 7)
	want(t, mfs, "wyvern_worker_last_seen_timestamp_seconds", map[string]string{LabelWorker: "stays"}, 100)
}

func TestHeartbeatThroughput(t *testing.T) {
	s := New()
	srv := httptest.NewServer(Handler(s.Registry()))
	defer srv.Close()
	t0 := time.Unix(1000, 0)
	lw := map[string]string{LabelWorker: "w"}
	s.Heartbeat("w", t0, 1000, 0)
	want(t, scrape(t, srv.URL), "wyvern_worker_throughput_traces_per_second", lw, 0) // one beat: no rate yet
	s.Heartbeat("w", t0.Add(4*time.Second), 1400, 0)
	want(t, scrape(t, srv.URL), "wyvern_worker_throughput_traces_per_second", lw, 100)
	// A restarted worker reports smaller totals: no negative rate, and the
	// next interval is measured from the restart.
	s.Heartbeat("w", t0.Add(5*time.Second), 10, 0)
	want(t, scrape(t, srv.URL), "wyvern_worker_throughput_traces_per_second", lw, 100)
	s.Heartbeat("w", t0.Add(7*time.Second), 110, 0)
	want(t, scrape(t, srv.URL), "wyvern_worker_throughput_traces_per_second", lw, 50)
	// A heartbeat arriving out of order (older) does not divide by ≤ 0.
	s.Heartbeat("w", t0.Add(6*time.Second), 120, 0)
	if v, _ := value(scrape(t, srv.URL), "wyvern_worker_throughput_traces_per_second", lw); math.IsInf(v, 0) || math.IsNaN(v) || v < 0 {
		t.Errorf("throughput after an out-of-order heartbeat = %g", v)
	}
}

func TestConcurrentUse(t *testing.T) {
	s := New()
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := s.Worker("w")
			e := s.Experiment("e")
			for j := range 200 {
				w.JobStarted()
				w.JobDone(1, 10, uint64(j%2), time.Millisecond)
				e.Progress(Progress{Runs: uint64(j)})
				e.Explicit(uint64(j), 0, i)
				s.Heartbeat("w", time.Unix(int64(j), 0), uint64(j), 0)
			}
		}()
	}
	wg.Wait()
	srv := httptest.NewServer(Handler(s.Registry()))
	defer srv.Close()
	mfs := scrape(t, srv.URL)
	want(t, mfs, "wyvern_worker_traces_total", map[string]string{LabelWorker: "w"}, 1600)
	want(t, mfs, "wyvern_worker_satisfying_traces_total", map[string]string{LabelWorker: "w"}, 800)
	want(t, mfs, "wyvern_worker_jobs_running", map[string]string{LabelWorker: "w"}, 0)
}

func TestServe(t *testing.T) {
	s := New()
	s.Experiment("x").Progress(Progress{Runs: 42})
	ctx, cancel := context.WithCancel(context.Background())
	addr, err := Serve(ctx, "127.0.0.1:0", s.Registry())
	if err != nil {
		t.Fatal(err)
	}
	if strings.HasSuffix(addr, ":0") {
		t.Fatalf("Serve returned %s, not the bound port", addr)
	}
	want(t, scrape(t, "http://"+addr+"/metrics"), "wyvern_experiment_runs", map[string]string{LabelExperiment: "x"}, 42)

	// The address is taken now: serving on it again fails with a clear error.
	if _, err := Serve(context.Background(), addr, s.Registry()); err == nil || !strings.Contains(err.Error(), addr) {
		t.Errorf("Serve on a busy address: err = %v, want one naming %s", err, addr)
	}

	cancel()
	deadline := time.Now().Add(5 * time.Second)
	for {
		_, err := http.Get("http://" + addr + "/metrics")
		if err != nil {
			break // shut down
		}
		if time.Now().After(deadline) {
			t.Fatal("metrics server still answering 5 s after its context ended")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestComponentsRegisterSeparately: a worker process registers only the
// workers' collectors, a coordinator only its own; a Set has both.
func TestComponentsRegisterSeparately(t *testing.T) {
	names := func(reg *prometheus.Registry) map[string]bool {
		mfs, err := reg.Gather()
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]bool{}
		for _, mf := range mfs {
			out[mf.GetName()] = true
		}
		return out
	}
	wreg := NewRegistry()
	NewWorkers(wreg).Worker("w1").JobStarted()
	creg := NewRegistry()
	NewCoordinator(creg).Experiment("e1")
	set := New()
	set.Worker("w1")
	w, c, both := names(wreg), names(creg), names(set.Registry())
	for _, n := range []string{"wyvern_worker_traces_total", "go_goroutines"} {
		if !w[n] {
			t.Errorf("worker registry lacks %s", n)
		}
	}
	for _, n := range []string{"wyvern_experiments_running", "wyvern_experiment_runs", "go_goroutines"} {
		if !c[n] {
			t.Errorf("coordinator registry lacks %s", n)
		}
	}
	if w["wyvern_experiments_running"] || c["wyvern_worker_traces_total"] {
		t.Errorf("a component's registry holds the other's metrics")
	}
	if !both["wyvern_experiments_running"] || !both["wyvern_worker_jobs_running"] {
		t.Errorf("a Set lacks one component's metrics")
	}
}
