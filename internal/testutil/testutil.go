// Package testutil holds what the tests of several packages share: the
// clang-14 requirement and a cache of programs compiled from C.
package testutil

import (
	"os"
	"os/exec"
	"sync"
	"testing"

	"github.com/wyvernmc/wyvern/ir"
)

// NeedClang returns clang-14's path. Without it the test is skipped on a
// developer machine and fails in CI (CI=true), where a missing compiler
// must never turn into silently skipped tests.
func NeedClang(tb testing.TB) string {
	tb.Helper()
	p, err := exec.LookPath("clang-14")
	if err != nil {
		if os.Getenv("CI") == "true" {
			tb.Fatalf("clang-14 not found in PATH (required when CI=true; run scripts/install-deps.sh): %v", err)
		}
		tb.Skip("clang-14 not found in PATH; skipping tests that compile C programs")
	}
	return p
}

var (
	progMu sync.Mutex
	progs  = map[string]*ir.Program{}
)

// Program compiles the C (or .ll/.bc) file at path at -O0, once per test
// binary, and returns it (programs are immutable: share them freely).
func Program(tb testing.TB, path string) *ir.Program {
	tb.Helper()
	NeedClang(tb)
	progMu.Lock()
	defer progMu.Unlock()
	if p, ok := progs[path]; ok {
		return p
	}
	p, err := ir.Load(path, ir.Options{})
	if err != nil {
		tb.Fatalf("load %s: %v", path, err)
	}
	progs[path] = p
	return p
}
