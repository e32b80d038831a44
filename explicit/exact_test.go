package explicit

import (
	"bufio"
	"context"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/wyvernmc/wyvern/internal/testutil"
	"github.com/wyvernmc/wyvern/ir"
	"github.com/wyvernmc/wyvern/vm"
)

// exact computes a query's exact probability and checks that the run
// outcomes add up to 1.
func exact(t *testing.T, path, text string) *ExactResult {
	t.Helper()
	m := machine(t, path)
	res, err := Exact(context.Background(), compile(t, m, text), Options{})
	if err != nil {
		t.Fatalf("%s: %s: %v", path, text, err)
	}
	if !res.Complete {
		t.Fatalf("%s: %s: incomplete: %s", path, text, res.Reason)
	}
	total := kahan{sum: res.Probability}
	for _, v := range res.Ends {
		total.add(v)
	}
	if math.Abs(total.value()-1) > 1e-12 {
		t.Errorf("%s: %s: probabilities add up to %.15g (%v)", path, text, total.value(), res.Ends)
	}
	return res
}

func binom(n, k int) float64 {
	r := 1.0
	for i := 1; i <= k; i++ {
		r = r * float64(n-k+i) / float64(i)
	}
	return r
}

// ruinDP is the distribution of the walk of ruin.c (from 1, up with
// probability p, absorbed at 0 and at 5) after T rounds.
func ruinDP(p float64, T int) [6]float64 {
	var dist [6]float64
	dist[1] = 1
	for t := 0; t < T; t++ {
		var nd [6]float64
		nd[0], nd[5] = dist[0], dist[5]
		for x := 1; x <= 4; x++ {
			nd[x+1] += p * dist[x]
			nd[x-1] += (1 - p) * dist[x]
		}
		dist = nd
	}
	return dist
}

// TestExactClosedForms: analytic models give their closed-form values to
// 1e-12.
func TestExactClosedForms(t *testing.T) {
	pBin := 0.0
	for k := 3; k <= 20; k++ {
		pBin += binom(20, k) * math.Pow(0.01, float64(k)) * math.Pow(0.99, float64(20-k))
	}
	r := 7.0 / 3
	cases := []struct {
		path, query string
		want        float64
	}{
		{"testdata/chain.c", "Pr[<=100000](<> x == 10)", math.Pow(0.9, 10)},
		{"testdata/chain.c", "Pr[<=100000](<> x >= 5)", math.Pow(0.9, 5)},
		{"testdata/binomial.c", "Pr[<=100000](<> hits >= 3)", pBin},
		{"testdata/ruin.c", "Pr[<=100000](<> x == 5)", ruinDP(0.3, 30)[5]},
		{"testdata/ruin.c", "Pr[<=100000](<> x == 0)", ruinDP(0.3, 30)[0]},
		{"testdata/ruin_long.c", "Pr[<=20000](<> x == 5)", (1 - r) / (1 - math.Pow(r, 5))},
		{"testdata/dice.c", "Pr[<=1000](<> sum == 7)", 17.0 / 72},
		{"testdata/dice.c", "Pr[<=1000](<> sum == 8)", 2.0 / 9},
		{"testdata/dice.c", "Pr[<=1000](<> sum == 13)", 1.0 / 72},
	}
	for _, tc := range cases {
		res := exact(t, tc.path, tc.query)
		if d := math.Abs(res.Probability - tc.want); d > 1e-12 {
			t.Errorf("%s %s = %.16g, want %.16g (difference %.3g)", tc.path, tc.query, res.Probability, tc.want, d)
		}
		t.Logf("%-22s %-30s %.15g (%d states, %d steps)", tc.path, tc.query, res.Probability, res.States, res.Steps)
	}
}

// TestExactScheduler: in race2.c main reads x once after creating a
// writer thread. Both are enabled from then on and each step picks one with
// probability 1/2, so main sees the write iff the writer takes its k steps
// up to and including the store before main takes its j steps up to and
// including the load: P = sum_{i<j} C(k-1+i, i) 2^-(k+i). k and j are
// counted in the compiled program.
func TestExactScheduler(t *testing.T) {
	m := machine(t, "testdata/race2.c")
	x := m.Prog.Globals[m.Prog.GlobalIdx["x"]].Block
	// steps a function takes from pc `from` to the first access of x,
	// inclusive (straight-line code).
	stepsTo := func(fn string, from int, op ir.Op) int {
		f := m.Prog.Funcs[m.Prog.FuncIdx[fn]]
		for pc := from; pc < len(f.Code); pc++ {
			in := f.Code[pc]
			if in.Op == op && in.A >= f.ConstBase && uint32(f.Consts[in.A-f.ConstBase]>>ir.PtrBlockShift) == x {
				return pc - from + 1
			}
		}
		t.Fatalf("%s has no access of x", fn)
		return 0
	}
	k := stepsTo("writer", 0, ir.OpStore)
	mainFn := m.Prog.Funcs[m.Prog.FuncIdx["main"]]
	create := -1
	for pc, in := range mainFn.Code {
		if in.Op == ir.OpCallB && ir.Builtin(in.B) == ir.BPthreadCreate {
			create = pc
		}
	}
	j := stepsTo("main", create+1, ir.OpLoad)
	want := 0.0
	for i := 0; i < j; i++ {
		want += binom(k-1+i, i) * math.Pow(0.5, float64(k+i))
	}
	res := exact(t, "testdata/race2.c", "Pr[<=1000](<> seen == 1)")
	t.Logf("writer needs %d steps, main %d: P = %g", k, j, want)
	if math.Abs(res.Probability-want) > 1e-12 {
		t.Errorf("P(main sees the write) = %.16g, want %.16g", res.Probability, want)
	}
	// Hypothesis queries are answered with the exact value.
	m2 := machine(t, "testdata/race2.c")
	hres, err := Exact(context.Background(), compile(t, m2, "Pr[<=1000](<> seen == 1) >= 0.5"), Options{})
	if err != nil || hres.Holds == nil || *hres.Holds != (want >= 0.5) {
		t.Errorf("hypothesis: %+v, %v", hres, err)
	}
}

// TestExactStepBound: the step bound counts single steps, and runs cut by
// it are checked in their last state, as in the simulator.
func TestExactStepBound(t *testing.T) {
	m := machine(t, "testdata/chain.c")
	for _, bound := range []uint64{1, 5, 40, 100} {
		c := compile(t, m, "Pr[<="+strconv.FormatUint(bound, 10)+"](<> x >= 1)")
		res, err := Exact(context.Background(), c, Options{})
		if err != nil {
			t.Fatal(err)
		}
		want := simulate(t, m, c.Prop, bound, 4000)
		if math.Abs(res.Probability-want) > 0.04 {
			t.Errorf("bound %d: exact %g, simulated %g", bound, res.Probability, want)
		}
		if bound == 1 && (res.Probability != 0 || res.Ends["step-bound"] != 1) {
			t.Errorf("bound 1: %+v", res)
		}
	}
}

// simulate estimates Pr[<=bound](<> prop) with the simulator's semantics
// (simulator.Tracer: prop at s0 and before every step, the last state too).
func simulate(t *testing.T, m *vm.Machine, prop func(*vm.State) bool, bound uint64, runs int) float64 {
	t.Helper()
	sat := 0
	for i := 0; i < runs; i++ {
		st := m.NewState()
		if m.Observe(st, bound, vm.NewRand(7, uint64(i)), func(st *vm.State, _ *vm.Thread) bool { return prop(st) }) {
			sat++
		}
	}
	return float64(sat) / float64(runs)
}

// TestExactAgainstSimulation: the exact value lies inside a 4.5-sigma
// interval of the simulator's estimate on the same models (the scheduler,
// coins and nondet inputs are drawn the same way).
func TestExactAgainstSimulation(t *testing.T) {
	for _, tc := range []struct{ path, query string }{
		{"testdata/race2.c", "Pr[<=1000](<> seen == 1)"},
		{"testdata/dice.c", "Pr[<=1000](<> sum == 8)"},
		{"testdata/ruin.c", "Pr[<=100](<> x == 0)"},
		{"../testdata/smc/fib_4.c", "Pr[<=5000](<> [0.VERIFIER_error])"},
	} {
		m := machine(t, tc.path)
		c := compile(t, m, tc.query)
		res, err := Exact(context.Background(), c, Options{})
		if err != nil {
			t.Fatal(err)
		}
		const runs = 3000
		est := simulate(t, m, c.Prop, c.Q.Bound, runs)
		sd := math.Sqrt(max(res.Probability*(1-res.Probability), 1e-4) / runs)
		if math.Abs(est-res.Probability) > 4.5*sd {
			t.Errorf("%s %s: exact %g, simulated %g (sd %g)", tc.path, tc.query, res.Probability, est, sd)
		}
		t.Logf("%s %s: exact %.6f, simulated %.4f", tc.path, tc.query, res.Probability, est)
	}
}

// TestExactBenchmarkPrograms: on the SMC benchmark programs the exact value
// lies inside the acceptance interval of testdata/smc/expected.txt (which
// bounds the true probability from large simulations). (The correct
// Peterson, probability 0, takes 30 s: its busy-wait loops keep mass alive
// up to the bound; TestPetersonMutualExclusion proves it by search.)
func TestExactBenchmarkPrograms(t *testing.T) {
	if testing.Short() {
		t.Skip("skipped in -short mode")
	}
	testutil.NeedClang(t)
	f, err := os.Open("../testdata/smc/expected.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	want := map[string][2]float64{}
	queries := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Split(sc.Text(), "\t")
		if len(fs) != 4 {
			continue
		}
		lo, _ := strconv.ParseFloat(fs[2], 64)
		hi, _ := strconv.ParseFloat(fs[3], 64)
		want[fs[0]], queries[fs[0]] = [2]float64{lo, hi}, fs[1]
	}
	for _, file := range []string{"fib_4.c", "petersonsBug.c"} {
		res := exact(t, "../testdata/smc/"+file, queries[file])
		iv := want[file]
		if res.Probability < iv[0] || res.Probability > iv[1] {
			t.Errorf("%s: exact %.6f outside [%g, %g]", file, res.Probability, iv[0], iv[1])
		}
		t.Logf("%s %s: exact %.6f in [%g, %g]; %d (state, step) pairs, largest layer %d, %.2f s", file, queries[file], res.Probability, iv[0], iv[1], res.States, res.MaxLayer, res.ElapsedSec)
	}
}

// TestExactLimits: a limit leaves the computation incomplete with bounds
// around the value.
func TestExactLimits(t *testing.T) {
	m := machine(t, "testdata/ruin_long.c")
	c := compile(t, m, "Pr[<=20000](<> x == 5)")
	res, err := Exact(context.Background(), c, Options{MaxStates: 500})
	if err != nil {
		t.Fatal(err)
	}
	r := 7.0 / 3
	p := (1 - r) / (1 - math.Pow(r, 5))
	if res.Complete || !strings.Contains(res.Reason, "state limit") || res.Lower > p || res.Upper < p || res.Upper-res.Lower < 1e-6 {
		t.Errorf("limited: %+v (true value %g)", res, p)
	}
	// Hash compaction merges by hash only: same value on a small model.
	mc := machine(t, "testdata/binomial.c")
	cc := compile(t, mc, "Pr[<=100000](<> hits >= 3)")
	full, err1 := Exact(context.Background(), cc, Options{})
	comp, err2 := Exact(context.Background(), cc, Options{Compact: true})
	if err1 != nil || err2 != nil || full.Probability != comp.Probability || full.States != comp.States ||
		comp.Omission <= 0 || comp.Omission > 1e-25 {
		t.Errorf("compact exact: %+v vs %+v (%v, %v)", comp, full, err2, err1)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Exact(ctx, c, Options{}); err == nil {
		t.Error("cancelled exact computation returned no error")
	}
}
