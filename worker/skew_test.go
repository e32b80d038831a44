package worker_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/wyvernmc/wyvern/jobs"
	"github.com/wyvernmc/wyvern/worker"
)

// TestVersionSkew: a worker of another protocol version says so at start
// and takes no jobs when the job stream was set up by a coordinator of
// another version; one that runs anyway (a stream set up before versions
// were recorded) refuses each job and tells the coordinator, which fails
// the experiment naming the worker and both versions. Before, such a
// worker terminated every job it took and the experiment waited for ever.
func TestVersionSkew(t *testing.T) {
	emb := cluster(t) // a coordinator; its worker runs no kinds, so serves nothing
	nc, err := emb.Connect("test")
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	stream := await(t, ctx, func(ctx context.Context) (jetstream.Stream, error) { return js.Stream(ctx, jobs.StreamJobs) })
	old := func(id string) *worker.Worker {
		wnc, err := emb.Connect(id)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(wnc.Close)
		w := &worker.Worker{NC: wnc, ID: id, Slots: 1}
		w.Register(kindDouble, func() worker.Handler { return doubleHandler{} })
		worker.SetProtocol(w, jobs.Version-1)
		return w
	}

	// At start: the stream says the coordinator's version.
	if err := old("old-start").Run(ctx); err == nil || !strings.Contains(err.Error(),
		fmt.Sprintf("this worker speaks protocol version %d, the coordinator that set up WYVERN_JOBS speaks version %d", jobs.Version-1, jobs.Version)) {
		t.Fatalf("a worker of version %d started on a version %d stream: %v", jobs.Version-1, jobs.Version, err)
	}

	// Running anyway: a stream without the version (an older coordinator's).
	cfg := stream.CachedInfo().Config
	cfg.Metadata = nil
	if _, err := js.UpdateStream(ctx, cfg); err != nil {
		t.Fatal(err)
	}
	wctx, wcancel := context.WithCancel(ctx)
	defer wcancel()
	go old("old-run").Run(wctx)
	_, err = submit(t, emb, 1)
	want := fmt.Sprintf("worker old-run speaks protocol version %d and refused a job of this coordinator's version %d", jobs.Version-1, jobs.Version)
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("experiment with only a worker of version %d: %v, want %q", jobs.Version-1, err, want)
	}
}
