package symbolic

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wyvernmc/wyvern/internal/testutil"
	"github.com/wyvernmc/wyvern/ir"
	"github.com/wyvernmc/wyvern/jobs"
	"github.com/wyvernmc/wyvern/query"
)

// TestMeasureCorpus measures the BMC corpora (BENCHMARKS.md has the
// commands and the numbers); it runs only when WYVERN_BMC_MEASURE names
// the solvers to measure, comma-separated (z3, cvc5, boolector,
// portfolio). Each corpus line is checked WYVERN_BMC_REPS times (default
// 1) per solver, WYVERN_BMC_PAR checks at once (default 1), with the
// corpus test's limits (20 s a solver check); one TSV line per check goes
// to WYVERN_BMC_OUT (default stdout): corpus, file, unwind, solver,
// rep, verdict, expected, seconds, solver seconds, terms, answering
// solver. WYVERN_BMC_LL=DIR loads DIR/FILE.ll instead of compiling (for a
// machine without clang), WYVERN_BMC_DUMP_LL=DIR writes those files.
// WYVERN_BMC_CORPORA lists the corpus directories (default testdata/bmc).
// Issue 29: WYVERN_BMC_DEEPEN=1 deepens 1, 2, 4, … up to each line's
// unwind instead of checking it alone, WYVERN_BMC_SHARE=1 sends a bound's
// formula once for both its checks (incremental.go), WYVERN_BMC_SINGLE=1 skips
// threaded lines; two more columns: encode seconds and bounds checked.
func TestMeasureCorpus(t *testing.T) {
	deepen := os.Getenv("WYVERN_BMC_DEEPEN") == "1"
	if v := os.Getenv("WYVERN_BMC_SHARE"); v != "" {
		old := shareBoundScope
		shareBoundScope = v == "1"
		defer func() { shareBoundScope = old }()
	}
	spec := os.Getenv("WYVERN_BMC_MEASURE")
	dump := os.Getenv("WYVERN_BMC_DUMP_LL")
	if spec == "" && dump == "" {
		t.Skip("set WYVERN_BMC_MEASURE=z3,cvc5,boolector,portfolio to measure the corpora")
	}
	atoi := func(name string, def int) int {
		if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
			return v
		}
		return def
	}
	reps, par := atoi("WYVERN_BMC_REPS", 1), atoi("WYVERN_BMC_PAR", 1)
	corpora := []string{"bmc"}
	if c := os.Getenv("WYVERN_BMC_CORPORA"); c != "" {
		corpora = strings.Split(c, ",")
	}
	llDir := os.Getenv("WYVERN_BMC_LL")
	type job struct {
		corpus string
		l      corpusLine
		p      *ir.Program
		solver string
		rep    int
	}
	var jobsList []job
	for _, corpus := range corpora {
		for _, l := range readCorpusAt(t, filepath.Join("../testdata", corpus, "EXPECTED.tsv")) {
			if os.Getenv("WYVERN_BMC_SINGLE") == "1" && l.contexts != "-" && l.contexts != "" {
				continue
			}
			src := filepath.Join("../testdata", corpus, l.file)
			var p *ir.Program
			switch {
			case dump != "":
				ll, err := ir.Frontend(src, ir.Options{})
				if err != nil {
					t.Fatal(err)
				}
				dst := filepath.Join(dump, corpus, l.file+".ll")
				if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(dst, ll.LL, 0o644); err != nil {
					t.Fatal(err)
				}
				continue
			case llDir != "":
				var err error
				if p, err = ir.Load(filepath.Join(llDir, corpus, l.file+".ll"), ir.Options{}); err != nil {
					t.Fatal(err)
				}
			default:
				p = testutil.Program(t, src)
			}
			for _, s := range strings.Split(spec, ",") {
				for r := 0; r < reps; r++ {
					jobsList = append(jobsList, job{corpus, l, p, s, r})
				}
			}
		}
	}
	w := os.Stdout
	if path := os.Getenv("WYVERN_BMC_OUT"); path != "" {
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		w = f
	}
	var mu sync.Mutex
	work := make(chan job)
	var wg sync.WaitGroup
	for range par {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range work {
				q, err := query.Parse(j.l.query)
				if err != nil {
					t.Error(err)
					continue
				}
				contexts, _ := strconv.Atoi(j.l.contexts)
				ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
				start := time.Now()
				o := jobs.BMCOptions{Unwind: j.l.unwind, Contexts: contexts, Solver: j.solver, SolverTimeoutS: 20}
				if deepen {
					o.Unwind, o.MaxUnwind = 0, j.l.unwind
				}
				r, err := Check(ctx, j.p, q, o, nil)
				cancel()
				el := time.Since(start).Seconds()
				verdict, solverS, terms, who, encodeS, bounds := "error", 0.0, 0, "", 0.0, 0
				if err != nil {
					verdict = "error: " + strings.ReplaceAll(err.Error(), "\t", " ")
				} else {
					verdict, solverS, encodeS, bounds = r.Verdict, r.SolverSeconds, r.EncodeSeconds, len(r.Checks)
					if n := len(r.Checks); n > 0 {
						terms, who = r.Checks[n-1].Terms, r.Checks[n-1].Answered
					}
				}
				mu.Lock()
				fmt.Fprintf(w, "%s\t%s\t%d\t%s\t%d\t%s\t%s\t%.2f\t%.2f\t%d\t%s\t%.3f\t%d\n", j.corpus, j.l.file, j.l.unwind, j.solver, j.rep, verdict, j.l.verdict, el, solverS, terms, who, encodeS, bounds)
				mu.Unlock()
			}
		}()
	}
	for _, j := range jobsList {
		work <- j
	}
	close(work)
	wg.Wait()
}
