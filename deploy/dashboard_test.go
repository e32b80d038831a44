package deploy

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	"gopkg.in/yaml.v3"

	"github.com/wyvernmc/wyvern/metrics"
)

// exercised returns a metrics.Set on which every method has been called
// once, so that every series exists.
func exercised() *metrics.Set {
	s := metrics.New()
	w := s.Worker("worker-1")
	w.JobStarted()
	w.JobDone(256, 100_000, 3, 2*time.Second)
	w.JobStarted()
	w.JobAbandoned()
	e := s.Experiment("exp-1")
	e.JobsPublished(4)
	e.Duplicates(1)
	e.Progress(metrics.Progress{Runs: 256, Satisfied: 3, Planned: 1024, Steps: 100_000, Estimate: 3.0 / 256, Lo: 0.002, Hi: 0.034, RunsPerSec: 128})
	e.SPRT(0.5, -2.9, 2.9)
	e.SplittingLevel(2, 10, 0.3, 0.09)
	e.Explicit(100, 10, 3)
	e.Explicit(200, 5, 4)
	s.Jobs(3, 2, 1)
	s.JobExhausted()
	now := time.Now()
	s.Heartbeat("worker-1", now.Add(-time.Second), 0, 0)
	s.Heartbeat("worker-1", now, 256, 100_000)
	s.WorkersAlive(1)
	// A finished experiment counts in the totals.
	s.Experiment("exp-0").Finish(true)
	return s
}

// scrapeLive serves m with metrics.Serve and scrapes /metrics over HTTP.
func scrapeLive(t *testing.T, m *metrics.Set) map[string]*dto.MetricFamily {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	addr, err := metrics.Serve(ctx, "127.0.0.1:0", m.Registry())
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.Get("http://" + addr + "/metrics")
	if err != nil {
		t.Fatalf("scrape: %v", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("scrape: %s", resp.Status)
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	mfs, err := p.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatalf("parse the exposition: %v", err)
	}
	return mfs
}

// dashboard is the part of Grafana's dashboard model the tests read.
type dashboard struct {
	UID        string  `json:"uid"`
	Title      string  `json:"title"`
	Panels     []panel `json:"panels"`
	Templating struct {
		List []struct {
			Name       string          `json:"name"`
			Datasource *datasourceRef  `json:"datasource"`
			Query      json.RawMessage `json:"query"`
		} `json:"list"`
	} `json:"templating"`
}

type panel struct {
	ID         int                      `json:"id"`
	Type       string                   `json:"type"`
	Title      string                   `json:"title"`
	Datasource *datasourceRef           `json:"datasource"`
	GridPos    struct{ X, Y, W, H int } `json:"gridPos"`
	Repeat     string                   `json:"repeat"`
	Targets    []struct {
		Expr       string         `json:"expr"`
		RefID      string         `json:"refId"`
		Datasource *datasourceRef `json:"datasource"`
	} `json:"targets"`
	Panels []panel `json:"panels"` // collapsed rows
}

type datasourceRef struct {
	Type string `json:"type"`
	UID  string `json:"uid"`
}

func loadDashboard(t *testing.T) *dashboard {
	t.Helper()
	b, err := os.ReadFile("grafana/dashboards/wyvern.json")
	if err != nil {
		t.Fatal(err)
	}
	var d dashboard
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatalf("grafana/dashboards/wyvern.json: %v", err)
	}
	return &d
}

// exprs returns every PromQL expression of the dashboard: panel targets and
// template-variable queries.
func (d *dashboard) exprs() []string {
	var out []string
	var walk func(ps []panel)
	walk = func(ps []panel) {
		for _, p := range ps {
			for _, t := range p.Targets {
				out = append(out, t.Expr)
			}
			walk(p.Panels)
		}
	}
	walk(d.Panels)
	for _, v := range d.Templating.List {
		var q struct {
			Query string `json:"query"`
		}
		if json.Unmarshal(v.Query, &q) == nil && q.Query != "" {
			out = append(out, q.Query)
		} else {
			var s string
			if json.Unmarshal(v.Query, &s) == nil {
				out = append(out, s)
			}
		}
	}
	return out
}

var metricName = regexp.MustCompile(`\b(?:wyvern|go|process)_[a-z0-9_]*[a-z0-9]\b`)

// family maps a series name used in PromQL to its metric family: histogram
// and summary series carry _bucket, _sum and _count suffixes.
func family(mfs map[string]*dto.MetricFamily, name string) (string, bool) {
	if _, ok := mfs[name]; ok {
		return name, true
	}
	for _, suf := range []string{"_bucket", "_sum", "_count"} {
		if base, ok := strings.CutSuffix(name, suf); ok {
			if mf, ok := mfs[base]; ok {
				switch mf.GetType() {
				case dto.MetricType_HISTOGRAM, dto.MetricType_SUMMARY, dto.MetricType_GAUGE_HISTOGRAM:
					if suf != "_bucket" || mf.GetType() != dto.MetricType_SUMMARY {
						return base, true
					}
				}
			}
		}
	}
	return "", false
}

func TestDashboardMetricsExist(t *testing.T) {
	d := loadDashboard(t)
	mfs := scrapeLive(t, exercised())
	exprs := d.exprs()
	if len(exprs) < 20 {
		t.Fatalf("the dashboard has only %d expressions", len(exprs))
	}
	used := map[string]bool{}
	for _, e := range exprs {
		names := metricName.FindAllString(e, -1)
		if len(names) == 0 {
			t.Errorf("expression %q names no metric", e)
		}
		for _, n := range names {
			fam, ok := family(mfs, n)
			if !ok {
				t.Errorf("dashboard uses %s (in %q), which the live /metrics endpoint does not export", n, e)
				continue
			}
			used[fam] = true
		}
	}
	// Label matchers name labels the metric has (job and instance are
	// Prometheus's own).
	selector := regexp.MustCompile(`\b((?:wyvern|go|process)_[a-z0-9_]+)\{([^}]*)\}`)
	matcher := regexp.MustCompile(`([a-zA-Z_][a-zA-Z0-9_]*)\s*(?:=~|!~|!=|=)`)
	for _, e := range exprs {
		for _, m := range selector.FindAllStringSubmatch(e, -1) {
			fam, ok := family(mfs, m[1])
			if !ok {
				continue
			}
			have := map[string]bool{"job": true, "instance": true, "le": true}
			for _, s := range mfs[fam].GetMetric() {
				for _, lp := range s.GetLabel() {
					have[lp.GetName()] = true
				}
			}
			for _, lm := range matcher.FindAllStringSubmatch(m[2], -1) {
				if !have[lm[1]] {
					t.Errorf("%q matches label %q, which %s does not have", e, lm[1], fam)
				}
			}
		}
	}
	// Every Wyvern metric is on the dashboard, but for these bookkeeping ones.
	notShown := map[string]bool{
		"wyvern_experiment_start_timestamp_seconds": true,
		"wyvern_experiment_steps":                   true,
		"wyvern_experiment_jobs_published_total":    true,
		"wyvern_worker_throughput_steps_per_second": true,
		"wyvern_experiments_completed_total":        true,
		"wyvern_experiments_failed_total":           true,
	}
	var missing []string
	for name := range mfs {
		if strings.HasPrefix(name, "wyvern_") && !used[name] && !notShown[name] {
			missing = append(missing, name)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("metrics not on the dashboard: %v", missing)
	}
}

func TestDashboardStructure(t *testing.T) {
	d := loadDashboard(t)
	if d.UID == "" || d.Title == "" {
		t.Errorf("dashboard uid %q, title %q: both are needed for provisioning", d.UID, d.Title)
	}
	// The datasource the panels name is the provisioned one.
	var ds struct {
		Datasources []struct {
			Name, Type, UID, URL string
		} `yaml:"datasources"`
	}
	b, err := os.ReadFile("grafana/provisioning/datasources/prometheus.yml")
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(b, &ds); err != nil {
		t.Fatalf("datasources: %v", err)
	}
	if len(ds.Datasources) != 1 || ds.Datasources[0].Type != "prometheus" || ds.Datasources[0].URL != "http://prometheus:9090" {
		t.Fatalf("datasources: want one prometheus source at http://prometheus:9090, have %+v", ds.Datasources)
	}
	uid := ds.Datasources[0].UID
	ids := map[int]string{}
	type rect struct{ x, y, w, h int }
	var rects []rect
	var titles []string
	titlesWanted := []string{"progress", "interval", "throughput per worker", "queue", "splitting level", "conditional probability", "states per second"}
	for _, p := range d.Panels {
		if prev, dup := ids[p.ID]; dup {
			t.Errorf("panels %q and %q share id %d", prev, p.Title, p.ID)
		}
		ids[p.ID] = p.Title
		titles = append(titles, strings.ToLower(p.Title))
		g := p.GridPos
		if g.W <= 0 || g.H <= 0 || g.X < 0 || g.X+g.W > 24 {
			t.Errorf("panel %q: gridPos %+v outside the 24-column grid", p.Title, g)
		}
		for i, r := range rects {
			if g.X < r.x+r.w && r.x < g.X+g.W && g.Y < r.y+r.h && r.y < g.Y+g.H {
				t.Errorf("panel %q overlaps panel %q", p.Title, d.Panels[i].Title)
			}
		}
		rects = append(rects, rect{g.X, g.Y, g.W, g.H})
		if p.Type == "row" {
			continue
		}
		if len(p.Targets) == 0 {
			t.Errorf("panel %q has no queries", p.Title)
		}
		if p.Datasource == nil || p.Datasource.UID != uid {
			t.Errorf("panel %q: datasource %+v, want uid %q", p.Title, p.Datasource, uid)
		}
		for _, tg := range p.Targets {
			if strings.TrimSpace(tg.Expr) == "" {
				t.Errorf("panel %q: target %s has no expression", p.Title, tg.RefID)
			}
		}
	}
	for _, want := range titlesWanted {
		found := false
		for _, ti := range titles {
			found = found || strings.Contains(ti, want)
		}
		if !found {
			t.Errorf("no panel about %q", want)
		}
	}
	// Template variables exist for what the expressions refer to.
	vars := map[string]bool{}
	for _, v := range d.Templating.List {
		vars[v.Name] = true
		if v.Datasource == nil || v.Datasource.UID != uid {
			t.Errorf("variable %s: datasource %+v, want uid %q", v.Name, v.Datasource, uid)
		}
	}
	for _, e := range d.exprs() {
		for _, m := range regexp.MustCompile(`\$\{?([a-z_]+)`).FindAllStringSubmatch(e, -1) {
			if !vars[m[1]] && !strings.HasPrefix(m[1], "__") {
				t.Errorf("%q uses undefined variable $%s", e, m[1])
			}
		}
	}
	for _, p := range d.Panels {
		if p.Repeat != "" && !vars[p.Repeat] {
			t.Errorf("panel %q repeats over undefined variable %s", p.Title, p.Repeat)
		}
	}
	// The dashboard provider points where compose mounts the dashboards.
	var prov struct {
		Providers []struct {
			Type    string `yaml:"type"`
			Options struct {
				Path string `yaml:"path"`
			} `yaml:"options"`
		} `yaml:"providers"`
	}
	b, err = os.ReadFile("grafana/provisioning/dashboards/wyvern.yml")
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(b, &prov); err != nil {
		t.Fatalf("dashboard provider: %v", err)
	}
	p, err := loadCompose(t, root, "docker-compose.yml")
	if err != nil {
		t.Fatal(err)
	}
	dashDir, _ := filepath.Abs("grafana/dashboards")
	if len(prov.Providers) != 1 || prov.Providers[0].Type != "file" {
		t.Fatalf("dashboard providers: %+v", prov.Providers)
	}
	if v := mountAt(p.Services["grafana"], prov.Providers[0].Options.Path); v == nil || v.Source != dashDir {
		t.Errorf("the dashboard provider reads %s, where compose does not mount deploy/grafana/dashboards", prov.Providers[0].Options.Path)
	}
}
