package stepcount_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/wyvernmc/wyvern/coordinator"
	"github.com/wyvernmc/wyvern/internal/kinds"
	"github.com/wyvernmc/wyvern/internal/stepcount"
	"github.com/wyvernmc/wyvern/internal/testutil"
	"github.com/wyvernmc/wyvern/ir"
	"github.com/wyvernmc/wyvern/kind"
	"github.com/wyvernmc/wyvern/query"
	"github.com/wyvernmc/wyvern/vm"
	"github.com/wyvernmc/wyvern/worker"
)

// TestNewKindRunsEverywhere: a kind added as one package and one
// registration line runs through NATS like the built-in ones: submitted,
// planned, run by a worker, folded, and its result read by a client
// (text, JSON round trip, exit status, summary) without any other change.
func TestNewKindRunsEverywhere(t *testing.T) {
	testutil.NeedClang(t)
	const path, text, seed = "../../testdata/mt/counter_race.c", "Pr[<=10000](<> counter == 10)", 3
	src, err := ir.Frontend(path, ir.Options{})
	if err != nil {
		t.Fatal(err)
	}
	emb, err := coordinator.StartEmbedded(t.TempDir(), "")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(func() { cancel(); time.Sleep(50 * time.Millisecond); emb.Shutdown() })
	cnc, err := emb.Connect("coordinator")
	if err != nil {
		t.Fatal(err)
	}
	wnc, err := emb.Connect("worker")
	if err != nil {
		t.Fatal(err)
	}
	co := kinds.Coordinator(&coordinator.Coordinator{NC: cnc})
	w := kinds.Worker(&worker.Worker{NC: wnc, ID: "w0", Slots: 2})
	// The registration line (in internal/kinds.All to ship the kind).
	co.Register(stepcount.Kind.Name, stepcount.Kind.Runner)
	w.Register(stepcount.Kind.Name, stepcount.Kind.Handler)
	go co.Serve(ctx)
	go w.Run(ctx)

	nc, err := emb.Connect("client")
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	res, err := coordinator.Submit(ctx, nc, coordinator.Submission{LL: src.LL, Name: "counter_race.c", Query: text, Seed: seed, Kind: stepcount.Name})
	if err != nil {
		t.Fatal(err)
	}

	// The reference: the same runs, here.
	q, err := query.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	m := vm.NewMachine(testutil.Program(t, path))
	var total, longest uint64
	for i := range uint64(stepcount.Runs) {
		n := stepcount.Steps(m, q, seed, i)
		total += n
		longest = max(longest, n)
	}
	d, ok := res.Detail.(*stepcount.Detail)
	if !ok || res.Kind != stepcount.Name || res.Runs != stepcount.Runs || res.Steps != total || d.Max != longest {
		t.Fatalf("result %s, %d runs, %d steps, detail %#v; want %s, %d runs, %d steps, max %d",
			res.Kind, res.Runs, res.Steps, res.Detail, stepcount.Name, stepcount.Runs, total, longest)
	}
	if res.ExitStatus() != kind.ExitHolds || !strings.Contains(res.Detail.Summary(res), "at most") {
		t.Errorf("exit status %d, summary %q", res.ExitStatus(), res.Detail.Summary(res))
	}
	var b bytes.Buffer
	res.WriteText(&b)
	if !strings.Contains(b.String(), "Steps: 64 runs") {
		t.Errorf("text:\n%s", b.String())
	}
	js, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	var back coordinator.Result
	if err := json.Unmarshal(js, &back); err != nil {
		t.Fatal(err)
	}
	if bd, ok := back.Detail.(*stepcount.Detail); !ok || bd.Max != longest || !strings.Contains(string(js), `"max_steps":`) {
		t.Errorf("JSON round trip: %s gives detail %#v", js, back.Detail)
	}
}
