package coordinator

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/wyvernmc/wyvern/jobs"
)

// TestPublishJobsBatch: jobs published in a batch (asynchronously, acks
// awaited together) are each stored once and planned; publishing the
// batch again in the same session (a retry whose first attempt reached the
// stream) stores nothing more, thanks to the message ids; another session
// (a resumed experiment) publishes them again.
func TestPublishJobsBatch(t *testing.T) {
	emb, err := StartEmbedded(t.TempDir(), "")
	if err != nil {
		t.Fatal(err)
	}
	defer emb.Shutdown()
	nc, err := emb.Connect("test")
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	if err := Setup(ctx, js, time.Second, 5); err != nil {
		t.Fatal(err)
	}
	c := &Coordinator{NC: nc, js: js}
	exp := jobs.Experiment{ID: "batch", Kind: jobs.KindTrace}
	var batch []PlannedJob
	for i := range 50 {
		batch = append(batch, PlannedJob{Part: strconv.Itoa(i), Payload: jobs.TraceRange{First: uint64(i), Count: 1}})
	}
	stored := func() uint64 {
		st, err := js.Stream(ctx, jobs.StreamJobs)
		if err != nil {
			t.Fatal(err)
		}
		info, err := st.Info(ctx, jetstream.WithSubjectFilter(jobs.JobSubject(exp.ID)))
		if err != nil {
			t.Fatal(err)
		}
		return info.State.Subjects[jobs.JobSubject(exp.ID)]
	}
	s := &session{Exp: exp, c: c, nonce: "one"}
	if err := s.PublishJobs(ctx, batch); err != nil {
		t.Fatal(err)
	}
	if n := stored(); n != 50 {
		t.Fatalf("%d jobs stored, want 50", n)
	}
	for _, p := range batch {
		if !s.planned(p.Part) {
			t.Errorf("part %s published but not planned", p.Part)
		}
	}
	if err := s.PublishJobs(ctx, batch); err != nil {
		t.Fatal(err)
	}
	if n := stored(); n != 50 {
		t.Errorf("%d jobs stored after publishing the batch again in the same session, want 50 (duplicates dropped)", n)
	}
	s2 := &session{Exp: exp, c: c, nonce: "two"}
	if err := s2.PublishJobs(ctx, batch[:10]); err != nil {
		t.Fatal(err)
	}
	if n := stored(); n != 60 {
		t.Errorf("%d jobs stored after another session published 10, want 60", n)
	}
}
