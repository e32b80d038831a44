package termination

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wyvernmc/wyvern/internal/testutil"
	"github.com/wyvernmc/wyvern/vm"
)

func analyzeSource(t *testing.T, src string, opts Options) *Result {
	t.Helper()
	path := filepath.Join(t.TempDir(), "p.c")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := Analyze(context.Background(), testutil.Program(t, path), opts)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestLassoReplays: a state cycle's stem and cycle return to the state the
// cycle starts from; a cycle cut short does not.
func TestLassoReplays(t *testing.T) {
	prog := testutil.Program(t, "../testdata/termination/reset_counter.c")
	res, err := Analyze(context.Background(), prog, Options{MaxTime: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != NonTerminates || res.Lasso == nil || res.Lasso.Kind != LassoCycle {
		t.Fatalf("want a state-cycle lasso, got %s", res)
	}
	m := vm.NewMachine(prog)
	if err := checkLasso(m, res.Lasso); err != nil {
		t.Fatalf("the lasso does not replay: %v", err)
	}
	cut := *res.Lasso
	cut.Cycle = cut.Cycle[:len(cut.Cycle)-1]
	if err := checkLasso(m, &cut); err == nil {
		t.Error("a cycle without its last step was accepted")
	}
}

// TestThreadsNoProof: a program with threads gets no TRUE, and says why.
func TestThreadsNoProof(t *testing.T) {
	res := analyzeSource(t, `#include <pthread.h>
int x;
void *w(void *a) { for (int i = 0; i < 3; i++) x++; return 0; }
int main(void) { pthread_t t; pthread_create(&t, 0, w, 0); pthread_join(t, 0); return 0; }
`, Options{MaxTime: 10 * time.Second})
	if res.Verdict != Unknown || !strings.Contains(res.Reason, "threads") {
		t.Errorf("got %s", res)
	}
}

// TestWrapAroundRankings: seed 001's g terminates by wrapping (ranking
// function -j over unsigned), h by counting down.
func TestWrapAroundRankings(t *testing.T) {
	for _, tc := range []struct{ file, ranking string }{
		{"seed_g.c", "-j unsigned"},
		{"seed_h.c", "j unsigned"},
	} {
		prog := testutil.Program(t, "../testdata/termination/"+tc.file)
		res, err := Analyze(context.Background(), prog, Options{MaxTime: 10 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		if res.Verdict != Terminates || res.Method != MethodRanking || len(res.Loops) != 1 || res.Loops[0].Ranking != tc.ranking {
			t.Errorf("%s: want ranking function %q, got %s", tc.file, tc.ranking, res)
		}
	}
}

// TestUnsupportedDocumented: the list of what is not decided and the
// table of docs/termination.md name the same constructs.
func TestUnsupportedDocumented(t *testing.T) {
	doc, err := os.ReadFile("../docs/termination.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(doc)
	start := strings.Index(text, "## What is not done")
	if start < 0 {
		t.Fatal(`docs/termination.md has no section "What is not done"`)
	}
	var rows []string
	for _, line := range strings.Split(text[start:], "\n")[1:] {
		if strings.HasPrefix(line, "## ") {
			break
		}
		if !strings.HasPrefix(line, "| ") || strings.HasPrefix(line, "| construct") || strings.HasPrefix(line, "| ---") {
			continue
		}
		rows = append(rows, strings.SplitN(line[2:], " | ", 2)[0])
	}
	if strings.Join(rows, "\n") != strings.Join(Unsupported, "\n") {
		t.Errorf("docs/termination.md's table names\n  %q\ntermination.Unsupported\n  %q", rows, Unsupported)
	}
}
