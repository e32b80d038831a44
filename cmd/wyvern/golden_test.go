package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var updateGolden = flag.Bool("update-golden", false, "rewrite testdata/golden/*.json from the current code")

// goldenQueries is a fixed set of queries, one of each result kind. Their
// `check --json` results, with everything that depends on time or on the
// embedded cluster (stats, seconds, nanos, experiment ids) removed, are
// pinned in testdata/golden: a change that alters an answer shows up as a
// diff there and must be justified in its commit.
var goldenQueries = []struct {
	name, file, query string
	flags             []string
	exit              int // the exit status (coordinator.Exit*)
}{
	{"pr_checkpoint", "smc/fib_4.c", "Pr[<=5000](<> [0.VERIFIER_error]) {Epsilon=0.02}", nil, 0},
	{"pr_lodin", "smc/petersonsBug.c", "Pr[<=5000](<> ([1.crit] && [2.crit])) {Epsilon=0.02, Rule=lodin}", nil, 0},
	{"sprt", "smc/fib_4.c", "Pr[<=5000](<> [0.VERIFIER_error]) >= 0.1", nil, 0},
	{"estimate", "splitting/ruin.c", "Estimate[<=1000,500]{max x}", nil, 0},
	{"enum_states_smc", "smc/petersons.c", "EnumStatesSMC <=300 200", nil, 0},
	{"split_fixed", "splitting/chain.c", "Pr[<=100000](<> x >= 100) {Split=fixed, Score=x, Levels=[20,40,60,80], N=200, M=4}", nil, 11},
	{"split_adaptive", "splitting/ruin.c", "Pr[<=1000000](<> x >= 20) {Split=adaptive, Score=x, N=50, K=5, M=4}", nil, 11},
	{"split_props", "splitting/chain.c", "Pr[<=100000](<> x >= 100) {Split=fixed, Levels=[x >= 30, x >= 60], N=200, M=4}", nil, 11},
	{"reach", "smc/petersonsBug.c", "E<> ([1.crit] && [2.crit])", nil, 10},
	{"invariant", "smc/petersons.c", "A[] !([1.crit] && [2.crit])", []string{"--reduction", "local"}, 0},
	{"enum_states", "smc/fib_4.c", "EnumStates", []string{"--reduction", "global"}, 0},
	{"exact", "smc/fib_4.c", "Pr[<=5000](<> [0.VERIFIER_error])", []string{"--exact"}, 0},
}

// volatileKeys are JSON fields whose values depend on time, the machine or
// the cluster, not on (program, query, seed, options).
var volatileKeys = map[string]bool{
	"stats": true, "seconds": true, "nanos": true, "experiment": true,
	"elapsed_s": true, "states_per_s": true,
	// The build, and the hash of the LLVM assembly, whose debug information
	// names the directory clang ran in.
	"wyvern_version": true, "program_sha256": true,
}

func stripVolatile(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k := range x {
			if volatileKeys[k] {
				delete(x, k)
				continue
			}
			x[k] = stripVolatile(x[k])
		}
	case []any:
		for i := range x {
			x[i] = stripVolatile(x[i])
		}
	}
	return v
}

// TestGoldenResults checks every golden query's --json result against the
// recorded one (go test ./cmd/wyvern -run Golden -update-golden rewrites
// them) and against its kind's schema in docs/json.md.
func TestGoldenResults(t *testing.T) {
	requireClang(t)
	for _, g := range goldenQueries {
		t.Run(g.name, func(t *testing.T) {
			args := append([]string{"check", "--workers", "2", "--quiet", "--json"}, g.flags...)
			args = append(args, filepath.Join("../../testdata", g.file), g.query)
			var out, errb bytes.Buffer
			if rc := dispatch(args, &out, &errb); rc != g.exit {
				t.Fatalf("check: exit %d, want %d: %s", rc, g.exit, errb.String())
			}
			if err := checkResultJSON(out.Bytes()); err != nil {
				t.Errorf("%s %q: the result does not follow docs/json.md: %v", g.file, g.query, err)
			}
			var v any
			if err := json.Unmarshal(out.Bytes(), &v); err != nil {
				t.Fatalf("result is not JSON: %v\n%s", err, out.String())
			}
			var buf bytes.Buffer
			enc := json.NewEncoder(&buf)
			enc.SetIndent("", "  ")
			enc.SetEscapeHTML(false) // as check --json writes it
			if err := enc.Encode(stripVolatile(v)); err != nil {
				t.Fatal(err)
			}
			got := buf.Bytes()
			path := filepath.Join("../../testdata/golden", g.name+".json")
			if *updateGolden {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (record it with -update-golden)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s %q: result differs from %s:\n%s", g.file, g.query, path, lineDiff(string(want), string(got)))
			}
		})
	}
}

// lineDiff lists the lines that differ between two texts, position by
// position (enough for JSON printed with one field a line).
func lineDiff(want, got string) string {
	a, b := strings.Split(want, "\n"), strings.Split(got, "\n")
	var sb strings.Builder
	shown := 0
	for i := 0; i < max(len(a), len(b)) && shown < 40; i++ {
		var x, y string
		if i < len(a) {
			x = a[i]
		}
		if i < len(b) {
			y = b[i]
		}
		if x != y {
			fmt.Fprintf(&sb, "  line %d\n    want: %s\n    got:  %s\n", i+1, x, y)
			shown++
		}
	}
	return sb.String()
}
