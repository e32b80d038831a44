package explicit

import (
	"github.com/wyvernmc/wyvern/ir"
	"github.com/wyvernmc/wyvern/vm"
)

// Dead registers (issue #34). A register a process will not read again
// before writing it still holds the value of its last write, and that value
// is part of the state's encoding: SV-COMP's fib_bench keeps in each
// thread's registers the values of i and j it last loaded, and in main's the
// value of i it compared, so one state of the variables came in as many
// copies as there were histories leading to it (fib_bench_longer-1: 9 in 10
// stored states). Under the reductions the search sets every dead register
// of each process to zero after each transition, so those copies are one
// state.
//
// Sound because a dead register's value is never read: two states that
// differ only in dead registers take the same steps with the same outcomes
// for ever (the same instructions, values, memory, enabled processes,
// errors), so they reach the same states up to dead registers, and a
// proposition that reads no register cannot tell them apart. The reductions
// are already off for propositions that read registers or locals, and this
// is not done when the machine checks leaks (the leak check reads every
// register for pointers that keep a block reachable). A witness replays
// through the same transitions, which clear the same registers.
//
// Liveness, per function, deliberately simple (-O0 code keeps each C
// object in a stack block, and a register holds a temporary of one
// statement): register r is live at pc exactly when k < pc <= hi, where hi
// is the last instruction reading r and k an instruction before every read
// that always writes r (or -1: a frame starts with every value slot
// written, zero or a parameter), such that no instruction in (k, hi] is a
// jump target and none in [k, hi) jumps, branches or returns (calls return
// to the next instruction). Then every path from a pc outside (k, hi] to a
// read of r enters the segment at k, which writes r first: r is dead there.
// A register never read is dead everywhere. A register for which no such k
// is found, or in a function with an instruction not listed below, is
// never cleared. A frame below the top one is at the instruction after its
// call (the call's result is written on return: never cleared while it is
// read later, since calls do not count as writes).

// clearDeadRegs has the reductions clear dead registers; tests turn it off
// to compare.
var clearDeadRegs = true

// deadSlot is a register of a function and where it is live: live for
// from <= pc <= to (from > to: never).
type deadSlot struct {
	slot, from, to int32
}

// deadRegs lists, per function index, the registers that are dead at each
// pc.
type deadRegs struct {
	funcs []deadFunc
}

// deadFunc is a function's dead registers: at each pc, the list
// list[at[pc]:at[pc+1]] (made once, so that clearing after a transition
// reads only the registers to clear); a function whose lists would take
// more than maxDeadList entries keeps its intervals (slots) instead.
type deadFunc struct {
	slots []deadSlot
	at    []int32
	list  []int32
}

// maxDeadList bounds the entries of one function's per-pc lists (4 bytes
// each).
const maxDeadList = 1 << 18

// dead returns the registers of f dead at pc, from the per-pc lists; ok is
// false when f keeps intervals (f.slots) instead.
func (f *deadFunc) dead(pc int32) (regs []int32, ok bool) {
	if f.at == nil {
		return nil, false
	}
	return f.list[f.at[pc]:f.at[pc+1]], true
}

func newDeadRegs(p *ir.Program) *deadRegs {
	d := &deadRegs{funcs: make([]deadFunc, len(p.Funcs))}
	for _, f := range p.Funcs {
		if !f.External {
			d.funcs[f.Index] = newDeadFunc(deadSlots(f), len(f.Code))
		}
	}
	return d
}

// newDeadFunc makes the per-pc lists of a function of n instructions whose
// registers are dead outside the intervals of slots (or keeps slots when
// the lists would be too long).
func newDeadFunc(slots []deadSlot, n int) deadFunc {
	if len(slots) == 0 {
		return deadFunc{}
	}
	total := 0
	for _, ds := range slots {
		live := 0
		if lo, hi := max(ds.from, 0), min(ds.to, int32(n-1)); lo <= hi {
			live = int(hi - lo + 1)
		}
		total += n - live
	}
	if total > maxDeadList {
		return deadFunc{slots: slots}
	}
	f := deadFunc{at: make([]int32, n+1), list: make([]int32, 0, total)}
	for pc := int32(0); pc < int32(n); pc++ {
		f.at[pc] = int32(len(f.list))
		for _, ds := range slots {
			if pc < ds.from || pc > ds.to {
				f.list = append(f.list, ds.slot)
			}
		}
	}
	f.at[n] = int32(len(f.list))
	return f
}

// deadSlots computes the registers of f that are dead somewhere, with the
// interval where each is live; nil when f has an instruction whose reads
// are not known here.
func deadSlots(f *ir.Func) []deadSlot {
	n := int32(f.ConstBase)
	if n <= 0 {
		return nil
	}
	const none = -2
	lo := make([]int32, n) // first and last pc reading each register
	hi := make([]int32, n)
	for i := range lo {
		lo[i], hi[i] = none, none
	}
	code := f.Code
	label := make([]bool, len(code)+1)
	leaves := make([]bool, len(code)) // control does not go on at pc+1
	target := func(pc int64) {
		if pc >= 0 && pc < int64(len(label)) {
			label[pc] = true
		}
	}
	for _, e := range f.Edges {
		target(int64(e.PC))
	}
	for pc := range code {
		pc32 := int32(pc)
		read := func(s, k int32) {
			for r := s; r < s+k; r++ {
				if r >= 0 && r < n {
					if lo[r] == none {
						lo[r] = pc32
					}
					hi[r] = pc32
				}
			}
		}
		edge := func(e int32) bool {
			if e < 0 || int(e) >= len(f.Edges) {
				return false
			}
			for _, mv := range f.Edges[e].Moves {
				read(mv.Src, 1)
			}
			return true
		}
		in := &code[pc]
		switch in.Op {
		case ir.OpNop, ir.OpFence, ir.OpStackSave:
		case ir.OpUnreachable, ir.OpTrap:
			leaves[pc] = true
		case ir.OpAdd, ir.OpSub, ir.OpMul, ir.OpUDiv, ir.OpSDiv, ir.OpURem, ir.OpSRem, ir.OpShl,
			ir.OpLShr, ir.OpAShr, ir.OpAnd, ir.OpOr, ir.OpXor, ir.OpEq, ir.OpNe, ir.OpUlt, ir.OpUle,
			ir.OpUgt, ir.OpUge, ir.OpSlt, ir.OpSle, ir.OpSgt, ir.OpSge, ir.OpFAdd, ir.OpFSub,
			ir.OpFMul, ir.OpFDiv, ir.OpFRem, ir.OpFCmp, ir.OpSMin, ir.OpSMax, ir.OpUMin, ir.OpUMax,
			ir.OpSAddO, ir.OpUAddO, ir.OpSSubO, ir.OpUSubO, ir.OpSMulO, ir.OpUMulO, ir.OpSAddSat,
			ir.OpUAddSat, ir.OpSSubSat, ir.OpUSubSat, ir.OpStore, ir.OpAtomicRMW:
			read(in.A, 1)
			read(in.B, 1)
		case ir.OpMov, ir.OpTrunc, ir.OpSExt, ir.OpFPToSI, ir.OpFPToUI, ir.OpSIToFP, ir.OpUIToFP,
			ir.OpFPTrunc, ir.OpFPExt, ir.OpFNeg, ir.OpCtpop, ir.OpCtlz, ir.OpCttz, ir.OpBswap,
			ir.OpAbs, ir.OpFAbs, ir.OpSqrt, ir.OpPtrToInt, ir.OpIntToPtr, ir.OpLoad, ir.OpLoadAgg,
			ir.OpGEPC, ir.OpStackRestore:
			read(in.A, 1)
		case ir.OpGEP1, ir.OpSelect, ir.OpFshl, ir.OpFshr, ir.OpFMulAdd, ir.OpCmpXchg:
			read(in.A, 1)
			read(in.B, 1)
			read(in.C, 1)
		case ir.OpAlloca:
			read(in.A, 1)
		case ir.OpMovN:
			read(in.A, int32(in.Imm))
		case ir.OpSelectN:
			read(in.A, 1)
			read(in.B, int32(in.Imm))
			read(in.C, int32(in.Imm))
		case ir.OpExtract:
			read(in.A, in.B+int32(in.Imm))
		case ir.OpInsert:
			read(in.A, in.C)
			read(in.B, int32(in.Imm>>32))
		case ir.OpStoreAgg:
			if int(in.Imm) >= len(f.Aggs) {
				return nil
			}
			read(in.A, 1)
			read(in.B, int32(len(f.Aggs[in.Imm].Offs)))
		case ir.OpGEPN:
			if int(in.Imm) >= len(f.GEPs) {
				return nil
			}
			g := &f.GEPs[in.Imm]
			read(g.Base, 1)
			for _, s := range g.Idx {
				read(s, 1)
			}
		case ir.OpCall, ir.OpCallInd, ir.OpCallB:
			if int(in.Imm) >= len(f.Calls) {
				return nil
			}
			cs := &f.Calls[in.Imm]
			read(cs.FnSlot, 1)
			for i, a := range cs.Args {
				k := int32(1)
				if i < len(cs.ArgSlots) && cs.ArgSlots[i] > 0 {
					k = cs.ArgSlots[i]
				}
				read(a, k)
			}
		case ir.OpRet:
			leaves[pc] = true
			if in.A >= 0 {
				read(in.A, max(int32(in.Imm), 1))
			}
		case ir.OpJmp:
			leaves[pc] = true
			target(int64(in.Imm))
		case ir.OpBr:
			leaves[pc] = true
			read(in.A, 1)
			target(int64(in.B))
			target(int64(in.C))
		case ir.OpJmpE:
			leaves[pc] = true
			if !edge(int32(in.Imm)) {
				return nil
			}
		case ir.OpBrE:
			leaves[pc] = true
			read(in.A, 1)
			if !edge(in.B) || !edge(in.C) {
				return nil
			}
		case ir.OpSwitch:
			leaves[pc] = true
			if int(in.Imm) >= len(f.Switches) {
				return nil
			}
			read(in.A, 1)
			sw := &f.Switches[in.Imm]
			for _, e := range sw.Targets {
				if !edge(e) {
					return nil
				}
			}
			if !edge(sw.Default) {
				return nil
			}
		default:
			return nil // reads not known here: clear nothing
		}
	}
	// prefix counts: labels in [0, i), leaving instructions in [0, i)
	nl := make([]int32, len(code)+1)
	nb := make([]int32, len(code)+1)
	for i := range code {
		nl[i+1], nb[i+1] = nl[i], nb[i]
		if label[i] {
			nl[i+1]++
		}
		if leaves[i] {
			nb[i+1]++
		}
	}
	var out []deadSlot
	for r := int32(0); r < n; r++ {
		if lo[r] == none {
			out = append(out, deadSlot{slot: r, from: 1, to: 0})
			continue
		}
		// the segment [lo, hi] itself: no label in (lo, hi], none leaving in [lo, hi)
		if nl[hi[r]+1]-nl[lo[r]+1] != 0 || nb[hi[r]]-nb[lo[r]] != 0 {
			continue
		}
		k := lo[r] - 1
		for ; k >= 0; k-- {
			if label[k+1] || leaves[k] {
				k = none
				break
			}
			if writes(&code[k], r) {
				break
			}
		}
		switch {
		case k == none:
			continue
		case k < 0:
			// the frame's start: pc 0 must not be a jump target
			if label[0] {
				continue
			}
			k = -1
		}
		out = append(out, deadSlot{slot: r, from: k + 1, to: hi[r]})
	}
	return out
}

// writes reports whether instruction in always writes register r whole
// when it completes (one-register results only).
func writes(in *ir.Inst, r int32) bool {
	if in.Dst != r {
		return false
	}
	switch in.Op {
	case ir.OpAdd, ir.OpSub, ir.OpMul, ir.OpUDiv, ir.OpSDiv, ir.OpURem, ir.OpSRem, ir.OpShl,
		ir.OpLShr, ir.OpAShr, ir.OpAnd, ir.OpOr, ir.OpXor, ir.OpEq, ir.OpNe, ir.OpUlt, ir.OpUle,
		ir.OpUgt, ir.OpUge, ir.OpSlt, ir.OpSle, ir.OpSgt, ir.OpSge, ir.OpMov, ir.OpTrunc, ir.OpSExt,
		ir.OpFPToSI, ir.OpFPToUI, ir.OpSIToFP, ir.OpUIToFP, ir.OpFPTrunc, ir.OpFPExt, ir.OpFAdd,
		ir.OpFSub, ir.OpFMul, ir.OpFDiv, ir.OpFRem, ir.OpFNeg, ir.OpFCmp, ir.OpSelect, ir.OpLoad,
		ir.OpGEPC, ir.OpGEP1, ir.OpGEPN, ir.OpAlloca, ir.OpCtpop, ir.OpCtlz, ir.OpCttz, ir.OpBswap,
		ir.OpAbs, ir.OpSMin, ir.OpSMax, ir.OpUMin, ir.OpUMax, ir.OpFAbs, ir.OpSqrt, ir.OpPtrToInt,
		ir.OpIntToPtr:
		return true
	}
	return false
}

// clear sets the dead registers of st's processes to zero; a process whose
// record is parent's (shared, unchanged by the transition) is skipped when
// parent is given: its registers were cleared when parent was made. A
// process whose dead registers are all zero already is not owned (its
// record stays shared).
func (d *deadRegs) clear(st, parent *vm.State) {
	for i, t := range st.Threads {
		if parent != nil && i < len(parent.Threads) && parent.Threads[i] == t {
			continue
		}
		if !d.visit(t, false) {
			continue
		}
		d.visit(st.OwnThread(int32(i)), true)
	}
}

// visit reports whether a dead register of process t is not zero; with
// zero it sets every one to zero.
func (d *deadRegs) visit(t *vm.Thread, zero bool) bool {
	if t.Done {
		return false
	}
	found := false
	for i := range t.Frames {
		fr := &t.Frames[i]
		if fr.Fn.Index >= len(d.funcs) || int(fr.PC) >= len(fr.Fn.Code) || fr.PC < 0 {
			continue
		}
		regs := t.Regs[fr.Base : fr.Base+fr.Fn.ConstBase]
		f := &d.funcs[fr.Fn.Index]
		if dead, ok := f.dead(fr.PC); ok {
			for _, s := range dead {
				if regs[s] != 0 {
					if !zero {
						return true
					}
					regs[s], found = 0, true
				}
			}
			continue
		}
		for _, ds := range f.slots {
			if ds.from <= fr.PC && fr.PC <= ds.to || regs[ds.slot] == 0 {
				continue
			}
			if !zero {
				return true
			}
			regs[ds.slot], found = 0, true
		}
	}
	return found
}
