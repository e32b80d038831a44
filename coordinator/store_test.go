package coordinator_test

import (
	"context"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/wyvernmc/wyvern/coordinator"
	"github.com/wyvernmc/wyvern/internal/kinds"
	"github.com/wyvernmc/wyvern/jobs"
)

// TestStoreLimits: the coordinator sets up every stream and bucket with a
// byte limit and an age (the defaults, or the operator's): the results
// stream had no byte limit and the buckets kept everything for ever.
func TestStoreLimits(t *testing.T) {
	d := coordinator.DefaultStoreLimits
	custom := coordinator.StoreLimits{ResultsMaxBytes: 64 << 20, ProgramsMaxAge: time.Hour}
	for _, tc := range []struct {
		name  string
		store coordinator.StoreLimits
		want  map[string][2]int64 // stream: max bytes, max age (ns)
	}{
		{"defaults", coordinator.StoreLimits{}, map[string][2]int64{
			jobs.StreamResults:             {d.ResultsMaxBytes, int64(d.ResultsMaxAge)},
			jobs.StreamJobs:                {d.JobsMaxBytes, 0},
			"KV_" + jobs.BucketExperiments: {d.ExperimentsMaxBytes, int64(d.ExperimentsMaxAge)},
			"OBJ_" + jobs.BucketPrograms:   {d.ProgramsMaxBytes, int64(d.ProgramsMaxAge)},
		}},
		{"operator's", custom, map[string][2]int64{
			jobs.StreamResults:           {64 << 20, int64(d.ResultsMaxAge)},
			"OBJ_" + jobs.BucketPrograms: {d.ProgramsMaxBytes, int64(time.Hour)},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			emb, err := coordinator.StartEmbedded(t.TempDir(), "")
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer func() { cancel(); time.Sleep(50 * time.Millisecond); emb.Shutdown() }()
			cnc, err := emb.Connect("coordinator")
			if err != nil {
				t.Fatal(err)
			}
			go (kinds.Coordinator(&coordinator.Coordinator{NC: cnc, Store: tc.store})).Serve(ctx)
			js, err := jetstream.New(cnc)
			if err != nil {
				t.Fatal(err)
			}
			// The workers' consumer is created last.
			for {
				if _, err := js.Consumer(ctx, jobs.StreamJobs, jobs.ConsumerWorkers); err == nil {
					break
				}
				if ctx.Err() != nil {
					t.Fatal("no workers' consumer in a minute")
				}
				time.Sleep(50 * time.Millisecond)
			}
			for name, want := range tc.want {
				st, err := js.Stream(ctx, name)
				if err != nil {
					t.Fatal(err)
				}
				cfg := st.CachedInfo().Config
				if cfg.MaxBytes != want[0] || int64(cfg.MaxAge) != want[1] {
					t.Errorf("%s: max bytes %d, max age %v; want %d, %v", name, cfg.MaxBytes, cfg.MaxAge, want[0], time.Duration(want[1]))
				}
			}
		})
	}
}
