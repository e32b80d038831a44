package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"image/png"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/wyvernmc/wyvern/charts"
	"github.com/wyvernmc/wyvern/coordinator"
	"github.com/wyvernmc/wyvern/internal/promapi"
	"github.com/wyvernmc/wyvern/simulator"
	"github.com/wyvernmc/wyvern/splitting"
)

// A real Prometheus scrapes `wyvern check --metrics` during a run; the
// estimate read back through its HTTP API is the one check prints.
func TestCheckMetricsPrometheus(t *testing.T) {
	if testing.Short() {
		t.Skip("starts Prometheus and runs a few seconds of simulation")
	}
	prom, err := exec.LookPath("prometheus")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("prometheus not installed (CI=true): run scripts/install-deps.sh")
		}
		t.Skip("prometheus not installed (Debian package prometheus; scripts/install-deps.sh installs it)")
	}
	requireClang(t)
	bin := buildWyvern(t)
	dir := t.TempDir()
	target := fmt.Sprintf("127.0.0.1:%d", freePort(t))
	cfg := filepath.Join(dir, "prometheus.yml")
	if err := os.WriteFile(cfg, []byte(fmt.Sprintf(`global:
  scrape_interval: 500ms
  scrape_timeout: 500ms
scrape_configs:
  - job_name: wyvern-check
    static_configs:
      - targets: [%q]
`, target)), 0o644); err != nil {
		t.Fatal(err)
	}
	webPort := freePort(t)
	web := fmt.Sprintf("http://127.0.0.1:%d", webPort)
	startProc(t, prom, "--config.file="+cfg, "--storage.tsdb.path="+filepath.Join(dir, "data"),
		fmt.Sprintf("--web.listen-address=127.0.0.1:%d", webPort))
	for deadline := time.Now().Add(30 * time.Second); ; {
		if resp, err := http.Get(web + "/-/ready"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatal("Prometheus not ready within 30 s")
		}
		time.Sleep(100 * time.Millisecond)
	}
	// Prometheus applies its targets some seconds after it is ready: wait
	// for its first scrape (of nothing yet: up == 0).
	for deadline := time.Now().Add(30 * time.Second); ; {
		if _, err := promapi.Query(web, `up{job="wyvern-check"}`); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("Prometheus did not scrape within 30 s")
		}
		time.Sleep(100 * time.Millisecond)
	}

	// A few seconds of simulation, several scrapes during the run, however
	// fast the machine: a short experiment measures its runs/s first (a
	// fixed number of runs took 4 s on one machine and under 1 s, 2
	// scrapes, on a faster one). Its rate is start-up bound (20 k runs/s
	// where the experiment then ran 56 k), hence 10 s of it: 3-10 s.
	calib := exec.Command(bin, "check", "../../testdata/smc/gossip_2.c", "Pr[<=5000](<> [0.VERIFIER_finished]) {Epsilon=0.05}",
		"--workers", "2", "--json", "--quiet")
	var calOut, calErr bytes.Buffer
	calib.Stdout, calib.Stderr = &calOut, &calErr
	err = calib.Run()
	var cal coordinator.Result
	if err != nil || json.Unmarshal(calOut.Bytes(), &cal) != nil || cal.Stats.RunsPerSec <= 0 {
		t.Fatalf("calibration run: %v\n%s%s", err, calOut.String(), calErr.String())
	}
	get := func(q string) float64 {
		t.Helper()
		v, err := promapi.Query(web, q)
		if err != nil {
			t.Fatalf("Prometheus: %v", err)
		}
		return v
	}
	// The calibration can still be far off (3 669 runs/s once, where the
	// experiment then ran 50 k runs/s: 0.73 s, 2 scrapes). An experiment
	// too short for 3 scrapes at 500 ms is run again, longer, at the rate
	// it measured itself: at most twice.
	runs := max(int(10*cal.Stats.RunsPerSec), 20_000)
	var res coordinator.Result
	var sel string
	var n float64
	for attempt := 1; ; attempt++ {
		q := "Pr[<=5000](<> [0.VERIFIER_finished]) " + fmt.Sprintf("{Rule=fixed, Epsilon=0.0005, MaxRuns=%d}", runs)
		cmd := exec.Command(bin, "check", "../../testdata/smc/gossip_2.c", q,
			"--workers", "2", "--json", "--quiet", "--metrics", target)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("wyvern check: %v\n%s", err, stderr.String())
		}
		res = coordinator.Result{}
		if err := json.Unmarshal(stdout.Bytes(), &res); err != nil {
			t.Fatalf("result: %v\n%s", err, stdout.String())
		}
		sel = fmt.Sprintf(`{experiment=%q,job="wyvern-check"}`, res.Experiment)
		n = get("count_over_time(wyvern_experiment_runs" + sel + "[10m])")
		t.Logf("attempt %d: %d runs (calibration: %.0f runs/s) in %.2f s, %v scrapes", attempt, res.Runs, cal.Stats.RunsPerSec, res.Stats.Seconds, n)
		if n >= 3 || res.Stats.Seconds >= 2 || attempt == 3 || res.Stats.Seconds <= 0 {
			break
		}
		runs = max(runs, int(6*float64(res.Runs)/res.Stats.Seconds)) // ~6 s
	}
	est := get("last_over_time(wyvern_experiment_estimate" + sel + "[10m])")
	if d := est - res.Estimate; d > 1e-12 || d < -1e-12 {
		t.Errorf("Prometheus has estimate %v, check printed %v", est, res.Estimate)
	}
	if lo := get("last_over_time(wyvern_experiment_interval_lower" + sel + "[10m])"); lo != res.Lo {
		t.Errorf("Prometheus has lower bound %v, check printed %v", lo, res.Lo)
	}
	if runs := get("last_over_time(wyvern_experiment_runs" + sel + "[10m])"); runs != float64(res.Runs) {
		t.Errorf("Prometheus has %v runs, check printed %d", runs, res.Runs)
	}
	// Scraped while running, not only at the end.
	if n < 3 {
		t.Errorf("only %v scrapes of the experiment's runs", n)
	}
	if first := get("min_over_time(wyvern_experiment_runs" + sel + "[10m])"); first >= float64(res.Runs) {
		t.Errorf("no scrape saw the experiment before its end (fewest runs seen %v of %d)", first, res.Runs)
	}
	// The workers' counters add up to at least the folded runs.
	if tr := get(`sum(last_over_time(wyvern_worker_traces_total{job="wyvern-check"}[10m]))`); tr < float64(res.Runs) {
		t.Errorf("workers simulated %v traces, fewer than the %d runs", tr, res.Runs)
	}
}

// decodePNG fails the test unless path is a PNG image.
func decodePNG(t *testing.T, path string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if b := img.Bounds(); b.Dx() < 100 || b.Dy() < 100 {
		t.Errorf("%s: %v image", path, b)
	}
}

func listDir(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	return names
}

// check --plot writes the charts; `wyvern chart` draws the same from the
// saved --json result.
func TestCheckPlotAndChart(t *testing.T) {
	requireClang(t)
	bin := buildWyvern(t)
	dir := t.TempDir()
	plot := filepath.Join(dir, "plot")
	cmd := exec.Command(bin, "check", "../../testdata/smc/fib_8.c", "Pr[<=5000](<> [0.VERIFIER_error]) {Epsilon=0.03}",
		"--workers", "2", "--json", "--quiet", "--plot", plot)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("wyvern check: %v\n%s", err, stderr.String())
	}
	want := []string{"convergence.png", "convergence.svg", "run-lengths.png", "run-lengths.svg"}
	if got := listDir(t, plot); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("--plot wrote %v, want %v", got, want)
	}
	for _, n := range want {
		if strings.HasSuffix(n, ".png") {
			decodePNG(t, filepath.Join(plot, n))
		} else if b, err := os.ReadFile(filepath.Join(plot, n)); err != nil || !bytes.Contains(b, []byte("<svg")) {
			t.Errorf("%s is not SVG (%v)", n, err)
		}
	}
	resFile := filepath.Join(dir, "res.json")
	if err := os.WriteFile(resFile, stdout.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "chart")
	c := exec.Command(bin, "chart", resFile, "--out", out)
	if b, err := c.CombinedOutput(); err != nil {
		t.Fatalf("wyvern chart: %v\n%s", err, b)
	}
	if got := listDir(t, out); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("chart wrote %v, want %v", got, want)
	}
	decodePNG(t, filepath.Join(out, "convergence.png"))

	// A file that is not a result is bad input.
	if err := os.WriteFile(filepath.Join(dir, "bad.json"), []byte(`{"x": 1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	c = exec.Command(bin, "chart", filepath.Join(dir, "bad.json"))
	if err := c.Run(); err == nil || c.ProcessState.ExitCode() != exitUsage {
		t.Errorf("chart of a non-result: %v, want exit status %d", err, exitUsage)
	}
}

// writeCharts draws every chart a result has data for.
func TestWriteChartsAllKinds(t *testing.T) {
	cases := []struct {
		name string
		res  coordinator.Result
		want []string
	}{
		{"estimate", coordinator.Result{Kind: "estimate", Program: "p.c", Query: "Estimate[<=10,5]{max x}", Runs: 5,
			Estimate: 2.4, Lo: 1.1, Hi: 3.7, Detail: &simulator.Detail{Values: []float64{1, 2, 3, 3, 3},
				Convergence: []simulator.ConvPoint{{Runs: 2, Estimate: 1.5, Lo: 0, Hi: 3}, {Runs: 4, Estimate: 2.25, Lo: 1, Hi: 3.5}, {Runs: 5, Estimate: 2.4, Lo: 1.1, Hi: 3.7}}}},
			[]string{"convergence", "estimate-values"}},
		{"splitting", coordinator.Result{Kind: "splitting", Program: "p.c", Query: "Pr[<=10](<> x == 3) {Split=fixed, Levels=[1, 2]}",
			Detail: &splitting.Detail{Split: &splitting.Result{Estimate: 0.01, Lo: 0.005, Hi: 0.015, Replications: []float64{0.008, 0.012, 0.01},
				Levels: []splitting.Level{{Index: 1, Threshold: "1", Runs: 30, Crossings: 9, CondProb: 0.3},
					{Index: 2, Threshold: "2", Runs: 30, Crossings: 6, CondProb: 0.2}, {Index: 3, Threshold: "property", Runs: 30, Crossings: 5, CondProb: 1.0 / 6}}}}},
			[]string{"replications", "splitting-levels"}},
		{"probability", coordinator.Result{Kind: "probability", Runs: 8, Detail: &simulator.Detail{Satisfied: 2,
			Histogram:   []simulator.Bin{{Lo: 3, Hi: 3, Count: 1}, {Lo: 4, Hi: 4, Count: 1}},
			Convergence: []simulator.ConvPoint{{Runs: 8, Estimate: 0.25, Lo: 0.03, Hi: 0.65}}}},
			[]string{"convergence", "run-lengths"}},
		{"hypothesis", coordinator.Result{Kind: "hypothesis", Runs: 64, Estimate: 10.0 / 64, Detail: &simulator.Detail{Satisfied: 10,
			Verdict: "fails", Cmp: ">=", Theta: 0.3, Delta: 0.01, Alpha: 0.05, Beta: 0.05,
			Convergence: []simulator.ConvPoint{{Runs: 32, Estimate: 0.15625, Lo: 0.05, Hi: 0.33}, {Runs: 64, Estimate: 10.0 / 64, Lo: 0.08, Hi: 0.27}}}},
			[]string{"convergence", "sprt"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			files, err := writeCharts(&c.res, dir)
			if err != nil {
				t.Fatal(err)
			}
			var want []string
			for _, w := range c.want {
				want = append(want, w+".png", w+".svg")
			}
			if got := listDir(t, dir); strings.Join(got, " ") != strings.Join(want, " ") || len(files) != len(want) {
				t.Fatalf("wrote %v (%d files reported), want %v", got, len(files), want)
			}
			for _, w := range c.want {
				decodePNG(t, filepath.Join(dir, w+".png"))
			}
		})
	}
	if _, err := writeCharts(&coordinator.Result{Kind: "enum-states-smc", Runs: 3}, t.TempDir()); !errors.Is(err, charts.ErrNoData) {
		t.Errorf("a result with nothing to chart: %v, want ErrNoData", err)
	}
	// --plot on it says so and keeps the answer's exit status (it was 1)
	requireClang(t)
	var out, errb bytes.Buffer
	if rc := dispatch([]string{"check", "--workers", "1", "--plot", t.TempDir(), "../../examples/race.c", "EnumStatesSMC <=100 50"}, &out, &errb); rc != 0 ||
		!strings.Contains(errb.String(), "no chart for this result") {
		t.Errorf("check --plot on EnumStatesSMC: exit %d: %s", rc, errb.String())
	}
}

// TestLinger: check waits for a final scrape only when something has been
// scraping (two scrapes or more; one is a look by hand, which used to
// cost 15 silent seconds), says so, and stops at the scrape that follows.
func TestLinger(t *testing.T) {
	s := &metricsServer{reg: prometheus.NewRegistry()}
	var w bytes.Buffer
	s.Gather() // one look by hand
	start := time.Now()
	s.linger(5*time.Second, &w)
	if d := time.Since(start); d > time.Second || w.Len() != 0 {
		t.Errorf("after one scrape: lingered %v, said %q", d, w.String())
	}
	s.Gather() // a scraper
	go func() {
		time.Sleep(100 * time.Millisecond)
		s.Gather()
	}()
	s.linger(5*time.Second, &w)
	if !strings.Contains(w.String(), "waiting for one more scrape") {
		t.Errorf("after two scrapes: said %q", w.String())
	}
	if s.finished < 3 {
		t.Errorf("returned before the next scrape finished (%d finished)", s.finished)
	}
}
