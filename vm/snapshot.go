package vm

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
)

// Snapshots are compact byte encodings of a state, for states that travel
// between machines (importance splitting restarts runs from states found by
// other workers). A snapshot holds what the machine's initial image cannot
// give back: the processes (frames, value slots, allocas), the run's
// counters and status, and only the memory blocks that differ from the
// post-initialisation image (Memory.changed: the blocks of the state's
// identity, see hash.go). It holds every part of the identity and more
// (what makes a restored run go on exactly as the original: step counter,
// output, absolute condition-variable sequence numbers, free stack ids),
// so a restored state has the original's key and hash. Constant slots are
// not stored: a restored frame takes them from its function. Restoring a
// snapshot on a machine built from the same program gives a state that
// runs exactly as the original would under the same choices.

const snapshotVersion = 1

// ErrSnapshot is wrapped by every error Restore returns.
var ErrSnapshot = errors.New("bad state snapshot")

// AppendSnapshot appends the snapshot of st to dst and returns the result.
func (m *Machine) AppendSnapshot(dst []byte, st *State) []byte {
	w := snapWriter{b: dst}
	w.u(snapshotVersion)
	w.u(st.Steps)
	w.u(uint64(st.Status))
	w.i(int64(st.ExitCode))
	w.u(st.condSeq)
	w.i(int64(st.LastThread))
	if e := st.Err; e != nil {
		w.u(1)
		w.u(uint64(e.Kind))
		w.i(int64(e.Thread))
		w.s(e.Func)
		w.i(int64(e.PC))
		w.s(e.Loc.File)
		w.i(int64(e.Loc.Line))
		w.i(int64(e.Loc.Col))
		w.s(e.Detail)
	} else {
		w.u(0)
	}
	w.bytes(st.Out)
	w.u(uint64(len(st.Threads)))
	for _, t := range st.Threads {
		w.u(uint64(b2u(t.Done)))
		w.u(t.RetVal)
		w.i(int64(t.Atomic))
		w.u(uint64(t.Wait))
		w.u(t.WaitSeq)
		w.u(t.WaitOn)
		w.u(uint64(len(t.Frames)))
		for i := range t.Frames {
			fr := &t.Frames[i]
			w.u(uint64(fr.Fn.Index))
			w.i(int64(fr.PC))
			w.i(int64(fr.RetDst))
			w.i(int64(fr.RetN))
			w.i(int64(fr.AllocaMark))
			w.u(fr.OnceAddr)
			w.u(uint64(b2u(fr.Atomic)))
			for _, v := range t.Regs[fr.Base : fr.Base+fr.Fn.ConstBase] {
				w.u(v)
			}
		}
		w.u(uint64(len(t.Allocas)))
		for _, id := range t.Allocas {
			w.u(uint64(id))
		}
	}
	mem, img := &st.Mem, &m.init
	w.u(uint64(mem.n))
	w.u(uint64(len(mem.freeStack)))
	for _, id := range mem.freeStack {
		w.u(uint64(id))
	}
	// Changed blocks (the same ones as the state's key), in id order, as
	// (id delta, descriptor, bytes).
	last := uint32(0)
	for id, b := range mem.changed(img) {
		var ib *block
		if id < img.n {
			ib = img.blk(id)
		}
		w.u(uint64(id - last))
		last = id
		w.u(uint64(b.kind))
		w.u(uint64(b.size))
		w.i(int64(b.thread))
		switch {
		case !hasBytes(b.kind):
		case b.pages == nil:
			w.zbytes(b.stored())
		default:
			// Pages that differ from the image's, as (index+1, bytes); 0 ends.
			// Restore starts from the image's pages when the image has the
			// block at this size, else from zeroPage: a page still shared
			// with zeroPage is then not written (a 4 GiB block of untouched
			// pages would otherwise take a million page records, and as many
			// page allocations to restore).
			fromImage := ib != nil && ib.pages != nil && ib.size == b.size
			for pi, pg := range b.pages {
				if fromImage && pi < len(ib.pages) && (pg == ib.pages[pi] || pg.data == ib.pages[pi].data) {
					continue
				}
				if !fromImage && pg == &zeroPage {
					continue
				}
				w.u(uint64(pi + 1))
				w.zbytes(pg.data[:])
			}
			w.u(0)
		}
	}
	w.u(0)
	return w.b
}

// Snapshot returns the snapshot of st.
func (m *Machine) Snapshot(st *State) []byte { return m.AppendSnapshot(nil, st) }

// zeroPage is the initial content of a restored large block's pages that
// the snapshot does not list. Its owner is no epoch, so it is never written.
var zeroPage page

func hasBytes(kind uint8) bool {
	kind &^= blkUndef
	return kind == blkConst || kind == blkGlobal || kind == blkStack || kind == blkHeap
}

// sameBlock reports whether b still equals the image's block ib.
func sameBlock(b, ib *block) bool {
	if b.kind != ib.kind || b.size != ib.size || b.thread != ib.thread {
		return false
	}
	if !hasBytes(b.kind) {
		return true
	}
	if b.pages == nil && ib.pages == nil {
		return bytes.Equal(b.data, ib.data)
	}
	if b.pages == nil || ib.pages == nil || len(b.pages) != len(ib.pages) {
		return false
	}
	for i, pg := range b.pages {
		if pg != ib.pages[i] && pg.data != ib.pages[i].data {
			return false
		}
	}
	return true
}

// Restore decodes a snapshot made by a machine of the same program into a
// new state.
func (m *Machine) Restore(data []byte) (*State, error) {
	st := &State{}
	if err := m.RestoreInto(st, data); err != nil {
		return nil, err
	}
	return st, nil
}

// RestoreInto decodes a snapshot into st, reusing its buffers as Reset
// does. On error st is left as a fresh initial state.
func (m *Machine) RestoreInto(st *State, data []byte) error {
	if st.Threads == nil && st.Mem.chunks == nil {
		*st = *m.NewState()
	}
	m.Reset(st)
	if err := m.restore(st, data); err != nil {
		m.Reset(st)
		return fmt.Errorf("%w: %v", ErrSnapshot, err)
	}
	return nil
}

func (m *Machine) restore(st *State, data []byte) error {
	r := snapReader{b: data}
	if v := r.u(); v != snapshotVersion {
		if r.err != nil {
			return r.err
		}
		return fmt.Errorf("version %d, want %d", v, snapshotVersion)
	}
	st.Steps = r.u()
	st.Status = Status(r.u())
	if st.Status > StepBound {
		return fmt.Errorf("status %d out of range", st.Status)
	}
	st.ExitCode = int32(r.i())
	st.condSeq = r.u()
	st.LastThread = int32(r.i())
	if r.u() == 1 {
		e := &ErrorState{}
		e.Kind = ErrKind(r.u())
		e.Thread = int32(r.i())
		e.Func = r.s()
		e.PC = int32(r.i())
		e.Loc.File = r.s()
		e.Loc.Line = int32(r.i())
		e.Loc.Col = int32(r.i())
		e.Detail = r.s()
		st.Err = e
	}
	st.Out = append(st.Out[:0], r.bytes()...)
	nt := r.n(1 << 20)
	// Reset left one thread (main at entry); rebuild the list.
	st.releaseThreads()
	for k := 0; k < nt && r.err == nil; k++ {
		t := st.newThread()
		t.Done = r.u() != 0
		t.RetVal = r.u()
		t.Atomic = int32(r.i())
		t.Wait = uint8(r.u())
		t.WaitSeq = r.u()
		t.WaitOn = r.u()
		nf := r.n(m.MaxDepth)
		for f := 0; f < nf && r.err == nil; f++ {
			fi := r.n(len(m.Prog.Funcs) - 1)
			if r.err != nil {
				break
			}
			fn := m.Prog.Funcs[fi]
			if fn.External {
				return fmt.Errorf("thread %d frame %d: %s has no body", k, f, fn.Name)
			}
			base := int32(0)
			if f > 0 {
				top := &t.Frames[f-1]
				base = top.Base + int32(top.Fn.NRegs)
			}
			fr := Frame{Fn: fn, Base: base}
			fr.PC = int32(r.i())
			fr.RetDst = int32(r.i())
			fr.RetN = int32(r.i())
			fr.AllocaMark = int32(r.i())
			fr.OnceAddr = r.u()
			fr.Atomic = r.u() != 0
			if fr.PC < 0 || int(fr.PC) >= len(fn.Code) {
				return fmt.Errorf("thread %d frame %d: pc %d outside %s", k, f, fr.PC, fn.Name)
			}
			if fr.RetDst < -1 || fr.RetDst >= base {
				return fmt.Errorf("thread %d frame %d: result slot %d out of range", k, f, fr.RetDst)
			}
			need := int(base) + fn.NRegs
			if need > cap(t.Regs) {
				nr := make([]uint64, need, 2*need+64)
				copy(nr, t.Regs)
				t.Regs = nr
			}
			t.Regs = t.Regs[:need]
			for s := base; s < base+fn.ConstBase; s++ {
				t.Regs[s] = r.u()
			}
			copy(t.Regs[base+fn.ConstBase:], fn.Consts)
			t.Frames = append(t.Frames, fr)
		}
		na := r.n(1 << 24)
		for a := 0; a < na && r.err == nil; a++ {
			t.Allocas = append(t.Allocas, uint32(r.u()))
		}
		// A frame owns the allocas from its mark on: marks stay within the
		// list and do not decrease (returning pops to the mark).
		mark := int32(0)
		for f, fr := range t.Frames {
			if fr.AllocaMark < mark || int(fr.AllocaMark) > len(t.Allocas) {
				return fmt.Errorf("thread %d frame %d: alloca mark %d outside [%d, %d]", k, f, fr.AllocaMark, mark, len(t.Allocas))
			}
			mark = fr.AllocaMark
		}
	}
	mem := &st.Mem
	n := r.u()
	// Every block past the image is encoded with at least 4 bytes.
	if n < uint64(m.init.n) || n-uint64(m.init.n) > uint64(len(r.b)) {
		if r.err != nil {
			return r.err
		}
		return fmt.Errorf("%d memory blocks, image has %d", n, m.init.n)
	}
	for mem.n < uint32(n) {
		mem.newBlock(0, blkNone, -1)
	}
	nfs := r.n(int(n))
	mem.freeStack = mem.freeStack[:0]
	for k := 0; k < nfs && r.err == nil; k++ {
		mem.freeStack = append(mem.freeStack, uint32(r.u()))
	}
	id := uint32(0)
	for r.err == nil {
		d := r.u()
		if d == 0 {
			break
		}
		if uint64(id)+d >= n {
			return fmt.Errorf("block id %d out of range", uint64(id)+d)
		}
		id += uint32(d)
		kind, size, thread := uint8(r.u()), r.u(), int32(r.i())
		if !validKind(kind, size) || size > 1<<32-1 {
			return fmt.Errorf("block %d: kind %d size %d", id, kind, size)
		}
		b := mem.wblk(id)
		b.kind, b.thread = kind, thread
		if !hasBytes(kind) {
			b.size, b.data, b.pages = uint32(size), nil, nil
			continue
		}
		if size <= pageSize {
			b.pages = nil
			n := storedLen(kind, uint32(size))
			if uint32(size) != b.size || b.data == nil || len(b.data) != int(n) {
				b.data = mem.buffer(int(n))[:n]
			}
			b.size = uint32(size)
			if err := r.zbytes(b.data); err != nil {
				return fmt.Errorf("block %d: %w", id, err)
			}
			continue
		}
		np := int((size + pageSize - 1) / pageSize)
		if b.pages == nil || b.size != uint32(size) {
			b.data = nil
			b.pages = make([]*page, np)
			for i := range b.pages {
				b.pages[i] = &zeroPage // owned by nobody: copied on first write
			}
		}
		b.size = uint32(size)
		for r.err == nil {
			pi := r.u()
			if pi == 0 {
				break
			}
			if pi > uint64(np) {
				return fmt.Errorf("block %d: page %d of %d", id, pi-1, np)
			}
			pg := &page{owner: mem.epoch}
			if err := r.zbytes(pg.data[:]); err != nil {
				return fmt.Errorf("block %d page %d: %w", id, pi-1, err)
			}
			b.pages[pi-1] = pg
		}
	}
	if r.err != nil {
		return r.err
	}
	if len(r.b) != 0 {
		return fmt.Errorf("%d trailing bytes", len(r.b))
	}
	mem.recount()
	for _, t := range st.Threads {
		for _, a := range t.Allocas {
			if a == 0 || a >= mem.n {
				return fmt.Errorf("thread %d: alloca block %d out of range", t.ID, a)
			}
		}
	}
	return nil
}

type snapWriter struct{ b []byte }

func (w *snapWriter) u(v uint64) { w.b = binary.AppendUvarint(w.b, v) }
func (w *snapWriter) i(v int64)  { w.b = binary.AppendVarint(w.b, v) }
func (w *snapWriter) bytes(p []byte) {
	w.u(uint64(len(p)))
	w.b = append(w.b, p...)
}
func (w *snapWriter) s(s string) {
	w.u(uint64(len(s)))
	w.b = append(w.b, s...)
}

// zbytes writes p (whose length the reader knows) as runs of
// (zero count, literal count, literal bytes): memory is mostly zeros.
func (w *snapWriter) zbytes(p []byte) {
	for len(p) > 0 {
		z := 0
		for z < len(p) && p[z] == 0 {
			z++
		}
		l := z
		for l < len(p) {
			if p[l] == 0 {
				// a run of at least 4 zeros ends the literal
				e := l
				for e < len(p) && e < l+4 && p[e] == 0 {
					e++
				}
				if e == len(p) || e == l+4 {
					break
				}
				l = e
				continue
			}
			l++
		}
		w.u(uint64(z))
		w.u(uint64(l - z))
		w.b = append(w.b, p[z:l]...)
		p = p[l:]
	}
}

type snapReader struct {
	b   []byte
	err error
}

var errShort = errors.New("truncated")

func (r *snapReader) u() uint64 {
	if r.err != nil {
		return 0
	}
	v, k := binary.Uvarint(r.b)
	if k <= 0 {
		r.err = errShort
		return 0
	}
	r.b = r.b[k:]
	return v
}

func (r *snapReader) i() int64 {
	if r.err != nil {
		return 0
	}
	v, k := binary.Varint(r.b)
	if k <= 0 {
		r.err = errShort
		return 0
	}
	r.b = r.b[k:]
	return v
}

// n reads a count and checks it against limit.
func (r *snapReader) n(limit int) int {
	v := r.u()
	if v > uint64(max(limit, 0)) {
		if r.err == nil {
			r.err = fmt.Errorf("count %d exceeds %d", v, limit)
		}
		return 0
	}
	return int(v)
}

func (r *snapReader) bytes() []byte {
	n := r.u()
	if r.err != nil {
		return nil
	}
	if n > uint64(len(r.b)) {
		r.err = errShort
		return nil
	}
	p := r.b[:n]
	r.b = r.b[n:]
	return p
}

func (r *snapReader) s() string { return string(r.bytes()) }

func (r *snapReader) zbytes(dst []byte) error {
	for len(dst) > 0 {
		z := r.u()
		l := r.u()
		if r.err != nil {
			return r.err
		}
		if z+l == 0 || z+l > uint64(len(dst)) || l > uint64(len(r.b)) {
			return errors.New("bad byte run")
		}
		clear(dst[:z])
		copy(dst[z:], r.b[:l])
		r.b = r.b[l:]
		dst = dst[z+l:]
	}
	return r.err
}
