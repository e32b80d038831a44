package explicit

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/wyvernmc/wyvern/internal/testutil"
)

// TestPackedQueueMatches: the breadth-first search whose queue keeps each
// state packed — with full storage its leaves in the tree and its
// auxiliary words, with compaction the parts of its encoding coded against
// the state queued before (partQueue); rebuilt by vm.Machine.DecodeKeyFrom
// or DecodeKeyInto when expanded — gives exactly the result of the search
// whose queue keeps the states' graphs (verdict, reason, every count,
// depth, queue length, visited-set bytes, witnesses and their traces; not
// the queue's byte estimate, which is what differs) over the reduction
// corpus, with both storages, every reduction, partial-order reduction on
// top of global, enumeration cut off by state limits and queries decided
// mid-search. Every rebuilt state is checked against its leaves or parts,
// and every successor's parts made from its parent's against its whole
// encoding (verifyPartsHash, set for the package's tests).
func TestPackedQueueMatches(t *testing.T) {
	testutil.NeedClang(t)
	type tc struct {
		path, query string
		opts        Options
	}
	var cases []tc
	for _, p := range reductionCorpus(t) {
		for _, red := range reductions {
			for _, compact := range []bool{false, true} {
				opts := Options{Reduction: red, MaxStates: 200_000, Compact: compact}
				cases = append(cases, tc{p, "EnumStates", opts})
				if red == None {
					for _, n := range []int64{1, 2, 40, 1000} {
						o := opts
						o.MaxStates = n
						cases = append(cases, tc{p, "EnumStates", o})
					}
				}
				for _, q := range []string{"E<> Deadlock", "E<> Error", "A[] !Error"} {
					cases = append(cases, tc{p, q, opts})
					if red == Global {
						o := opts
						o.POR = true
						cases = append(cases, tc{p, q, o})
					}
				}
			}
		}
	}
	for _, compact := range []bool{false, true} {
		cases = append(cases, tc{peterson, mutex, Options{Compact: compact}},
			tc{petersonBug, mutex, Options{Reduction: Global, POR: true, Compact: compact}},
			tc{"testdata/nondet_int.c", "E<> x == 7", Options{Compact: compact}},
			tc{"testdata/coin_line.c", "EnumStates", Options{Compact: compact}})
	}
	defer func(v bool) { packQueue = v }(packQueue)
	for _, c := range cases {
		name := strings.TrimSuffix(filepath.Base(c.path), ".c")
		t.Run(name, func(t *testing.T) {
			m := machine(t, c.path)
			comp := compile(t, m, c.query)
			packQueue = false
			res, err := Search(context.Background(), comp, c.opts)
			want := comparable(t, res, err)
			packQueue = true
			res, err = Search(context.Background(), comp, c.opts)
			if got := comparable(t, res, err); got != want {
				t.Errorf("%s %q %s por=%v compact=%v max-states %d, packed queue:\n got %s\nwant %s",
					c.path, c.query, c.opts.Reduction, c.opts.POR, c.opts.Compact, c.opts.MaxStates, got, want)
			}
		})
	}
}

// TestPackedQueueBytes: on fib_4 (67 168 states), with either storage, the
// packed queue's estimate is far below the estimate of a queue of state
// graphs, and the search allocates few times a state: the states it
// rebuilds reuse the records, chunks and buffers of those it expanded (and
// with compaction the queue its segments), and at least 90 % are rebuilt
// from the state taken before them (fib_4: 94 %).
func TestPackedQueueBytes(t *testing.T) {
	m := machine(t, "../testdata/smc/fib_4.c")
	c := compile(t, m, "EnumStates")
	defer func(v, p bool) { verifyPartsHash, packQueue = v, p }(verifyPartsHash, packQueue)
	verifyPartsHash = false // (its checks allocate)
	for _, tc := range []struct {
		compact bool
		workers int
	}{{false, 1}, {true, 1}, {true, 2}} {
		compact := tc.compact
		t.Run(fmt.Sprintf("compact=%v/workers=%d", compact, tc.workers), func(t *testing.T) {
			run := func(packed bool) (*Result, float64) {
				packQueue = packed
				var ms0, ms1 runtime.MemStats
				runtime.GC()
				runtime.ReadMemStats(&ms0)
				res, err := Search(context.Background(), c, Options{MaxBytes: -1, Compact: compact, Workers: tc.workers})
				runtime.ReadMemStats(&ms1)
				if err != nil {
					t.Fatal(err)
				}
				return res, float64(ms1.Mallocs-ms0.Mallocs) / float64(res.States)
			}
			graphs, _ := run(false)
			packed, allocs := run(true)
			t.Logf("queue peak estimate %d bytes packed, %d with graphs; %.4f allocations a state packed", packed.QueuePeakBytes, graphs.QueuePeakBytes, allocs)
			if packed.States != graphs.States || packed.MaxQueue != graphs.MaxQueue {
				t.Fatalf("packed: %d states, queue %d; graphs: %d states, queue %d", packed.States, packed.MaxQueue, graphs.States, graphs.MaxQueue)
			}
			if 5*packed.QueuePeakBytes > graphs.QueuePeakBytes {
				t.Errorf("packed queue peak estimate %d bytes, graphs' %d: want at most a fifth", packed.QueuePeakBytes, graphs.QueuePeakBytes)
			}
			if per := fmt.Sprintf("%.4f", allocs); allocs > 0.05 {
				t.Errorf("%s allocations a state with a packed queue, want at most 0.05", per)
			}
			// Most states taken from the queue are rebuilt from the one
			// before (searcher.unpack, unpackParts; a parallel search's
			// workers from the one each decoded before, pworker.unpack),
			// the others decoded whole.
			t.Logf("%d of %d states rebuilt from the one taken before", packed.fromRef, packed.States)
			if 10*packed.fromRef < 9*packed.States {
				t.Errorf("%d of %d states rebuilt from the one taken before, want at least 90 %%", packed.fromRef, packed.States)
			}
		})
	}
}

// TestAuxLists: each distinct auxiliary list gets one number, whatever the
// order the lists come in (id answers a list equal to the last one's
// without the map), and list gives it back.
func TestAuxLists(t *testing.T) {
	var a auxLists
	lists := [][]uint32{{1}, {1}, {1, 2}, {}, nil, {1, 2}, {2}, {1}, {}, {2, 1}, {2, 1}, {1, 2}}
	ids := map[string]uint32{}
	for i, w := range lists {
		id := a.id(w)
		key := fmt.Sprint(w)
		if want, ok := ids[key]; ok && id != want {
			t.Errorf("list %d %v: number %d, %d before", i, w, id, want)
		}
		ids[key] = id
		if got := a.list(id); !slices.Equal(got, w) {
			t.Errorf("list %d %v: number %d gives back %v", i, w, id, got)
		}
	}
	if len(a.lists) != len(ids) {
		t.Errorf("%d lists kept for %d distinct ones", len(a.lists), len(ids))
	}
}
