package vm

import "encoding/binary"

// This file holds what exhaustive explicit-state search (package explicit)
// needs beyond Step and Hash: copying a state into a reused one, stepping
// without the scheduler's end-of-run bookkeeping, and a canonical encoding
// of a state for visited sets that resolve hash collisions.

// CopyInto makes dst an independent copy of src, reusing dst's buffers
// (thread records, frames, registers, memory chunks and small blocks that
// dst owns), so that trying successor after successor of one state
// allocates nothing in the steady state. Like Clone, it writes to src (src
// stops owning the memory it now shares with dst), so it must not run
// concurrently with other uses of src. dst may be a zero State or any state
// of the same machine other than src.
func (m *Machine) CopyInto(dst, src *State) {
	if dst == src {
		return
	}
	dst.Mem.copyFrom(&src.Mem)
	dst.spare = append(dst.spare, dst.Threads...)
	dst.Threads = dst.Threads[:0]
	for _, t := range src.Threads {
		var nt *Thread
		if k := len(dst.spare); k > 0 {
			nt = dst.spare[k-1]
			dst.spare = dst.spare[:k-1]
		} else {
			nt = &Thread{}
		}
		frames, regs, allocas := nt.Frames, nt.Regs, nt.Allocas
		*nt = *t
		nt.Frames = append(frames[:0], t.Frames...)
		nt.Regs = append(regs[:0], t.Regs...)
		nt.Allocas = append(allocas[:0], t.Allocas...)
		dst.Threads = append(dst.Threads, nt)
	}
	dst.Steps, dst.Status, dst.ExitCode = src.Steps, src.Status, src.ExitCode
	dst.condSeq, dst.LastThread = src.condSeq, src.LastThread
	dst.Err = nil
	if src.Err != nil {
		e := *src.Err
		dst.Err = &e
	}
	dst.Out = append(dst.Out[:0], src.Out...)
}

// copyFrom makes m a copy-on-write copy of src, recycling what m owns (as
// reset does for the initial image). src stops owning what it shares.
func (m *Memory) copyFrom(src *Memory) {
	src.epoch = newEpoch()
	m.reset(src)
}

// StepOnly executes exactly one step of thread tid as the scheduler loop
// (RunObserved) does, without ending the run when no process is enabled
// afterwards (see Settle). It returns false, changing nothing, if the run
// has ended or the thread is not enabled. A blocking platform function
// reached through a function pointer ends the run in an error state, as in
// RunObserved.
func (m *Machine) StepOnly(st *State, tid int32, ch Chooser) bool {
	t := st.Thread(tid)
	if t == nil || st.Status != Running || !m.Enabled(st, t) {
		return false
	}
	n := m.exec(st, t, 1, ch)
	st.Steps += n
	st.LastThread = tid
	if n == 0 && st.Status == Running {
		m.fail(st, t, t.Frames[len(t.Frames)-1].PC, ErrPthread,
			"blocking pthread function called through a function pointer")
	}
	return true
}

// Settle appends the enabled processes of st to buf[:0] and returns them;
// when the run is still going but no process is enabled it ends the run
// as the scheduler does (Deadlock, or Exited when every process finished).
func (m *Machine) Settle(st *State, buf []int32) []int32 {
	buf = m.EnabledThreads(st, buf)
	if st.Status == Running && len(buf) == 0 {
		m.endNoEnabled(st)
	}
	return buf
}

// AppendKey appends the canonical encoding of st to dst: two states have
// equal encodings exactly when they are equal as states of this machine
// (processes: frames, pcs, live value slots, allocas, wait and atomic
// status, the order of arrival of condition-variable waiters; memory: every
// block that differs from the post-initialisation image, with its kind,
// size and bytes; the run's status and error kind). Like Hash, it leaves
// out the step counter, the captured output and the order of reusable
// stack block ids. Blocks equal to the image are left out by content, so
// the encoding is canonical whatever copy-on-write sharing a state has.
func (m *Machine) AppendKey(dst []uint64, st *State) []uint64 {
	dst = append(dst, uint64(st.Status)<<32|uint64(uint32(st.ExitCode)))
	if st.Err != nil {
		dst = append(dst, uint64(st.Err.Kind)<<32|uint64(uint32(st.Err.Thread)))
	} else {
		dst = append(dst, ^uint64(0))
	}
	dst = append(dst, uint64(len(st.Threads)))
	for _, t := range st.Threads {
		dst = append(dst, uint64(uint32(t.ID))|uint64(t.Wait)<<32|uint64(b2u(t.Done))<<40|uint64(uint32(t.Atomic))<<41,
			t.WaitOn, t.RetVal)
		if t.Wait == waitCond {
			// Only the order of arrival matters (pthread_cond_signal wakes
			// the earliest waiter), not the absolute sequence number.
			rank := uint64(0)
			for _, o := range st.Threads {
				if o.Wait == waitCond && o.WaitSeq < t.WaitSeq {
					rank++
				}
			}
			dst = append(dst, rank)
		}
		dst = append(dst, uint64(len(t.Frames)))
		for i := range t.Frames {
			fr := &t.Frames[i]
			dst = append(dst, uint64(fr.Fn.Index)<<32|uint64(uint32(fr.PC)),
				uint64(uint32(fr.RetDst))<<32|uint64(uint32(fr.AllocaMark)), fr.OnceAddr)
			dst = append(dst, t.Regs[fr.Base:fr.Base+fr.Fn.ConstBase]...)
		}
		dst = append(dst, uint64(len(t.Allocas)))
		for _, id := range t.Allocas {
			dst = append(dst, uint64(id))
		}
	}
	mem, img := &st.Mem, &m.init
	dst = append(dst, uint64(mem.n))
	for ci, ch := range mem.chunks {
		if ci < len(img.chunks) && ch == img.chunks[ci] {
			continue // shared with the image: every block in it is the image's
		}
		for j := range ch.b {
			id := uint32(ci<<chunkBits | j)
			if id == 0 || id >= mem.n {
				continue
			}
			b := &ch.b[j]
			if id < img.n && sameBlock(b, img.blk(id)) {
				continue
			}
			dst = append(dst, uint64(id)<<8|uint64(b.kind), uint64(b.size)|uint64(uint32(b.thread))<<32)
			switch {
			case !hasBytes(b.kind):
			case b.pages == nil:
				dst = appendWords(dst, b.data[:b.size])
			default:
				rest := b.size
				for _, pg := range b.pages {
					n := min(rest, pageSize)
					dst = appendWords(dst, pg.data[:n])
					rest -= n
				}
			}
		}
	}
	return dst
}

// appendWords packs bytes into little-endian words; a partial last word
// carries its length in the top bits (lengths are also in the encoding, so
// this only keeps distinct tails distinct).
func appendWords(dst []uint64, p []byte) []uint64 {
	for len(p) >= 8 {
		dst = append(dst, binary.LittleEndian.Uint64(p))
		p = p[8:]
	}
	if len(p) > 0 {
		var buf [8]byte
		copy(buf[:], p)
		dst = append(dst, binary.LittleEndian.Uint64(buf[:])^uint64(len(p))<<59)
	}
	return dst
}
