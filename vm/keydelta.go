package vm

// KeyDelta lists the parts of a successor's canonical encoding
// (AppendKeyParts) that may differ from its parent's: the parts not listed
// are equal to the parent's, so explicit search's tree storage reuses
// their leaves instead of encoding and interning them again.
type KeyDelta struct {
	Header  bool     // the run's status and process count
	Count   bool     // the block count
	Threads []int32  // processes whose parts may differ
	Blocks  []uint32 // blocks, in increasing id order, that may have become, stopped being or changed as parts
}

// KeyDelta fills d with the parts of succ's encoding that may differ from
// parent's, under the conditions of PartsHasher.SuccessorStep (succ is a
// CopyInto copy of parent changed since only through StepOnly; tid moved
// first; solo: the one step SoloStep allowed), from the same information:
// the records succ no longer shares with parent and the blocks it owns. It
// reports false when the parts must be made whole (a different process
// count, fewer blocks, an image other than the machine's): the sequence of
// parts may then be shaped differently. A step that ends the run (an exit,
// main's return, an error, a deadlock) changes the header and, like any
// other step, the records it owns and the blocks it writes (the vm ends no
// other process's record in place): the parts keep their shape, so its
// successor's delta is made as any other's (explicit search's tests check
// every tree made from a delta against the whole encoding).
func (m *Machine) KeyDelta(parent, succ *State, tid int32, solo bool, d *KeyDelta) bool {
	d.Header, d.Count, d.Threads, d.Blocks = false, false, d.Threads[:0], d.Blocks[:0]
	if parent.Status != Running || len(succ.Threads) != len(parent.Threads) ||
		succ.Mem.image != parent.Mem.image || succ.Mem.image != &m.init || succ.Mem.n < parent.Mem.n {
		return false
	}
	d.Count = succ.Mem.n != parent.Mem.n
	d.Header = parent.Status != succ.Status || parent.ExitCode != succ.ExitCode || !sameErr(parent, succ)
	if solo {
		if succ.Threads[tid] != parent.Threads[tid] {
			d.Threads = append(d.Threads, tid)
		}
	} else {
		for i, t := range succ.Threads {
			pt := parent.Threads[i]
			switch {
			case t == pt && t.Wait != waitCond:
				continue // shared: unchanged
			case i == int(tid) || t.Wait == waitCond || pt.Wait == waitCond:
			case sameThread(t, pt):
				continue
			}
			d.Threads = append(d.Threads, int32(i))
		}
	}
	mem := &succ.Mem
	for id := range mem.written(mem.epoch) {
		if id != 0 && id < mem.n {
			d.Blocks = append(d.Blocks, id)
		}
	}
	return true
}

func sameErr(s, t *State) bool {
	if s.Err == nil || t.Err == nil {
		return s.Err == t.Err
	}
	return s.Err.Kind == t.Err.Kind && s.Err.Thread == t.Err.Thread
}

// AppendHeaderPart appends the first part of st's encoding
// (AppendKeyParts): the run's status and the process count.
func (m *Machine) AppendHeaderPart(dst []uint64, st *State) []uint64 {
	return append(appendStatus(dst, st), uint64(len(st.Threads)))
}

// AppendThreadPart appends the part of st's encoding that is process i.
func (m *Machine) AppendThreadPart(dst []uint64, st *State, i int) []uint64 {
	return appendThread(dst, st, st.Threads[i])
}

// AppendCountPart appends the part of st's encoding that is its block
// count.
func (m *Machine) AppendCountPart(dst []uint64, st *State) []uint64 {
	return append(dst, uint64(st.Mem.n))
}

// AppendBlockPart appends the part of st's encoding that is block id; ok
// is false (nothing appended) when the block is not one (the null block,
// ids past the memory's end, blocks equal to the image).
func (m *Machine) AppendBlockPart(dst []uint64, st *State, id uint32) (_ []uint64, ok bool) {
	b := keyBlock(&st.Mem, &m.init, id)
	if b == nil {
		return dst, false
	}
	return appendBlock(dst, id, b), true
}
