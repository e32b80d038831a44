package simulator

import (
	"testing"

	"github.com/wyvernmc/wyvern/internal/testutil"
	"github.com/wyvernmc/wyvern/query"
	"github.com/wyvernmc/wyvern/vm"
)

// TestCondBehaviours checks the probabilities simulation gives the
// condition variables' behaviours (testdata/mt/cond_outcomes.c: two
// waiters, one signal once both wait): by default the signal wakes the
// second to arrive in half the runs (a uniform draw) and no wait returns
// before the signal; under LODIN's platform never the second; with
// Spurious=1 every wait returns at once, so both do. 4 000 traces:
// a half is read within 0.04 (3.5 standard errors; the traces are fixed by
// the seed, so the test is deterministic).
func TestCondBehaviours(t *testing.T) {
	testutil.NeedClang(t)
	m := vm.NewMachine(testutil.Program(t, "../testdata/mt/cond_outcomes.c"))
	const traces = 4000
	for _, tc := range []struct {
		query  string
		lo, hi float64
	}{
		{"Pr[<=5000](<> got2 == 1)", 0.46, 0.54},
		{"Pr[<=5000](<> got1 == 1 && got2 == 1)", 0, 0},
		{"Pr[<=5000](<> (got1 == 1 || got2 == 1) && signalled == 0)", 0, 0},
		{"Pr[<=5000](<> got2 == 1) {Platform=lodin}", 0, 0},
		{"Pr[<=5000](<> got1 == 1) {Platform=lodin}", 1, 1},
		{"Pr[<=5000](<> got1 == 1 && got2 == 1) {Spurious=1}", 1, 1},
		{"Pr[<=5000](<> (got1 == 1 || got2 == 1) && signalled == 0) {Spurious=0.5}", 0.5, 0.9},
	} {
		q, err := query.Parse(tc.query)
		if err != nil {
			t.Fatal(err)
		}
		c, err := query.Compile(q, m)
		if err != nil {
			t.Fatal(err)
		}
		tr := NewTracer(c)
		sat := 0
		for i := range uint64(traces) {
			if out, _ := tr.Trace(7, i); out.Sat {
				sat++
			}
		}
		if p := float64(sat) / traces; p < tc.lo || p > tc.hi {
			t.Errorf("%s: %d of %d traces (%.3f), want [%v, %v]", tc.query, sat, traces, p, tc.lo, tc.hi)
		}
	}
}
