package vm

import (
	"testing"
	"unsafe"

	"github.com/wyvernmc/wyvern/ir"
)

// sameBuf reports whether two small blocks' byte buffers are one.
func sameBuf(a, b []byte) bool {
	return cap(a) > 0 && cap(b) > 0 && unsafe.SliceData(a[:1]) == unsafe.SliceData(b[:1])
}

// checkSpareUnreachable fails if a buffer that m keeps for reuse is still
// a block's bytes in one of the live memories.
func checkSpareUnreachable(t *testing.T, m *Memory, live ...*Memory) {
	t.Helper()
	for _, d := range m.spareData {
		for _, l := range live {
			for _, ch := range l.chunks {
				for i := range ch.b {
					if ch.b[i].data != nil && sameBuf(d, ch.b[i].data) {
						t.Fatalf("a recycled buffer is still a live block's bytes (refs %d)", *bufRefs(d))
					}
				}
			}
		}
	}
}

// TestBufferHolders: a small block's bytes shared by a chunk's copy are
// counted, so that the last holder of the chunk copied from does not
// recycle them while the copy holds them; bytes no other chunk holds are
// recycled by the chunk's last holder, and written in place by the memory
// whose chunk alone holds them; the image's bytes are never counted.
func TestBufferHolders(t *testing.T) {
	var img Memory
	img.renew()
	img.initBlock(0, blkNone, nil)
	g1 := img.newBlock(8, blkGlobal, -1)
	g2 := img.newBlock(8, blkGlobal, -1)
	img.renew()
	img.freeze()
	img.image = &img
	p1, p2 := ir.MakePtr(g1, 0), ir.MakePtr(g2, 0)
	load := func(m *Memory, p uint64) uint64 {
		v, e := m.Load(p, 8)
		if e != ErrNone {
			t.Fatal(e)
		}
		return v
	}
	store := func(m *Memory, p, v uint64) {
		if e := m.Store(p, 8, v); e != ErrNone {
			t.Fatal(e)
		}
	}
	if *bufRefs(img.blk(g1).data) != frozenRefs {
		t.Fatal("the image's bytes must be frozen")
	}
	a := img.derive()
	store(&a, p1, 1)
	store(&a, p2, 5) // a owns its chunk and both blocks' bytes
	d2 := a.blk(g2).data
	var b Memory
	b.copyFrom(&a)
	store(&b, p1, 2) // b copies the chunk: g2's bytes are held by both
	if !sameBuf(b.blk(g2).data, d2) || *bufRefs(d2) != 1 {
		t.Fatalf("a chunk's copy must share and count its blocks' bytes: refs %d", *bufRefs(d2))
	}
	a.reset(&img) // a recycles the chunk: g1's bytes, not g2's (b holds them)
	checkSpareUnreachable(t, &a, &b)
	if len(a.spareData) != 1 || *bufRefs(d2) != 0 {
		t.Fatalf("the last holder of a chunk kept %d buffers (want 1), g2's refs %d", len(a.spareData), *bufRefs(d2))
	}
	// a reuses what it recycled; b still reads its own values.
	store(&a, p1, 7)
	store(&a, p2, 8)
	a.newBlock(8, blkHeap, -1)
	if load(&b, p1) != 2 || load(&b, p2) != 5 {
		t.Fatalf("b reads %d %d, want 2 5: its bytes were recycled", load(&b, p1), load(&b, p2))
	}
	// b's chunk alone holds g2's bytes now: written in place.
	b.renew()
	store(&b, p2, 6)
	if !sameBuf(b.blk(g2).data, d2) || load(&b, p2) != 6 {
		t.Fatal("bytes no other chunk holds must be written in place")
	}
	// Copies of copies: c and e copy b's chunk; b and c let go; e's bytes
	// stay its own.
	var c, e Memory
	c.copyFrom(&b)
	e.copyFrom(&b)
	store(&c, p1, 3)
	store(&e, p1, 4)
	b.reset(&img)
	c.reset(&img)
	checkSpareUnreachable(t, &b, &e, &a)
	checkSpareUnreachable(t, &c, &e, &a)
	if load(&e, p1) != 4 || load(&e, p2) != 6 || load(&a, p1) != 7 {
		t.Fatal("a live memory's bytes changed")
	}
	e.reset(&img)
	if load(&img, p1) != 0 || *bufRefs(img.blk(g2).data) != frozenRefs {
		t.Fatal("the image changed")
	}
}
