package symbolic

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/wyvernmc/wyvern/explicit"
	"github.com/wyvernmc/wyvern/internal/testutil"
	"github.com/wyvernmc/wyvern/jobs"
	"github.com/wyvernmc/wyvern/query"
	"github.com/wyvernmc/wyvern/vm"
)

// TestCompleteCorpus checks the complete threaded check on the threaded
// lines of testdata/bmc: a violation the corpus expects is found (and
// replays: Check fails otherwise), and a safe line (expected incomplete
// under round-robin rounds) is proved: not-satisfied.
func TestCompleteCorpus(t *testing.T) {
	only := os.Getenv("WYVERN_COMPLETE_ONLY")
	for _, l := range readCorpus(t) {
		if !strings.HasPrefix(l.file, "mt_") || (only != "" && !strings.Contains(l.file, only)) {
			continue
		}
		contexts := 0
		if c, err := strconv.Atoi(l.contexts); err == nil {
			contexts = c
		}
		t.Run(l.file+"/c"+l.contexts, func(t *testing.T) {
			p := testutil.Program(t, filepath.Join("../testdata/bmc", l.file))
			q, err := query.Parse(l.query)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			r, err := Check(ctx, p, q, jobs.BMCOptions{Unwind: l.unwind, Contexts: contexts, SolverTimeoutS: 60, Complete: true}, nil)
			if err != nil {
				t.Fatal(err)
			}
			last := r.Checks[len(r.Checks)-1]
			t.Logf("%s k%d c%d: %s in %.2f s (solver %.2f s), %d terms, %d rounds: %s", l.file, l.unwind, contexts, r.Verdict, r.ElapsedSec, r.SolverSeconds, last.Terms, last.Rounds, r.Reason)
			want := l.verdict
			if want == VerdictIncomplete {
				want = VerdictNotSatisfied
			}
			if r.Verdict != want {
				t.Errorf("%s: want %s", r.Verdict, want)
			}
		})
	}
}

// TestCompleteDifferential compares the complete threaded check with the
// explicit search (the vm's POSIX platform: spurious wakeups, a signal
// waking any waiter) on E<> Error over threaded programs: where both
// decide, they agree. Short mode checks testdata/bmc's and the encoder's
// small threaded programs; without -short, testdata/mt too.
func TestCompleteDifferential(t *testing.T) {
	var files []string
	for _, dir := range []string{"../testdata/bmc/encoder", "../testdata/bmc"} {
		m, _ := filepath.Glob(filepath.Join(dir, "mt_*.c"))
		files = append(files, m...)
	}
	if !testing.Short() {
		m, _ := filepath.Glob("../testdata/mt/*.c")
		files = append(files, m...)
	}
	only := os.Getenv("WYVERN_COMPLETE_ONLY")
	decided := 0
	for _, f := range files {
		if strings.HasSuffix(f, "mt_once.c") || (only != "" && !strings.Contains(f, only)) {
			continue // refused (pthread_once)
		}
		t.Run(filepath.Base(filepath.Dir(f))+"/"+filepath.Base(f), func(t *testing.T) {
			p := testutil.Program(t, f)
			q, err := query.Parse("E<> Error")
			if err != nil {
				t.Fatal(err)
			}
			c, err := query.Compile(q, vm.NewMachine(p))
			if err != nil {
				t.Fatal(err)
			}
			ex, err := explicit.Search(context.Background(), c, explicit.Options{MaxTime: 20 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			r, err := Check(ctx, p, q, jobs.BMCOptions{MaxUnwind: 4, SolverTimeoutS: 20, Complete: true}, nil)
			if err != nil {
				if errors.Is(err, ErrUnsupported) {
					t.Skipf("refused: %v", err)
				}
				t.Fatal(err)
			}
			t.Logf("explicit %s; bmc %s (%s)", ex.Verdict, r.Verdict, r.Reason)
			definite := func(v string) bool { return v == VerdictSatisfied || v == VerdictNotSatisfied }
			if definite(r.Verdict) && definite(string(ex.Verdict)) {
				decided++
				if r.Verdict != string(ex.Verdict) {
					t.Fatalf("bmc %s, explicit search %s", r.Verdict, ex.Verdict)
				}
			}
		})
	}
	t.Logf("%d programs decided by both", decided)
}
