package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"

	"github.com/wyvernmc/wyvern/metrics"
)

// metricsServer is a metrics registry served on /metrics, counting
// scrapes. The components running in the process register their
// collectors on it (Workers, Coordinator).
type metricsServer struct {
	reg *prometheus.Registry

	mu       sync.Mutex
	workers  *metrics.Workers
	coord    *metrics.Coordinator
	started  int // scrapes started
	finished int // index (1-based) of the latest scrape finished
}

// Gather implements prometheus.Gatherer, counting scrapes.
func (s *metricsServer) Gather() ([]*dto.MetricFamily, error) {
	s.mu.Lock()
	s.started++
	n := s.started
	s.mu.Unlock()
	mfs, err := s.reg.Gather()
	s.mu.Lock()
	s.finished = max(s.finished, n)
	s.mu.Unlock()
	return mfs, err
}

// linger waits, when something has been scraping the endpoint (two
// scrapes at least: one is a look by hand, not a scraper), until a scrape
// that started after the call has finished (at most max), so that the
// scraper records the final values before the process exits. It says so
// on w while it waits.
func (s *metricsServer) linger(max time.Duration, w io.Writer) {
	if s == nil {
		return
	}
	s.mu.Lock()
	after := s.started
	s.mu.Unlock()
	if after < 2 {
		return
	}
	fmt.Fprintf(w, "wyvern: waiting for one more scrape of the metrics endpoint (at most %s) so that the final values are recorded\n", max)
	deadline := time.Now().Add(max)
	for time.Now().Before(deadline) {
		s.mu.Lock()
		done := s.finished > after
		s.mu.Unlock()
		if done {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Workers returns the workers' collectors, registered on first use; nil
// when metrics are off.
func (s *metricsServer) Workers() *metrics.Workers {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.workers == nil {
		s.workers = metrics.NewWorkers(s.reg)
	}
	return s.workers
}

// Coordinator returns the coordinator's collectors, registered on first
// use; nil when metrics are off.
func (s *metricsServer) Coordinator() *metrics.Coordinator {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.coord == nil {
		s.coord = metrics.NewCoordinator(s.reg)
	}
	return s.coord
}

// serveMetrics serves a fresh metrics registry on addr ("": none, nil result)
// until ctx ends. When addr picks a free port (ends in ":0") the bound
// address is printed to stderr.
func serveMetrics(ctx context.Context, addr string, stderr io.Writer) (*metricsServer, error) {
	if addr == "" {
		return nil, nil
	}
	s := &metricsServer{reg: metrics.NewRegistry()}
	bound, err := metrics.Serve(ctx, addr, s)
	if err != nil {
		return nil, err
	}
	if strings.HasSuffix(addr, ":0") {
		fmt.Fprintf(stderr, "wyvern: metrics on http://%s/metrics\n", bound)
	}
	return s, nil
}

// metricsFlag registers --metrics on fs.
func metricsFlag(fs *flag.FlagSet) *string {
	return fs.String("metrics", "", "serve Prometheus metrics on http://ADDR/metrics (e.g. :9090; 127.0.0.1:0 picks a free port and prints it)")
}
