package coordinator_test

import (
	"testing"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/wyvernmc/wyvern/jobs"
)

// TestConsumersBounded: experiments leave no JetStream consumer behind.
// Each experiment's results consumer used to linger for 5 minutes after it
// ended; nats-server caps a stream at 1 000 consumers, so past 1 000
// experiments in 5 minutes every new one failed ("maximum consumers limit
// reached", `check -q` with 1 010 queries). Sequential experiments of each
// shape (many jobs, one job read back from the start) must leave the
// results stream and the experiments bucket with no more consumers than
// they had.
func TestConsumersBounded(t *testing.T) {
	ll := frontend(t, writeC(t, "coin.c", coinModel(1, 2)))
	c := startCluster(t, 1)
	nc, err := c.emb.Connect("probe")
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	consumers := func(stream string) int {
		t.Helper()
		st, err := js.Stream(c.ctx, stream)
		if err != nil {
			t.Fatalf("stream %s: %v", stream, err)
		}
		info, err := st.Info(c.ctx)
		if err != nil {
			t.Fatalf("stream %s: %v", stream, err)
		}
		return info.State.Consumers
	}
	kvStream := "KV_" + jobs.BucketExperiments
	queries := []string{
		"Pr[<=10](<> [0.reach_error])",        // many trace jobs
		"Pr[<=10](<> [0.reach_error]) >= 0.9", // SPRT: stops early
		"Estimate[<=10,64]{max 1}",            // one phase
		"E<> [0.reach_error]",                 // explicit: one job
	}
	const rounds = 10
	var base int
	for i := 0; i < rounds*len(queries); i++ {
		q := queries[i%len(queries)]
		if _, err := c.submit(t, ll, "coin.c", q, uint64(i+1)); err != nil {
			t.Fatalf("experiment %d (%s): %v", i, q, err)
		}
		n := consumers(jobs.StreamResults)
		if i == 0 {
			base = n
		}
		if n > base {
			t.Fatalf("after %d experiments the results stream has %d consumers (%d after the first): experiments leak consumers", i+1, n, base)
		}
		if k := consumers(kvStream); k > 1 {
			t.Fatalf("after %d experiments the experiments bucket has %d consumers", i+1, k)
		}
	}
	t.Logf("%d experiments: %d results consumers, %d experiments-bucket consumers", rounds*len(queries), consumers(jobs.StreamResults), consumers(kvStream))
}
