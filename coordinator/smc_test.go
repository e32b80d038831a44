package coordinator_test

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/wyvernmc/wyvern/estimator"
	"github.com/wyvernmc/wyvern/ir"
	"github.com/wyvernmc/wyvern/query"
	"github.com/wyvernmc/wyvern/simulator"
	"github.com/wyvernmc/wyvern/vm"
)

// TestLODINPrograms runs each program of testdata/smc (our versions of the
// LODIN benchmarks) and requires the 99.9 % Clopper–Pearson interval of its
// runs to meet the expected range of testdata/smc/expected.txt; where the
// range is [0, 0] no run may satisfy the query.
func TestLODINPrograms(t *testing.T) {
	needClang(t)
	f, err := os.Open("../testdata/smc/expected.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Split(sc.Text(), "\t")
		if len(fields) != 4 {
			t.Fatalf("bad line %q", sc.Text())
		}
		file, qtext := fields[0], fields[1]
		lo, _ := strconv.ParseFloat(fields[2], 64)
		hi, _ := strconv.ParseFloat(fields[3], 64)
		t.Run(file, func(t *testing.T) {
			prog, err := ir.Load("../testdata/smc/"+file, ir.Options{})
			if err != nil {
				t.Fatal(err)
			}
			q, err := query.Parse(qtext)
			if err != nil {
				t.Fatal(err)
			}
			c, err := query.Compile(q, vm.NewMachine(prog))
			if err != nil {
				t.Fatal(err)
			}
			tr := simulator.NewTracer(c)
			runs := 4000
			if strings.HasPrefix(file, "gossip") || strings.HasPrefix(file, "robot") {
				runs = 1500 // ~3500 steps per run
			}
			if testing.Short() {
				runs /= 4
			}
			k := 0
			for i := 0; i < runs; i++ {
				if o, _ := tr.Trace(1, uint64(i)); o.Sat {
					k++
				}
			}
			clo, chi := estimator.ClopperPearson(k, runs, 0.001)
			t.Logf("%d/%d satisfying, 99.9%% interval [%.4f, %.4f], expected [%g, %g]", k, runs, clo, chi, lo, hi)
			if hi == 0 && k > 0 {
				t.Errorf("%d of %d runs satisfy %s; expected none", k, runs, qtext)
			}
			if chi < lo || clo > hi {
				t.Errorf("interval [%.4f, %.4f] misses the expected [%g, %g]", clo, chi, lo, hi)
			}
		})
	}
}
