package symbolic

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/wyvernmc/wyvern/internal/testutil"
	"github.com/wyvernmc/wyvern/jobs"
	"github.com/wyvernmc/wyvern/query"
)

// corpusLine is one line of testdata/bmc/EXPECTED.tsv.
type corpusLine struct {
	file, query string
	unwind      int
	contexts    string
	verdict     string
}

func readCorpus(t *testing.T) []corpusLine {
	t.Helper()
	return readCorpusAt(t, "../testdata/bmc/EXPECTED.tsv")
}

// readCorpusAt reads a corpus's EXPECTED.tsv.
func readCorpusAt(t *testing.T, path string) []corpusLine {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []corpusLine
	sc := bufio.NewScanner(f)
	for first := true; sc.Scan(); first = false {
		line := sc.Text()
		if first || strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		c := strings.Split(line, "\t")
		if len(c) < 5 {
			t.Fatalf("EXPECTED.tsv: bad line %q", line)
		}
		k, err := strconv.Atoi(c[2])
		if err != nil {
			t.Fatalf("EXPECTED.tsv: unwind %q: %v", c[2], err)
		}
		out = append(out, corpusLine{c[0], c[1], k, c[3], c[4]})
	}
	return out
}

// tooHard are the corpus proofs a solver does not finish within the
// test's 20 s limit with the current encoding (measured: z3, cvc5 and
// boolector give no answer in 60 s on the first three, except boolector on
// arr_binsearch_safe.c in 52 s; cvc5 needs about 20 s for arr_index_safe.c
// and more than 25 s for safe_bubble_sort.c, which z3 proves in 5 and 8 s).
// For them the test accepts "unknown", never a wrong verdict.
//
// Threaded: with their lines' bounds (4 rounds; unwind 4, 2 and 10) z3
// gives no answer within 20 s on the two safe programs mt_peterson_ok.c
// and mt_mutex_counter_safe.c (nor within 120 s) and on
// mt_rare_lost_update.c (B's ten increments inside A's window); the other
// threaded bug, mt_rare_window.c, which simulation misses as well, takes
// under a second. The two condition-variable programs (four threads, six
// rounds) get no answer within 20 s from either solver; the small ones of
// TestThreads take under 3 s. cvc5 is slower on the threaded formulas: no answer
// within 20 s on those three, on mt_six_switches.c at 6 rounds and on
// mt_atomic_safe.c either, and mt_peterson_broken.c takes 24 s (the other
// threaded lines: 0.2 to 7 s).
//
// The portfolio (the default) decides mt_rare_lost_update.c (boolector,
// about 10 s) and mt_atomic_safe.c (boolector) as well; z3 alone timed out
// on mt_atomic_safe.c at 20 s on the loaded 2-core machine both before and
// after issue 29's changes. Both lines take 3.4 to 6.7 s with the
// portfolio at load 5-10 (three runs, before and after the issue-gcd
// changes alike), so they are no longer listed for it.
//
// Since object memory (encode_obj.go), arr_binsearch_safe.c and
// heap_list_safe.c take about 1 s with the portfolio and z3 alone, and
// cvc5 alone proves heap_list_safe.c and safe_bubble_sort.c in under 5 s.
//
// Since narrowing (encode_narrow.go), safe_gcd.c's divisions are 8-bit:
// boolector and cvc5 prove its violation check in about 5 and 7 CPU
// seconds (21 s and over 45 before). Since z3 bit-blasts formulas whose
// arrays are only read (solver.go) z3 proves it in about 2.3 s, and the
// portfolio decides the line in about 4 s on 2 cores (BENCHMARKS.md).
//
// Since the partial-order check runs by default (with the spin-loop
// reduction, encode_spin.go), mt_mutex_counter_safe (about 9 s),
// mt_atomic_safe (about 7 s) and mt_peterson_ok (boolector alone about
// 10 s, the portfolio 15 to over 20 s) are proved on an idle 2-core machine;
// the three stay listed for the loaded CI machine (the rounds' own check
// comes first), and mt_condvar_ok gets no answer.
//
// Since the wait-loop reduction, word locations and the mutex lemma
// (encode_wait.go, encode_poword.go, encode_mutex.go) and the
// partial-order check running before the rounds, mt_mutex_counter_safe
// takes 3.6 to 6 s with the portfolio at load 15 to 17 on 2 cores (40.8 s
// before), so it is no longer listed; mt_atomic_safe took 9 s and 21.9 s
// at load 16, mt_peterson_ok and mt_condvar_ok gave no answer at load 13
// to 14 (the partial-order check alone proves mt_condvar_ok with boolector
// in 14 s, 7 CPU seconds, and z3 in 32 s at load 9 to 15): they stay
// listed. mt_condvar_if, whose first partial-order model needs a spurious
// wakeup, is found by the encoding with every wait signalled in 5.3 s at
// load 12 (twice; unknown in 41 s before).
//
// Since the partial-order clocks are integers for z3 and cvc5
// (encode_po.go), the portfolio proves mt_peterson_ok, mt_atomic_safe and
// mt_condvar_ok in 1.6 to 4.8 s at load 18 to 23 on 2 cores (0.8 to 1.3
// CPU seconds; z3 alone 0.8 to 3.9 s), so none is listed for it; z3's
// list stays for a loaded machine. safe_gcd.c (single-threaded) can still
// pass 20 s with the portfolio at load 20: its three members share one
// CPU share under Linux's autogroup scheduling (z3 alone 9.3 s in the same
// run, BENCHMARKS.md).
var tooHard = map[string]map[string]bool{
	Portfolio: {},
	"z3": {"mt_atomic_safe.c": true,
		"mt_peterson_ok.c": true, "mt_mutex_counter_safe.c": true, "mt_rare_lost_update.c": true,
		"mt_condvar_if.c": true, "mt_condvar_ok.c": true},
	"cvc5": {"arr_binsearch_safe.c": true, "safe_gcd.c": true, "arr_index_safe.c": true,
		"mt_peterson_ok.c": true, "mt_mutex_counter_safe.c": true, "mt_rare_lost_update.c": true,
		"mt_six_switches.c": true, "mt_atomic_safe.c": true, "mt_peterson_broken.c": true,
		"mt_condvar_if.c": true, "mt_condvar_ok.c": true},
}

// TestCorpus checks every program of testdata/bmc at its stated bound
// with the default solver, the portfolio (and z3 alone without -short;
// cvc5 alone too with WYVERN_BMC_ALL_SOLVERS=1): the verdict is the
// expected one, and every violation came with a witness that replayed in
// the vm (Check fails otherwise). Threaded programs are checked with the
// line's context bound (round-robin rounds). No line is refused.
func TestCorpus(t *testing.T) {
	lines := readCorpus(t)
	// The solvers alone check that no backend gives a wrong verdict; an
	// answer they do not give within 10 s is accepted (the portfolio's
	// decisions are what the corpus requires, and a loaded machine makes a
	// solver alone time out on lines it decides in seconds when idle).
	solvers := []string{DefaultSolver, "z3"}
	if os.Getenv("WYVERN_BMC_ALL_SOLVERS") != "" {
		solvers = append(solvers, "cvc5")
	}
	if testing.Short() {
		solvers = solvers[:1]
	}
	checked, refused := 0, 0
	defer func() {
		t.Logf("corpus: %d checks, %d lines refused by the encoder", checked, refused)
	}()
	for _, l := range lines {
		contexts := 0
		if l.contexts != "-" && l.contexts != "" {
			c, err := strconv.Atoi(l.contexts)
			if err != nil {
				t.Fatalf("EXPECTED.tsv: contexts %q: %v", l.contexts, err)
			}
			contexts = c
		}
		p := testutil.Program(t, filepath.Join("../testdata/bmc", l.file))
		q, err := query.Parse(l.query)
		if err != nil {
			t.Fatalf("%s: %v", l.file, err)
		}
		for _, s := range solvers {
			t.Run(fmt.Sprintf("%s/%s/k%d", l.file, s, l.unwind), func(t *testing.T) {
				ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
				defer cancel()
				limit := 20.0
				if s != DefaultSolver {
					limit = 10
				}
				r, err := Check(ctx, p, q, jobs.BMCOptions{Unwind: l.unwind, Contexts: contexts, Solver: s, SolverTimeoutS: limit}, nil)
				if err != nil && strings.Contains(err.Error(), "not supported by the BMC encoder yet") {
					refused++
					t.Fatalf("refused (every corpus line is encoded since issue 29): %v", err)
				}
				if err != nil {
					t.Fatalf("%s: %v", l.query, err)
				}
				// a safe threaded line whose partial-order proof no solver
				// gave within the limit is incomplete (the rounds found nothing)
				noProof := r.Verdict == VerdictIncomplete && l.verdict == VerdictNotSatisfied && l.contexts != "-" && l.contexts != ""
				if (r.Verdict == VerdictUnknown || noProof) && (tooHard[s][l.file] || s != DefaultSolver) {
					t.Logf("%s: %s (known to be too hard for the solvers yet, or a solver alone past 10 s)", l.file, r.Reason)
					return
				}
				if r.Verdict != l.verdict {
					t.Fatalf("%s at unwind %d: %s (%s), want %s", l.query, l.unwind, r.Verdict, r.Reason, l.verdict)
				}
				violation := (r.Verdict == VerdictSatisfied) != strings.HasPrefix(l.query, "A[]")
				if violation && r.Verdict != VerdictIncomplete && r.Verdict != VerdictUnknown && (r.Trace == nil || len(r.Trace.Steps) == 0) {
					t.Fatalf("a violation without a witness: %+v", r)
				}
				t.Logf("%s: %s in %.2f s (solver %.2f s, %d terms)", l.file, r.Verdict, r.ElapsedSec, r.SolverSeconds, r.Checks[len(r.Checks)-1].Terms)
			})
			checked++
		}
	}
	if checked < 40 {
		t.Fatalf("only %d corpus checks ran", checked)
	}
}
