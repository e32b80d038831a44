package explicit

import (
	"fmt"
	"strings"

	"github.com/wyvernmc/wyvern/ir"
	"github.com/wyvernmc/wyvern/query"
	"github.com/wyvernmc/wyvern/vm"
)

// Partial-order reduction (Options.POR, issue #30) for E<> and A[]
// searches, on top of LODIN's reductions. Two parts:
//
//  1. Runs of a lone process. When after a transition exactly one process
//     is enabled and its next step draws no value, every path from that
//     state starts with that step: the transition goes on with it (gen.cont)
//     instead of storing the state. The run stops at a state where the
//     query's proposition decides (so that no such state is skipped), at a
//     state where zero or several processes are enabled, before a step that
//     draws, and after maxInvisibleRun steps. Atomic sections
//     (__VERIFIER_atomic_begin/end), critical sections whose competitors
//     wait at the lock and the end of main after the joins run through.
//
//  2. Persistent sets of one process (ample sets, Clarke–Grumberg–Peled's
//     C0–C3) in the sequential search: a state is expanded by process i's
//     transition alone when that transition is independent of every step
//     every other process can still take, invisible to the proposition, and
//     all its successors are new states (the cycle proviso); otherwise by
//     every enabled process. Independence: the memory blocks i's next
//     instruction reads and writes (exactly: its address is in i's
//     registers) do not meet the blocks the other processes may read or
//     write from where they are (statically: the code reachable from each
//     frame's pc, through calls; an address not a global's is any block),
//     with mutex, rwlock and semaphore operations as writes of their
//     object, and anything else a platform call does (thread creation and
//     exit, joins, condition variables, atomic sections, output, memory
//     functions) as dependent on everything. A transition that allocates or
//     frees a block id, ends the run, moves another process or changes
//     whether i is about to call a function the proposition watches is not
//     taken alone.
//
// Why a state the proposition P holds in is still found (E<> P; A[] P is
// E<> !P): let w be a path from s to such a state and i's transition t
// independent of every step of the others. If w has no step of i, t·w is a
// path too (t writes nothing w reads and disables nothing of w; w writes
// nothing t reads) and its last state differs from w's only in process i's
// registers, private stack and position, none of which P reads (invisible
// t; the run's status is the same). Otherwise w = u·t·v with u free of i,
// and t·u·v reaches the same state. The proviso makes every cycle of the
// reduced graph contain a fully expanded state (a reduced state's successors
// are added after it, so the order in which states were added increases
// along a cycle of reduced states, which is impossible), so no transition is
// postponed for ever. Deadlocks are kept: a state where i's independent,
// enabled transition stays enabled is not a deadlock. The proposition may
// read globals, [p.f], Deadlock, Error, Exited, Exists and DataRace; POR is
// not applied (a note says so) when it reads registers, locals, lines,
// DivZero or OverFlows, when the machine checks leaks (they read all of
// memory after every step), with several search workers, and to EnumStates.
//
// DataRace (two enabled processes p, q about to make overlapping accesses,
// one writing, not both atomic) reads the next instructions and registers
// of p and q, so the case where w has no step of i needs more: i is neither
// p nor q. i's next instruction in w's last state r is t's first step; had
// it raced with q's next access in r, that access, reachable from one of
// q's frames in s (a process created later is created by a step dependent
// on everything), would meet t's footprint. So p and q, whose registers and
// positions t leaves alone, race in t·w's last state too, and are enabled
// there (loads and stores always are; t enters no atomic section). For
// this the footprints see every access DataRace sees: with race set, loads
// from constant globals are reads (a store to constant memory, an error,
// races with them; the reductions make them visible then, visible.go), and
// an access running past its block into the next block's addresses is
// dependent on everything. docs/explicit.md has the argument in full.

// porWhyNot says why POR cannot be applied to the query on machine m, ""
// when it can.
func porWhyNot(c *query.Compiled, m *vm.Machine, workers int) string {
	switch {
	case c.Q.Kind == query.EnumStates:
		return "EnumStates counts the states, which partial-order reduction leaves out"
	case workers > 1:
		return "the parallel search does not reduce by partial order"
	case m.Leaks != 0:
		return "the leak checks read every block after every step"
	}
	for _, r := range []query.Read{query.ReadRegisters, query.ReadLocals, query.ReadLines, query.ReadDivZero, query.ReadOverflows} {
		if c.Reads.Has(r) {
			return "the proposition reads " + r.String()
		}
	}
	for _, u := range c.Reads.Uses {
		if u.Read == query.ReadGlobals && globalBlock(m.Prog, u.Name) == 0 {
			return fmt.Sprintf("the proposition reads %q, which is not a whole global variable", u.Name)
		}
	}
	return ""
}

// globalBlock returns the block of the global named name (LLVM or C name),
// 0 when there is not exactly one.
func globalBlock(p *ir.Program, name string) uint32 {
	var b uint32
	for _, g := range p.Globals {
		if g.Name == name || g.CName == name {
			if b != 0 && b != g.Block {
				return 0
			}
			b = g.Block
		}
	}
	return b
}

// footprint is what steps may touch: blocks read and written, any block
// (an address the analysis does not know), or everything (a step dependent
// on every other).
type footprint struct {
	all        bool
	anyR, anyW bool
	r, w       map[uint32]struct{}
}

func (f *footprint) read(b uint32) {
	if f.r == nil {
		f.r = map[uint32]struct{}{}
	}
	f.r[b] = struct{}{}
}

func (f *footprint) write(b uint32) {
	if f.w == nil {
		f.w = map[uint32]struct{}{}
	}
	f.w[b] = struct{}{}
}

// add adds g to f and reports whether f grew.
func (f *footprint) add(g *footprint) bool {
	grew := false
	if g.all && !f.all {
		f.all, grew = true, true
	}
	if g.anyR && !f.anyR {
		f.anyR, grew = true, true
	}
	if g.anyW && !f.anyW {
		f.anyW, grew = true, true
	}
	for b := range g.r {
		if _, ok := f.r[b]; !ok {
			f.read(b)
			grew = true
		}
	}
	for b := range g.w {
		if _, ok := f.w[b]; !ok {
			f.write(b)
			grew = true
		}
	}
	return grew
}

// meets reports whether step footprint s (exact blocks) may conflict with
// the steps of footprint f: a block one writes and the other reads or
// writes.
func (s *footprint) meets(f *footprint) bool {
	if s.all || f.all {
		return true
	}
	for b := range s.w {
		if f.anyR || f.anyW {
			return true
		}
		if _, ok := f.r[b]; ok {
			return true
		}
		if _, ok := f.w[b]; ok {
			return true
		}
	}
	for b := range s.r {
		if f.anyW {
			return true
		}
		if _, ok := f.w[b]; ok {
			return true
		}
	}
	return false
}

// noEffect are the platform functions that touch no memory another process
// reads and no scheduling state: draws, assumptions, the ends of a run
// (which end it for every process alike), thread identity, yields, and
// allocation (whose block numbering AllocMark guards).
var noEffect = map[ir.Builtin]bool{
	ir.BNondet: true, ir.BCoin: true, ir.BUniform: true, ir.BAssume: true,
	ir.BVerifierError: true, ir.BReachError: true, ir.BAssertFail: true, ir.BAbort: true, ir.BExit: true,
	ir.BPthreadSelf: true, ir.BPthreadEqual: true, ir.BYield: true, ir.BAbs: true,
	ir.BMalloc: true, ir.BCalloc: true, ir.BAttrInit: true,
}

// syncObject are the platform functions whose shared state is their first
// argument's object: a write of its block.
var syncObject = map[ir.Builtin]bool{
	ir.BMutexInit: true, ir.BMutexLock: true, ir.BMutexTrylock: true, ir.BMutexUnlock: true, ir.BMutexDestroy: true,
	ir.BRwlockInit: true, ir.BRwlockRdlock: true, ir.BRwlockWrlock: true, ir.BRwlockTryrdlock: true,
	ir.BRwlockTrywrlock: true, ir.BRwlockUnlock: true, ir.BRwlockDestroy: true,
	ir.BSemInit: true, ir.BSemWait: true, ir.BSemTrywait: true, ir.BSemPost: true, ir.BSemDestroy: true,
}

// por holds a search's partial-order reduction: the static footprints of
// the program's code and what the proposition observes.
type por struct {
	m      *vm.Machine
	p      *ir.Program
	own    []map[int32]bool  // per function: slots addressing its own stack (ownSlots)
	known  []map[int32]int64 // per function: slots holding an address in a known block
	fnFP   []footprint       // per function: its code and its callees'
	from   map[[2]int32]*footprint
	blocks map[uint32]bool // blocks the proposition reads
	calls  map[int32]bool  // functions the proposition watches ([p.f])
	// race says that the proposition reads DataRace: loads from constant
	// globals are reads too (a write to constant memory, an error, races
	// with them).
	race bool
	// reduced counts the states expanded by one process.
	reduced int64
	// reuse: p.ReusesAddresses(); its pointer comparisons read and write
	// the freed blocks' reuse state (vm/reuse.go), so they meet every step
	reuse bool
}

func newPOR(c *query.Compiled, m *vm.Machine) *por {
	p := m.Prog
	o := &por{m: m, p: p, own: make([]map[int32]bool, len(p.Funcs)), known: make([]map[int32]int64, len(p.Funcs)),
		fnFP: make([]footprint, len(p.Funcs)), from: map[[2]int32]*footprint{}, blocks: map[uint32]bool{}, calls: map[int32]bool{},
		race: c.Reads.Has(query.ReadDataRace), reuse: p.ReusesAddresses()}
	for _, u := range c.Reads.Uses {
		switch u.Read {
		case query.ReadGlobals:
			o.blocks[globalBlock(p, u.Name)] = true
		case query.ReadCalls:
			if i, ok := p.FuncIdx[u.Name]; ok {
				o.calls[int32(i)] = true
			}
		}
	}
	for _, f := range p.Funcs {
		if f.External {
			continue
		}
		o.own[f.Index] = ownSlots(f)
		o.known[f.Index] = knownSlots(p, f)
	}
	for _, f := range p.Funcs {
		if f.External {
			continue
		}
		for pc := range f.Code {
			o.instFP(f, int32(pc), &o.fnFP[f.Index], false)
		}
	}
	for changed := true; changed; { // callees' footprints, to a fixpoint
		changed = false
		for _, f := range p.Funcs {
			if f.External {
				continue
			}
			for _, cs := range f.Calls {
				if cs.Callee >= 0 && o.fnFP[f.Index].add(&o.fnFP[cs.Callee]) {
					changed = true
				}
			}
		}
	}
	return o
}

// constBlock returns the block of the address a constant slot holds.
func constAddr(f *ir.Func, s int32) (uint64, bool) {
	if s >= f.ConstBase && int(s-f.ConstBase) < len(f.Consts) {
		return f.Consts[s-f.ConstBase], true
	}
	return 0, false
}

// knownSlots returns the slots of f that hold an address into a known
// global block: a constant, or a getelementptr or copy of one, defined
// once and by no phi copy.
func knownSlots(p *ir.Program, f *ir.Func) map[int32]int64 {
	defs := slotDefs(f)
	known := map[int32]int64{}
	block := func(s int32) (int64, bool) {
		if a, ok := constAddr(f, s); ok {
			b := ir.PtrBlock(a)
			if b >= 1 && int(b) <= len(p.Globals) {
				return int64(b), true
			}
			return 0, false
		}
		b, ok := known[s]
		return b, ok
	}
	for range 4 { // chains of getelementptrs, in any order
		for pc := range f.Code {
			in := &f.Code[pc]
			if defs[in.Dst] != 1 {
				continue
			}
			if base, ok := gepBase(f, in); ok {
				if b, ok := block(base); ok {
					known[in.Dst] = b
				}
			}
		}
	}
	return known
}

// gepBase returns the base of a getelementptr or the source of a copy.
func gepBase(f *ir.Func, in *ir.Inst) (int32, bool) {
	switch in.Op {
	case ir.OpGEPC, ir.OpGEP1, ir.OpMov:
		return in.A, true
	case ir.OpGEPN:
		return f.GEPs[in.Imm].Base, true
	}
	return 0, false
}

// ownSlots returns the slots of f that hold an address into one of the
// process's own stack blocks that no other process can reach: an alloca's
// result, or a getelementptr of one defined once, where no such slot is
// used but as the address of loads and stores and the base of such
// getelementptrs (visible.go's private slots, and the arrays and structs on
// the stack whose address is only offset). Another process never has such
// an address, so neither its accesses nor a race with them concern it.
func ownSlots(f *ir.Func) map[int32]bool {
	defs := slotDefs(f)
	root := map[int32]int32{} // slot -> its alloca
	for _, in := range f.Code {
		if in.Op == ir.OpAlloca && defs[in.Dst] == 2 { // (the alloca's own)
			root[in.Dst] = in.Dst
		}
	}
	if len(root) == 0 {
		return nil
	}
	for range 4 { // chains of getelementptrs, in any order
		for pc := range f.Code {
			in := &f.Code[pc]
			if in.Op == ir.OpMov || in.Op == ir.OpAlloca || defs[in.Dst] != 1 {
				continue
			}
			if base, ok := gepBase(f, in); ok {
				if r, ok := root[base]; ok {
					root[in.Dst] = r
				}
			}
		}
	}
	escaped := map[int32]bool{}
	slotUses(f, func(d int32) bool { _, ok := root[d]; return ok }, func(s int32) {
		if r, ok := root[s]; ok {
			escaped[r] = true
		}
	})
	own := map[int32]bool{}
	for s, r := range root {
		if !escaped[r] {
			own[s] = true
		}
	}
	return own
}

// slotDefs counts the definitions of f's slots: one an instruction, two a
// phi copy or a call's result (which are never taken for known or own
// addresses).
func slotDefs(f *ir.Func) map[int32]int {
	defs := map[int32]int{}
	for _, e := range f.Edges {
		for _, mv := range e.Moves {
			defs[mv.Dst] += 2
		}
	}
	span := func(d, n int32) { // n slots from d, as a def each
		for k := d; k < d+max(n, 1); k++ {
			defs[k] += 2
		}
	}
	for _, cs := range f.Calls {
		if cs.Ret >= 0 {
			span(cs.Ret, cs.RetSlots)
		}
	}
	for _, in := range f.Code {
		switch in.Op {
		case ir.OpStore, ir.OpStoreAgg, ir.OpJmp, ir.OpJmpE, ir.OpBr, ir.OpBrE, ir.OpSwitch, ir.OpRet,
			ir.OpUnreachable, ir.OpFence, ir.OpNop, ir.OpTrap, ir.OpStackRestore:
		case ir.OpGEPC, ir.OpGEP1, ir.OpGEPN, ir.OpMov:
			defs[in.Dst]++
		default:
			// (any other instruction: its results, up to the widest an
			// aggregate or a pair has, are not addresses the analysis
			// knows)
			span(in.Dst, 2)
			switch in.Op {
			case ir.OpMovN, ir.OpSelectN, ir.OpExtract:
				span(in.Dst, int32(in.Imm))
			case ir.OpInsert:
				span(in.Dst, in.C)
			case ir.OpLoadAgg:
				span(in.Dst, int32(len(f.Aggs[in.Imm].Offs)))
			}
		}
	}
	return defs
}

// addr adds to fp an access of function f through slot s: its global
// block when known, any block otherwise. Loads from constant globals
// change nothing.
func (o *por) addr(f *ir.Func, s int32, write bool, fp *footprint) {
	var b uint32
	if a, ok := constAddr(f, s); ok {
		b = ir.PtrBlock(a)
		if b == 0 || int(b) > len(o.p.Globals) {
			b = 0
		}
	} else if k, ok := o.known[f.Index][s]; ok {
		b = uint32(k)
	}
	switch {
	case b == 0 && write:
		fp.anyW = true
	case b == 0:
		fp.anyR = true
	case write:
		fp.write(b)
	case !o.p.Globals[b-1].Const || o.race:
		fp.read(b)
	}
}

// instFP adds the footprint of instruction pc of f to fp (callees: their
// whole footprints when withCallees).
func (o *por) instFP(f *ir.Func, pc int32, fp *footprint, withCallees bool) {
	in := &f.Code[pc]
	switch in.Op {
	case ir.OpLoad, ir.OpLoadAgg:
		if !o.own[f.Index][in.A] {
			o.addr(f, in.A, false, fp)
		}
	case ir.OpStore, ir.OpStoreAgg:
		if !o.own[f.Index][in.A] {
			o.addr(f, in.A, true, fp)
		}
	case ir.OpAtomicRMW, ir.OpCmpXchg:
		o.addr(f, in.A, true, fp)
	case ir.OpEq, ir.OpNe:
		if o.reuse && in.Flags&ir.FlagPtrCmp != 0 {
			fp.all = true
		}
	case ir.OpCallInd:
		fp.all = true
	case ir.OpCall:
		callee := o.p.Funcs[f.Calls[in.Imm].Callee]
		if strings.HasPrefix(callee.Name, "__VERIFIER_atomic_") {
			fp.all = true
		} else if withCallees {
			fp.add(&o.fnFP[callee.Index])
		}
	case ir.OpCallB:
		b := ir.Builtin(in.B)
		cs := &f.Calls[in.Imm]
		switch {
		case noEffect[b]:
		case syncObject[b] && len(cs.Args) > 0:
			o.addr(f, cs.Args[0], true, fp)
		case b == ir.BPthreadJoin && len(cs.Args) > 1:
			if a, ok := constAddr(f, cs.Args[1]); !ok || a != 0 {
				fp.anyW = true // the thread's result, stored through the pointer
			}
		case b == ir.BPthreadExit:
			// (the end of a thread: its stack blocks are freed, which
			// AllocMark guards for the exiting thread and threadMeets
			// for a step of another thread into them)
		default:
			fp.all = true
		}
	}
}

// future returns the footprint of the code reachable in f from pc (calls
// included).
func (o *por) future(f *ir.Func, pc int32) *footprint {
	k := [2]int32{int32(f.Index), pc}
	if fp, ok := o.from[k]; ok {
		return fp
	}
	fp := &footprint{}
	seen := make([]bool, len(f.Code))
	stack := []int32{pc}
	for len(stack) > 0 {
		q := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if q < 0 || int(q) >= len(f.Code) || seen[q] {
			continue
		}
		seen[q] = true
		o.instFP(f, q, fp, true)
		if fp.all {
			break
		}
		in := &f.Code[q]
		switch in.Op {
		case ir.OpJmp:
			stack = append(stack, int32(in.Imm))
		case ir.OpJmpE:
			stack = append(stack, f.Edges[in.Imm].PC)
		case ir.OpBr:
			stack = append(stack, in.B, in.C)
		case ir.OpBrE:
			stack = append(stack, f.Edges[in.B].PC, f.Edges[in.C].PC)
		case ir.OpSwitch:
			sw := &f.Switches[in.Imm]
			stack = append(stack, f.Edges[sw.Default].PC)
			for _, e := range sw.Targets {
				stack = append(stack, f.Edges[e].PC)
			}
		case ir.OpRet, ir.OpUnreachable, ir.OpTrap:
		default:
			stack = append(stack, q+1)
		}
	}
	o.from[k] = fp
	return fp
}

// threadMeets reports whether step footprint s may conflict with what
// process t can still do.
func (o *por) threadMeets(s *footprint, t *vm.Thread) bool {
	if t.Done {
		return false
	}
	// A step that touches one of t's live stack blocks depends on t: t's
	// returns and pthread_exit free those blocks (a use after return in
	// one order, none in the other), and the static footprints below do
	// not count a free as a write.
	for _, b := range t.Allocas {
		if _, ok := s.r[b]; ok {
			return true
		}
		if _, ok := s.w[b]; ok {
			return true
		}
	}
	for k := len(t.Frames) - 1; k >= 0; k-- {
		fr := &t.Frames[k]
		if fr.Fn == nil || fr.Fn.External {
			return true
		}
		if s.meets(o.future(fr.Fn, fr.PC)) {
			return true
		}
	}
	return false
}

// stepFP returns the footprint of process t's next step in st (exact: the
// addresses are in its registers).
func (o *por) stepFP(t *vm.Thread, fp *footprint) {
	*fp = footprint{}
	fn, in := o.m.Next(t)
	if in == nil {
		fp.all = true
		return
	}
	fr := &t.Frames[len(t.Frames)-1]
	r := t.Regs[fr.Base:]
	if a, ok := o.m.NextAccess(t); ok {
		b := ir.PtrBlock(a.Addr)
		switch {
		case a.Size > 0 && ir.PtrBlock(a.Addr+uint64(a.Size)-1) != b:
			fp.all = true // (out of its block, into the next one's addresses)
		case a.Write || in.Op == ir.OpAtomicRMW || in.Op == ir.OpCmpXchg:
			fp.write(b)
		case !o.race && b >= 1 && int(b) <= len(o.p.Globals) && o.p.Globals[b-1].Const:
		default:
			fp.read(b)
		}
		return
	}
	switch in.Op {
	case ir.OpEq, ir.OpNe:
		if o.reuse && in.Flags&ir.FlagPtrCmp != 0 {
			fp.all = true
		}
	case ir.OpCall:
		if strings.HasPrefix(o.p.Funcs[fn.Calls[in.Imm].Callee].Name, "__VERIFIER_atomic_") {
			fp.all = true
		}
	case ir.OpCallInd:
		fp.all = true
	case ir.OpCallB:
		b := ir.Builtin(in.B)
		cs := &fn.Calls[in.Imm]
		switch {
		case noEffect[b]:
		case syncObject[b] && len(cs.Args) > 0:
			fp.write(ir.PtrBlock(r[cs.Args[0]]))
		default:
			fp.all = true
		}
	case ir.OpRet:
		if len(t.Frames) == 1 || fr.Atomic || fr.OnceAddr != 0 {
			fp.all = true // a thread ends, or an atomic section, or pthread_once's routine
		}
	}
}

// candidate reports whether process i's transition may be taken alone in
// st, whose enabled processes are en (len > 1), as far as can be told
// before taking it: its step meets nothing the other processes may do and
// writes nothing the proposition reads, and process i is not about to call
// a function the proposition watches.
func (o *por) candidate(st *vm.State, i int32, fp *footprint) bool {
	t := st.Threads[i]
	if t.Atomic > 0 || o.calls[o.m.NextCalleeIndex(t)] {
		return false
	}
	o.stepFP(t, fp)
	if fp.all {
		return false
	}
	for b := range fp.w {
		if o.blocks[b] {
			return false
		}
	}
	for _, u := range st.Threads {
		if u.ID != i && o.threadMeets(fp, u) {
			return false
		}
	}
	return true
}

// expandPOR expands st, whose enabled processes are sr.en (more than one),
// by one process's transition when a persistent set of one process is
// found (see the top of the file), by every enabled process otherwise.
func (sr *searcher) expandPOR(st *vm.State) error {
	o := sr.por
	var fp footprint
	for k, i := range sr.en {
		if !o.candidate(st, i, &fp) {
			continue
		}
		ids, dead := st.Mem.AllocMark()
		n := len(st.Threads)
		alone := true
		try := func(s *vm.State, tid int32, choices []uint64, p float64) error {
			if alone {
				a, d := s.Mem.AllocMark()
				t := s.Threads[tid]
				alone = s.Status == vm.Running && !sr.g.chained && !sr.g.othersMoved && len(s.Threads) == n &&
					a == ids && d == dead && !o.calls[o.m.NextCalleeIndex(t)]
			}
			sr.lastAdded = false
			err := sr.successor(s, tid, choices, p)
			if !sr.lastAdded {
				alone = false // the cycle proviso: every successor must be new
			}
			return err
		}
		sr.one = append(sr.one[:0], i)
		if err := sr.g.expand(st, sr.one, true, try); err != nil {
			return err
		}
		if alone {
			o.reduced++
			return nil
		}
		sr.rest = append(append(sr.rest[:0], sr.en[:k]...), sr.en[k+1:]...)
		return sr.g.expand(st, sr.rest, true, sr.successor)
	}
	return sr.g.expand(st, sr.en, true, sr.successor)
}

// raceBlind returns the name of a platform function the program may call
// whose memory accesses DataRace does not see (vm.RaceSees: qsort, strtok,
// sscanf and the like; memset, memcpy, the string functions and
// the formatted output are seen, vm/race.go), ""
// when there is none or the program creates no thread. A search that finds
// no race in such a program proves nothing: before 2026-11-28 verify
// answered TRUE for no-data-race on a thread's memset racing with another
// thread's load (explicit/testdata/race_memset.c, which DataRace now sees).
func raceBlind(p *ir.Program) string {
	threads := false
	blind := ""
	see := func(b ir.Builtin) {
		switch {
		case b == ir.BPthreadCreate:
			threads = true
		case blind == "" && !vm.RaceSees(b):
			blind = b.String()
		}
	}
	indirect := false
	for _, f := range p.Funcs {
		for _, in := range f.Code {
			indirect = indirect || in.Op == ir.OpCallInd
		}
	}
	for _, f := range p.Funcs {
		if f.External {
			if f.Builtin == ir.BPthreadCreate || indirect {
				see(f.Builtin) // (it may be called through a pointer)
			}
			continue
		}
		for _, in := range f.Code {
			if in.Op == ir.OpCallB {
				see(ir.Builtin(in.B))
			}
		}
	}
	if !threads {
		return ""
	}
	return blind
}
