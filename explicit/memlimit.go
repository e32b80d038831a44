package explicit

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
)

// memGuard makes the memory limit of a search real. The search's own
// estimate (visited set and queue) undercounts what the process holds —
// allocator and collector overheads, garbage not yet collected: with the
// estimate alone a 2048 MiB limit grew to 3.2 GB. So while a search runs
// the Go runtime gets a soft memory limit of the same size (it collects
// more often as the heap nears it), and every checkEvery new states the
// heap's objects are measured; past the limit (after one forced
// collection) the search stops as incomplete.
type memGuard struct {
	limit   int64
	sample  []metrics.Sample
	n       int
	restore int64 // the runtime's memory limit before the search
}

const checkEvery = 1024

// newMemGuard starts guarding limit bytes (a negative limit: none).
func newMemGuard(limit int64) *memGuard {
	g := &memGuard{limit: limit, sample: []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}}
	if limit > 0 {
		g.restore = debug.SetMemoryLimit(limit + 64<<20) // the rest of the process: 64 MiB
	}
	return g
}

// stop gives the runtime its earlier memory limit back.
func (g *memGuard) stop() {
	if g.limit > 0 {
		debug.SetMemoryLimit(g.restore)
	}
}

// heap is the bytes of the Go heap's objects, live or not yet collected.
func (g *memGuard) heap() int64 {
	metrics.Read(g.sample)
	if g.sample[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return int64(g.sample[0].Value.Uint64())
}

// over says, every checkEvery calls, why the search must stop ("" while
// the heap is within the limit).
func (g *memGuard) over() string {
	if g.limit <= 0 {
		return ""
	}
	g.n++
	if g.n%checkEvery != 0 {
		return ""
	}
	h := g.heap()
	if h <= g.limit {
		return ""
	}
	runtime.GC()
	if h = g.heap(); h <= g.limit {
		return ""
	}
	return fmt.Sprintf("memory limit of %d bytes reached (Go heap %d bytes)", g.limit, h)
}
