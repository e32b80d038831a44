package explicit

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wyvernmc/wyvern/internal/testutil"
)

// reductionCorpus is the programs TestCompactMatchesFull and
// TestParallelMatchesSequential search: small models, threaded programs
// (shrunk) and the error programs.
func reductionCorpus(t *testing.T) []string {
	dir := t.TempDir()
	programs := []string{peterson, petersonBug, "../testdata/smc/fib_4.c"}
	for _, f := range []string{"atomic.c", "counter_mutex.c", "counter_race.c", "deadlock.c", "join_values.c", "once.c"} {
		programs = append(programs, shrunk(t, dir, filepath.Join("../testdata/mt", f)))
	}
	programs = append(programs, shrunk(t, dir, "../examples/race.c"))
	for _, f := range []string{"div_zero.c", "null_deref.c", "use_after_return.c", "pthread_misuse.c", "unlock_other_thread.c", "assert_fail.c"} {
		programs = append(programs, filepath.Join("../testdata/errors", f))
	}
	return programs
}

// comparable is a result as JSON without what depends on the clock or
// on the workers (the time, the rate, the hash seeds' collisions are
// seeded per search but full storage resolves them, the queue's byte
// estimate).
func comparable(t *testing.T, res *Result, err error) string {
	t.Helper()
	if err != nil {
		return "error: " + err.Error()
	}
	r := *res
	r.ElapsedSec, r.StatesPerSec, r.HashCollisions = 0, 0, 0
	// (with full storage one worker keeps its breadth-first queue packed,
	// more keep state graphs: the queue's byte estimates differ;
	// samePeak compares them with compaction)
	r.QueuePeakBytes = 0
	b, err := json.Marshal(&r)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// samePeak checks that a parallel search with compaction, whose queue is
// packed as the sequential search's, estimated the same peak of queue
// bytes as the sequential search did: it takes each state's entry out of
// the byte count when it merges the state, where the sequential search
// takes it when it expands the state.
func samePeak(t *testing.T, opts Options, seq, par *Result) {
	t.Helper()
	if opts.Compact && seq != nil && par != nil && par.QueuePeakBytes != seq.QueuePeakBytes {
		t.Errorf("%+v: queue peak %d bytes with workers, %d with one", opts, par.QueuePeakBytes, seq.QueuePeakBytes)
	}
}

// TestParallelMatchesSequential: the parallel breadth-first search with 2
// and 4 workers gives exactly the sequential search's result (verdict,
// reason, every count, depth, queue, bytes, witnesses and their traces)
// over the reduction corpus, with every reduction and both storages, for
// enumeration (also cut off by state limits at many points of a block)
// and for queries decided mid-search.
func TestParallelMatchesSequential(t *testing.T) {
	testutil.NeedClang(t)
	type tc struct {
		path, query string
		opts        Options
	}
	var cases []tc
	for _, p := range reductionCorpus(t) {
		for _, red := range reductions {
			for _, compact := range []bool{false, true} {
				opts := Options{Reduction: red, Compact: compact, MaxStates: 200_000}
				cases = append(cases, tc{p, "EnumStates", opts})
				if red == None {
					for _, n := range []int64{1, 2, 3, 40, 257, 1000, 4097} {
						o := opts
						o.MaxStates = n
						cases = append(cases, tc{p, "EnumStates", o})
					}
				}
				for _, q := range []string{"E<> Deadlock", "E<> Error", "E<> DataRace", "A[] !Error"} {
					cases = append(cases, tc{p, q, opts})
				}
			}
		}
	}
	for _, red := range reductions {
		for _, compact := range []bool{false, true} {
			opts := Options{Reduction: red, Compact: compact}
			cases = append(cases, tc{petersonBug, mutex, opts}, tc{peterson, mutex, opts},
				tc{peterson, "E<> [1.crit] && [2.crit]", opts}, tc{peterson, "E<> [1.crit]", opts},
				tc{"testdata/dice.c", "E<> sum == 13", opts}, tc{"testdata/dice.c", "E<> sum == 14", opts},
				tc{"testdata/nondet_int.c", "E<> x == 7", opts})
		}
	}
	for _, c := range cases {
		// subtests by program, so that the race detector can run a few
		// (-run 'TestParallelMatchesSequential/petersons')
		name := strings.TrimSuffix(filepath.Base(c.path), ".c")
		t.Run(name, func(t *testing.T) {
			m := machine(t, c.path)
			comp := compile(t, m, c.query)
			seq, err := Search(context.Background(), comp, c.opts)
			want := comparable(t, seq, err)
			for _, w := range []int{2, 4} {
				o := c.opts
				o.Workers = w
				res, err := Search(context.Background(), comp, o)
				if got := comparable(t, res, err); got != want {
					t.Errorf("%s %q %s compact=%v max-states %d, %d workers:\n got %s\nwant %s",
						c.path, c.query, c.opts.Reduction, c.opts.Compact, c.opts.MaxStates, w, got, want)
				}
				samePeak(t, c.opts, seq, res)
			}
		})
	}
}

// TestParallelLarge: a search of many blocks (fib_4 unreduced: thousands
// of states a level) matches, also with state limits falling inside a
// block, and progress reports come from the searching goroutine.
func TestParallelLarge(t *testing.T) {
	testutil.NeedClang(t)
	m := machine(t, "../testdata/smc/fib_4.c")
	c := compile(t, m, "EnumStates")
	for _, opts := range []Options{{Compact: true}, {}, {Compact: true, MaxStates: 12_345}, {MaxStates: 23_457}} {
		seq, err := Search(context.Background(), c, opts)
		want := comparable(t, seq, err)
		if seq.States < 10*parWindow*parBlock && opts.MaxStates == 0 {
			t.Fatalf("fib_4: %d states, too few blocks", seq.States)
		}
		opts.Workers = 3
		reports := 0
		opts.Progress = func(Progress) { reports++ }
		opts.ProgressEvery = 1
		seen := int64(-1)
		parDone = func(n int64) { seen = n }
		res, err := Search(context.Background(), c, opts)
		parDone = nil
		if got := comparable(t, res, err); got != want {
			t.Errorf("%+v:\n got %s\nwant %s", opts, got, want)
		}
		samePeak(t, opts, seq, res)
		if reports == 0 {
			t.Errorf("%+v: no progress report", opts)
		}
		// the workers find transitions to states seen before, through
		// their probe of the compact table (37 % of them here: the rest
		// were added by blocks not yet merged, close in the queue) and
		// the successors made before in the same block (inBlock): 95 %
		// with both; never more than there are (each is a transition
		// that added no state); with full storage, only those of the
		// block (inBlockKey: 61 %)
		switch revisits := res.Transitions - (res.States - 1); {
		case seen > revisits:
			t.Errorf("%+v: the workers found %d successors visited, of %d transitions to visited states", opts, seen, revisits)
		case !opts.Compact && opts.MaxStates == 0 && seen < revisits/4:
			// full storage: those made before in the same block alone
			t.Errorf("%+v: full storage, the workers found %d successors visited, of %d transitions to visited states", opts, seen, revisits)
		case opts.Compact && opts.MaxStates == 0 && (seen < revisits/2 || seen > revisits):
			t.Errorf("%+v: the workers found %d successors visited, of %d transitions to visited states", opts, seen, revisits)
		}
	}
}

// TestParallelDFS: the depth-first search stays sequential, with a note.
func TestParallelDFS(t *testing.T) {
	testutil.NeedClang(t)
	seq := search(t, peterson, "EnumStates", Options{Order: DFS})
	par := search(t, peterson, "EnumStates", Options{Order: DFS, Workers: 2})
	if seq.States != par.States || seq.Transitions != par.Transitions || seq.MaxDepth != par.MaxDepth ||
		fmt.Sprint(par.Notes) != "[2 workers not used: the depth-first search is sequential]" {
		t.Errorf("sequential %d states %d transitions depth %d, with 2 workers %d %d %d, notes %q",
			seq.States, seq.Transitions, seq.MaxDepth, par.States, par.Transitions, par.MaxDepth, par.Notes)
	}
}

// TestParallelQueries: with compaction the workers pass the merger no
// state, only what its visit reads, the query's proposition among it, each
// worker with its own compiled query (classifyWhole: propositions keep
// state between calls, Exists its bound process); answers, witnesses and
// counts are the sequential search's. Small enough for the race detector
// (Makefile).
func TestParallelQueries(t *testing.T) {
	testutil.NeedClang(t)
	for _, c := range []struct{ path, query string }{
		{peterson, mutex}, {petersonBug, mutex},
		{peterson, "E<> [1.crit] && [2.crit]"}, {petersonBug, "E<> Exists (p)([p.crit] && [1.crit] && [2.crit])"},
		{"testdata/dice.c", "E<> sum == 13"}, {"testdata/dice.c", "E<> sum == 14"},
		{"testdata/nondet_int.c", "E<> x == 7"}, {"testdata/nondet_int.c", "A[] x != 7"},
	} {
		m := machine(t, c.path)
		comp := compile(t, m, c.query)
		opts := Options{Compact: true}
		seq, err := Search(context.Background(), comp, opts)
		want := comparable(t, seq, err)
		opts.Workers = 2
		res, err := Search(context.Background(), comp, opts)
		if got := comparable(t, res, err); got != want {
			t.Errorf("%s %q, 2 workers:\n got %s\nwant %s", c.path, c.query, got, want)
		}
		samePeak(t, opts, seq, res)
	}
}
