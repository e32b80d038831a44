package coordinator_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/wyvernmc/wyvern/coordinator"
	"github.com/wyvernmc/wyvern/ir"
	"github.com/wyvernmc/wyvern/query"
	"github.com/wyvernmc/wyvern/splitting"
	"github.com/wyvernmc/wyvern/vm"
	"github.com/wyvernmc/wyvern/worker"
)

// splitDeterministic strips the timings from a splitting result.
func splitDeterministic(r *coordinator.Result) coordinator.Result {
	c := deterministic(r)
	if sp := splitting.ResultOf(&c); sp != nil {
		s := *sp
		s.Seconds = 0
		s.Levels = append([]splitting.Level(nil), s.Levels...)
		for i := range s.Levels {
			s.Levels[i].Seconds = 0
		}
		c.Detail = &splitting.Detail{Split: &s}
	}
	return c
}

// TestSplittingAcrossWorkers: an importance-splitting experiment gives the
// same result with 1 and 4 workers, and the same as the in-process
// reference (splitting.Estimate with a local executor). The four workers
// send every segment in a message of its own (a result-size bound of one
// byte), so results split over many messages are reassembled too.
func TestSplittingAcrossWorkers(t *testing.T) {
	needClang(t)
	ll := frontend(t, "../testdata/splitting/ruin.c")
	one := startCluster(t, 1)
	four := startClusterWith(t, 4, func(w *worker.Worker) { w.MaxResultBytes = 1 })
	prog, err := ir.ParseLL("ruin.c", ll)
	if err != nil {
		t.Fatal(err)
	}
	m := vm.NewMachine(prog)
	for _, text := range []string{
		"Pr[<=1000000](<> x >= 20) {Split=fixed, Score=x, Levels=[4,8,12,16], N=200, M=4}",
		"Pr[<=1000000](<> x >= 20) {Split=adaptive, Score=x, N=100, K=10, M=4}",
		"Pr[<=1000000](<> x >= 20) {Split=fixed, Levels=[x >= 5, x >= 10, x >= 15], N=200, M=3}",
	} {
		r1, err := one.submit(t, ll, "ruin.c", text, 11)
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		r4, err := four.submit(t, ll, "ruin.c", text, 11)
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		a, _ := json.Marshal(splitDeterministic(r1))
		b, _ := json.Marshal(splitDeterministic(r4))
		if string(a) != string(b) {
			t.Errorf("%s: 1 worker and 4 workers differ:\n%s\n%s", text, a, b)
		}
		if r1.Kind != "splitting" || splitting.ResultOf(r1) == nil || r1.Estimate <= 0 || r1.Runs == 0 {
			t.Fatalf("%s: result %+v", text, r1)
		}
		q, _ := query.Parse(text)
		spec, err := splitting.FromQuery(q)
		if err != nil {
			t.Fatal(err)
		}
		local := &splitting.Local{Seed: 11, Compile: func() (*query.Compiled, error) { return query.Compile(q, m) }}
		ref, err := splitting.Estimate(context.Background(), q, spec, local, 11, 2, nil)
		if err != nil {
			t.Fatal(err)
		}
		if ref.Estimate != r1.Estimate || ref.Segments != splitting.ResultOf(r1).Segments {
			t.Errorf("%s: NATS estimate %g (%d segments), local reference %g (%d segments)", text, r1.Estimate, splitting.ResultOf(r1).Segments, ref.Estimate, ref.Segments)
		}
	}
}

// TestSplittingBadOptions: bad splitting options are refused at submission.
func TestSplittingBadOptions(t *testing.T) {
	needClang(t)
	ll := frontend(t, "../testdata/splitting/ruin.c")
	c := startCluster(t, 1)
	_, err := c.submit(t, ll, "ruin.c", "Pr[<=1000](<> x >= 20) {Split=fixed, Score=x}", 1)
	if err == nil || !strings.Contains(err.Error(), "needs levels") {
		t.Fatalf("error %v", err)
	}
}
