package simulator

import (
	"math/rand/v2"
	"testing"
)

// naiveHistogram is the histogram of every length kept (what the
// coordinator computed before lengths bounded its memory).
func naiveHistogram(v []uint64) []Bin {
	var l lengths
	l.maxExact = len(v) + 1
	for _, x := range v {
		l.add(x)
	}
	return l.histogram()
}

// TestLengthsBounded: satisfying-run lengths are counted exactly (the
// histogram of every run) up to maxExact distinct lengths, then in at most
// 64 bins per power of two: memory bounded whatever the number of runs,
// every run counted, each run in the equal bin of a length within 1/64 of
// its own.
func TestLengthsBounded(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, tc := range []struct {
		name     string
		n        int
		maxExact int
		gen      func() uint64
	}{
		{"few distinct, exact", 100_000, 0, func() uint64 { return 10 + r.Uint64N(500) }},
		{"uniform, binned", 1_000_000, 1000, func() uint64 { return r.Uint64N(1_000_000) }},
		{"heavy tail, binned", 1_000_000, 1000, func() uint64 { return uint64(r.ExpFloat64() * 1e6) }},
		{"huge lengths, binned", 200_000, 100, func() uint64 { return 1<<40 + r.Uint64N(1<<40) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := make([]uint64, tc.n)
			l := lengths{maxExact: tc.maxExact}
			for i := range v {
				v[i] = tc.gen()
				l.add(v[i])
			}
			got, want := l.histogram(), naiveHistogram(v)
			if len(got) != len(want) {
				t.Fatalf("%d bins, want %d", len(got), len(want))
			}
			var total uint64
			for i := range got {
				total += got[i].Count
				if got[i].Lo != want[i].Lo || got[i].Hi != want[i].Hi {
					t.Fatalf("bin %d is [%d, %d], want [%d, %d]", i, got[i].Lo, got[i].Hi, want[i].Lo, want[i].Hi)
				}
			}
			if total != uint64(tc.n) {
				t.Fatalf("%d runs counted, want %d", total, tc.n)
			}
			entries := len(l.exact) + len(l.binned)
			if l.binned == nil {
				for i := range got {
					if got[i] != want[i] {
						t.Fatalf("exact: bin %d has %d runs, want %d", i, got[i].Count, want[i].Count)
					}
				}
			} else if entries > 64*64 {
				t.Fatalf("%d entries kept for %d runs", entries, tc.n)
			}
			// Binned, a run may move only to a neighbouring equal bin, and
			// only if its length is within 1/64 of the edge.
			for i := range got {
				var near uint64
				for _, x := range v {
					edge := got[i].Lo
					if d := max(x, edge) - min(x, edge); d <= x/64+1 {
						near++
					}
					edge = got[i].Hi + 1
					if d := max(x, edge) - min(x, edge); d <= x/64+1 {
						near++
					}
				}
				diff := max(got[i].Count, want[i].Count) - min(got[i].Count, want[i].Count)
				if diff > near {
					t.Errorf("bin %d: %d runs, every run kept gives %d (%d runs near its edges)", i, got[i].Count, want[i].Count, near)
				}
			}
			t.Logf("%d runs: %d entries kept", tc.n, entries)
		})
	}
}
