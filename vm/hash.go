package vm

import (
	"encoding/binary"
	"math/bits"
)

// Hash128 is a 128-bit state fingerprint.
type Hash128 [2]uint64

// hasher is a streaming, allocation-free 128-bit hash (two multiply-mix
// lanes). It is not cryptographic; it is for visited sets.
type hasher struct{ a, b uint64 }

const (
	hp1 = 0x9e3779b97f4a7c15
	hp2 = 0xc2b2ae3d27d4eb4f
	hp3 = 0x165667b19e3779f9
)

func (h *hasher) word(v uint64) {
	hi, lo := bits.Mul64(h.a^v, hp1)
	h.a = hi ^ lo ^ h.b
	hi, lo = bits.Mul64(h.b^v^hp3, hp2)
	h.b = hi ^ lo ^ h.a
}

func (h *hasher) bytes(p []byte) {
	for len(p) >= 8 {
		h.word(binary.LittleEndian.Uint64(p))
		p = p[8:]
	}
	if len(p) > 0 {
		var buf [8]byte
		copy(buf[:], p)
		h.word(binary.LittleEndian.Uint64(buf[:]) ^ uint64(len(p))<<59)
	}
}

func (h *hasher) sum() Hash128 {
	a, b := mix64(h.a^hp2), mix64(h.b^hp1)
	return Hash128{a ^ b>>7, b ^ a<<9}
}

// Hash returns the canonical fingerprint of a state: two states hash equal
// when their processes (frames, pcs, live register values, wait and atomic
// status) and their memory (block kinds, sizes and bytes) are equal,
// whatever copy-on-write sharing or buffer capacities they have. The step
// counter and the captured output are not part of the state. Block ids are
// hashed as they are (no symmetry reduction of allocation order).
func (st *State) Hash() Hash128 {
	var h hasher
	h.word(uint64(st.Status)<<32 | uint64(uint32(st.ExitCode)))
	if st.Err != nil {
		h.word(uint64(st.Err.Kind)<<32 | uint64(uint32(st.Err.Thread)))
	}
	h.word(uint64(len(st.Threads)))
	for _, t := range st.Threads {
		h.word(uint64(uint32(t.ID)) | uint64(t.Wait)<<32 | uint64(b2u(t.Done))<<40 | uint64(uint32(t.Atomic))<<41)
		h.word(t.WaitOn)
		h.word(t.RetVal)
		h.word(uint64(len(t.Frames)))
		for i := range t.Frames {
			fr := &t.Frames[i]
			h.word(uint64(fr.Fn.Index)<<32 | uint64(uint32(fr.PC)))
			h.word(uint64(uint32(fr.RetDst))<<32 | uint64(uint32(fr.AllocaMark)))
			h.word(fr.OnceAddr)
			regs := t.Regs[fr.Base : fr.Base+fr.Fn.ConstBase]
			for _, v := range regs {
				h.word(v)
			}
		}
		h.word(uint64(len(t.Allocas)))
		for _, id := range t.Allocas {
			h.word(uint64(id))
		}
	}
	m := &st.Mem
	h.word(uint64(m.n))
	for id := uint32(1); id < m.n; id++ {
		b := m.blk(id)
		switch b.kind {
		case blkNone, blkFunc:
			continue
		case blkFreed, blkDead:
			h.word(uint64(id)<<8 | uint64(b.kind))
			continue
		}
		h.word(uint64(id)<<8 | uint64(b.kind))
		h.word(uint64(b.size))
		if b.pages == nil {
			h.bytes(b.data)
			continue
		}
		rest := b.size
		for _, pg := range b.pages {
			n := min(rest, pageSize)
			h.bytes(pg.data[:n])
			rest -= n
		}
	}
	return h.sum()
}
