package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	dto "github.com/prometheus/client_model/go"

	"github.com/wyvernmc/wyvern/metrics"
)

// metricsServer is a metrics.Set served on /metrics, counting scrapes.
type metricsServer struct {
	set *metrics.Set

	mu       sync.Mutex
	started  int // scrapes started
	finished int // index (1-based) of the latest scrape finished
}

// Gather implements prometheus.Gatherer, counting scrapes.
func (s *metricsServer) Gather() ([]*dto.MetricFamily, error) {
	s.mu.Lock()
	s.started++
	n := s.started
	s.mu.Unlock()
	mfs, err := s.set.Registry().Gather()
	s.mu.Lock()
	s.finished = max(s.finished, n)
	s.mu.Unlock()
	return mfs, err
}

// linger waits, when something has been scraping the endpoint, until a
// scrape that started after the call has finished (at most max), so that
// the scraper records the final values before the process exits.
func (s *metricsServer) linger(max time.Duration) {
	if s == nil {
		return
	}
	s.mu.Lock()
	after := s.started
	s.mu.Unlock()
	if after == 0 {
		return
	}
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

// Set is the served Set, nil when metrics are off.
func (s *metricsServer) Set() *metrics.Set {
	if s == nil {
		return nil
	}
	return s.set
}

// serveMetrics serves a fresh metrics.Set on addr ("": none, nil result)
// until ctx ends. When addr picks a free port (ends in ":0") the bound
// address is printed to stderr.
func serveMetrics(ctx context.Context, addr string, stderr io.Writer) (*metricsServer, error) {
	if addr == "" {
		return nil, nil
	}
	s := &metricsServer{set: metrics.New()}
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
