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
	cs = append(cs, porCase{"testdata/por_exit_stack.c", generic}, porCase{"testdata/por_ret_stack.c", generic},
		porCase{"testdata/por_alloca_order.c", append([]string{"E<> Exists (p)([p.reach_error])"}, generic...)},
		porCase{"testdata/por_ptr_order.c", append([]string{"E<> Exists (p)([p.reach_error])"}, generic...)},
		porCase{"testdata/por_reuse_order.c", append([]string{"E<> x == 1"}, generic...)},
		porCase{"testdata/por_memcpy_order.c", append([]string{"E<> Exists (p)([p.reach_error])"}, generic...)})
	for _, f := range provPrograms {
		cs = append(cs, porCase{f, append([]string{"E<> Exists (p)([p.reach_error])"}, generic...)})
	}
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
	var sum porSum
	for _, pc := range porCorpus(t) {
		start := time.Now()
		porCompare(t, pc, limit, &sum)
		t.Logf("%s: %.1f s", filepath.Base(pc.path), time.Since(start).Seconds())
	}
	t.Logf("complete searches: %d states without POR, %d with; %d searches visited fewer", sum.before, sum.after, sum.reduced)
	if sum.reduced == 0 {
		t.Errorf("POR reduced no search")
	}
}

// porSum adds up porCompare's complete breadth-first searches: their
// states without and with POR, and how many POR reduced.
type porSum struct {
	before, after int64
	reduced       int
}

// porCompare asks each query of pc under the local and the global
// reduction with POR and without (and without any reduction, within
// limit/10 states) and reports, as test errors, a verdict that differs, a
// complete search that visited more states with POR, and a witness that
// does not replay to a state satisfying the query (violating it for A[]).
// The global reduction is also searched depth-first with POR, except in
// short mode.
func porCompare(t *testing.T, pc porCase, limit int64, sum *porSum) {
	t.Helper()
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
					sum.before += plain.States
					sum.after += red.States
					if red.States < plain.States {
						sum.reduced++
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
}

// TestPORDataRace is porCompare for data races (por.go's argument): over
// testdata/mt (bounds shrunk to two threads), the race examples, the
// threaded error programs and programs whose threads work on blocks of
// their own before a racy or a locked access, E<> DataRace, A[] !DataRace
// and SV-COMP's no-data-race query (DataRace || Error) get the verdicts
// they get without POR, with no more states; the programs whose answer is
// known get it.
func TestPORDataRace(t *testing.T) {
	testutil.NeedClang(t)
	limit := int64(60_000)
	if testing.Short() {
		limit = 20_000
	}
	dir := t.TempDir()
	racy := filepath.Join(dir, "por_race_local_racy.c")
	b, err := os.ReadFile("testdata/por_race_local.c")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(racy, append([]byte("#define RACY 1\n"), b...), 0o644); err != nil {
		t.Fatal(err)
	}
	queries := []string{"E<> DataRace", "A[] !DataRace", "E<> DataRace || Error"}
	known := []struct {
		path string
		race bool
	}{
		{racy, true},
		{"testdata/por_race_local.c", false},
		{"testdata/por_race_const.c", true},
		{"testdata/por_race_heap.c", true},
		{"testdata/por_race_stack.c", true},
		{"testdata/race2.c", true},
		{"../examples/race.c", true},
		{"../testdata/smc/lost_update.c", true},
		{porShrunk(t, dir, "../testdata/mt/counter_mutex.c"), false},
		{porShrunk(t, dir, "../testdata/mt/counter_race.c"), true},
	}
	var sum porSum
	for _, k := range known {
		for _, opts := range []Options{{Reduction: Global, POR: true}, {Reduction: Global, POR: true, Order: DFS}} {
			res := search(t, k.path, "E<> DataRace", opts)
			if want := map[bool]Verdict{true: Satisfied, false: NotSatisfied}[k.race]; res.Verdict != want {
				t.Errorf("%s %s: E<> DataRace %s with POR, want %s (wyvern check %s 'E<> DataRace' --reduction global --por)", k.path, opts.Order, res.Verdict, want, k.path)
			}
		}
		porCompare(t, porCase{k.path, queries}, limit, &sum)
	}
	files, err := filepath.Glob("../testdata/mt/*.c")
	if err != nil || len(files) == 0 {
		t.Fatalf("testdata/mt: no programs (%v)", err)
	}
	files = append(files, "../testdata/errors/pthread_misuse.c", "../testdata/errors/unlock_other_thread.c", "../testdata/errors/use_after_return.c")
	for _, f := range files {
		if b, err := os.ReadFile(f); err != nil || wideInput.Match(b) {
			continue
		}
		porCompare(t, porCase{porShrunk(t, dir, f), queries}, limit, &sum)
	}
	t.Logf("complete searches: %d states without POR, %d with; %d searches visited fewer", sum.before, sum.after, sum.reduced)
	if sum.reduced == 0 {
		t.Errorf("POR reduced no data-race search")
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

// TestDataRacePlatformCalls: DataRace sees the accesses of platform
// functions (memset, memcpy, strlen, strcat, printf's %s, sprintf's
// destination: vm/race.go) — each racy program has its race found and its
// twin (a mutex, disjoint or untouched bytes) its proof, alike under no
// reduction, the reductions and POR; a race through a platform function
// DataRace does not see (sscanf) is never proved absent (incomplete), and
// a program whose only calls are seen keeps its proof.
func TestDataRacePlatformCalls(t *testing.T) {
	testutil.NeedClang(t)
	for _, tc := range []struct {
		path, q string
		want    Verdict
		reduced bool // (the unreduced search is too large for a unit test)
	}{
		{"testdata/race_memset.c", "A[] !DataRace", NotSatisfied, false},
		{"testdata/race_memset.c", "E<> DataRace || Error", Satisfied, false},
		{"testdata/race_memset.c", "E<> Error", NotSatisfied, false},
		{"testdata/race_memset_mutex.c", "A[] !DataRace", Satisfied, false},
		{"testdata/race_memset_disjoint.c", "A[] !DataRace", Satisfied, false},
		{"testdata/race_memset_overlap.c", "A[] !DataRace", NotSatisfied, false},
		{"testdata/race_memcpy_src.c", "A[] !DataRace", NotSatisfied, false},
		{"testdata/race_memcpy_src_ok.c", "A[] !DataRace", Satisfied, false},
		{"testdata/race_memcpy_dst.c", "A[] !DataRace", NotSatisfied, false},
		{"testdata/race_strlen.c", "A[] !DataRace", NotSatisfied, false},
		{"testdata/race_strlen_ok.c", "A[] !DataRace", Satisfied, false},
		{"testdata/race_strcmp_ok.c", "A[] !DataRace", Satisfied, false},
		{"testdata/race_strcat.c", "A[] !DataRace", NotSatisfied, false},
		{"testdata/race_printf.c", "A[] !DataRace", NotSatisfied, false},
		{"testdata/race_printf_mutex.c", "A[] !DataRace", Satisfied, false},
		{"testdata/race_printf_prec.c", "A[] !DataRace", Satisfied, false},
		{"testdata/race_sprintf.c", "A[] !DataRace", NotSatisfied, false},
		{"testdata/race_join.c", "A[] !DataRace", NotSatisfied, false},
		{"testdata/race_blind.c", "A[] !DataRace", Incomplete, false},
		{"testdata/race_blind.c", "E<> DataRace", Incomplete, false},
		{"testdata/por_race_local.c", "E<> DataRace", NotSatisfied, true},
		{"../testdata/mt/join_values.c", "E<> DataRace", NotSatisfied, false},
	} {
		for _, opts := range []Options{{}, {Reduction: Local}, {Reduction: Global}, {Reduction: Global, POR: true}, {Reduction: Global, POR: true, Order: DFS}} {
			if tc.reduced && opts.Reduction == None {
				continue
			}
			opts.MaxStates = 100_000
			res := search(t, tc.path, tc.q, opts)
			if res.Verdict != tc.want {
				t.Errorf("%s %q %+v: %s (%s), want %s", tc.path, tc.q, opts, res.Verdict, res.Reason, tc.want)
				continue
			}
			if res.Trace == nil || tc.q != "A[] !DataRace" {
				continue
			}
			// the witness replays to a state where DataRace holds
			m := machine(t, tc.path)
			st, err := trace.ReplayFinal(m, res.Trace.Steps)
			if err != nil || !m.DataRace(st) {
				t.Errorf("%s %+v: replayed witness: race %v, %v", tc.path, opts, err == nil && m.DataRace(st), err)
			}
		}
	}
}
