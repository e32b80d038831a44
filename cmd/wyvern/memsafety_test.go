package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/wyvernmc/wyvern/ir"
	"github.com/wyvernmc/wyvern/svcomp"
)

// memsafetyMarker is a corpus program's expected verdict for a property:
// `// valid-memsafety: FALSE(valid-memtrack)`, `// valid-memcleanup: TRUE`,
// or `-` where the property is not defined (the program has undefined
// behaviour before it terminates).
var memsafetyMarker = regexp.MustCompile(`^// (valid-memsafety|valid-memcleanup): (\S+)$`)

// TestMemsafetyCorpus verifies every program of testdata/memsafety for
// valid-memsafety and valid-memcleanup through one in-process cluster and
// checks each verdict against the program's markers (TRUE, or FALSE with
// the right sub-property), and that every FALSE witness replays.
func TestMemsafetyCorpus(t *testing.T) {
	requireClang(t)
	if testing.Short() {
		t.Skip("a verify per program and property: skipped under -short")
	}
	files, err := filepath.Glob("../../testdata/memsafety/*.c")
	if err != nil || len(files) < 20 {
		t.Fatalf("%d programs in testdata/memsafety (%v), want at least 20", len(files), err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	nc, shutdown, err := startLocalCluster(ctx, 2, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer shutdown()
	checked := 0
	for _, file := range files {
		want := memsafetyVerdicts(t, file)
		if len(want) != 2 {
			t.Fatalf("%s: %d verdict markers, want one per property", file, len(want))
		}
		src, err := ir.Frontend(file, verifyOptions(ir.Options{}))
		if err != nil {
			t.Fatal(err)
		}
		prog, err := ir.ParseLL(src.Name, src.LL)
		if err != nil {
			t.Fatal(err)
		}
		for _, prop := range []string{"valid-memsafety", "valid-memcleanup"} {
			verdict := want[prop]
			if verdict == "-" {
				continue
			}
			checked++
			// A leak is also found by simulation alone, whose trace is
			// longer than the step-by-step replay's (the vm looks where the
			// interpreter returns): the witness is the replay's prefix.
			engines := [][]string{nil}
			if verdict == "FALSE(valid-memtrack)" {
				engines = append(engines, []string{svcomp.EngineSimulation})
			}
			for _, engs := range engines {
				t.Run(filepath.Base(file)+"/"+prop+"/"+strings.Join(engs, ","), func(t *testing.T) {
					prp := "../../svcomp/testdata/properties/" + prop + ".prp"
					p, err := svcomp.ReadProperty(prp)
					if err != nil {
						t.Fatal(err)
					}
					g := svcomp.GoalOf(p, prog)
					out := svcomp.Verify(ctx, nc, &svcomp.Program{Src: src, Prog: prog}, g, svcomp.Options{TimeLimit: 30 * time.Second, Engines: engs})
					if out.Verdict != verdict {
						t.Fatalf("wyvern verify %s --prop %s: verdict %q, want %q (%s)", file, prp, out.Verdict, verdict, out.Reason)
					}
					if !strings.HasPrefix(verdict, "FALSE") {
						return
					}
					var buf bytes.Buffer
					if err := svcomp.WriteWitness(&buf, g.Machine(prog), out.Steps, g, svcomp.WitnessMeta{
						InputFiles: []string{file}, Spec: p.Spec, DataModel: "LP64", Producer: version, Engine: out.Engine}); err != nil {
						t.Fatal(err)
					}
					w := filepath.Join(t.TempDir(), "witness.yml")
					if err := os.WriteFile(w, buf.Bytes(), 0o644); err != nil {
						t.Fatal(err)
					}
					var rout, rerr bytes.Buffer
					if rc := dispatch([]string{"replay", file, "--witness", w}, &rout, &rerr); rc != 0 {
						t.Fatalf("replay --witness: exit %d: %s", rc, rerr.String())
					}
					if !strings.Contains(rout.String(), "witness reproduces "+verdict) {
						t.Errorf("replay --witness:\n%s", rout.String())
					}
				})
			}
		}
	}
	if checked < 40 {
		t.Errorf("%d verdicts checked, want at least 40", checked)
	}
}

// memsafetyVerdicts reads the verdict markers of a corpus program.
func memsafetyVerdicts(t *testing.T, path string) map[string]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	want := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if m := memsafetyMarker.FindStringSubmatch(sc.Text()); m != nil {
			want[m[1]] = m[2]
		}
	}
	return want
}

// TestMemsafetyBMCNoTrue: bounded model checking does not check leaks, so
// its proof is no TRUE of valid-memsafety for a program that allocates
// (the portfolio says UNKNOWN with BMC alone), and it is not run for
// valid-memcleanup.
func TestMemsafetyBMCNoTrue(t *testing.T) {
	requireClang(t)
	if testing.Short() {
		t.Skip("a cluster and a solver: skipped under -short")
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	nc, shutdown, err := startLocalCluster(ctx, 1, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer shutdown()
	const file = "../../testdata/memsafety/swap_freed.c"
	src, err := ir.Frontend(file, verifyOptions(ir.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	prog, err := ir.ParseLL(src.Name, src.LL)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ prop, outcome, detail string }{
		{"valid-memsafety", svcomp.OutNone, "no TRUE: bounded model checking does not check valid-memtrack"},
		{"valid-memcleanup", svcomp.OutRefused, "not expressible"},
	} {
		p, err := svcomp.ReadProperty("../../svcomp/testdata/properties/" + tc.prop + ".prp")
		if err != nil {
			t.Fatal(err)
		}
		out := svcomp.Verify(ctx, nc, &svcomp.Program{Src: src, Prog: prog}, svcomp.GoalOf(p, prog),
			svcomp.Options{TimeLimit: 30 * time.Second, Engines: []string{svcomp.EngineBMC}})
		if out.Verdict != svcomp.Unknown {
			t.Errorf("%s with BMC alone: %s, want UNKNOWN (%s)", tc.prop, out.Verdict, out.Reason)
		}
		for _, e := range out.Engines {
			if e.Engine == svcomp.EngineBMC && (e.Outcome != tc.outcome || !strings.Contains(e.Detail, tc.detail)) {
				t.Errorf("%s: BMC %s (%s), want %s (%s)", tc.prop, e.Outcome, e.Detail, tc.outcome, tc.detail)
			}
		}
	}
}
