package worker_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/wyvernmc/wyvern/jobs"
	"github.com/wyvernmc/wyvern/worker"
)

// TestProgramCacheBounded: a worker keeps loaded programs up to
// MaxProgramBytes of footprint (globals and code), dropping the least
// recently used; a program dropped loads again. Programs used to stay
// loaded for good: 20 programs with a 400 MB global kept ~1 GB each.
func TestProgramCacheBounded(t *testing.T) {
	emb := cluster(t) // a coordinator creates the programs bucket
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
	obs := await(t, ctx, func(ctx context.Context) (jetstream.ObjectStore, error) {
		return js.ObjectStore(ctx, jobs.BucketPrograms)
	})
	const globalBytes = 1 << 20
	var progs []string
	for i := 0; i < 10; i++ {
		ll := fmt.Sprintf("@g%d = global [%d x i8] zeroinitializer\ndefine i32 @main() {\n  ret i32 0\n}\n", i, globalBytes)
		h := jobs.ProgramHash([]byte(ll))
		if _, err := obs.PutBytes(ctx, h, []byte(ll)); err != nil {
			t.Fatal(err)
		}
		progs = append(progs, h)
	}
	w := &worker.Worker{NC: nc, ID: "cache", MaxProgramBytes: 3*globalBytes + globalBytes/2}
	for i, p := range progs {
		if _, err := worker.LoadProgram(ctx, w, js, p); err != nil {
			t.Fatalf("program %d: %v", i, err)
		}
		if _, err := worker.LoadProgram(ctx, w, js, progs[0]); err != nil { // program 0 stays in use
			t.Fatalf("program 0 again: %v", err)
		}
		in, bytes := worker.CachedPrograms(w, progs)
		n := 0
		for _, ok := range in {
			if ok {
				n++
			}
		}
		if bytes > w.MaxProgramBytes || n > 3 || !in[0] || !in[i] {
			t.Fatalf("after loading program %d: %d programs (%v), %d bytes kept, at most %d", i, n, in, bytes, w.MaxProgramBytes)
		}
	}
	in, _ := worker.CachedPrograms(w, progs)
	if in[1] || !in[9] || !in[8] {
		t.Errorf("the least recently used were not the ones dropped: %v", in)
	}
	// A dropped program loads again.
	if m, err := worker.LoadProgram(ctx, w, js, progs[1]); err != nil || m == nil {
		t.Fatalf("program 1 after it was dropped: %v", err)
	}
}
