// Package archtest checks the dependency graph documented in
// docs/architecture.md against the packages' real imports.
package archtest

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

const module = "github.com/wyvernmc/wyvern/"

// allowed reads the table between the archtest markers: package → the
// packages of ours it may import.
func allowed(t *testing.T) map[string]map[string]bool {
	t.Helper()
	f, err := os.Open("../../docs/architecture.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cell := regexp.MustCompile("`([^`]+)`")
	out := map[string]map[string]bool{}
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.Contains(line, "archtest:begin"):
			in = true
			continue
		case strings.Contains(line, "archtest:end"):
			in = false
		}
		if !in || !strings.HasPrefix(line, "| `") {
			continue
		}
		cols := strings.Split(line, "|")
		if len(cols) < 5 {
			t.Fatalf("architecture table row %q: want | package | holds | may import |", line)
		}
		pkg := cell.FindStringSubmatch(cols[1])[1]
		deps := map[string]bool{}
		for _, m := range cell.FindAllStringSubmatch(cols[3], -1) {
			deps[m[1]] = true
		}
		out[pkg] = deps
	}
	if len(out) == 0 {
		t.Fatal("no dependency table between <!-- archtest:begin --> and <!-- archtest:end --> in docs/architecture.md")
	}
	return out
}

// TestDependencyGraph: every import between the module's packages (test
// files excluded) is an edge the document allows, and every package is in
// the document.
func TestDependencyGraph(t *testing.T) {
	allow := allowed(t)
	cmd := exec.Command("go", "list", "-json", module+"...")
	cmd.Dir = filepath.Join("..", "..")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	var bad []string
	seen := 0
	for dec.More() {
		var p struct {
			ImportPath string
			Imports    []string
		}
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		seen++
		name := strings.TrimPrefix(p.ImportPath, module)
		deps, ok := allow[name]
		if !ok {
			bad = append(bad, "package "+name+" is not in docs/architecture.md's table")
			continue
		}
		for _, imp := range p.Imports {
			if !strings.HasPrefix(imp, module) {
				continue
			}
			if d := strings.TrimPrefix(imp, module); !deps[d] {
				bad = append(bad, name+" imports "+d+", which docs/architecture.md does not allow")
			}
		}
	}
	sort.Strings(bad)
	for _, b := range bad {
		t.Error(b)
	}
	if seen < 10 {
		t.Fatalf("go list found only %d packages", seen)
	}
}
