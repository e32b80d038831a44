package vm

import (
	"testing"

	"github.com/wyvernmc/wyvern/ir"
)

func mustLL(t testing.TB, src string) *Machine {
	t.Helper()
	p, err := ir.ParseLL("test.ll", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return NewMachine(p)
}

const counterLL = `
@g = global i32 0
@big = global [10000 x i8] zeroinitializer

define i32 @main() {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %n, %loop ]
  %v = load i32, i32* @g
  %v2 = add i32 %v, 3
  store i32 %v2, i32* @g
  %p = getelementptr [10000 x i8], [10000 x i8]* @big, i64 0, i64 9000
  store i8 7, i8* %p
  %n = add i32 %i, 1
  %c = icmp slt i32 %n, 10
  br i1 %c, label %loop, label %done
done:
  %r = load i32, i32* @g
  ret i32 %r
}
`

func TestRunAndExitCode(t *testing.T) {
	m := mustLL(t, counterLL)
	st := m.NewState()
	m.Run(st, 1000, NewRand(1, 0))
	if st.Status != Exited || st.ExitCode != 30 {
		t.Fatalf("got %s exit %d, want exited 30", st.Status, st.ExitCode)
	}
	// 1 br + 10 * 8 loop instructions + 2
	if st.Steps != 1+80+2 {
		t.Errorf("steps %d, want 83", st.Steps)
	}
}

func TestStepBound(t *testing.T) {
	m := mustLL(t, counterLL)
	st := m.NewState()
	m.Run(st, 17, NewRand(1, 0))
	if st.Status != StepBound || st.Steps != 17 {
		t.Fatalf("got %s after %d steps", st.Status, st.Steps)
	}
}

// TestCloneIsolation checks copy-on-write: a clone and its origin evolve
// independently, also for large (paged) blocks, and equal states hash equal.
func TestCloneIsolation(t *testing.T) {
	m := mustLL(t, counterLL)
	a := m.NewState()
	m.Run(a, 20, NewRand(1, 0))
	b := a.Clone()
	if a.Hash() != b.Hash() {
		t.Fatal("clone hashes differently")
	}
	m.Run(b, 1000, NewRand(1, 0))
	if a.Hash() == b.Hash() {
		t.Fatal("diverged states hash equal")
	}
	g := ir.MakePtr(m.Prog.Globals[m.Prog.GlobalIdx["g"]].Block, 0)
	va, _ := a.Mem.Load(g, 4)
	vb, _ := b.Mem.Load(g, 4)
	if va >= vb || vb != 30 {
		t.Fatalf("origin sees %d, clone %d", va, vb)
	}
	// running the origin to the end reaches the same state as the clone
	m.Run(a, 1000, NewRand(1, 0))
	if a.Hash() != b.Hash() {
		t.Fatal("equal final states hash differently")
	}
	// a fresh state from the image is untouched by both
	c := m.NewState()
	vc, _ := c.Mem.Load(g, 4)
	big := ir.MakePtr(m.Prog.Globals[m.Prog.GlobalIdx["big"]].Block, 9000)
	bc, _ := c.Mem.Load(big, 1)
	ba, _ := a.Mem.Load(big, 1)
	if vc != 0 || bc != 0 || ba != 7 {
		t.Fatalf("initial image modified: g=%d big=%d (run big=%d)", vc, bc, ba)
	}
}

func TestMemoryErrors(t *testing.T) {
	var m Memory
	id := m.newBlock(8, blkHeap, -1)
	p := ir.MakePtr(id, 0)
	cases := []struct {
		name string
		p    uint64
		size uint32
		want ErrKind
	}{
		{"ok", p, 8, ErrNone},
		{"null", 0, 4, ErrNullDeref},
		{"oob", p + 6, 4, ErrOutOfBounds},
		{"invalid", ir.MakePtr(999, 0), 1, ErrInvalidPtr},
	}
	for _, c := range cases {
		if _, e := m.Load(c.p, c.size); e != c.want {
			t.Errorf("%s: got %s want %s", c.name, e, c.want)
		}
	}
	if e := m.free(p); e != ErrNone {
		t.Fatal(e)
	}
	if _, e := m.Load(p, 1); e != ErrUseAfterFree {
		t.Errorf("use after free: got %s", e)
	}
	if e := m.free(p); e != ErrDoubleFree {
		t.Errorf("double free: got %s", e)
	}
	if e := m.free(p + 1); e != ErrInvalidFree {
		t.Errorf("interior free: got %s", e)
	}
}

func TestPagedBlockAcrossBoundary(t *testing.T) {
	var m Memory
	id := m.newBlock(3*pageSize, blkHeap, -1)
	p := ir.MakePtr(id, pageSize-3)
	if e := m.Store(p, 8, 0x1122334455667788); e != ErrNone {
		t.Fatal(e)
	}
	c := m.Clone()
	if e := c.Store(p, 8, 42); e != ErrNone {
		t.Fatal(e)
	}
	v, _ := m.Load(p, 8)
	w, _ := c.Load(p, 8)
	if v != 0x1122334455667788 || w != 42 {
		t.Fatalf("origin %x clone %x", v, w)
	}
}

func TestRandDeterministicAndUniform(t *testing.T) {
	a, b := NewRand(7, 3), NewRand(7, 3)
	for i := 0; i < 100; i++ {
		if a.Uint64() != b.Uint64() {
			t.Fatal("same key, different streams")
		}
	}
	if NewRand(7, 3).Uint64() == NewRand(7, 4).Uint64() {
		t.Fatal("different indices give the same first draw")
	}
	const n, draws = 6, 60000
	var cnt [n]int
	r := NewRand(1, 1)
	for i := 0; i < draws; i++ {
		cnt[r.Choose(n)]++
	}
	for k, c := range cnt {
		// expected 10000, sd ~91: 5 sd tolerance
		if c < 10000-460 || c > 10000+460 {
			t.Errorf("value %d drawn %d times of %d", k, c, draws)
		}
	}
}

func TestSignedHelpers(t *testing.T) {
	cases := []struct {
		a, b  uint64
		w     uint8
		flags uint8
		op    string
		ov    bool
	}{
		{0x7fffffff, 1, 32, ir.FlagNSW, "add", true},
		{0x7ffffffe, 1, 32, ir.FlagNSW, "add", false},
		{0xffffffff, 1, 32, ir.FlagNUW, "add", true},
		{1 << 63, 1, 64, ir.FlagNSW, "sub", true},
		{0, 1, 8, ir.FlagNUW, "sub", true},
		{0x40000000, 2, 32, ir.FlagNSW, "mul", true},
		{0x4000, 2, 16, ir.FlagNSW, "mul", true},
		{3, 5, 16, ir.FlagNSW, "mul", false},
		{1 << 62, 2, 64, ir.FlagNSW, "mul", true},
		{1 << 32, 1 << 32, 64, ir.FlagNUW, "mul", true},
	}
	for _, c := range cases {
		in := &ir.Inst{W: c.w, Flags: c.flags, Imm: ir.Mask(c.w)}
		var got bool
		switch c.op {
		case "add":
			got = addOverflow(c.a, c.b, (c.a+c.b)&in.Imm, in)
		case "sub":
			got = subOverflow(c.a, c.b, (c.a-c.b)&in.Imm, in)
		case "mul":
			got = mulOverflow(c.a, c.b, in)
		}
		if got != c.ov {
			t.Errorf("%s i%d %#x, %#x flags %d: overflow %v, want %v", c.op, c.w, c.a, c.b, c.flags, got, c.ov)
		}
	}
}

// TestAdvanceKeepsOwnership: after Memory.advance a memory still owns what
// it wrote (a write restamps its chunk, block and page instead of copying
// them, and the restamped parts are the ones written since), and a Clone
// after any number of advances still separates the two memories (each
// write copies, neither sees the other's).
func TestAdvanceKeepsOwnership(t *testing.T) {
	var m Memory
	small := m.newBlock(8, blkHeap, -1)
	large := m.newBlock(3*pageSize, blkHeap, -1)
	other := m.newBlock(8, blkHeap, -1)
	ps, pl := ir.MakePtr(small, 0), ir.MakePtr(large, pageSize+4)
	for _, p := range []uint64{ps, pl, ir.MakePtr(other, 0)} {
		if e := m.Store(p, 4, 1); e != ErrNone {
			t.Fatal(e)
		}
	}
	for round := uint64(0); round < 3; round++ {
		chunk, data, page := m.chunks[small>>chunkBits], &m.blk(small).data[0], m.blk(large).pages[1]
		m.advance()
		if m.blk(small).owner == m.epoch || m.blk(other).owner == m.epoch {
			t.Fatal("blocks carry the new epoch before any write")
		}
		if e := m.Store(ps, 4, 10+round); e != ErrNone {
			t.Fatal(e)
		}
		if e := m.Store(pl, 4, 20+round); e != ErrNone {
			t.Fatal(e)
		}
		if m.chunks[small>>chunkBits] != chunk || &m.blk(small).data[0] != data || m.blk(large).pages[1] != page {
			t.Fatalf("round %d: a write after advance copied what the memory owns", round)
		}
		if m.blk(small).owner != m.epoch || m.blk(large).owner != m.epoch || m.blk(other).owner == m.epoch {
			t.Fatalf("round %d: the written blocks (and only they) must carry the new epoch", round)
		}
	}
	// Past the end of a reservation ownership restarts: writes may copy,
	// but every write lands and carries the current epoch.
	for i := uint64(0); i < 2*epochBatch+5; i++ {
		m.advance()
		if e := m.Store(ps, 4, 1000+i); e != ErrNone {
			t.Fatal(e)
		}
		if v, _ := m.Load(ps, 4); v != 1000+i || m.blk(small).owner != m.epoch {
			t.Fatalf("advance %d: read %d, block epoch %d, memory epoch %d", i, v, m.blk(small).owner, m.epoch)
		}
	}
	if e := m.Store(ps, 4, 12); e != ErrNone {
		t.Fatal(e)
	}
	c := m.Clone()
	m.advance()
	c.advance()
	if e := c.Store(ps, 4, 99); e != ErrNone {
		t.Fatal(e)
	}
	if e := m.Store(pl, 4, 77); e != ErrNone {
		t.Fatal(e)
	}
	for _, x := range []struct {
		mem  *Memory
		p    uint64
		want uint64
	}{{&m, ps, 12}, {&c, ps, 99}, {&m, pl, 77}, {&c, pl, 22}} {
		if v, _ := x.mem.Load(x.p, 4); v != x.want {
			t.Errorf("after Clone and advance: %#x holds %d, want %d", x.p, v, x.want)
		}
	}
}
