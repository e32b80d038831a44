package explicit

import (
	"context"
	"testing"

	"github.com/wyvernmc/wyvern/internal/testutil"
	"github.com/wyvernmc/wyvern/query"
	"github.com/wyvernmc/wyvern/vm"
)

// The tests check every parts hash a compact search updates against one
// made from scratch (BenchmarkSearch turns it off).
func init() { verifyPartsHash = true }

// machine compiles a C program at -O0 once per test binary and returns a
// fresh machine for it.
func machine(tb testing.TB, path string) *vm.Machine {
	tb.Helper()
	return vm.NewMachine(testutil.Program(tb, path))
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
