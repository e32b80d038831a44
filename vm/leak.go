package vm

import (
	"encoding/binary"
	"fmt"
	"sync"

	"github.com/wyvernmc/wyvern/ir"
)

// LeakChecks selects the checks of SV-COMP's memory-tracking properties
// that a machine's runs make. They are off by default: a leak is no error
// of the other properties, and a run ended at its leak would hide what
// comes after it (a reach_error call, an out-of-bounds access). A query
// that names Error(MemLeak) or Error(MemCleanup) needs them on
// (query.LeakChecksOf says which).
type LeakChecks uint8

const (
	// CheckMemTrack ends a run in MemLeak when a heap block is no longer
	// reachable from the roots: the globals, the live stack blocks, the
	// registers of the live frames and the values finished processes
	// return, and the blocks reachable from them. It is checked after
	// every step or run of steps the interpreter makes while a heap block
	// is live (and so at every state explicit search stores), and when
	// the program terminates: main returned (its frame is gone, so a
	// block only its locals reached is lost), exit(), abort(), a failed
	// assertion or reach_error (the stacks are still there: only blocks
	// nothing reaches are lost).
	CheckMemTrack LeakChecks = 1 << iota
	// CheckMemCleanup ends a run in MemCleanup when it terminates (as
	// above) with a heap block still allocated.
	CheckMemCleanup
)

// LeakChecksFor returns the checks that observing error kind k needs.
func LeakChecksFor(k ErrKind) LeakChecks {
	switch k {
	case ErrMemLeak:
		return CheckMemTrack
	case ErrMemCleanup:
		return CheckMemCleanup
	}
	return 0
}

// Reachability is conservative: a word (8 bytes in registers and, at
// every 4-byte aligned offset, in memory; 4 bytes as an ILP32 pointer in
// memory and in registers under ILP32) refers to a heap block when it is
// the integer address of a byte of it or of the byte past its end,
// whatever its type: a pointer converted to an integer (ptrtoint) or
// stored as one still holds its block, and so does a pointer into the
// middle of it. A block can then be reported lost only when no word
// anywhere holds an address in it. A pointer kept only in a disguised
// form (xor-ed, packed at an odd offset) is not seen.

// leakScan is the scratch space of the reachability pass, kept by a state
// across passes so that a pass allocates nothing in the steady state.
type leakScan struct {
	mark []uint64 // bit id: heap block id was reached
	work []uint32 // reached heap blocks not yet scanned
	mem  *Memory
	lo   uint32 // the first id a heap block may have: the image's blocks are older
	n    uint32 // mem.n
	p32  bool   // ILP32: memory holds 4-byte pointers
}

// ref marks the heap block word w is an address in, if any (inlined:
// most words name no block a heap block may have).
func (s *leakScan) ref(w uint64) {
	if id := uint32(w >> ir.PtrBlockShift); id >= s.lo && id < s.n {
		s.refBlock(id, w)
	}
}

// refBlock marks heap block id if w is an address in it.
func (s *leakScan) refBlock(id uint32, w uint64) {
	b := s.mem.blk(id)
	if b.kind&^blkUndef != blkHeap || uint32(w)-ir.PtrBase(id) > b.size {
		return
	}
	if s.mark[id>>6]&(1<<(id&63)) != 0 {
		return
	}
	s.mark[id>>6] |= 1 << (id & 63)
	s.work = append(s.work, id)
}

// ref32 marks the heap block an ILP32 pointer x is an address in, if any.
func (s *leakScan) ref32(x uint32) {
	if x>>ir.Ptr32BlockShift != 0 {
		s.ref(ir.FromPtr32(x))
	}
}

// refThreadRegs marks the heap blocks the registers of process t's live
// frames refer to. When its innermost frame is unoptimised (-O0,
// optnone) code at the start of a basic block, only its parameters and
// the phi destinations of the block's incoming edges are roots there: at
// -O0 every C object lives in a stack block and a register holds a
// temporary of one statement, which no other block reads but through a
// phi. (Without this a register the function no longer reads kept a lost
// block reachable for as long as the function ran: a leak before an
// endless loop was never found. Every cycle of the function passes
// through the start of a block.)
func (m *Machine) refThreadRegs(s *leakScan, t *Thread) {
	n := len(t.Frames)
	if n == 0 {
		return
	}
	top := &t.Frames[n-1]
	if top.Fn.Optimised {
		s.refRegs(t.Regs, m.ilp32)
		return
	}
	starts := m.blockStartsOf(top.Fn)
	live, ok := starts[top.PC]
	if !ok {
		s.refRegs(t.Regs, m.ilp32)
		return
	}
	s.refRegs(t.Regs[:top.Base], m.ilp32) // the callers' frames, suspended inside a statement
	regs := t.Regs[top.Base : int(top.Base)+top.Fn.NRegs]
	s.refRegs(regs[:top.Fn.NParams], m.ilp32)
	for _, r := range live {
		s.refRegs(regs[r:r+1], m.ilp32)
	}
}

// blockStarts maps, for an unoptimised function, the pc of each basic
// block's start to the slots its incoming edges' phi copies write.
type blockStarts map[int32][]int32

// leakBlocks caches blockStarts per function (leakBlocksOnce builds it).
type leakBlocks struct {
	once sync.Once
	fns  map[*ir.Func]blockStarts
}

// blockStartsOf returns fn's block starts (built for every unoptimised
// function of the program on first use).
func (m *Machine) blockStartsOf(fn *ir.Func) blockStarts {
	m.leakBlocks.once.Do(func() {
		m.leakBlocks.fns = map[*ir.Func]blockStarts{}
		for _, f := range m.Prog.Funcs {
			if f.External || f.Optimised {
				continue
			}
			bs := blockStarts{0: nil}
			for _, e := range f.Edges {
				for _, mv := range e.Moves {
					bs[e.PC] = append(bs[e.PC], mv.Dst)
				}
				if _, ok := bs[e.PC]; !ok {
					bs[e.PC] = nil
				}
			}
			for _, in := range f.Code {
				switch in.Op {
				case ir.OpJmp:
					if _, ok := bs[int32(in.Imm)]; !ok {
						bs[int32(in.Imm)] = nil
					}
				case ir.OpBr:
					for _, pc := range []int32{in.B, in.C} {
						if _, ok := bs[pc]; !ok {
							bs[pc] = nil
						}
					}
				}
			}
			m.leakBlocks.fns[f] = bs
		}
	})
	return m.leakBlocks.fns[fn]
}

// refRegs marks the heap blocks registers regs refer to.
func (s *leakScan) refRegs(regs []uint64, p32 bool) {
	for _, w := range regs {
		s.ref(w)
		if p32 && w>>32 == 0 {
			s.ref32(uint32(w))
		}
	}
}

// scanBytes marks the heap blocks the words of d refer to.
func (s *leakScan) scanBytes(d []byte) {
	if s.p32 {
		for i := 0; i+4 <= len(d); i += 4 {
			if x := binary.LittleEndian.Uint32(d[i:]); x != 0 {
				s.ref32(x)
			}
		}
		return
	}
	for i := 0; i+8 <= len(d); i += 4 {
		if w := binary.LittleEndian.Uint64(d[i:]); w>>ir.PtrBlockShift != 0 {
			s.ref(w)
		}
	}
}

// scanBlock marks the heap blocks the bytes of b refer to.
func (s *leakScan) scanBlock(b *block) {
	if b.pages == nil {
		s.scanBytes(b.data[:b.size])
		return
	}
	for _, pg := range b.pages {
		if pg != &zeroPage {
			s.scanBytes(pg.data[:])
		}
	}
}

// lostBlocks runs the reachability pass over st and returns the number of
// live heap blocks no root reaches, the first of them and their bytes.
// With stopped set (process stopped calls exit(), abort(), or fails an
// assertion: its frames never return), the registers of its unoptimised
// (-O0, optnone) frames are no roots: there every C object lives in a
// stack block and a register holds a temporary of the statement being
// evaluated, which the call that ends the program no longer needs, while
// a register whose value the function no longer reads would otherwise
// hold a lost block until the end.
func (m *Machine) lostBlocks(st *State, stopped *Thread) (n int, first uint32, bytes uint64) {
	mem := &st.Mem
	if st.leaks == nil {
		st.leaks = new(leakScan)
	}
	s := st.leaks
	words := int(mem.n+63) / 64
	if cap(s.mark) < words {
		s.mark = make([]uint64, words, 2*words)
	}
	s.mark = s.mark[:words]
	clear(s.mark)
	s.work, s.mem, s.p32, s.lo, s.n = s.work[:0], mem, m.ilp32, 1, mem.n
	if mem.image != nil {
		s.lo = max(mem.image.n, 1)
	}
	if img := mem.image; img != nil {
		// The blocks still equal to the post-initialisation image refer to
		// no heap block (every heap block is younger): only the others are
		// scanned.
		for _, b := range mem.changed(img) {
			if k := b.kind &^ blkUndef; k == blkGlobal || k == blkStack {
				s.scanBlock(b)
			}
		}
	} else {
		for id := uint32(1); id < mem.n; id++ {
			if b := mem.blk(id); b.kind&^blkUndef == blkGlobal || b.kind&^blkUndef == blkStack {
				s.scanBlock(b)
			}
		}
	}
	for _, t := range st.Threads {
		s.ref(t.RetVal)
		if t != stopped {
			m.refThreadRegs(s, t)
			continue
		}
		for i := range t.Frames {
			if fr := &t.Frames[i]; fr.Fn.Optimised {
				s.refRegs(t.Regs[fr.Base:int(fr.Base)+fr.Fn.NRegs], m.ilp32)
			}
		}
	}
	for len(s.work) > 0 {
		id := s.work[len(s.work)-1]
		s.work = s.work[:len(s.work)-1]
		s.scanBlock(mem.blk(id))
	}
	for id := s.lo; id < mem.n; id++ {
		if b := mem.blk(id); b.kind&^blkUndef == blkHeap && s.mark[id>>6]&(1<<(id&63)) == 0 {
			if n == 0 {
				first = id
			}
			n++
			bytes += uint64(b.size)
		}
	}
	s.mem = nil
	return n, first, bytes
}

// checkLeaks makes the checks of m.Leaks after a step or run of steps of
// process t (the caller tests m.Leaks != 0): while the run goes on, that
// no heap block was lost; when it terminated, that none is lost and (for
// CheckMemCleanup) none is still allocated.
func (m *Machine) checkLeaks(st *State, t *Thread) {
	if st.Mem.heap == 0 {
		return
	}
	switch st.Status {
	case Running:
		if m.Leaks&CheckMemTrack != 0 {
			m.trackLeaks(st, t, nil, "")
		}
	case Exited:
		m.leaksAtEnd(st, t)
	case Failed:
		switch st.Err.Kind {
		case ErrAbort, ErrAssertFail, ErrReachError, ErrVerifierErr:
			m.leaksAtEnd(st, t)
		}
	}
}

// leaksAtEnd checks the heap of a run that has just terminated.
func (m *Machine) leaksAtEnd(st *State, t *Thread) {
	how, stopped := "at exit", t
	switch {
	case st.Status == Failed:
		how = "when the program stopped (" + st.Err.Kind.String() + ")"
	case len(st.Threads[0].Frames) == 0:
		how, stopped = "when main returned", nil
	}
	if len(t.Frames) == 0 {
		stopped = nil // (a process that finished: no frames, no registers)
	}
	if m.Leaks&CheckMemTrack != 0 && m.trackLeaks(st, t, stopped, " "+how) {
		return
	}
	if m.Leaks&CheckMemCleanup != 0 {
		var bytes uint64
		for id := uint32(1); id < st.Mem.n; id++ {
			if b := st.Mem.blk(id); b.kind&^blkUndef == blkHeap {
				bytes += uint64(b.size)
			}
		}
		m.failAt(st, t, ErrMemCleanup, fmt.Sprintf("%d heap block(s), %d bytes, not freed %s", st.Mem.heap, bytes, how))
	}
}

// trackLeaks ends the run in MemLeak if a heap block is lost, and reports
// whether it did.
func (m *Machine) trackLeaks(st *State, t *Thread, stopped *Thread, how string) bool {
	n, first, bytes := m.lostBlocks(st, stopped)
	if n == 0 {
		return false
	}
	detail := fmt.Sprintf("heap block %d (%d bytes) is unreachable%s", first, st.Mem.blk(first).size, how)
	if n > 1 {
		detail = fmt.Sprintf("%d heap blocks (%d bytes; the first, block %d, of %d) are unreachable%s",
			n, bytes, first, st.Mem.blk(first).size, how)
	}
	m.failAt(st, t, ErrMemLeak, detail)
	return true
}

// failAt puts the state into an error state at process t's next
// instruction, or, for a process that has finished (main returned), at
// its entry function's location with pc -1. It replaces an error the run
// ended in (abort(), a failed assertion), whose place it keeps.
func (m *Machine) failAt(st *State, t *Thread, k ErrKind, detail string) {
	if st.Status == Failed && st.Err != nil {
		e := *st.Err
		e.Kind, e.Detail = k, detail
		st.Err = &e
		return
	}
	if len(t.Frames) > 0 {
		m.fail(st, t, t.Frames[len(t.Frames)-1].PC, k, detail)
		return
	}
	entry := m.Prog.Funcs[m.Prog.Entry]
	st.Status = Failed
	st.Err = &ErrorState{Kind: k, Thread: t.ID, Func: entry.Name, PC: -1, Loc: entry.SrcLoc, Detail: detail}
}
