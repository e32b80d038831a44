// Package archtest checks the layers documented in docs/architecture.md
// against the packages' real imports: a package imports only packages of
// lower layers, so the engines (one layer) never import each other or the
// coordinator (the same layer), and nothing below the binary imports it.
package archtest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/wyvernmc/wyvern/"

// layers reads the table between the archtest markers of
// docs/architecture.md: package → its layer.
func layers(t *testing.T) map[string]int {
	t.Helper()
	f, err := os.Open("../../docs/architecture.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cell := regexp.MustCompile("`([^`]+)`")
	out := map[string]int{}
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
		if !in || !strings.HasPrefix(line, "| ") || strings.HasPrefix(line, "| layer") || strings.HasPrefix(line, "| ---") {
			continue
		}
		cols := strings.Split(line, "|")
		if len(cols) < 4 {
			t.Fatalf("architecture table row %q: want | layer | package | holds |", line)
		}
		layer, err := strconv.Atoi(strings.TrimSpace(cols[1]))
		if err != nil {
			t.Fatalf("architecture table row %q: layer %q is not a number", line, cols[1])
		}
		m := cell.FindStringSubmatch(cols[2])
		if m == nil {
			t.Fatalf("architecture table row %q: no `package`", line)
		}
		out[m[1]] = layer
	}
	if len(out) == 0 {
		t.Fatal("no layer table between <!-- archtest:begin --> and <!-- archtest:end --> in docs/architecture.md")
	}
	return out
}

// violations lists what breaks the layering in imports (package → the
// module's packages it imports): a package missing from the table, or an
// import of a package that is not in a lower layer.
func violations(layer map[string]int, imports map[string][]string) []string {
	var bad []string
	for pkg, deps := range imports {
		l, ok := layer[pkg]
		if !ok {
			bad = append(bad, "package "+pkg+" is not in docs/architecture.md's table")
			continue
		}
		for _, d := range deps {
			ld, ok := layer[d]
			switch {
			case !ok:
				bad = append(bad, "package "+d+" (imported by "+pkg+") is not in docs/architecture.md's table")
			case ld >= l:
				bad = append(bad, fmt.Sprintf("%s (layer %d) imports %s (layer %d): a package imports only lower layers", pkg, l, d, ld))
			}
		}
	}
	sort.Strings(bad)
	return bad
}

// TestLayers: every import between the module's packages (test files
// excluded) goes to a lower layer, and every package is in the table.
func TestLayers(t *testing.T) {
	layer := layers(t)
	cmd := exec.Command("go", "list", "-json", module+"...")
	cmd.Dir = filepath.Join("..", "..")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	imports := map[string][]string{}
	for dec.More() {
		var p struct {
			ImportPath string
			Imports    []string
		}
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		name := strings.TrimPrefix(p.ImportPath, module)
		imports[name] = nil
		for _, imp := range p.Imports {
			if d, ok := strings.CutPrefix(imp, module); ok {
				imports[name] = append(imports[name], d)
			}
		}
	}
	if len(imports) < 10 {
		t.Fatalf("go list found only %d packages", len(imports))
	}
	for _, b := range violations(layer, imports) {
		t.Error(b)
	}
}

// TestViolations: the check refuses an engine importing another engine or
// the coordinator, a lower package importing a higher one, and a package
// missing from the table; it accepts imports of lower layers.
func TestViolations(t *testing.T) {
	layer := map[string]int{"vm": 1, "kind": 3, "explicit": 4, "symbolic": 4, "coordinator": 4, "cmd/wyvern": 6}
	cases := []struct {
		name    string
		imports map[string][]string
		want    string // "" : accepted
	}{
		{"down the layers", map[string][]string{"explicit": {"vm", "kind"}, "cmd/wyvern": {"explicit", "coordinator"}}, ""},
		{"engine imports engine", map[string][]string{"symbolic": {"explicit"}}, "symbolic (layer 4) imports explicit (layer 4)"},
		{"engine imports coordinator", map[string][]string{"explicit": {"coordinator"}}, "explicit (layer 4) imports coordinator (layer 4)"},
		{"coordinator imports engine", map[string][]string{"coordinator": {"symbolic"}}, "coordinator (layer 4) imports symbolic (layer 4)"},
		{"lower imports higher", map[string][]string{"vm": {"kind"}}, "vm (layer 1) imports kind (layer 3)"},
		{"missing package", map[string][]string{"newpkg": {"vm"}}, "package newpkg is not in"},
	}
	for _, c := range cases {
		bad := violations(layer, c.imports)
		switch {
		case c.want == "" && len(bad) > 0:
			t.Errorf("%s: refused: %v", c.name, bad)
		case c.want != "" && (len(bad) != 1 || !strings.Contains(bad[0], c.want)):
			t.Errorf("%s: got %v, want one violation containing %q", c.name, bad, c.want)
		}
	}
}
