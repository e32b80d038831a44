package deploy

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/wyvernmc/wyvern/internal/promapi"
	"github.com/wyvernmc/wyvern/metrics"
)

type promConfig struct {
	Global struct {
		ScrapeInterval string `yaml:"scrape_interval"`
	} `yaml:"global"`
	ScrapeConfigs []struct {
		JobName       string `yaml:"job_name"`
		StaticConfigs []struct {
			Targets []string `yaml:"targets"`
		} `yaml:"static_configs"`
		DNSSDConfigs []struct {
			Names []string `yaml:"names"`
			Type  string   `yaml:"type"`
			Port  int      `yaml:"port"`
		} `yaml:"dns_sd_configs"`
	} `yaml:"scrape_configs"`
}

func TestPrometheusConfig(t *testing.T) {
	b, err := os.ReadFile("prometheus/prometheus.yml")
	if err != nil {
		t.Fatal(err)
	}
	var c promConfig
	dec := yaml.NewDecoder(strings.NewReader(string(b)))
	if err := dec.Decode(&c); err != nil {
		t.Fatalf("prometheus.yml is not valid YAML: %v", err)
	}
	jobs := map[string]int{}
	for i, sc := range c.ScrapeConfigs {
		if _, dup := jobs[sc.JobName]; dup {
			t.Errorf("job %q appears twice", sc.JobName)
		}
		jobs[sc.JobName] = i
	}
	// The coordinator: one static target, the compose service on its --metrics port.
	if i, ok := jobs["wyvern-coordinator"]; !ok {
		t.Errorf("no wyvern-coordinator job (have %v)", jobs)
	} else if sc := c.ScrapeConfigs[i]; len(sc.StaticConfigs) != 1 || len(sc.StaticConfigs[0].Targets) != 1 || sc.StaticConfigs[0].Targets[0] != "coordinator:9090" {
		t.Errorf("wyvern-coordinator scrapes %+v, want coordinator:9090", sc.StaticConfigs)
	}
	// The workers: DNS discovery of every replica of the worker service.
	if i, ok := jobs["wyvern-worker"]; !ok {
		t.Errorf("no wyvern-worker job (have %v)", jobs)
	} else if sc := c.ScrapeConfigs[i]; len(sc.DNSSDConfigs) != 1 {
		t.Errorf("wyvern-worker: want one dns_sd_config (replicas scale), have %+v", sc)
	} else if d := sc.DNSSDConfigs[0]; len(d.Names) != 1 || d.Names[0] != "worker" || d.Type != "A" || d.Port != 9090 {
		t.Errorf("wyvern-worker: dns_sd %+v, want A records of \"worker\" on port 9090", d)
	}
	if c.Global.ScrapeInterval == "" {
		t.Errorf("no global scrape_interval")
	}
	// The compose services these targets name exist, with metrics on 9090.
	p, err := loadCompose(t, root, "docker-compose.yml")
	if err != nil {
		t.Fatal(err)
	}
	for _, svc := range []string{"coordinator", "worker"} {
		s, ok := p.Services[svc]
		if !ok {
			t.Errorf("prometheus.yml scrapes %s, which docker-compose.yml does not define", svc)
		} else if got := flagValue(s.Command, "--metrics"); !strings.HasSuffix(got, ":9090") {
			t.Errorf("%s serves metrics on %q, prometheus.yml scrapes port 9090", svc, got)
		}
	}

	promtool, err := exec.LookPath("promtool")
	if err != nil {
		t.Skip("promtool not on PATH (Debian package prometheus): skipping `promtool check config`")
	}
	out, err := exec.Command(promtool, "check", "config", "prometheus/prometheus.yml").CombinedOutput()
	if err != nil {
		t.Errorf("promtool check config: %v\n%s", err, out)
	}
}

// promtool rejects what the YAML decoder alone accepts.
func TestPromtoolRejectsBadConfig(t *testing.T) {
	promtool, err := exec.LookPath("promtool")
	if err != nil {
		t.Skip("promtool not on PATH (Debian package prometheus)")
	}
	bad := filepath.Join(t.TempDir(), "bad.yml")
	if err := os.WriteFile(bad, []byte("scrape_configs:\n  - job_name: x\n    dns_sd_configs:\n      - names: [worker]\n        type: A\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(promtool, "check", "config", bad).CombinedOutput(); err == nil {
		t.Errorf("promtool accepted an A-record dns_sd_config without a port:\n%s", out)
	}
}

// A real Prometheus scrapes a live /metrics endpoint (as in compose, but on
// loopback) and the estimate is read back through its HTTP API.
func TestPrometheusScrapesLiveEndpoint(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a Prometheus server")
	}
	bin, err := exec.LookPath("prometheus")
	if err != nil {
		t.Skip("prometheus not on PATH (Debian package prometheus; scripts/install-deps.sh installs it)")
	}
	m := metrics.New()
	e := m.Experiment("exp-live")
	e.Progress(metrics.Progress{Runs: 4096, Satisfied: 123, Estimate: 0.0300293, Lo: 0.025, Hi: 0.0357, RunsPerSec: 900})
	m.Worker("w-live").JobDone(4096, 1_000_000, 123, time.Second)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	target, err := metrics.Serve(ctx, "127.0.0.1:0", m.Registry())
	if err != nil {
		t.Fatal(err)
	}

	dir := t.TempDir()
	cfg := filepath.Join(dir, "prometheus.yml")
	if err := os.WriteFile(cfg, []byte(fmt.Sprintf(`global:
  scrape_interval: 1s
  scrape_timeout: 1s
scrape_configs:
  - job_name: wyvern-coordinator
    static_configs:
      - targets: [%q]
`, target)), 0o644); err != nil {
		t.Fatal(err)
	}
	web := freeAddr(t)
	cmd := exec.CommandContext(ctx, bin, "--config.file="+cfg, "--storage.tsdb.path="+filepath.Join(dir, "data"),
		"--web.listen-address="+web)
	logf, err := os.Create(filepath.Join(dir, "prometheus.log"))
	if err != nil {
		t.Fatal(err)
	}
	defer logf.Close()
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		t.Fatalf("start prometheus: %v", err)
	}
	defer func() {
		cancel()
		cmd.Wait()
	}()

	q := `wyvern_experiment_estimate{experiment="exp-live",job="wyvern-coordinator"}`
	deadline := time.Now().Add(40 * time.Second)
	for {
		v, err := promapi.Query("http://"+web, q)
		if err == nil {
			if v != 0.0300293 {
				t.Fatalf("Prometheus returned %s = %g, want 0.0300293", q, v)
			}
			break
		}
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(logf.Name())
			t.Fatalf("Prometheus did not return %s within 40 s: %v\nprometheus log:\n%s", q, err, tail(string(log), 3000))
		}
		time.Sleep(250 * time.Millisecond)
	}
	// A later value is scraped too.
	e.Progress(metrics.Progress{Runs: 8192, Estimate: 0.031, Lo: 0.027, Hi: 0.035})
	for {
		v, err := promapi.Query("http://"+web, `wyvern_experiment_runs{experiment="exp-live"}`)
		if err == nil && v == 8192 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("runs never reached 8192 in Prometheus: %g, %v", v, err)
		}
		time.Sleep(250 * time.Millisecond)
	}
}

// freeAddr returns a loopback address with a free port.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

func tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}
