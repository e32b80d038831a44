//go:build !amd64

package vm

// prefetch does nothing on this architecture (see prefetch_asm.go).
func prefetch(uintptr) {}

// prefetchRange does nothing on this architecture (see prefetch_asm.go).
func prefetchRange(uintptr, uintptr) {}
