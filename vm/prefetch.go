package vm

import "unsafe"

// PrefetchStages is the number of stages of PrefetchState.
const PrefetchStages = 4

// PrefetchState asks the processor to load part of st into the cache ahead
// of its use, without waiting for it. A breadth-first search expands each
// state long after it made it (the queue is far larger than the cache), so
// reading a queued state (listing its enabled processes, copying it) is a
// chain of cache misses, each waiting for the one before: a state is a
// graph (the state, its process list, each process's record, its frames
// and registers). So the search prefetches that graph one level at a time
// over the states it will expand next, stage 0 (the state) for the state
// PrefetchStages-1 places ahead, stage 1 (its process list and block
// table) for the next, and so on: each stage follows only pointers that
// the stage before brought into the cache, while the search works on the
// states before it. A hint: it changes nothing, and with any stage in any
// order it is only slower or faster.
func PrefetchState(st *State, stage int) {
	switch stage {
	case 0:
		// the lines CopyInto reads: the memory's fields to Threads, the
		// status, error, output and last process (a state is not
		// aligned to lines)
		prefetchRange(uintptr(unsafe.Pointer(st)), unsafe.Offsetof(st.LastThread)+unsafe.Sizeof(st.LastThread))
	case 1:
		prefetchSlice(st.Threads)
		prefetchSlice(st.Mem.chunks)
		prefetchSlice(st.Mem.freeStack)
	case 2:
		for _, t := range st.Threads {
			prefetchRange(uintptr(unsafe.Pointer(t)), unsafe.Sizeof(*t))
		}
	case 3:
		for _, t := range st.Threads {
			if n := len(t.Frames); n > 0 {
				prefetch(uintptr(unsafe.Pointer(&t.Frames[n-1])))
			}
			prefetchSlice(t.Regs)
			prefetchSlice(t.Allocas)
		}
	}
}

// prefetchSlice prefetches the lines holding s's elements (at most 8
// lines' worth of bytes).
func prefetchSlice[E any](s []E) {
	var e E
	prefetchRange(uintptr(unsafe.Pointer(unsafe.SliceData(s))), min(uintptr(len(s))*unsafe.Sizeof(e), 8*64))
}

// PrefetchRange starts loading the cache lines holding the n bytes at p (a
// hint that never faults: the search prefetches its tables' lines with it).
func PrefetchRange(p unsafe.Pointer, n uintptr) { prefetchRange(uintptr(p), n) }
