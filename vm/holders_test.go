package vm

import (
	"testing"

	"github.com/wyvernmc/wyvern/ir"
)

// TestChunkHolders: a chunk shared by copyFrom is counted, copied on the
// first write of either side, recycled by the last memory to let go of
// it, and written in place by a memory every other holder let go; no
// memory ever sees another's writes, and the image's chunks are never
// counted or recycled.
func TestChunkHolders(t *testing.T) {
	var img Memory
	img.renew()
	img.initBlock(0, blkNone, nil)
	g := img.newBlock(8, blkGlobal, -1)
	img.renew()
	img.freeze()
	img.image = &img
	p := ir.MakePtr(g, 0)
	load := func(m *Memory) uint64 {
		v, e := m.Load(p, 8)
		if e != ErrNone {
			t.Fatal(e)
		}
		return v
	}
	store := func(m *Memory, v uint64) {
		if e := m.Store(p, 8, v); e != ErrNone {
			t.Fatal(e)
		}
	}
	a := img.derive()
	store(&a, 1) // a copies the image's chunk: its own
	ca := a.chunks[0]
	if ca == img.chunks[0] || ca.refs != 0 || img.chunks[0].refs != frozenRefs {
		t.Fatal("writing a derived memory must copy the image's chunk, uncounted")
	}
	var b, c Memory
	b.copyFrom(&a)
	c.copyFrom(&a)
	if b.chunks[0] != ca || c.chunks[0] != ca || ca.refs != 2 {
		t.Fatalf("three holders: refs %d, want 2", ca.refs)
	}
	store(&b, 2) // b copies: a and c still hold ca
	if b.chunks[0] == ca || ca.refs != 1 || load(&a) != 1 || load(&c) != 1 || load(&b) != 2 {
		t.Fatalf("copy on write: refs %d, values %d %d %d", ca.refs, load(&a), load(&b), load(&c))
	}
	a.reset(&img) // a lets go: c is the sole holder
	if ca.refs != 0 || len(a.spareChunks) != 0 {
		t.Fatalf("after a lets go: refs %d, a's spare chunks %d", ca.refs, len(a.spareChunks))
	}
	store(&c, 3) // c writes ca in place
	if c.chunks[0] != ca || load(&c) != 3 || load(&b) != 2 || load(&a) != 0 {
		t.Fatal("a sole holder must write its chunk in place, seen by no other memory")
	}
	cb := b.chunks[0]
	var d Memory
	d.copyFrom(&c) // d and c hold ca; b alone holds cb
	b.reset(&img)
	if len(b.spareChunks) != 1 || b.spareChunks[0] != cb {
		t.Fatal("the last holder must recycle the chunk it owned")
	}
	c.reset(&img)
	d.reset(&img)
	if len(c.spareChunks)+len(d.spareChunks) != 1 || ca.refs != 0 || ca.b[g&(chunkSize-1)].data != nil {
		t.Fatal("the last of two holders must recycle the chunk, cleared")
	}
	if len(img.chunks) != 1 || img.chunks[0].refs != frozenRefs || load(&img) != 0 {
		t.Fatal("the image changed")
	}
}
