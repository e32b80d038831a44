package coordinator_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"

	"github.com/wyvernmc/wyvern/coordinator"
	"github.com/wyvernmc/wyvern/internal/kinds"
	"github.com/wyvernmc/wyvern/metrics"
	"github.com/wyvernmc/wyvern/simulator"
	"github.com/wyvernmc/wyvern/splitting"
	"github.com/wyvernmc/wyvern/worker"
)

// gauge returns the value of metric name with the given label value (""
// for none), and whether the series exists.
func gauge(t *testing.T, m *metrics.Set, name, label string) (float64, bool) {
	t.Helper()
	mfs, err := m.Registry().Gather()
	if err != nil {
		t.Fatal(err)
	}
	sum, found := 0.0, false
	for _, mf := range mfs {
		if mf.GetName() != name {
			continue
		}
		for _, s := range mf.GetMetric() {
			if label != "" && !hasLabelValue(s, label) {
				continue
			}
			found = true
			switch {
			case s.Gauge != nil:
				sum += s.Gauge.GetValue()
			case s.Counter != nil:
				sum += s.Counter.GetValue()
			}
		}
	}
	return sum, found
}

func hasLabelValue(s *dto.Metric, v string) bool {
	for _, l := range s.GetLabel() {
		if l.GetValue() == v {
			return true
		}
	}
	return false
}

// A coordinator and workers sharing a metrics.Set (as in `wyvern check`)
// report the experiment's final result, the workers' traces and the
// splitting levels.
func TestMetricsFromExperiments(t *testing.T) {
	needClang(t)
	m := metrics.New()
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
	go (kinds.Coordinator(&coordinator.Coordinator{NC: cnc, Metrics: m.Coordinator})).Serve(ctx)
	for i := 0; i < 2; i++ {
		wnc, err := emb.Connect("worker")
		if err != nil {
			t.Fatal(err)
		}
		go (kinds.Worker(&worker.Worker{NC: wnc, ID: fmt.Sprintf("w%d", i), Slots: 1, Metrics: m.Workers})).Run(ctx)
	}
	c := &cluster{emb: emb, cancel: cancel, ctx: ctx}

	ll := frontend(t, writeC(t, "coin.c", coinModel(3, 10)))
	res, err := c.submit(t, ll, "coin.c", "Pr[<=100](<> [0.reach_error]) {Epsilon=0.05}", 3)
	if err != nil {
		t.Fatal(err)
	}
	id := res.Experiment
	if v, _ := gauge(t, m, "wyvern_experiment_estimate", id); v != res.Estimate {
		t.Errorf("estimate metric %v, result %v", v, res.Estimate)
	}
	if v, _ := gauge(t, m, "wyvern_experiment_interval_upper", id); v != res.Hi {
		t.Errorf("upper bound metric %v, result %v", v, res.Hi)
	}
	if v, _ := gauge(t, m, "wyvern_experiment_runs", id); v != float64(res.Runs) {
		t.Errorf("runs metric %v, result %d", v, res.Runs)
	}
	if v, _ := gauge(t, m, "wyvern_experiment_jobs_published_total", id); v < float64(res.Runs)/32 {
		t.Errorf("%v jobs published for %d runs of 32 per job", v, res.Runs)
	}
	if v, _ := gauge(t, m, "wyvern_worker_traces_total", ""); v < float64(res.Runs) {
		t.Errorf("workers simulated %v traces, fewer than the %d runs", v, res.Runs)
	}
	if v, _ := gauge(t, m, "wyvern_worker_satisfying_traces_total", ""); v < float64(simulator.DetailOf(res).Satisfied) {
		t.Errorf("workers found %v satisfying traces, fewer than %d", v, simulator.DetailOf(res).Satisfied)
	}
	if v, _ := gauge(t, m, "wyvern_worker_jobs_running", ""); v != 0 {
		t.Errorf("%v jobs running after the experiment", v)
	}
	if v, _ := gauge(t, m, "wyvern_experiments_completed_total", ""); v != 1 {
		t.Errorf("%v experiments completed", v)
	}
	if len(simulator.DetailOf(res).Convergence) == 0 || simulator.DetailOf(res).Convergence[len(simulator.DetailOf(res).Convergence)-1].Runs != res.Runs {
		t.Errorf("convergence checkpoints %v do not end at %d runs", simulator.DetailOf(res).Convergence, res.Runs)
	}

	// A hypothesis test reports its log-likelihood ratio and bounds.
	res, err = c.submit(t, ll, "coin.c", "Pr[<=100](<> [0.reach_error]) >= 0.5", 3)
	if err != nil {
		t.Fatal(err)
	}
	if v, ok := gauge(t, m, "wyvern_experiment_sprt_log_likelihood_ratio", res.Experiment); !ok || v != simulator.DetailOf(res).LLR {
		t.Errorf("SPRT metric %v (present %v), result LLR %v", v, ok, simulator.DetailOf(res).LLR)
	}
	if lo, _ := gauge(t, m, "wyvern_experiment_sprt_lower_bound", res.Experiment); lo >= 0 {
		t.Errorf("SPRT lower bound %v, want < 0", lo)
	}

	// Splitting reports its deepest level and the running product.
	ruin := frontend(t, "../testdata/splitting/ruin.c")
	res, err = c.submit(t, ruin, "ruin.c", "Pr[<=1000000](<> x >= 20) {Split=fixed, Score=x, Levels=[4,8,12,16], N=200, M=4}", 11)
	if err != nil {
		t.Fatal(err)
	}
	levels := splitting.ResultOf(res).Levels
	if v, _ := gauge(t, m, "wyvern_splitting_level", res.Experiment); int(v) != levels[len(levels)-1].Index {
		t.Errorf("splitting level metric %v, deepest level %d", v, levels[len(levels)-1].Index)
	}
	prod := 1.0
	for _, l := range levels {
		prod *= l.CondProb
	}
	if v, _ := gauge(t, m, "wyvern_splitting_estimate", res.Experiment); v != prod {
		t.Errorf("splitting running product %v, want %v", v, prod)
	}
	if v, _ := gauge(t, m, "wyvern_experiment_estimate", res.Experiment); v != res.Estimate {
		t.Errorf("splitting estimate metric %v, result %v", v, res.Estimate)
	}
}
