package explicit

import (
	"context"
	"os"
	"os/exec"
	"sync"
	"testing"

	"github.com/wyvernmc/wyvern/ir"
	"github.com/wyvernmc/wyvern/query"
	"github.com/wyvernmc/wyvern/vm"
)

// needClang skips the test when clang-14 is not installed, except in CI
// (CI=true) where a missing compiler is a failure.
func needClang(tb testing.TB) {
	tb.Helper()
	if _, err := exec.LookPath("clang-14"); err != nil {
		if os.Getenv("CI") == "true" {
			tb.Fatalf("clang-14 not found in PATH (required when CI=true): %v", err)
		}
		tb.Skip("clang-14 not found in PATH; skipping tests that compile C programs")
	}
}

var (
	progMu    sync.Mutex
	progCache = map[string]*ir.Program{}
)

// machine compiles a C program at -O0 once per test binary and returns a
// fresh machine for it.
func machine(tb testing.TB, path string) *vm.Machine {
	tb.Helper()
	needClang(tb)
	progMu.Lock()
	defer progMu.Unlock()
	p, ok := progCache[path]
	if !ok {
		var err error
		if p, err = ir.Load(path, ir.Options{OptLevel: 0}); err != nil {
			tb.Fatalf("load %s: %v", path, err)
		}
		progCache[path] = p
	}
	return vm.NewMachine(p)
}

// compile parses and compiles a query against m.
func compile(tb testing.TB, m *vm.Machine, text string) *query.Compiled {
	tb.Helper()
	q, err := query.Parse(text)
	if err != nil {
		tb.Fatalf("parse %q: %v", text, err)
	}
	c, err := query.Compile(q, m)
	if err != nil {
		tb.Fatalf("compile %q: %v", text, err)
	}
	return c
}

// search runs a search of a query on a program and fails the test on error.
func search(tb testing.TB, path, text string, opts Options) *Result {
	tb.Helper()
	m := machine(tb, path)
	res, err := Search(context.Background(), compile(tb, m, text), opts)
	if err != nil {
		tb.Fatalf("%s: %s: %v", path, text, err)
	}
	return res
}
