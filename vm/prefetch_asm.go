//go:build amd64

package vm

// prefetch asks the processor to load the cache line holding address p
// (PREFETCHT0): a hint that never faults, whatever p is.
//
//go:noescape
func prefetch(p uintptr)

// prefetchRange prefetches every cache line holding a byte of [p, p+n).
//
//go:noescape
func prefetchRange(p, n uintptr)
