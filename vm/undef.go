package vm

import "github.com/wyvernmc/wyvern/ir"

// Uninitialised memory (docs/semantics.md, "Memory"). The bytes of a
// block from malloc, those realloc adds past the old size, and those of an
// alloca marked ir.AuxUndef (an array, a struct, a variable whose address
// is passed on: ir/rmw.go) are undefined until written: C gives them an
// indeterminate value,
// and a program that reads one before writing it may see any value. A
// load that covers undefined bytes therefore draws their value, one Bits
// choice of 8·k bits for its k undefined bytes (the j-th byte of the draw,
// from the low end, is the j-th undefined byte by address), and writes it
// into the block, so that every later read agrees; Machine.NextDraw
// announces the draw, so explicit search enumerates it (or refuses it by
// name when it is too wide), simulation samples it, and a recorded trace
// or a witness replays it.
//
// Only machines whose program may allocate such memory
// (ir.Program.UndefinedMemory, Machine.undef) track anything. A block
// with undefined bytes carries blkUndef in its kind and a bitmap of them
// (1: undefined) after its bytes, in the same buffer: the identity, the
// snapshot and copy on write take the bitmap with the bytes. A write
// defines the bytes it writes; when none is left undefined the flag and
// the bitmap go, and the block is an ordinary heap block again. A flagged
// kind is outside the readable and writable ranges that the
// interpreter's fast paths and access cache test, so every access of a
// flagged block takes the slow path (Memory.Load, Memory.Store), which
// keeps the bitmap.
//
// memcpy, memmove and realloc carry undefined bytes over without reading
// them, into a heap block or a stack block (a struct copied into a local),
// which then holds a bitmap too.
//
// A bit-field store reads its storage unit to write the other fields'
// bits back (ir.FlagRMW): that load does not draw, and the store defines
// the whole unit, so a neighbouring bit-field never written reads 0
// afterwards (a limit: the bitmap has a bit a byte).
//
// Limits: blocks larger than a page (4 KiB, held in pages) are not
// tracked and read as zero before they are written; undefined bytes
// copied into a global become defined (zero); the platform's readers
// (strlen, printf's %s, strcmp, …) read undefined bytes as the zero they
// hold; a scalar local used only by loads and stores is zero (an integer
// one read before it is written gets an input: ir/uninit.go).

// blkUndef flags the kind of a heap or stack block that has undefined
// bytes.
const blkUndef uint8 = 0x80

// undefLen is the length of the bitmap of a block of size bytes.
func undefLen(size uint32) uint32 { return (size + 7) / 8 }

// stored returns the bytes of small block b that its identity holds: its
// bytes and, when it has undefined bytes, their bitmap.
func (b *block) stored() []byte {
	if b.kind&blkUndef != 0 {
		return b.data[:b.size+undefLen(b.size)]
	}
	return b.data[:b.size]
}

// markUndef makes every byte of heap or stack block id, just allocated,
// undefined. A large block is not tracked (see the limits above).
func (m *Memory) markUndef(id uint32) { m.markUndefMask(id, nil) }

// markUndefMask makes the bytes of heap or stack block id, just
// allocated, that mask marks (bit i: byte i; nil: every byte) undefined:
// an alloca's fields, not its padding (ir.Func.UndefMasks).
func (m *Memory) markUndefMask(id uint32, mask []byte) {
	b := m.wblk(id)
	if b.pages != nil || b.size == 0 || b.kind != blkHeap && b.kind != blkStack {
		return
	}
	n := b.size + undefLen(b.size)
	if cap(b.data) < int(n) {
		old := b.data
		b.data = m.buffer(int(n))
		m.spareBuf(old)
	}
	b.data = b.data[:n]
	clear(b.data[:b.size])
	bm := b.data[b.size:]
	if mask != nil && len(mask) == len(bm) {
		copy(bm, mask)
	} else {
		for i := range bm {
			bm[i] = 0xff
		}
	}
	if r := b.size % 8; r != 0 {
		bm[len(bm)-1] &= byte(1)<<r - 1
	}
	b.kind |= blkUndef
	m.undef++
}

// markUndefRange makes bytes [off, off+n) of owned heap block b undefined
// (realloc's growth), giving it a bitmap if it has none.
func (m *Memory) markUndefRange(b *block, off, n uint32) {
	if k := b.kind &^ blkUndef; b.pages != nil || n == 0 || k != blkHeap && k != blkStack {
		return
	}
	if b.kind&blkUndef == 0 {
		size := b.size + undefLen(b.size)
		if cap(b.data) < int(size) {
			old := b.data
			b.data = append(m.buffer(int(size)), old[:b.size]...)
			m.spareBuf(old)
		}
		b.data = b.data[:size]
		clear(b.data[b.size:])
		b.kind |= blkUndef
		m.undef++
	}
	bm := b.data[b.size:]
	for i := off; i < off+n; i++ {
		bm[i>>3] |= 1 << (i & 7)
	}
}

// undefIn returns the number of undefined bytes among bytes [off, off+n)
// of block b.
func undefIn(b *block, off, n uint32) int {
	if b.kind&blkUndef == 0 {
		return 0
	}
	bm := b.data[b.size:]
	k := 0
	for i := off; i < off+n; i++ {
		k += int(bm[i>>3] >> (i & 7) & 1)
	}
	return k
}

// define marks bytes [off, off+n) of owned block b of m defined; the flag
// and the bitmap go when no byte is left undefined.
func (m *Memory) define(b *block, off, n uint32) {
	if b.kind&blkUndef == 0 {
		return
	}
	bm := b.data[b.size : b.size+undefLen(b.size)]
	for i := off; i < off+n; i++ {
		bm[i>>3] &^= 1 << (i & 7)
	}
	for _, x := range bm {
		if x != 0 {
			return
		}
	}
	b.kind &^= blkUndef
	b.data = b.data[:b.size]
	m.undef--
}

// undefAt returns the number of undefined bytes a load of w bytes at p
// reads (0: none, or the load fails).
func undefAt(mem *Memory, p uint64, w uint8) int {
	b, off := undefBlock(mem, p, w)
	if b == nil {
		return 0
	}
	return undefIn(b, off, uint32(w))
}

// undefBlock returns the block of p and p's offset in it when the block
// has undefined bytes and an access of w bytes at p lies inside it (else
// nil).
func undefBlock(mem *Memory, p uint64, w uint8) (*block, uint32) {
	id := ir.PtrBlock(p)
	if id == 0 || id >= mem.n {
		return nil, 0
	}
	b := mem.blk(id)
	off := ir.PtrOff(p)
	if b.kind&blkUndef == 0 || uint64(off)+uint64(w) > uint64(b.size) {
		return nil, 0
	}
	return b, off
}

// undefChoice is the draw of a load of k undefined bytes.
func undefChoice(k int) Choice { return BitsChoice(uint8(8 * k)) }

// drawUndef gives the undefined bytes a load of w bytes at p reads their
// drawn value (see above); it reports whether it drew.
func drawUndef(mem *Memory, p uint64, w uint8, ch Chooser) bool {
	k := undefAt(mem, p, w)
	if k == 0 {
		return false
	}
	v := undefChoice(k).Sample(ch)
	id, off := ir.PtrBlock(p), ir.PtrOff(p)
	b := mem.wblk(id)
	bm := b.data[b.size:]
	for i := off; i < off+uint32(w); i++ {
		if bm[i>>3]>>(i&7)&1 != 0 {
			b.data[i] = byte(v)
			v >>= 8
		}
	}
	mem.define(b, off, uint32(w))
	return true
}

// UndefLoad reports whether thread t's next step is a load that reads
// undefined bytes: it loads w bytes at addr, and draws (NextDraw) the
// value of those of them that are undefined, in address order.
func (m *Machine) UndefLoad(st *State, t *Thread) (addr uint64, w uint8, ok bool) {
	if !m.undef {
		return 0, 0, false
	}
	fn, in := m.Next(t)
	if in == nil || in.Op != ir.OpLoad && in.Op != ir.OpLoadAgg && in.Op != ir.OpAtomicRMW && in.Op != ir.OpCmpXchg {
		return 0, 0, false
	}
	p := t.Regs[t.Frames[len(t.Frames)-1].Base+in.A]
	if in.Op == ir.OpLoadAgg {
		// (a pointer of ILP32: one leaf of 4 bytes; a struct's leaves
		// and padding: its extent)
		acc := &fn.Aggs[in.Imm]
		if undefAggAt(&st.Mem, acc, p) == 0 {
			return 0, 0, false
		}
		last := len(acc.Offs) - 1
		return p, uint8(min(255, acc.Offs[last]+uint32(acc.Sizes[last]))), true
	}
	if in.Op == ir.OpLoad && in.Flags&ir.FlagRMW != 0 || undefAt(&st.Mem, p, in.W) == 0 {
		return 0, 0, false
	}
	return p, in.W, true
}

// UndefBytes returns which of the w bytes at addr are undefined in st (bit
// i: the byte at addr+i), for a replay that answers a load's draw
// (UndefLoad) with given byte values.
func UndefBytes(st *State, addr uint64, w uint8) (mask uint8) {
	b, off := undefBlock(&st.Mem, addr, w)
	if b == nil {
		return 0
	}
	bm := b.data[b.size:]
	for i := uint32(0); i < uint32(w); i++ {
		j := off + i
		mask |= (bm[j>>3] >> (j & 7) & 1) << i
	}
	return mask
}

// undefBits returns which of the n bytes at s are undefined (nil: none),
// for copyUndef to carry over to the copy's destination; it is taken
// before the copy writes (the destination may overlap the source).
func undefBits(mem *Memory, s, n uint64) []bool {
	sid := ir.PtrBlock(s)
	if n == 0 || sid == 0 || sid >= mem.n {
		return nil
	}
	sb := mem.blk(sid)
	soff := ir.PtrOff(s)
	if sb.kind&blkUndef == 0 || uint64(soff)+n > uint64(sb.size) || undefIn(sb, soff, uint32(n)) == 0 {
		return nil
	}
	bits := make([]bool, n)
	for i := range bits {
		j := soff + uint32(i)
		bits[i] = sb.data[sb.size+j>>3]>>(j&7)&1 != 0
	}
	return bits
}

// copyUndef makes the bytes at d that bits (undefBits of the source)
// marks undefined again after a copy wrote them (memcpy, memmove,
// realloc): a copy does not read them. A stack block receives a bitmap
// then (a struct copied from the heap into a local: clang's memcpy);
// where d's block cannot hold one (a global, a block over 4 KiB), they
// stay defined (see the limits above).
func copyUndef(mem *Memory, d uint64, bits []bool) {
	if bits == nil {
		return
	}
	db := mem.wblk(ir.PtrBlock(d))
	doff := ir.PtrOff(d)
	for i, u := range bits {
		if u {
			mem.markUndefRange(db, doff+uint32(i), 1)
		}
	}
}

// validKind reports whether a decoded block kind (snapshot, key) is one
// a block of size bytes can have: the flag only on a small heap block.
func validKind(kind uint8, size uint64) bool {
	if kind&blkUndef != 0 {
		k := kind &^ blkUndef
		return (k == blkHeap || k == blkStack) && size > 0 && size <= pageSize
	}
	return kind <= blkDead
}

// storedLen is the length of stored() of a small block of the given kind
// and size.
func storedLen(kind uint8, size uint32) uint32 {
	if kind&blkUndef != 0 {
		return size + undefLen(size)
	}
	return size
}

// undefAggAt returns the number of undefined bytes the leaves of
// aggregate access acc at p read (OpLoadAgg: a struct, or in ILP32 a
// pointer).
func undefAggAt(mem *Memory, acc *ir.AggAccess, p uint64) int {
	k := 0
	for i, off := range acc.Offs {
		k += undefAt(mem, p+uint64(off), acc.Sizes[i])
	}
	return k
}

// undefAggChoice is the first draw of an aggregate load of k undefined
// bytes: they are drawn 8 at a time, in address order (explicit search
// refuses the first of a load of more than 8: it is 64 bits).
func undefAggChoice(k int) Choice { return undefChoice(min(k, 8)) }

// drawUndefAgg gives the undefined bytes the leaves of aggregate access
// acc at p read their drawn values, 8 bytes a draw; it reports whether it
// drew.
func drawUndefAgg(mem *Memory, acc *ir.AggAccess, p uint64, ch Chooser) bool {
	k := undefAggAt(mem, acc, p)
	if k == 0 {
		return false
	}
	var v uint64
	left := 0 // bytes of v not used yet
	for i, off := range acc.Offs {
		q := p + uint64(off)
		if undefAt(mem, q, acc.Sizes[i]) == 0 {
			continue
		}
		id, o := ir.PtrBlock(q), ir.PtrOff(q)
		b := mem.wblk(id)
		bm := b.data[b.size:]
		for j := o; j < o+uint32(acc.Sizes[i]); j++ {
			if bm[j>>3]>>(j&7)&1 == 0 {
				continue
			}
			if left == 0 {
				left = min(k, 8)
				v = undefChoice(left).Sample(ch)
				k -= left
			}
			b.data[j] = byte(v)
			v >>= 8
			left--
		}
		mem.define(b, o, uint32(acc.Sizes[i]))
	}
	return true
}

// definedSlots returns the registers of f that hold the address of an
// alloca not marked ir.AuxUndef: a scalar local used only by loads and
// stores, whose bytes are never undefined (a load through such a register
// never draws; straightDists). Each register of f's code has one
// definition, so the alloca's is the register's only one.
func definedSlots(f *ir.Func) map[int32]bool {
	out := map[int32]bool{}
	for i := range f.Code {
		if in := &f.Code[i]; in.Op == ir.OpAlloca && in.Aux != ir.AuxUndef {
			out[in.Dst] = true
		}
	}
	return out
}
