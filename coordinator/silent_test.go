package coordinator_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wyvernmc/wyvern/coordinator"
	"github.com/wyvernmc/wyvern/internal/kinds"
	"github.com/wyvernmc/wyvern/jobs"
	"github.com/wyvernmc/wyvern/worker"
)

// TestSubmitSaysCoordinatorSilent: when the coordinator stops in the
// middle of an experiment, Submit says so after SilentAfter (once) and
// keeps waiting, instead of waiting silently forever.
func TestSubmitSaysCoordinatorSilent(t *testing.T) {
	ll := frontend(t, "../testdata/mt/counter_race.c")
	emb, err := coordinator.StartEmbedded(t.TempDir(), "")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(func() { cancel(); time.Sleep(50 * time.Millisecond); emb.Shutdown() })
	cctx, stopCoordinator := context.WithCancel(ctx)
	cnc, err := emb.Connect("coordinator")
	if err != nil {
		t.Fatal(err)
	}
	go (kinds.Coordinator(&coordinator.Coordinator{NC: cnc})).Serve(cctx)
	wnc, err := emb.Connect("worker")
	if err != nil {
		t.Fatal(err)
	}
	go (kinds.Worker(&worker.Worker{NC: wnc, ID: "w0", Slots: 1})).Run(ctx)
	nc, err := emb.Connect("client")
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	var progress, silent atomic.Int32
	silence := make(chan time.Duration, 4)
	sctx, stopSubmit := context.WithTimeout(ctx, time.Minute)
	defer stopSubmit()
	done := make(chan error, 1)
	go func() {
		_, err := coordinator.Submit(sctx, nc, coordinator.Submission{LL: ll, Name: "counter_race.c", Seed: 1, JobSize: 32,
			Query:       "Pr[<=5000](<> counter == 10) {Rule=fixed, Epsilon=0.0005}",
			Progress:    func(p jobs.Progress) { progress.Add(1) },
			Silent:      func(d time.Duration) { silent.Add(1); silence <- d },
			SilentAfter: 2 * time.Second})
		done <- err
	}()
	for progress.Load() == 0 {
		select {
		case err := <-done:
			t.Fatalf("submit ended before any progress: %v", err)
		case <-time.After(50 * time.Millisecond):
		}
	}
	if silent.Load() != 0 {
		t.Fatal("Silent called while the coordinator reports progress")
	}
	stopCoordinator()
	select {
	case d := <-silence:
		if d < 2*time.Second {
			t.Errorf("Silent after %v, want at least 2 s", d)
		}
	case err := <-done:
		t.Fatalf("submit ended without the coordinator: %v", err)
	case <-time.After(20 * time.Second):
		t.Fatal("Silent not called 20 s after the coordinator stopped")
	}
	time.Sleep(3 * time.Second)
	if n := silent.Load(); n != 1 {
		t.Errorf("Silent called %d times during one silence", n)
	}
	stopSubmit()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("submit: %v, want it still waiting until cancelled", err)
	}
}
