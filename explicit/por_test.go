package explicit

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/wyvernmc/wyvern/internal/testutil"
	"github.com/wyvernmc/wyvern/trace"
)

// porCase is a program and the queries the differential test asks of it.
type porCase struct {
	path    string
	queries []string
}

// porCorpus is the differential test's corpus: every program of
// testdata/mt, the threaded programs of the BMC corpus (testdata/bmc/mt_*
// and its encoder tests), Peterson, and error programs, with E<> Deadlock and
// E<> Error, and queries over globals and [p.f] where a program has them.
func porCorpus(t *testing.T) []porCase {
	t.Helper()
	generic := []string{"E<> Deadlock", "E<> Error", "A[] !Error"}
	var cs []porCase
	dir := t.TempDir()
	add := func(glob string, extra ...string) {
		files, err := filepath.Glob(glob)
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: no programs (%v)", glob, err)
		}
		for _, f := range files {
			if b, err := os.ReadFile(f); err != nil || wideInput.Match(b) {
				continue // 2^8 or 2^32 inputs (TestAssumeBoundedVerdicts's)
			}
			cs = append(cs, porCase{porShrunk(t, dir, f), append(append([]string(nil), generic...), extra...)})
		}
	}
	add("../testdata/mt/*.c")
	add("../testdata/bmc/mt_*.c")
	add("../testdata/bmc/encoder/mt_*.c")
	cs = append(cs,
		porCase{peterson, []string{mutex, "E<> [1.crit]", "E<> [1.crit] && [2.crit]", "E<> Deadlock"}},
		porCase{petersonBug, []string{mutex, "E<> [1.crit]", "E<> Deadlock"}},
		porCase{"../testdata/smc/lost_update.c", []string{"E<> lost == 1", "E<> counter == 1", "A[] counter <= 2", "E<> Error"}},
		porCase{"../testdata/smc/fib_4.c", []string{"E<> i == 8", "E<> i >= 20", "A[] j < 30", "E<> Error"}},
		porCase{porShrunk(t, dir, "../testdata/mt/counter_mutex.c"), []string{"E<> counter == 4", "A[] counter < 4", "E<> counter == 1"}},
		porCase{porShrunk(t, dir, "../testdata/mt/prodcons.c"), []string{"E<> total == 1", "A[] count <= 1"}},
	)
	for _, f := range []string{"div_zero.c", "null_deref.c", "use_after_return.c", "pthread_misuse.c", "unlock_other_thread.c", "assert_fail.c"} {
		cs = append(cs, porCase{filepath.Join("../testdata/errors", f), generic})
	}
	return cs
}

// wideInput matches the programs whose inputs are too wide to enumerate in
// a unit test.
var wideInput = regexp.MustCompile(`__VERIFIER_nondet_(u?int|u?long|u?char|u?short)\b`)

// porShrunk copies a corpus program with two threads (NTHREADS) and its
// other bounds set to 2 (CAP 1), so that the unreduced searches end.
func porShrunk(t *testing.T, dir, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	b = regexp.MustCompile(`(?m)^#define (N|ROUNDS|ITEMS|TOTAL|MOVES|READS|NTHREADS) [0-9]+`).ReplaceAll(b, []byte("#define $1 2"))
	b = regexp.MustCompile(`(?m)^#define CAP [0-9]+`).ReplaceAll(b, []byte("#define CAP 1"))
	p := filepath.Join(dir, filepath.Base(path))
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestPORKeepsVerdicts is the differential test of partial-order
// reduction: over the corpus, each query under the local and the global
// reduction with POR gets the verdict it gets without (and without any
// reduction, where that search ends), with no more states where the search
// is complete, and every witness ends in a state satisfying the query
// (violating it for A[]).
func TestPORKeepsVerdicts(t *testing.T) {
	testutil.NeedClang(t)
	limit := int64(60_000)
	if testing.Short() {
		limit = 20_000 // (the larger programs' searches end incomplete either way)
	}
	var before, after int64
	reducedStates := 0
	for _, pc := range porCorpus(t) {
		start := time.Now()
		for _, q := range pc.queries {
			name := fmt.Sprintf("%s %q", filepath.Base(pc.path), q)
			cmd := fmt.Sprintf("wyvern check %s '%s' --reduction global --por", pc.path, q)
			var base Verdict
			if res := search(t, pc.path, q, Options{MaxStates: limit / 10}); res.Verdict != Incomplete {
				base = res.Verdict
			}
			for _, red := range []Reduction{Local, Global} {
				plain := search(t, pc.path, q, Options{Reduction: red, MaxStates: limit})
				orders := []Order{BFS, DFS}
				if red == Local || testing.Short() {
					orders = orders[:1]
				}
				for _, order := range orders {
					red := search(t, pc.path, q, Options{Reduction: red, POR: true, Order: order, MaxStates: limit})
					if !red.POR {
						t.Errorf("%s: POR not applied: %v", name, red.Notes)
						continue
					}
					if plain.Verdict == Incomplete || red.Verdict == Incomplete {
						t.Logf("%s %s/%s: incomplete (%d states without POR, %d with)", name, red.Reduction, order, plain.States, red.States)
						continue
					}
					if red.Verdict != plain.Verdict || base != "" && red.Verdict != base {
						t.Errorf("%s %s/%s: verdict %s with POR, %s without, %q unreduced (%s)", name, red.Reduction, order, red.Verdict, plain.Verdict, base, cmd)
					}
					complete := (red.Verdict == NotSatisfied) == strings.HasPrefix(q, "E<>")
					if complete && order == BFS {
						if red.States > plain.States {
							t.Errorf("%s %s: %d states with POR, %d without (%s)", name, red.Reduction, red.States, plain.States, cmd)
						}
						before += plain.States
						after += red.States
						if red.States < plain.States {
							reducedStates++
						}
					}
					if red.Trace != nil {
						m := machine(t, pc.path)
						st, err := trace.ReplayFinal(m, red.Trace.Steps)
						if err != nil {
							t.Fatalf("%s %s/%s: replay: %v (%s)", name, red.Reduction, order, err, cmd)
						}
						holds := compile(t, m, q).Prop(st)
						if holds != strings.HasPrefix(q, "E<>") {
							t.Errorf("%s %s/%s: the witness ends in a state where the proposition is %v (%s)", name, red.Reduction, order, holds, cmd)
						}
					}
				}
			}
		}
		t.Logf("%s: %.1f s", filepath.Base(pc.path), time.Since(start).Seconds())
	}
	t.Logf("complete searches: %d states without POR, %d with; %d searches visited fewer", before, after, reducedStates)
	if reducedStates == 0 {
		t.Errorf("POR reduced no search")
	}
}

// TestPORNotApplied lists the queries POR leaves alone, with the note that
// says why.
func TestPORNotApplied(t *testing.T) {
	testutil.NeedClang(t)
	for _, tc := range []struct {
		q    string
		opts Options
		why  string
	}{
		{"EnumStates", Options{Reduction: Global, POR: true}, "EnumStates counts"},
		{"E<> DataRace", Options{Reduction: Global, POR: true}, "reads DataRace"},
		{"E<> Error", Options{POR: true}, "on top of --reduction"},
		{"E<> Error", Options{Reduction: Global, POR: true, Workers: 2}, "parallel search"},
	} {
		tc.opts.MaxStates = 1000
		res := search(t, peterson, tc.q, tc.opts)
		if res.POR || !strings.Contains(strings.Join(res.Notes, "; "), tc.why) {
			t.Errorf("%q %+v: POR %v, notes %q: want it off, saying %q", tc.q, tc.opts, res.POR, res.Notes, tc.why)
		}
	}
}
