package explicit

import (
	"runtime"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/wyvernmc/wyvern/jobs"
)

// TestMemGuard: past its limit the guard stops a search, naming the Go
// heap (what the estimate misses); within it, it does not; the runtime's
// memory limit is set while it runs and given back after.
func TestMemGuard(t *testing.T) {
	before := debug.SetMemoryLimit(-1)
	g := newMemGuard(4 << 20)
	if got := debug.SetMemoryLimit(-1); got != 4<<20+64<<20 {
		t.Errorf("runtime memory limit %d while guarding 4 MiB", got)
	}
	held := make([][]byte, 0, 64)
	for i := 0; i < 16; i++ {
		held = append(held, make([]byte, 1<<20))
	}
	why := ""
	for i := 0; i < checkEvery && why == ""; i++ {
		why = g.over()
	}
	runtime.KeepAlive(held)
	if !strings.Contains(why, "memory limit of 4194304 bytes reached (Go heap") {
		t.Errorf("16 MiB held under a 4 MiB guard: %q", why)
	}
	g.stop()
	if got := debug.SetMemoryLimit(-1); got != before {
		t.Errorf("runtime memory limit %d after the guard, was %d", got, before)
	}
	big := newMemGuard(1 << 40)
	for i := 0; i < 2*checkEvery; i++ {
		if why := big.over(); why != "" {
			t.Fatalf("under a 1 TiB guard: %q", why)
		}
	}
	big.stop()
}

// TestWireMaxBytes: a job cannot ask for a search without a memory limit
// (a negative MaxBytes means none to the package's callers).
func TestWireMaxBytes(t *testing.T) {
	if _, err := OptionsFromWire(&jobs.ExplicitOptions{MaxBytes: -5}); err == nil || !strings.Contains(err.Error(), "max_bytes -5") {
		t.Errorf("negative max_bytes from the wire: %v", err)
	}
	if o, err := OptionsFromWire(&jobs.ExplicitOptions{MaxBytes: 0}); err != nil || o.maxBytes() != DefaultMaxBytes {
		t.Errorf("max_bytes 0: %v, %d", err, o.maxBytes())
	}
}
