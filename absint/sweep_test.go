package absint

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/wyvernmc/wyvern/explicit"
	"github.com/wyvernmc/wyvern/ir"
	"github.com/wyvernmc/wyvern/query"
	"github.com/wyvernmc/wyvern/vm"
)

// TestSweep runs the prover on every C program of the repository's
// testdata (WYVERN_ABSINT_SWEEP=1: 1.5 to 2.5 minutes) and, for each proof,
// an explicit search of its error states: a proof of a program whose
// error state the search reaches is a bug.
func TestSweep(t *testing.T) {
	if os.Getenv("WYVERN_ABSINT_SWEEP") == "" {
		t.Skip("set WYVERN_ABSINT_SWEEP=1")
	}
	files, _ := filepath.Glob("../testdata/*/*.c")
	proved := 0
	for _, path := range files {
		prog, err := ir.Load(path, ir.Options{})
		if err != nil {
			continue
		}
		res := Prove(context.Background(), prog, []string{"reach_error", "__VERIFIER_error"})
		if !res.Proved {
			continue
		}
		proved++
		m := vm.NewMachine(prog)
		q, _ := query.Parse(errorQuery + " || Exists (p)([p.reach_error]) || Exists (p)([p.__VERIFIER_error])")
		c, err := query.Compile(q, m)
		if err != nil {
			q, _ = query.Parse(errorQuery)
			c, err = query.Compile(q, m)
			if err != nil {
				t.Fatal(err)
			}
		}
		ex, err := explicit.Search(context.Background(), c, explicit.Options{Reduction: explicit.Global, MaxStates: 500_000})
		if err != nil {
			t.Logf("%s: proved; explicit: %v", path, err)
			continue
		}
		t.Logf("%s: proved; explicit %s", path, ex.Verdict)
		if ex.Verdict == explicit.Satisfied {
			t.Errorf("%s: proved, but explicit search reaches an error: %s", path, ex.Reason)
		}
	}
	t.Logf("%d of %d programs proved", proved, len(files))
}
