package metrics

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Handler serves the exposition of g (text or OpenMetrics, as negotiated).
func Handler(g prometheus.Gatherer) http.Handler {
	return promhttp.HandlerFor(g, promhttp.HandlerOpts{EnableOpenMetrics: true})
}

// Serve serves g's metrics on http://addr/metrics until ctx ends, in the
// background. addr is a listen address such as ":9090", "127.0.0.1:0" (any
// free port) or "[::1]:9090"; the address actually bound is returned, e.g.
// to print or to hand to a test. It fails at once when addr cannot be
// listened on.
func Serve(ctx context.Context, addr string, g prometheus.Gatherer) (string, error) {
	ln, err := (&net.ListenConfig{}).Listen(ctx, "tcp", addr)
	if err != nil {
		return "", fmt.Errorf("metrics: listen on %s: %w", addr, err)
	}
	mux := http.NewServeMux()
	mux.Handle("/metrics", Handler(g))
	mux.HandleFunc("/{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<html><body><h1>Wyvern</h1><p><a href="/metrics">/metrics</a></p></body></html>`)
	})
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		srv.Shutdown(sctx)
	}()
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			// The listener failed under us; Prometheus will see the target down.
			ln.Close()
		}
	}()
	return ln.Addr().String(), nil
}
