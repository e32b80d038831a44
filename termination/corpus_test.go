package termination

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/wyvernmc/wyvern/internal/testutil"
)

var expectRE = regexp.MustCompile(`(?m)^// termination: (true|false)$`)

// corpus lists the termination corpus: every testdata/termination/*.c with
// its known verdict (a "// termination: true|false" line).
func corpus(t *testing.T) map[string]Verdict {
	files, err := filepath.Glob("../testdata/termination/*.c")
	if err != nil || len(files) == 0 {
		t.Fatalf("no termination corpus: %v", err)
	}
	out := map[string]Verdict{}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		m := expectRE.FindSubmatch(src)
		if m == nil {
			t.Fatalf("%s: no '// termination: true|false' line", f)
		}
		out[f] = Verdict(m[1])
	}
	return out
}

// TestCorpus checks every verdict of the corpus is right or unknown, at
// least 80 % decided, and the seed's four examples decided right; each
// lasso replays in the vm (Analyze checks it).
func TestCorpus(t *testing.T) {
	testutil.NeedClang(t)
	if testing.Short() {
		t.Skip("the corpus takes a minute")
	}
	want := corpus(t)
	decided, total := 0, 0
	var lines []string
	for f, v := range want {
		if pat := os.Getenv("CORPUS"); pat != "" && !strings.Contains(f, pat) {
			continue
		}
		total++
		prog := testutil.Program(t, f)
		res, err := Analyze(context.Background(), prog, Options{MaxTime: 20 * time.Second})
		if err != nil {
			t.Errorf("%s: %v (go test ./termination -run TestCorpus)", f, err)
			continue
		}
		lines = append(lines, fmt.Sprintf("%-28s want %-5s got %-7s %-15s %s", filepath.Base(f), v, res.Verdict, res.Method, res.Reason))
		switch res.Verdict {
		case v:
			decided++
		case Unknown:
			if strings.HasPrefix(filepath.Base(f), "seed_") {
				t.Errorf("%s: seed 001's example undecided: %s", f, res.Reason)
			}
		default:
			t.Errorf("%s: WRONG verdict %s, want %s: %s", f, res.Verdict, v, res.Reason)
		}
	}
	t.Logf("corpus: %d of %d decided\n%s", decided, total, strings.Join(lines, "\n"))
	if decided*5 < total*4 {
		t.Errorf("%d of %d decided: want at least 80 %%", decided, total)
	}
}
