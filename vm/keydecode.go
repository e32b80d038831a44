package vm

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
)

// A running state can be rebuilt from its canonical encoding
// (AppendKeyParts) and a few words the encoding leaves out but its
// successors depend on (AppendKeyAux): explicit search's breadth-first
// queue keeps only where a state's parts lie in its tree storage and the
// number of its auxiliary list, instead of the state's graph (issue #34).
// The rebuilt state has the original's encoding, and every successor the
// original has, the same encodings: what the encoding leaves out is either
// given by the program (a frame's atomic flag, constant slots), in the
// auxiliary words (the order in which dead stack ids are reused, each
// frame's number of result slots), or never read by a step (the step
// counter, captured output, the last process to move, the error's
// description, absolute condition-variable sequence numbers: only their
// order, the encoding's rank, matters). TestDecodeKey checks it along
// random runs, successors included.

// ErrKeyDecode is wrapped by every error DecodeKeyInto returns.
var ErrKeyDecode = errors.New("bad state encoding")

// AppendKeyAux appends to dst what st's successors depend on that st's
// encoding leaves out: the number of dead stack ids kept for reuse and
// those ids in the order newBlock takes them back, then the number of
// result slots of every frame of every process, in order.
func (m *Machine) AppendKeyAux(dst []uint32, st *State) []uint32 {
	dst = append(dst, uint32(len(st.Mem.freeStack)))
	dst = append(dst, st.Mem.freeStack...)
	for _, t := range st.Threads {
		for i := range t.Frames {
			dst = append(dst, uint32(t.Frames[i].RetN))
		}
	}
	return dst
}

// DecodeKeyInto makes st, reusing its buffers as Reset does, the running
// state whose encoding's parts (AppendKeyParts: the header, each process,
// the block count, each block that differs from the image) are parts and
// whose auxiliary words (AppendKeyAux) are aux. Only the encodings of
// running states of this machine are decoded; on error st is left as a
// fresh initial state.
func (m *Machine) DecodeKeyInto(st *State, parts [][]uint64, aux []uint32) error {
	if st.Threads == nil && st.Mem.chunks == nil {
		*st = *m.NewState()
	}
	bulk := st.Mem.bulk // (Reset takes the image's: AllocateInBulk stays)
	m.Reset(st)
	st.Mem.bulk = bulk
	if err := m.decodeKey(st, parts, aux); err != nil {
		m.Reset(st)
		return fmt.Errorf("%w: %v", ErrKeyDecode, err)
	}
	return nil
}

// DecodeKeyFrom is DecodeKeyInto for a state whose encoding differs in a
// few parts from that of ref, a running state DecodeKeyInto or
// DecodeKeyFrom made and left unchanged: parts[i] is nil where the state's
// part i is ref's, and refBlocks[j] is the block id of ref's j-th block
// part (part j after the process parts and the block count). Both
// encodings have as many parts, equal headers and block counts (the
// caller checks); aux is the state's auxiliary words, of which a process
// whose part is ref's must have ref's (its frames' result slots: an error
// otherwise). It makes st a copy
// of ref (CopyInto) and decodes only the parts that differ, as
// DecodeKeyInto would have decoded them: a process's part into a new
// record, a block's into its descriptor. It reports false, having changed
// nothing, when the encodings differ in a way it does not decode in place
// (a block part of another block than ref's, or a machine with
// thread-local globals, whose processes' constants read memory): the
// caller then decodes the whole state.
func (m *Machine) DecodeKeyFrom(st, ref *State, parts [][]uint64, refBlocks []uint32, aux []uint32) (bool, error) {
	nt := len(ref.Threads)
	if m.tls != nil || nt < 1 || len(parts) != nt+2+len(refBlocks) || parts[0] != nil || parts[nt+1] != nil {
		return false, nil
	}
	for j, was := range refBlocks {
		if p := parts[nt+2+j]; p != nil {
			id, err := blockPartID(p)
			if err != nil {
				return false, fmt.Errorf("%w: %v", ErrKeyDecode, err)
			}
			if id != was {
				return false, nil
			}
		}
	}
	bulk := st.Mem.bulk
	fail := func(format string, args ...any) (bool, error) {
		m.Reset(st)
		st.Mem.bulk = bulk // (as DecodeKeyInto leaves it)
		return true, fmt.Errorf("%w: "+format, append([]any{ErrKeyDecode}, args...)...)
	}
	m.CopyInto(st, ref)
	st.Mem.limit = m.runLimit()
	st.Steps, st.Err, st.LastThread = 0, nil, -1 // (as Reset leaves them)
	st.Out = st.Out[:0]
	for i := nt + 2; i < len(parts); i++ {
		if parts[i] != nil {
			if err := decodeBlock(&st.Mem, &m.init, parts[i]); err != nil {
				return fail("%v", err)
			}
		}
	}
	st.Mem.recount()
	// The auxiliary words: the dead stack ids (taken from aux, as
	// DecodeKeyInto takes them), then each frame's result slots, which a
	// process whose part is unchanged has as ref's (checked).
	a := aux
	if len(a) == 0 || uint64(a[0]) > uint64(len(a)-1) {
		return fail("dead stack ids: truncated")
	}
	st.Mem.freeStack = append(st.Mem.freeStack[:0], a[1:1+a[0]]...)
	a = a[1+a[0]:]
	st.condSeq = 0
	for k, t := range st.Threads {
		if parts[1+k] == nil {
			for f := range t.Frames {
				if len(a) == 0 || int32(a[0]) != t.Frames[f].RetN {
					return fail("process %d frame %d: result slots not ref's", k, f)
				}
				a = a[1:]
			}
		} else {
			u := st.blankThread()
			u.ID = int32(k)
			if err := m.decodeThread(st, u, parts[1+k], &a); err != nil {
				return fail("process %d: %v", k, err)
			}
			if release(t) {
				st.spare = append(st.spare, t)
			}
			st.Threads[k] = u
			t = u
		}
		if t.Wait == waitCond {
			st.condSeq = max(st.condSeq, t.WaitSeq)
		}
	}
	if len(a) != 0 {
		return fail("%d auxiliary words left", len(a))
	}
	return true, nil
}

func (m *Machine) decodeKey(st *State, parts [][]uint64, aux []uint32) error {
	if len(parts) < 2 || len(parts[0]) != 3 {
		return fmt.Errorf("%d parts", len(parts))
	}
	h := parts[0]
	st.Status, st.ExitCode = Status(h[0]>>32), int32(uint32(h[0]))
	if st.Status != Running || h[1] != ^uint64(0) {
		return fmt.Errorf("status %d: not a running state", st.Status)
	}
	nt := int(h[2])
	if nt < 1 || nt+2 > len(parts) {
		return fmt.Errorf("%d processes in %d parts", nt, len(parts))
	}
	// Memory first: a process's constant slots may point at its
	// thread-local copies (remapTLS reads the table in memory).
	if err := m.decodeMemory(st, parts[nt+1], parts[nt+2:], &aux); err != nil {
		return err
	}
	st.releaseThreads()
	for k := range nt {
		t := st.newThread()
		if err := m.decodeThread(st, t, parts[1+k], &aux); err != nil {
			return fmt.Errorf("process %d: %w", k, err)
		}
		if t.Wait == waitCond {
			st.condSeq = max(st.condSeq, t.WaitSeq)
		}
	}
	if len(aux) != 0 {
		return fmt.Errorf("%d auxiliary words left", len(aux))
	}
	return nil
}

// decodeThread fills t, a fresh record, from its part (appendThread).
func (m *Machine) decodeThread(st *State, t *Thread, w []uint64, aux *[]uint32) error {
	if len(w) < 4 {
		return fmt.Errorf("part of %d words", len(w))
	}
	w0 := w[0]
	if int32(uint32(w0)) != t.ID {
		return fmt.Errorf("id %d", int32(uint32(w0)))
	}
	t.Wait, t.Done = uint8(w0>>32), w0>>40&1 != 0
	t.Atomic, t.Detached = int32(w0>>41&(1<<22-1)), w0>>63 != 0
	t.WaitOn, t.RetVal = w[1], w[2]
	w = w[3:]
	if t.Wait == waitCond {
		t.WaitSeq = w[0] + 1 // the rank among the waiters, as an order
		w = w[1:]
	}
	if len(w) == 0 {
		return errors.New("no frame count")
	}
	nf := int(w[0])
	w = w[1:]
	if m.MaxDepth > 0 && nf > m.MaxDepth || nf > len(w) {
		return fmt.Errorf("%d frames", nf)
	}
	base := int32(0)
	for f := range nf {
		if len(w) < 3 || len(*aux) == 0 {
			return fmt.Errorf("frame %d: truncated", f)
		}
		fi := int(w[0] >> 32)
		if fi >= len(m.Prog.Funcs) || m.Prog.Funcs[fi].External {
			return fmt.Errorf("frame %d: function %d", f, fi)
		}
		fn := m.Prog.Funcs[fi]
		fr := Frame{Fn: fn, Base: base, PC: int32(uint32(w[0])), RetDst: int32(w[1] >> 32),
			AllocaMark: int32(uint32(w[1])), OnceAddr: w[2], RetN: int32((*aux)[0]), Atomic: fn.Atomic}
		*aux = (*aux)[1:]
		w = w[3:]
		if fr.PC < 0 || int(fr.PC) >= len(fn.Code) || fr.RetDst < -1 || fr.RetDst >= base {
			return fmt.Errorf("frame %d: pc %d, result slot %d", f, fr.PC, fr.RetDst)
		}
		nc := int(fn.ConstBase)
		if len(w) < nc {
			return fmt.Errorf("frame %d: %d value slots of %d", f, len(w), nc)
		}
		need := int(base) + fn.NRegs
		if need > cap(t.Regs) {
			nr := make([]uint64, need, 2*need+64)
			copy(nr, t.Regs)
			t.Regs = nr
		}
		t.Regs = t.Regs[:need]
		copy(t.Regs[base:], w[:nc])
		consts := t.Regs[int(base)+nc : need]
		copy(consts, fn.Consts)
		if m.tls != nil && t.ID != 0 {
			m.remapTLS(st, t, consts)
		}
		w = w[nc:]
		t.Frames = append(t.Frames, fr)
		base += int32(fn.NRegs)
	}
	if len(w) < 1 || int(w[0]) != len(w)-1 {
		return errors.New("stack blocks: bad count")
	}
	for _, id := range w[1:] {
		if id == 0 || id >= uint64(st.Mem.n) {
			return fmt.Errorf("stack block %d out of range", id)
		}
		t.Allocas = append(t.Allocas, uint32(id))
	}
	mark := int32(0)
	for f, fr := range t.Frames {
		if fr.AllocaMark < mark || int(fr.AllocaMark) > len(t.Allocas) {
			return fmt.Errorf("frame %d: alloca mark %d outside [%d, %d]", f, fr.AllocaMark, mark, len(t.Allocas))
		}
		mark = fr.AllocaMark
	}
	return nil
}

// decodeMemory makes st's memory, the image after Reset, the one of the
// block count part count and the block parts blocks, with the dead stack
// ids at the head of aux.
func (m *Machine) decodeMemory(st *State, count []uint64, blocks [][]uint64, aux *[]uint32) error {
	mem, img := &st.Mem, &m.init
	if len(count) != 1 || count[0] < uint64(img.n) || count[0] > 1<<32-1 {
		return fmt.Errorf("block count part %v, image has %d blocks", count, img.n)
	}
	n := uint32(count[0])
	for mem.n < n {
		mem.newBlock(0, blkNone, -1)
	}
	a := *aux
	if len(a) == 0 || uint64(a[0]) > uint64(len(a)-1) {
		return errors.New("dead stack ids: truncated")
	}
	nfs := int(a[0])
	mem.freeStack = append(mem.freeStack[:0], a[1:1+nfs]...)
	*aux = a[1+nfs:]
	last := uint32(0)
	for _, w := range blocks {
		id, err := blockPartID(w)
		if err != nil {
			return err
		}
		if id == 0 || id >= n || id <= last {
			return fmt.Errorf("block %d (after block %d, of %d)", id, last, n)
		}
		last = id
		if err := decodeBlock(mem, img, w); err != nil {
			return err
		}
	}
	mem.recount()
	return nil
}

// blockPartID returns the id of the block whose part is w.
func blockPartID(w []uint64) (uint32, error) {
	if len(w) < 2 {
		return 0, fmt.Errorf("block part of %d words", len(w))
	}
	if kind := uint8(w[0]); !validKind(kind, uint64(uint32(w[1]))) {
		return 0, fmt.Errorf("block %d of kind %d", uint32(w[0]>>8), kind)
	}
	return uint32(w[0] >> 8), nil
}

// decodeBlock gives mem's block the kind, size, owner and bytes of its
// part w (blockPartID checked its header).
func decodeBlock(mem, img *Memory, w []uint64) error {
	id, kind := uint32(w[0]>>8), uint8(w[0])
	size, thread := uint32(w[1]), int32(uint32(w[1]>>32))
	w = w[2:]
	b := mem.wblk(id)
	b.kind, b.thread = kind, thread
	if !hasBytes(kind) {
		b.size, b.data, b.pages = size, nil, nil
		if len(w) != 0 {
			return fmt.Errorf("block %d: %d words without bytes", id, len(w))
		}
		return nil
	}
	n := storedLen(kind, size)
	if len(w) != (int(n)+7)/8 {
		return fmt.Errorf("block %d: %d words for %d bytes", id, len(w), n)
	}
	if size <= pageSize {
		b.pages = nil
		if size != b.size || b.data == nil || len(b.data) != int(n) {
			b.data = mem.buffer(int(n))[:n]
		}
		b.size = size
		wordsToBytes(b.data, w)
		return nil
	}
	var ipages []*page // the image's pages, shared where equal
	if id < img.n {
		if ib := img.blk(id); ib.size == size && ib.pages != nil {
			ipages = ib.pages
		}
	}
	np := int((size + pageSize - 1) / pageSize)
	if b.pages == nil || b.size != size {
		b.data = nil
		b.pages = make([]*page, np)
	}
	b.size = size
	var buf [pageSize]byte
	for pi := range np {
		k := min(int(size)-pi*pageSize, pageSize)
		pw := w[pi*pageSize/8 : (pi*pageSize+k+7)/8]
		wordsToBytes(buf[:k], pw)
		if ipages != nil && bytes.Equal(ipages[pi].data[:k], buf[:k]) {
			b.pages[pi] = ipages[pi]
			continue
		}
		pg := &page{owner: mem.epoch}
		copy(pg.data[:], buf[:k])
		b.pages[pi] = pg
	}
	return nil
}

// wordsToBytes fills p from the words appendWords made of it.
func wordsToBytes(p []byte, w []uint64) {
	for ; len(p) >= 8; p, w = p[8:], w[1:] {
		binary.LittleEndian.PutUint64(p, w[0])
	}
	if len(p) > 0 {
		var buf [8]byte
		binary.LittleEndian.PutUint64(buf[:], w[0])
		copy(p, buf[:])
	}
}
