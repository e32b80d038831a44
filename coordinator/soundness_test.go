package coordinator_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/wyvernmc/wyvern/coordinator"
	"github.com/wyvernmc/wyvern/estimator"
	"github.com/wyvernmc/wyvern/ir"
	"github.com/wyvernmc/wyvern/jobs"
	"github.com/wyvernmc/wyvern/query"
	"github.com/wyvernmc/wyvern/simulator"
	"github.com/wyvernmc/wyvern/vm"
)

// TestSoundnessSPRTTerminates: at p = θ, where the SPRT needs the most runs
// and often more than Wald's expected number (which the coordinator once
// took for a bound and stopped publishing jobs at, hanging about a third
// of the seeds), 200 experiments through a real cluster (embedded NATS,
// coordinator, two workers, jobs of 8 traces) all finish, each with the
// answer of the sequential reference fold. A MaxRuns cap ends undecided,
// with a warning, after exactly MaxRuns runs.
func TestSoundnessSPRTTerminates(t *testing.T) {
	if testing.Short() {
		t.Skip("soundness suite (long)")
	}
	needClang(t)
	path := writeC(t, "coin.c", coinModel(1, 2))
	prog, err := ir.Load(path, ir.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ll := frontend(t, path)
	const text = "Pr[<=100](<> [0.reach_error]) >= 0.5 {Delta=0.1}"
	q, err := query.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	c := startCluster(t, 2)
	nc, err := c.emb.Connect("client")
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	const seeds = 200
	var (
		mu       sync.Mutex
		beyond   int // experiments that needed more runs than Wald's expected number
		firstErr error
	)
	sp, err := estimator.NewSPRT(0.5, 0.1, 0.05, 0.05)
	if err != nil {
		t.Fatal(err)
	}
	planned := uint64(sp.Planned())
	m := vm.NewMachine(prog)
	sem := make(chan struct{}, 8)
	var wg sync.WaitGroup
	for seed := uint64(1); seed <= seeds; seed++ {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			mu.Lock()
			failed := firstErr != nil
			mu.Unlock()
			if failed {
				return
			}
			cq, err := query.Compile(q, m) // a compiled query is not safe for concurrent use
			if err != nil {
				mu.Lock()
				firstErr = err
				mu.Unlock()
				return
			}
			tr := simulator.NewTracer(cq)
			want, err := simulator.Fold(q, seed, func(i uint64) jobs.Outcome { o, _ := tr.Trace(seed, i); return o })
			if err != nil {
				mu.Lock()
				firstErr = err
				mu.Unlock()
				return
			}
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			got, err := coordinator.Submit(ctx, nc, coordinator.Submission{LL: ll, Name: "coin.c", Query: text, Seed: seed, JobSize: 8})
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err != nil:
				firstErr = fmt.Errorf("seed %d: %w (the coordinator hung or failed)", seed, err)
			case got.Runs != want.Runs || simulator.DetailOf(got).Decision != simulator.DetailOf(want).Decision || simulator.DetailOf(got).Verdict != simulator.DetailOf(want).Verdict:
				firstErr = fmt.Errorf("seed %d: cluster %d runs %s, reference %d runs %s", seed, got.Runs, simulator.DetailOf(got).Decision, want.Runs, simulator.DetailOf(want).Decision)
			case simulator.DetailOf(got).Decision == "undecided":
				firstErr = fmt.Errorf("seed %d: undecided after %d runs (cap %d)", seed, got.Runs, simulator.DetailOf(got).MaxRuns)
			}
			if got != nil && got.Runs > planned {
				beyond++
			}
		}()
	}
	wg.Wait()
	if firstErr != nil {
		t.Fatal(firstErr)
	}
	t.Logf("%d experiments at p = θ all finished; %d needed more than Wald's expected %d runs", seeds, beyond, planned)
	if beyond == 0 {
		t.Errorf("no experiment needed more than the expected sample size: the test does not exercise the open-ended path")
	}

	// A cap reached without a decision: undecided, with the reason.
	capped := "Pr[<=100](<> [0.reach_error]) >= 0.5 {Delta=0.01, MaxRuns=300}"
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	r, err := coordinator.Submit(ctx, nc, coordinator.Submission{LL: ll, Name: "coin.c", Query: capped, Seed: 3, JobSize: 64})
	if err != nil {
		t.Fatal(err)
	}
	if simulator.DetailOf(r).Verdict != "undecided" || r.Runs != 300 || !strings.Contains(strings.Join(r.Warnings, " "), "MaxRuns = 300 reached") {
		t.Errorf("capped test: verdict %s after %d runs, warnings %q", simulator.DetailOf(r).Verdict, r.Runs, r.Warnings)
	}
}

// TestSoundnessSPRTErrorRates: at θ ± δ the SPRT (through the same fold as
// the coordinator) errs at most at Wald's bounds α/(1-β) and β/(1-α),
// within binomial tolerance over 400 seeds each.
func TestSoundnessSPRTErrorRates(t *testing.T) {
	if testing.Short() {
		t.Skip("soundness suite (long)")
	}
	needClang(t)
	const seeds = 400
	for _, tc := range []struct {
		num, den int
		wrong    string // the decision that is an error at this p
	}{{6, 10, "reject"}, {4, 10, "accept"}} {
		path := writeC(t, "coin.c", coinModel(tc.num, tc.den))
		prog, err := ir.Load(path, ir.Options{})
		if err != nil {
			t.Fatal(err)
		}
		q, _ := query.Parse("Pr[<=100](<> [0.reach_error]) >= 0.5 {Delta=0.1, Alpha=0.05, Beta=0.05}")
		cq, err := query.Compile(q, vm.NewMachine(prog))
		if err != nil {
			t.Fatal(err)
		}
		tr := simulator.NewTracer(cq)
		wrong := 0
		for seed := uint64(1); seed <= seeds; seed++ {
			r, err := simulator.Fold(q, seed, func(i uint64) jobs.Outcome { o, _ := tr.Trace(seed, i); return o })
			if err != nil {
				t.Fatal(err)
			}
			if simulator.DetailOf(r).Decision == tc.wrong {
				wrong++
			}
		}
		bound := 0.05 / 0.95
		b := distuv.Binomial{N: seeds, P: bound}
		limit := 0.0
		for b.CDF(limit) < 0.999 {
			limit++
		}
		t.Logf("p = %d/%d: %d of %d decisions wrong (Wald's bound %.4f, tolerance %.0f)", tc.num, tc.den, wrong, seeds, bound, limit)
		if float64(wrong) > limit {
			t.Errorf("p = %d/%d: %d of %d wrong decisions, above the tolerance %.0f", tc.num, tc.den, wrong, seeds, limit)
		}
	}
}
