package vm

import "github.com/wyvernmc/wyvern/ir"

// Address reuse. An allocator may give a new block the address of a block
// freed before it (glibc does at once, for a block of the same size), so
// a program that compares a pointer into a freed heap block F with a
// pointer into a heap block G allocated after F was freed may see them
// equal. Wyvern's pointers are (block id, offset), and G's id is never
// F's, so the comparison is a choice (docs/semantics.md, "Behaviours
// POSIX allows"): a coin, drawn under Behaviours.AddrReuse, decides
// whether G got F's address, and the answer is recorded in F so that
// every later comparison agrees with it.
//
// Only machines whose program may compare such pointers
// (ir.Program.ReusesAddresses, Machine.reuse) record anything, so no
// other program's states change. A freed heap block's thread field
// (unused by heap blocks, which carry -1) holds its reuse state:
//
//   - reuseNone (-1): its address is taken by no block, and none may take
//     it (a free outside reuse mode, or a coin that said no to every
//     candidate: see below);
//   - b >= 0: its address is taken by no block yet; a block of id >= b
//     may take it (b is the id counter at the free: the blocks allocated
//     after it);
//   - takenBy(g) <= -2: block g has its address.
//
// A coin is drawn only between two blocks of one address each: F's
// address is not taken and F did not take another's, and the same of G.
// Heads makes F's address G's; tails raises F's bound past G, so that G
// never gets it. The classes of equal addresses are then pairs, and every
// answer agrees with every earlier one. What is left out (a limit, in the
// direction of fewer equalities): a chain (G freed in turn and its
// address, F's, given to H), and a candidate of an id below a block a
// tails coin passed over. Equality only is decided: ptrtoint, orderings
// and pointer differences still see distinct blocks.

const reuseNone int32 = -1

func takenBy(g uint32) int32 { return -int32(g) - 1 }

// noteFree records, in reuse mode, that heap block id was just freed:
// the blocks allocated from now on, those of id >= next, may get its
// address.
func (m *Machine) noteFree(mem *Memory, id, next uint32) {
	if m.reuse {
		mem.wblk(id).thread = int32(next)
	}
}

// reusePair returns the blocks f < g of pointers a and b when their
// comparison depends on address reuse: two different heap blocks (one
// freed) at the same offset. ok is false when a == b or the answer does
// not depend on reuse (then a and b differ).
func reusePair(mem *Memory, a, b uint64) (f, g uint32, ok bool) {
	fa, fb := ir.PtrBlock(a), ir.PtrBlock(b)
	if fa == fb || fa == 0 || fb == 0 || fa >= mem.n || fb >= mem.n || ir.PtrOff(a) != ir.PtrOff(b) {
		return 0, 0, false
	}
	f, g = min(fa, fb), max(fa, fb)
	if k := mem.blk(g).kind &^ blkUndef; mem.blk(f).kind != blkFreed || k != blkHeap && k != blkFreed {
		return 0, 0, false
	}
	return f, g, true
}

// reuseOpen reports whether the comparison of blocks f < g (reusePair)
// is still open: a coin decides it.
func reuseOpen(mem *Memory, f, g uint32) bool {
	r := mem.blk(f).thread
	if r < 0 || g < uint32(r) {
		return false // taken, closed, or g allocated before f was freed
	}
	if bg := mem.blk(g); bg.kind == blkFreed && bg.thread < reuseNone {
		return false // g's address is taken
	}
	// neither took another block's address
	tf, tg := takenBy(f), takenBy(g)
	for id := uint32(1); id < g; id++ {
		if b := mem.blk(id); b.kind == blkFreed && (b.thread == tf || b.thread == tg) {
			return false
		}
	}
	return true
}

// reuseDraws reports whether the comparison of pointers a and b draws
// under behaviours b (Machine.NextDraw).
func (m *Machine) reuseDraws(st *State, a, b uint64, beh Behaviours) bool {
	if !m.reuse || !beh.AddrReuse {
		return false
	}
	f, g, ok := reusePair(&st.Mem, a, b)
	return ok && reuseOpen(&st.Mem, f, g)
}

// reuseCoin is the coin of an open comparison: 1, heads, gives g f's
// address.
var reuseCoin = CoinChoice(1, 2)

// ptrEqual is the result of comparing pointers a and b (opPtrEq) in
// reuse mode; wrote is set when the comparison drew and recorded its
// answer in the memory.
func (m *Machine) ptrEqual(st *State, a, b uint64, ch Chooser) (eq, wrote bool) {
	if a == b {
		return true, false
	}
	mem := &st.Mem
	f, g, ok := reusePair(mem, a, b)
	if !ok {
		return false, false
	}
	if mem.blk(f).thread == takenBy(g) {
		return true, false
	}
	if !reuseOpen(mem, f, g) || !BehavioursOf(ch).AddrReuse {
		return false, false
	}
	if reuseCoin.Sample(ch) == 1 {
		mem.wblk(f).thread = takenBy(g)
		return true, true
	}
	mem.wblk(f).thread = int32(g) + 1
	return false, true
}
