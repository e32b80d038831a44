package symbolic

import (
	"encoding/binary"
	"fmt"
	"sort"

	"github.com/wyvernmc/wyvern/ir"
)

// Lock-based reduction of the round-robin encoding (issue 30): a static
// lockset analysis on the IR finds the global variables every access of
// which, made while more than one thread may run, holds a common mutex
// (a data-race-free object, Eraser's lockset discipline). A load or store
// of such an object, and a few platform calls that touch nothing another
// thread reads, need no switch point (see docs/bmc.md, "Lock-based
// reduction", for the argument).
//
// The analysis is conservative and flow-insensitive where it can be:
//
//   - Points-to: per register slot, the set of globals it may point into,
//     whether it may point elsewhere (a stack block, a function), and
//     whether it is unknown (loaded from memory other than a private
//     alloca, returned by a platform call, a parameter of a function whose
//     address is taken). Pointer arithmetic keeps the union of its
//     operands; a getelementptr keeps its base's unless its index may
//     hold an address (index, in points). A program with inttoptr gets
//     no reduction.
//   - Locksets: per instruction, the mutexes every path to it holds
//     (intersection at joins and over call sites), mutexes being constant
//     addresses passed to pthread_mutex_lock; trylock adds nothing, an
//     unlock or condition wait removes its mutex (an unlock through a
//     non-constant pointer, an indirect call, a callee that may do so:
//     every mutex). "Single" marks main before it (or a callee) created a
//     thread: no other thread runs there, and its accesses impose nothing.
//   - An object's lockset is the intersection of the locksets of its
//     accesses outside single contexts: loads, stores, atomics, and every
//     pointer argument of a platform or indirect call; an access through an
//     unknown pointer touches every global. A mutex whose block is touched
//     otherwise than by the mutex functions (a store, an init) outside
//     single contexts protects nothing; one that a trylock may name outside
//     them still protects, but its unlock is no mover (a failing trylock
//     observes the holder). Thread-local and constant globals
//     are left out (constant ones are never written: their loads commute
//     anyway, see mover).

// ptsVal is the abstract value of a register slot.
type ptsVal struct {
	globals map[uint32]bool // global blocks it may point into
	other   bool            // may point into a non-global block
	unknown bool            // may be anything
}

func (v *ptsVal) join(w ptsVal) bool {
	changed := false
	if w.unknown && !v.unknown {
		v.unknown, changed = true, true
	}
	if w.other && !v.other {
		v.other, changed = true, true
	}
	for b := range w.globals {
		if !v.globals[b] {
			if v.globals == nil {
				v.globals = map[uint32]bool{}
			}
			v.globals[b] = true
			changed = true
		}
	}
	return changed
}

// lockState is the must-held lockset at an instruction: reached says some
// path gets there; single that every path is main's before any thread
// exists.
type lockState struct {
	reached, single bool
	held            map[uint64]bool
}

func (s lockState) meet(t lockState) lockState {
	switch {
	case !t.reached:
		return s
	case !s.reached:
		return t.copy()
	case s.single:
		return t.copy()
	case t.single:
		return s
	}
	out := lockState{reached: true, held: map[uint64]bool{}}
	for m := range s.held {
		if t.held[m] {
			out.held[m] = true
		}
	}
	return out
}

func (s lockState) copy() lockState {
	c := lockState{reached: s.reached, single: s.single, held: make(map[uint64]bool, len(s.held))}
	for m := range s.held {
		c.held[m] = true
	}
	return c
}

func (s lockState) equal(t lockState) bool {
	if s.reached != t.reached || s.single != t.single || len(s.held) != len(t.held) {
		return false
	}
	for m := range s.held {
		if !t.held[m] {
			return false
		}
	}
	return true
}

// drfInfo is the result of the analysis.
type drfInfo struct {
	p       *ir.Program
	pts     [][]ptsVal                 // per function, per slot
	states  [][]lockState              // per function, per pc: before the instruction
	alone   []bool                     // per pc of main: no other thread runs (joinedAll)
	lockset map[uint32]map[uint64]bool // per global block accessed outside single contexts
	bad     map[uint32]bool            // blocks accessed outside single contexts (their mutexes protect nothing)
	tried   map[uint32]bool            // mutex blocks a trylock may name outside single contexts (key 0: any)
	reason  string                     // why nothing is reduced ("" when the analysis applies)
}

// analyseDRF runs the lockset analysis on p.
func analyseDRF(p *ir.Program) *drfInfo {
	d := &drfInfo{p: p}
	for _, f := range p.Funcs {
		for pc := range f.Code {
			if f.Code[pc].Op == ir.OpIntToPtr {
				d.reason = "the program converts integers to pointers"
				return d
			}
		}
	}
	d.points()
	d.locks()
	d.alone = d.joinedAll()
	d.objects()
	return d
}

func (d *drfInfo) isGlobal(b uint32) bool { return b >= 1 && int(b) <= len(d.p.Globals) }

func (d *drfInfo) global(b uint32) *ir.Global {
	for _, g := range d.p.Globals {
		if g.Block == b {
			return g
		}
	}
	return nil
}

// constVal is the abstract value of a constant.
func (d *drfInfo) constVal(c uint64) ptsVal {
	b := ir.PtrBlock(c)
	switch {
	case b == 0:
		return ptsVal{}
	case d.isGlobal(b):
		return ptsVal{globals: map[uint32]bool{b: true}}
	}
	return ptsVal{other: true}
}

// addressTaken reports the functions whose address a constant holds (or
// a global's initialiser may hold): they may be called indirectly or run
// as threads.
func (d *drfInfo) addressTaken() map[int]bool {
	out := map[int]bool{}
	lo, hi := d.p.FirstFuncBlock, d.p.FirstFuncBlock+uint32(len(d.p.Funcs))
	for _, f := range d.p.Funcs {
		for _, c := range f.Consts {
			if b := ir.PtrBlock(c); b >= lo && b < hi {
				out[int(b-lo)] = true
			}
		}
	}
	// a function pointer in an initialiser: any 8-byte (LP64) or 4-byte
	// (ILP32) window that reads as one, at any offset
	for _, g := range d.p.Globals {
		for k := 0; k+4 <= len(g.Init); k++ {
			x := binary.LittleEndian.Uint32(g.Init[k:])
			if b := ir.PtrBlock(ir.FromPtr32(x)); b >= lo && b < hi {
				out[int(b-lo)] = true
			}
			if k+8 <= len(g.Init) {
				if b := ir.PtrBlock(binary.LittleEndian.Uint64(g.Init[k:])); b >= lo && b < hi {
					out[int(b-lo)] = true
				}
			}
		}
	}
	return out
}

// points computes the points-to values, to a fixpoint over the program.
func (d *drfInfo) points() {
	p := d.p
	d.pts = make([][]ptsVal, len(p.Funcs))
	taken := d.addressTaken()
	priv := make([]map[int32]bool, len(p.Funcs)) // registers of private allocas
	content := make([]map[int32]*ptsVal, len(p.Funcs))
	rets := make([]ptsVal, len(p.Funcs))
	for i, f := range p.Funcs {
		d.pts[i] = make([]ptsVal, max(f.NRegs, 1))
		for k, c := range f.Consts {
			if r := int(f.ConstBase) + k; r < len(d.pts[i]) {
				d.pts[i][r] = d.constVal(c)
			}
		}
		if taken[i] || i == p.Entry {
			for _, r := range f.Params {
				if int(r) < len(d.pts[i]) {
					d.pts[i][r].unknown = true
				}
			}
		}
		priv[i] = map[int32]bool{}
		content[i] = map[int32]*ptsVal{}
		for pc := range privateAllocas(f) {
			in := &f.Code[pc]
			priv[i][in.Dst] = true
			if in.Aux == ir.AuxUndef {
				// its bytes are undefined until written: a load before a
				// store draws any value (encode_undef.go)
				content[i][in.Dst] = &ptsVal{unknown: true}
			}
		}
	}
	unk := ptsVal{unknown: true}
	ptrToInt := false
	for _, f := range p.Funcs {
		for pc := range f.Code {
			if f.Code[pc].Op == ir.OpPtrToInt {
				ptrToInt = true
			}
		}
	}
	// index is what a getelementptr's index adds to its base's value: the
	// vm adds the index to the address as an integer, so an index that
	// may hold an address (a difference of addresses, a large constant)
	// or an unknown value may take the pointer into any other block.
	// Without ptrtoint no integer holds an address, and an index computed
	// from inputs, loads and small constants is taken to stay within its
	// base's block: the
	// gap documented in docs/bmc.md (an index out of bounds by 2^32 bytes
	// or more reaches another block in the vm).
	index := func(v ptsVal) ptsVal {
		if v.other || len(v.globals) > 0 || (v.unknown && ptrToInt) {
			return unk
		}
		return ptsVal{}
	}
	for changed := true; changed; {
		changed = false
		for fi, f := range p.Funcs {
			r := d.pts[fi]
			get := func(s int32) ptsVal {
				if s < 0 || int(s) >= len(r) {
					return unk
				}
				return r[s]
			}
			set := func(s int32, v ptsVal) {
				if s < 0 || int(s) >= len(r) {
					return
				}
				if r[s].join(v) {
					changed = true
				}
			}
			setRange := func(s, n int32, v ptsVal) {
				for k := int32(0); k < n; k++ {
					set(s+k, v)
				}
			}
			for pc := range f.Code {
				in := &f.Code[pc]
				switch in.Op {
				case ir.OpAdd, ir.OpSub, ir.OpMul, ir.OpAnd, ir.OpOr, ir.OpXor, ir.OpShl, ir.OpLShr, ir.OpAShr,
					ir.OpUDiv, ir.OpSDiv, ir.OpURem, ir.OpSRem, ir.OpSMin, ir.OpSMax, ir.OpUMin, ir.OpUMax:
					set(in.Dst, get(in.A))
					set(in.Dst, get(in.B))
				case ir.OpEq, ir.OpNe, ir.OpUlt, ir.OpUle, ir.OpUgt, ir.OpUge, ir.OpSlt, ir.OpSle, ir.OpSgt, ir.OpSge, ir.OpFCmp:
					// a Boolean: no pointer
				case ir.OpMov, ir.OpTrunc, ir.OpSExt, ir.OpPtrToInt:
					set(in.Dst, get(in.A))
				case ir.OpGEPC:
					set(in.Dst, get(in.A))
					if farOffset(int64(in.Imm)) {
						set(in.Dst, unk) // may leave the block (see index)
					}
				case ir.OpGEP1:
					set(in.Dst, get(in.A))
					set(in.Dst, index(get(in.B)))
				case ir.OpGEPN:
					if in.Imm < uint64(len(f.GEPs)) {
						set(in.Dst, get(f.GEPs[in.Imm].Base))
						if farOffset(f.GEPs[in.Imm].Off) {
							set(in.Dst, unk)
						}
						for _, x := range f.GEPs[in.Imm].Idx {
							set(in.Dst, index(get(x)))
						}
					} else {
						set(in.Dst, unk)
					}
				case ir.OpSelect:
					set(in.Dst, get(in.B))
					set(in.Dst, get(in.C))
				case ir.OpAlloca:
					set(in.Dst, ptsVal{other: true})
				case ir.OpLoad:
					if priv[fi][in.A] {
						if c := content[fi][in.A]; c != nil {
							set(in.Dst, *c)
						}
					} else {
						set(in.Dst, unk)
					}
				case ir.OpStore:
					if priv[fi][in.A] {
						c := content[fi][in.A]
						if c == nil {
							c = &ptsVal{}
							content[fi][in.A] = c
						}
						if c.join(get(in.B)) {
							changed = true
						}
					}
				case ir.OpLoadAgg:
					// a private alloca's content, as for a load (under ILP32
					// every pointer is stored and loaded so)
					if c := content[fi][in.A]; priv[fi][in.A] && in.Imm < uint64(len(f.Aggs)) {
						if c != nil {
							setRange(in.Dst, int32(len(f.Aggs[in.Imm].Offs)), *c)
						}
					} else {
						setRange(in.Dst, 64, unk)
					}
				case ir.OpStoreAgg:
					if priv[fi][in.A] && in.Imm < uint64(len(f.Aggs)) {
						c := content[fi][in.A]
						if c == nil {
							c = &ptsVal{}
							content[fi][in.A] = c
						}
						for k := range f.Aggs[in.Imm].Offs {
							if c.join(get(in.B + int32(k))) {
								changed = true
							}
						}
					}
				case ir.OpMovN, ir.OpSelectN, ir.OpInsert, ir.OpExtract:
					setRange(in.Dst, 64, unk)
				case ir.OpAtomicRMW, ir.OpCmpXchg:
					setRange(in.Dst, 2, unk)
				case ir.OpCall, ir.OpCallInd, ir.OpCallB:
					if in.Imm >= uint64(len(f.Calls)) {
						continue
					}
					cs := &f.Calls[in.Imm]
					ret := unk
					if in.Op == ir.OpCall && cs.Callee >= 0 && int(cs.Callee) < len(p.Funcs) {
						ci := int(cs.Callee)
						callee := p.Funcs[ci]
						if len(callee.Code) > 0 {
							ret = rets[ci]
						}
						for k, a := range cs.Args {
							if k >= len(callee.Params) {
								break
							}
							n := int32(1)
							if k < len(cs.ArgSlots) {
								n = cs.ArgSlots[k]
							}
							for j := int32(0); j < n; j++ {
								if pr := callee.Params[k] + j; int(pr) < len(d.pts[ci]) {
									if d.pts[ci][pr].join(get(a + j)) {
										changed = true
									}
								}
							}
						}
					}
					if cs.Ret >= 0 {
						setRange(cs.Ret, max(cs.RetSlots, 1), ret)
					}
				case ir.OpRet:
					if in.A >= 0 {
						for k := int32(0); k < int32(in.Imm) && k < 1; k++ {
							if rets[fi].join(get(in.A + k)) {
								changed = true
							}
						}
						if in.Imm > 1 {
							if rets[fi].join(unk) {
								changed = true
							}
						}
					}
				case ir.OpJmp, ir.OpJmpE, ir.OpBr, ir.OpBrE, ir.OpSwitch, ir.OpUnreachable, ir.OpTrap, ir.OpNop, ir.OpFence:
				default:
					set(in.Dst, unk)
				}
			}
			for _, ed := range f.Edges {
				for _, mv := range ed.Moves {
					set(mv.Dst, get(mv.Src))
				}
			}
		}
	}
}

// farOffset reports whether a getelementptr's constant offset d may take
// a pointer out of its block (the vm adds it to the address as an
// integer; a block's offsets stay well below 2^30).
func farOffset(d int64) bool { return d >= 1<<30 || d <= -(1<<30) }

// succs are the pcs control may go to after pc.
func succs(f *ir.Func, pc int) []int {
	in := &f.Code[pc]
	edge := func(e int32) int {
		if e >= 0 && int(e) < len(f.Edges) {
			return int(f.Edges[e].PC)
		}
		return -1
	}
	var out []int
	switch in.Op {
	case ir.OpJmp:
		out = []int{int(in.Imm)}
	case ir.OpJmpE:
		out = []int{edge(int32(in.Imm))}
	case ir.OpBr:
		out = []int{int(in.B), int(in.C)}
	case ir.OpBrE:
		out = []int{edge(in.B), edge(in.C)}
	case ir.OpSwitch:
		if in.Imm < uint64(len(f.Switches)) {
			sw := &f.Switches[in.Imm]
			out = append(out, edge(sw.Default))
			for _, t := range sw.Targets {
				out = append(out, edge(t))
			}
		}
	case ir.OpRet, ir.OpUnreachable, ir.OpTrap:
	default:
		out = []int{pc + 1}
	}
	k := 0
	for _, s := range out {
		if s >= 0 && s < len(f.Code) {
			out[k] = s
			k++
		}
	}
	return out[:k]
}

// constArg is the constant value of argument k of call site cs of f.
func constArg(f *ir.Func, cs *ir.CallSite, k int) (uint64, bool) {
	if k >= len(cs.Args) {
		return 0, false
	}
	r := cs.Args[k] - f.ConstBase
	if cs.Args[k] < f.ConstBase || int(r) >= len(f.Consts) {
		return 0, false
	}
	return f.Consts[r], true
}

// callSummary is what a call of a function may do to its caller's
// lockset: create a thread, unlock mutexes (all: any).
type callSummary struct {
	create, unlockAll bool
	unlock            map[uint64]bool
}

// summaries computes every function's callSummary (transitively).
func (d *drfInfo) summaries() []callSummary {
	p := d.p
	sum := make([]callSummary, len(p.Funcs))
	for i := range sum {
		sum[i].unlock = map[uint64]bool{}
	}
	for changed := true; changed; {
		changed = false
		for fi, f := range p.Funcs {
			s := &sum[fi]
			add := func(create, all bool, keys map[uint64]bool) {
				if create && !s.create {
					s.create, changed = true, true
				}
				if all && !s.unlockAll {
					s.unlockAll, changed = true, true
				}
				for k := range keys {
					if !s.unlock[k] {
						s.unlock[k], changed = true, true
					}
				}
			}
			for pc := range f.Code {
				in := &f.Code[pc]
				if in.Imm >= uint64(len(f.Calls)) {
					continue
				}
				cs := &f.Calls[in.Imm]
				switch in.Op {
				case ir.OpCallInd:
					add(true, true, nil)
				case ir.OpCall:
					if cs.Callee < 0 || int(cs.Callee) >= len(p.Funcs) {
						add(true, true, nil)
						continue
					}
					c := sum[cs.Callee]
					add(c.create, c.unlockAll, c.unlock)
				case ir.OpCallB:
					switch ir.Builtin(in.B) {
					case ir.BPthreadCreate:
						add(true, false, nil)
					case ir.BMutexUnlock, ir.BCondWait:
						k := 0
						if ir.Builtin(in.B) == ir.BCondWait {
							k = 1
						}
						if m, ok := constArg(f, cs, k); ok {
							add(false, false, map[uint64]bool{m: true})
						} else {
							add(false, true, nil)
						}
					}
				}
			}
		}
	}
	return sum
}

// transfer is the lockset after instruction pc of f given the one before.
func (d *drfInfo) transfer(f *ir.Func, pc int, s lockState, sum []callSummary) lockState {
	in := &f.Code[pc]
	if in.Imm >= uint64(len(f.Calls)) || (in.Op != ir.OpCall && in.Op != ir.OpCallInd && in.Op != ir.OpCallB) {
		return s
	}
	cs := &f.Calls[in.Imm]
	afterCreate := func(t lockState) lockState {
		if !t.single { // t may stand for single paths merged in, whose locks differ
			return lockState{reached: true}
		}
		t.single = false
		return t
	}
	switch in.Op {
	case ir.OpCallInd:
		return lockState{reached: true}
	case ir.OpCall:
		if cs.Callee < 0 || int(cs.Callee) >= len(d.p.Funcs) {
			return lockState{reached: true}
		}
		c := sum[cs.Callee]
		t := s.copy()
		if c.unlockAll {
			t.held = map[uint64]bool{}
		}
		for m := range c.unlock {
			delete(t.held, m)
		}
		if c.create {
			t = afterCreate(t)
		}
		return t
	}
	switch ir.Builtin(in.B) {
	case ir.BMutexLock:
		if m, ok := constArg(f, cs, 0); ok {
			t := s.copy()
			t.held[m] = true
			return t
		}
	case ir.BMutexUnlock, ir.BCondWait:
		k := 0
		if ir.Builtin(in.B) == ir.BCondWait {
			k = 1
		}
		t := s.copy()
		if m, ok := constArg(f, cs, k); ok {
			delete(t.held, m)
		} else {
			t.held = map[uint64]bool{}
		}
		return t
	case ir.BPthreadCreate:
		return afterCreate(s.copy())
	}
	return s
}

// locks computes the lockset before every instruction.
func (d *drfInfo) locks() {
	p := d.p
	sum := d.summaries()
	taken := d.addressTaken()
	entry := make([]lockState, len(p.Funcs))
	d.states = make([][]lockState, len(p.Funcs))
	for changed := true; changed; {
		changed = false
		for fi := range p.Funcs {
			e := lockState{}
			if fi == p.Entry {
				e = lockState{reached: true, single: true, held: map[uint64]bool{}}
			} else if taken[fi] {
				e = lockState{reached: true, held: map[uint64]bool{}}
			}
			entry[fi] = e
		}
		// call sites' states, from the previous round's per-pc states
		for fi, f := range p.Funcs {
			if d.states[fi] == nil {
				continue
			}
			for pc := range f.Code {
				in := &f.Code[pc]
				if in.Op != ir.OpCall || in.Imm >= uint64(len(f.Calls)) {
					continue
				}
				c := f.Calls[in.Imm].Callee
				if c >= 0 && int(c) < len(p.Funcs) {
					entry[c] = entry[c].meet(d.states[fi][pc])
				}
			}
		}
		for fi, f := range p.Funcs {
			st := make([]lockState, len(f.Code))
			if len(f.Code) > 0 && entry[fi].reached {
				st[0] = entry[fi].copy()
				work := []int{0}
				for len(work) > 0 {
					pc := work[len(work)-1]
					work = work[:len(work)-1]
					out := d.transfer(f, pc, st[pc], sum)
					for _, n := range succs(f, pc) {
						m := st[n].meet(out)
						if !m.equal(st[n]) {
							st[n] = m
							work = append(work, n)
						}
					}
				}
			}
			old := d.states[fi]
			if old == nil {
				changed = true
			} else {
				for pc := range st {
					if !st[pc].equal(old[pc]) {
						changed = true
						break
					}
				}
			}
			d.states[fi] = st
		}
	}
}

// mutexUse reports the argument of builtin b that is a mutex it locks or
// unlocks (-1: none): such uses do not count as accesses of its block.
func mutexUse(b ir.Builtin) int {
	switch b {
	case ir.BMutexLock, ir.BMutexUnlock, ir.BMutexTrylock:
		return 0
	case ir.BCondWait:
		return 1
	}
	return -1
}

// accessedArgs are the arguments of call instruction in whose memory the
// callee may access: every pointer argument of a platform or indirect
// call, but a mutex locked or unlocked and pthread_create's argument for
// the thread (its accesses are the thread's own).
func accessedArgs(f *ir.Func, in *ir.Inst) []int32 {
	if in.Imm >= uint64(len(f.Calls)) {
		return nil
	}
	cs := &f.Calls[in.Imm]
	var out []int32
	for k, a := range cs.Args {
		if k < len(cs.ArgKinds) && (cs.ArgKinds[k] == ir.KindInt || cs.ArgKinds[k] == ir.KindF32 || cs.ArgKinds[k] == ir.KindF64) {
			continue // not a pointer (inttoptr is refused)
		}
		if in.Op == ir.OpCallB {
			b := ir.Builtin(in.B)
			if k == mutexUse(b) || (b == ir.BPthreadCreate && k != 0) {
				continue
			}
		}
		out = append(out, a)
	}
	return out
}

// objects computes every global's lockset from its accesses outside
// single contexts, and drops the mutexes whose blocks are touched
// otherwise than by the mutex functions there.
func (d *drfInfo) objects() {
	p := d.p
	acc := map[uint32][]map[uint64]bool{} // per global block: the locksets of its accesses
	tried := map[uint32]bool{}
	d.tried = tried
	touch := func(v ptsVal, held map[uint64]bool) {
		if v.unknown {
			for _, g := range p.Globals {
				acc[g.Block] = append(acc[g.Block], held)
			}
			return
		}
		for b := range v.globals {
			acc[b] = append(acc[b], held)
		}
	}
	for fi, f := range p.Funcs {
		pts := d.pts[fi]
		get := func(s int32) ptsVal {
			if s < 0 || int(s) >= len(pts) {
				return ptsVal{unknown: true}
			}
			return pts[s]
		}
		for pc := range f.Code {
			st := d.states[fi][pc]
			if !st.reached || st.single || d.isAlone(fi, pc) {
				continue
			}
			in := &f.Code[pc]
			if in.Op == ir.OpCallB && ir.Builtin(in.B) == ir.BMutexTrylock && in.Imm < uint64(len(f.Calls)) {
				if m, ok := constArg(f, &f.Calls[in.Imm], 0); ok {
					tried[ir.PtrBlock(m)] = true
				} else if args := f.Calls[in.Imm].Args; len(args) == 0 {
					tried[0] = true
				} else if v := get(args[0]); v.unknown || v.other {
					tried[0] = true
				} else {
					for b := range v.globals {
						tried[b] = true
					}
				}
			}
			switch in.Op {
			case ir.OpLoad, ir.OpStore, ir.OpLoadAgg, ir.OpStoreAgg, ir.OpAtomicRMW, ir.OpCmpXchg:
				touch(get(in.A), st.held)
			case ir.OpCallB, ir.OpCallInd, ir.OpCall:
				if in.Op == ir.OpCall && in.Imm < uint64(len(f.Calls)) {
					if c := f.Calls[in.Imm].Callee; c >= 0 && int(c) < len(p.Funcs) && len(p.Funcs[c].Code) > 0 {
						continue // the callee's own accesses count
					}
				}
				for _, a := range accessedArgs(f, in) {
					touch(get(a), st.held)
				}
			}
		}
	}
	bad := map[uint32]bool{} // blocks of mutexes touched otherwise
	for b := range acc {
		bad[b] = true
	}
	d.bad = bad
	d.lockset = map[uint32]map[uint64]bool{}
	for b, sets := range acc {
		var ls map[uint64]bool
		for i, h := range sets {
			if i == 0 {
				ls = map[uint64]bool{}
				for m := range h {
					ls[m] = true
				}
				continue
			}
			for m := range ls {
				if !h[m] {
					delete(ls, m)
				}
			}
		}
		for m := range ls {
			if bad[ir.PtrBlock(m)] {
				delete(ls, m)
			}
		}
		d.lockset[b] = ls
	}
}

// protected reports whether global block b is accessed outside single
// contexts only holding a common mutex (or never), and is neither
// thread-local.
func (d *drfInfo) protected(b uint32) bool {
	g := d.global(b)
	if g == nil || g.ThreadLocal {
		return false
	}
	ls, ok := d.lockset[b]
	return !ok || len(ls) > 0
}

// mover reports whether instruction pc of f, a switch point of the plain
// round-robin encoding, needs none: a load or store of protected globals
// only (or of constant globals), made holding a mutex that protects them
// (or where no other thread exists); an input call; an output call; the
// unlock of a mutex the thread must hold.
func (d *drfInfo) mover(f *ir.Func, pc int) bool {
	if d == nil || d.reason != "" || f.Index < 0 || f.Index >= len(d.states) || d.p.Funcs[f.Index] != f {
		return false
	}
	st := d.states[f.Index][pc]
	if !st.reached {
		return false
	}
	in := &f.Code[pc]
	switch in.Op {
	case ir.OpLoad, ir.OpStore, ir.OpLoadAgg, ir.OpStoreAgg:
		if in.A < 0 || int(in.A) >= len(d.pts[f.Index]) {
			return false
		}
		v := d.pts[f.Index][in.A]
		if v.unknown || v.other || len(v.globals) == 0 {
			return false
		}
		for b := range v.globals {
			g := d.global(b)
			if g == nil || g.ThreadLocal {
				return false
			}
			load := in.Op == ir.OpLoad || in.Op == ir.OpLoadAgg
			if (g.Const && load) || st.single || d.isAlone(f.Index, pc) {
				continue
			}
			ls := d.lockset[b]
			if len(ls) == 0 {
				return false
			}
			for m := range ls {
				if !st.held[m] { // cannot happen: ls is an intersection including st.held
					return false
				}
			}
		}
		return true
	case ir.OpCallB:
		switch ir.Builtin(in.B) {
		case ir.BNondet, ir.BUniform, ir.BCoin, ir.BPrintf, ir.BPuts, ir.BPutchar:
			return true
		case ir.BMutexUnlock:
			if in.Imm >= uint64(len(f.Calls)) {
				return false
			}
			// not when another thread may trylock m: a failing trylock
			// between the holder's lock and this unlock would succeed
			// once the unlock moved left of it
			m, ok := constArg(f, &f.Calls[in.Imm], 0)
			return ok && !d.bad[ir.PtrBlock(m)] && !d.tried[0] && !d.tried[ir.PtrBlock(m)] && (st.single || st.held[m])
		}
	}
	return false
}

// protectedGlobals lists the protected globals' names (for tests and
// diagnostics), sorted.
func (d *drfInfo) protectedGlobals() []string {
	var out []string
	for _, g := range d.p.Globals {
		if d.protected(g.Block) {
			out = append(out, g.Name)
		}
	}
	sort.Strings(out)
	return out
}

// lockMover reports whether the round-robin encoding may leave out the
// switch point before instruction pc of fn (mover); the partial-order
// encoding keeps its events.
func (e *encoder) lockMover(fn *ir.Func, pc int32) bool {
	if e.po != nil || e.opts.NoLockReduction {
		return false
	}
	if e.drf == nil {
		e.drf = analyseDRF(e.p)
	}
	return e.drf.mover(fn, int(pc))
}

// joinedAll computes, per pc of main, whether every thread is known to
// have been joined there (main alone again, like before its first
// create). It applies only when main alone creates threads, each create
// stores its id in a private alloca of main that nothing else stores to,
// and each join's thread is loaded from such an alloca: the dataflow
// tracks the create sites whose thread may still run (union at joins of
// paths); a create whose site may still run gives up (its id would be
// overwritten).
func (d *drfInfo) joinedAll() []bool {
	p := d.p
	main := p.Funcs[p.Entry]
	for fi, f := range p.Funcs {
		for pc := range f.Code {
			in := &f.Code[pc]
			if fi != p.Entry && in.Op == ir.OpCallB && ir.Builtin(in.B) == ir.BPthreadCreate {
				return nil
			}
			if in.Op == ir.OpCall && in.Imm < uint64(len(f.Calls)) && int(f.Calls[in.Imm].Callee) == p.Entry {
				return nil // main called again
			}
		}
	}
	priv := localAllocas(main) // reachable by main and the platform's create and join only
	for pc := range main.Code {
		if in := &main.Code[pc]; in.Op == ir.OpStore && priv[in.A] {
			delete(priv, in.A) // the id could be replaced
		}
	}
	loadedFrom := map[int32]int32{} // register → the private alloca it is loaded from
	defs := map[int32]int{}
	loadPC := map[int32]int{}
	for pc := range main.Code {
		in := &main.Code[pc]
		if in.Dst >= 0 {
			defs[in.Dst]++
		}
		if in.Op == ir.OpLoad && priv[in.A] {
			loadedFrom[in.Dst] = in.A
			loadPC[in.Dst] = pc
		}
	}
	site := func(pc int) (int32, bool) { // the alloca a create or join refers to
		in := &main.Code[pc]
		if in.Op != ir.OpCallB || in.Imm >= uint64(len(main.Calls)) {
			return 0, false
		}
		cs := &main.Calls[in.Imm]
		if len(cs.Args) == 0 {
			return 0, false
		}
		switch ir.Builtin(in.B) {
		case ir.BPthreadCreate:
			a := cs.Args[0]
			return a, priv[a]
		case ir.BPthreadJoin:
			a, ok := loadedFrom[cs.Args[0]]
			if !ok || defs[cs.Args[0]] != 1 || loadPC[cs.Args[0]] >= pc {
				return 0, false
			}
			for k := loadPC[cs.Args[0]] + 1; k < pc; k++ { // loaded just before: no create in between
				if op := main.Code[k].Op; op == ir.OpCall || op == ir.OpCallInd || op == ir.OpCallB || isTerminator(op) {
					return 0, false
				}
			}
			return a, true
		}
		return 0, false
	}
	type state struct {
		reached, fail bool
		live          map[int32]bool
	}
	meet := func(a, b state) state {
		if !b.reached {
			return a
		}
		if !a.reached {
			return b
		}
		out := state{reached: true, fail: a.fail || b.fail, live: map[int32]bool{}}
		for k := range a.live {
			out.live[k] = true
		}
		for k := range b.live {
			out.live[k] = true
		}
		return out
	}
	eq := func(a, b state) bool {
		if a.reached != b.reached || a.fail != b.fail || len(a.live) != len(b.live) {
			return false
		}
		for k := range a.live {
			if !b.live[k] {
				return false
			}
		}
		return true
	}
	st := make([]state, len(main.Code))
	if len(st) == 0 {
		return nil
	}
	st[0] = state{reached: true, live: map[int32]bool{}}
	work := []int{0}
	for len(work) > 0 {
		pc := work[len(work)-1]
		work = work[:len(work)-1]
		out := state{reached: true, fail: st[pc].fail, live: map[int32]bool{}}
		for k := range st[pc].live {
			out.live[k] = true
		}
		if in := &main.Code[pc]; in.Op == ir.OpCallB {
			switch ir.Builtin(in.B) {
			case ir.BPthreadCreate:
				if a, ok := site(pc); ok && !out.live[a] {
					out.live[a] = true
				} else {
					out.fail = true
				}
			case ir.BPthreadJoin:
				if a, ok := site(pc); ok {
					delete(out.live, a)
				}
			}
		}
		for _, n := range succs(main, pc) {
			m := meet(st[n], out)
			if !eq(m, st[n]) {
				st[n] = m
				work = append(work, n)
			}
		}
	}
	res := make([]bool, len(st))
	for pc, s := range st {
		res[pc] = s.reached && !s.fail && len(s.live) == 0
	}
	return res
}

// isAlone reports whether pc of function fi runs with no other thread:
// main before its first create or after joining every thread.
func (d *drfInfo) isAlone(fi, pc int) bool {
	return fi == d.p.Entry && pc < len(d.alone) && d.alone[pc]
}

// drfCheck refuses the proof of a threaded program when load or store in
// touches, at a concrete address, a global that the lockset analysis'
// points-to value of its address leaves out (an index computed from small
// constants that leaves its base's block: the gap of points' index). The
// analysis judged protection without that access, so the blocks and
// movers it allowed may hide interleavings. A symbolic address is not
// checked here.
func (e *encoder) drfCheck(fn *ir.Func, in *ir.Inst, s *pstate) {
	if !e.threaded || in.A < 0 || int(in.A) >= len(s.regs) {
		return
	}
	p := s.regs[in.A]
	if !p.isConst() {
		return
	}
	if e.drf == nil {
		e.drf = analyseDRF(e.p)
	}
	d := e.drf
	if d.reason != "" || fn.Index < 0 || fn.Index >= len(d.pts) || d.p.Funcs[fn.Index] != fn || int(in.A) >= len(d.pts[fn.Index]) {
		return
	}
	b := ir.PtrBlock(p.c)
	if !d.isGlobal(b) {
		return
	}
	if v := d.pts[fn.Index][in.A]; v.unknown || v.globals[b] {
		return
	}
	name := "a global"
	if g := d.global(b); g != nil {
		name = g.Name
	}
	e.refuseProof(fmt.Sprintf("%s: an access of %s through a pointer the lockset analysis took to point elsewhere", fn.Name, name))
}
