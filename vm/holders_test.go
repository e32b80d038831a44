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

// TestDeadStackBlocks: freeing a stack block copies none of its bytes
// (they are no part of the state), and reusing a dead block's id gives it
// bytes of its own: two copies of a memory that both reuse the id of a
// block freed before the copy never share its new bytes.
func TestDeadStackBlocks(t *testing.T) {
	var img Memory
	img.renew()
	img.initBlock(0, blkNone, nil)
	img.renew()
	img.freeze()
	img.image = &img
	a := img.derive()
	id := a.newBlock(8, blkStack, 0)
	p := ir.MakePtr(id, 0)
	if e := a.Store(p, 8, 7); e != ErrNone {
		t.Fatal(e)
	}
	a.freeStackBlock(id) // owned: its bytes stay for the next use of the id
	var b, c Memory
	b.copyFrom(&a)
	c.copyFrom(&a)
	use := func(m *Memory, v uint64) {
		if got := m.newBlock(8, blkStack, 0); got != id {
			t.Fatalf("new stack block %d, want the dead block's id %d", got, id)
		}
		if e := m.Store(p, 8, v); e != ErrNone {
			t.Fatal(e)
		}
	}
	use(&b, 1)
	use(&c, 2)
	if v, _ := b.Load(p, 8); v != 1 {
		t.Fatalf("b reads %d, want 1: a copy's new block shares bytes with another's", v)
	}
	// A block shared with other memories is freed without copying it.
	var e Memory
	e.copyFrom(&b)
	e.freeStackBlock(id)
	if e.blk(id).data != nil {
		t.Fatal("a shared block, freed, keeps bytes")
	}
	if v, _ := b.Load(p, 8); v != 1 {
		t.Fatalf("b reads %d after a copy freed the block, want 1", v)
	}
}
