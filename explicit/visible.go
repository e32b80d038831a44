package explicit

import (
	"github.com/wyvernmc/wyvern/ir"
	"github.com/wyvernmc/wyvern/vm"
)

// Visibility (seed 000 §4.2). An instruction is visible when other processes
// can observe it or be affected by it, or when it matters to a proposition
// that looks at what processes are about to do:
//
//   - every call (direct, indirect, platform function): thread creation and
//     joins, locks, malloc/free, printf, wyvern_coin and nondet inputs, and
//     calls of program functions ([i.f] propositions observe "about to call");
//   - load, store, atomicrmw, cmpxchg and aggregate loads/stores, except
//     accesses to a private stack slot (below) and loads from constant
//     globals (immutable; visible when the proposition reads DataRace,
//     which a store to constant memory, an error, makes with them);
//   - ret from a thread's outermost frame (the process finishes: joins and
//     the end of main depend on it), from an atomic function (leaves an
//     atomic section), from a pthread_once routine, or from a function with a
//     non-private alloca (its stack blocks die while others may point to them);
//   - llvm.stackrestore (frees stack blocks).
//
// Everything else (arithmetic, comparisons, casts, GEP, branches with their
// phi copies, alloca, private loads/stores) is invisible: it reads and writes
// only the process's registers and private stack blocks, never blocks, and
// makes no probabilistic choice (all choices are calls), so it commutes with
// every step of every other process.
//
// A private stack slot is an alloca whose address register is used only as
// the address operand of loads and stores in its function: its address is
// never stored, passed, returned, offset by a GEP, compared or copied, so no
// other process (and no other frame) can reach the block. At -O0 this
// covers the scalar locals whose address is not taken.

// Instruction classes.
const (
	invisible uint8 = iota
	visible
	retDyn // ret: visible depending on the frame (see above)
)

// visibility holds the class of every instruction of a program.
type visibility struct {
	class [][]uint8 // per function index, per pc
	// escaped[f] is set when function f has a non-private alloca.
	escaped []bool
	// ids says that the program may see the id of a block allocated at
	// run time: it converts such an address to an integer, orders it, or
	// reads its bytes (seesBlockIDs), so the order of allocations matters
	// (renumbers).
	ids bool
}

func newVisibility(p *ir.Program) *visibility {
	v := &visibility{class: make([][]uint8, len(p.Funcs)), escaped: make([]bool, len(p.Funcs))}
	constBlock := map[uint32]bool{}
	for _, g := range p.Globals {
		if g.Const {
			constBlock[g.Block] = true
		}
	}
	reuse := p.ReusesAddresses()
	for _, f := range p.Funcs {
		if f.External {
			continue
		}
		private := privateAllocas(f)
		cls := make([]uint8, len(f.Code))
		for pc := range f.Code {
			in := &f.Code[pc]
			switch in.Op {
			case ir.OpLoad, ir.OpLoadAgg:
				switch {
				case private[in.A]:
				case in.A >= f.ConstBase && int(in.A-f.ConstBase) < len(f.Consts) &&
					constBlock[uint32(f.Consts[in.A-f.ConstBase]>>ir.PtrBlockShift)]:
				default:
					cls[pc] = visible
				}
			case ir.OpStore, ir.OpStoreAgg:
				if !private[in.A] {
					cls[pc] = visible
				}
			case ir.OpAtomicRMW, ir.OpCmpXchg, ir.OpCall, ir.OpCallInd, ir.OpCallB, ir.OpStackRestore:
				cls[pc] = visible
			case ir.OpRet:
				cls[pc] = retDyn
			case ir.OpEq, ir.OpNe:
				// a comparison address reuse may decide reads the
				// blocks' states and may draw (vm/reuse.go)
				if reuse && in.Flags&ir.FlagPtrCmp != 0 {
					cls[pc] = visible
				}
			}
		}
		for _, in := range f.Code {
			if in.Op == ir.OpAlloca && !private[in.Dst] {
				v.escaped[f.Index] = true
			}
		}
		v.class[f.Index] = cls
	}
	v.ids = seesBlockIDs(p)
	return v
}

// constLoadsVisible makes the loads from constant globals visible: a
// DataRace proposition sees them (a store to constant memory, an error,
// races with them), so a reduced transition must stop before them.
func (v *visibility) constLoadsVisible(p *ir.Program) {
	for _, f := range p.Funcs {
		if f.External {
			continue
		}
		for pc, in := range f.Code {
			if (in.Op == ir.OpLoad || in.Op == ir.OpLoadAgg) && in.A >= f.ConstBase && int(in.A-f.ConstBase) < len(f.Consts) {
				v.class[f.Index][pc] = visible
			}
		}
	}
}

// privateAllocas returns the alloca result slots of f used only as the
// address operand of loads and stores.
func privateAllocas(f *ir.Func) map[int32]bool {
	priv := map[int32]bool{}
	for _, in := range f.Code {
		if in.Op == ir.OpAlloca {
			priv[in.Dst] = true
		}
	}
	if len(priv) == 0 {
		return priv
	}
	slotUses(f, func(int32) bool { return false }, func(s int32) { delete(priv, s) })
	return priv
}

// slotUses calls escape for every use of a slot of f other than as the
// address operand of a load or store and, for a getelementptr whose result
// gepOK accepts, as its base (its indices always escape).
func slotUses(f *ir.Func, gepOK func(dst int32) bool, escape func(s int32)) {
	rng := func(start, n int32) {
		for s := start; s < start+n; s++ {
			escape(s)
		}
	}
	// Side tables: any use there is an escape (conservative: a table entry
	// may belong to no instruction), but a getelementptr entry whose every
	// instruction has a result gepOK accepts.
	for _, e := range f.Edges {
		for _, mv := range e.Moves {
			escape(mv.Src)
		}
	}
	for _, cs := range f.Calls {
		escape(cs.FnSlot)
		for i, a := range cs.Args {
			n := int32(1)
			if i < len(cs.ArgSlots) && cs.ArgSlots[i] > 0 {
				n = cs.ArgSlots[i]
			}
			rng(a, n)
		}
	}
	okGEP := make([]int8, len(f.GEPs)) // 0: no instruction, 1: all accepted, -1: not
	for _, in := range f.Code {
		if in.Op == ir.OpGEPN && int(in.Imm) < len(f.GEPs) {
			switch {
			case !gepOK(in.Dst):
				okGEP[in.Imm] = -1
			case okGEP[in.Imm] == 0:
				okGEP[in.Imm] = 1
			}
		}
	}
	for k, g := range f.GEPs {
		if okGEP[k] != 1 {
			escape(g.Base)
		}
		for _, s := range g.Idx {
			escape(s)
		}
	}
	for _, in := range f.Code {
		switch in.Op {
		case ir.OpLoad, ir.OpLoadAgg: // A is the address: not an escape
		case ir.OpStore: // *A = B
			escape(in.B)
		case ir.OpStoreAgg: // *A = B..
			rng(in.B, int32(len(f.Aggs[in.Imm].Offs)))
		case ir.OpAlloca:
			escape(in.A)
		case ir.OpGEPC:
			if !gepOK(in.Dst) {
				escape(in.A)
			}
		case ir.OpGEP1:
			if !gepOK(in.Dst) {
				escape(in.A)
			}
			escape(in.B)
		case ir.OpMov, ir.OpTrunc, ir.OpSExt, ir.OpBr, ir.OpSwitch, ir.OpFNeg, ir.OpFAbs,
			ir.OpSqrt, ir.OpFPTrunc, ir.OpFPExt, ir.OpFPToSI, ir.OpFPToUI, ir.OpSIToFP, ir.OpUIToFP,
			ir.OpCtpop, ir.OpCtlz, ir.OpCttz, ir.OpBswap, ir.OpAbs, ir.OpStackRestore:
			escape(in.A)
		case ir.OpMovN:
			rng(in.A, int32(in.Imm))
		case ir.OpSelectN:
			escape(in.A)
			rng(in.B, int32(in.Imm))
			rng(in.C, int32(in.Imm))
		case ir.OpExtract:
			rng(in.A, in.B+int32(in.Imm))
		case ir.OpInsert:
			rng(in.A, in.C)
			rng(in.B, int32(in.Imm>>32))
		case ir.OpRet:
			if in.A >= 0 {
				rng(in.A, max(int32(in.Imm), 1))
			}
		case ir.OpJmp, ir.OpJmpE, ir.OpBrE, ir.OpCall, ir.OpCallInd, ir.OpCallB, ir.OpGEPN,
			ir.OpNop, ir.OpFence, ir.OpUnreachable, ir.OpTrap, ir.OpStackSave:
			if in.Op == ir.OpBrE {
				escape(in.A)
			}
		case ir.OpSelect, ir.OpFshl, ir.OpFshr, ir.OpFMulAdd, ir.OpCmpXchg, ir.OpAtomicRMW:
			escape(in.A)
			escape(in.B)
			escape(in.C)
		default: // two-operand instructions (arithmetic, comparisons, ...)
			escape(in.A)
			escape(in.B)
		}
	}
}

// renumbers reports whether thread t's next instruction allocates or frees
// a stack block id: an alloca, or a return from a frame that holds stack
// blocks. Block ids come from one counter and one list of dead stack ids
// shared by all processes, so two such steps of different processes do not
// commute: the order decides which block gets which id, and a program sees
// ids in its addresses once it converts a pointer to an integer
// ((uintptr_t)&local, or memcpy of a pointer's bytes) or orders two
// pointers (p < q). In a program that may (visibility.ids: a ptrtoint,
// memcpy, memmove, memcmp or ordering icmp that may see such an address,
// by the provenance analysis seesBlockIDs; before 2026-11-28's second
// change, any of them anywhere) they are visible while another process is alive
// (gen.runInvisible): before 2026-11-28 they never were, and the global
// reduction ran a new thread's allocas before its creator's next step, so
// it missed the orders in which a later thread's stack blocks get the lower
// ids (explicit/testdata/por_alloca_order.c). Reading a pointer's bytes as a
// number (a union, a type pun, a pointer memcpy'd into a long) counts as
// seeing ids too (provenance.go, por_prov_union*.c); otherwise only comparing
// a dangling pointer for equality (undefined behaviour) sees them.
func (v *visibility) renumbers(t *vm.Thread) bool {
	if t.Done || len(t.Frames) == 0 {
		return false
	}
	fr := &t.Frames[len(t.Frames)-1]
	if int(fr.PC) >= len(fr.Fn.Code) || fr.PC < 0 {
		return false
	}
	switch fr.Fn.Code[fr.PC].Op {
	case ir.OpAlloca:
		return true
	case ir.OpRet:
		return len(t.Allocas) > int(fr.AllocaMark)
	}
	return false
}

// nextVisible reports whether thread t's next instruction is visible.
func (v *visibility) nextVisible(t *vm.Thread) bool {
	if t.Done || len(t.Frames) == 0 {
		return true
	}
	fr := &t.Frames[len(t.Frames)-1]
	cls := v.class[fr.Fn.Index]
	if int(fr.PC) >= len(cls) {
		return true
	}
	switch cls[fr.PC] {
	case invisible:
		return false
	case retDyn:
		return len(t.Frames) == 1 || fr.Atomic || fr.OnceAddr != 0 || v.escaped[fr.Fn.Index]
	}
	return true
}
