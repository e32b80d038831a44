package explicit

import "github.com/wyvernmc/wyvern/ir"

// Provenance: may a program see the id of a block allocated at run time?
//
// Block ids come from one counter (and one list of dead stack ids) shared
// by all processes (vm.Memory.newBlock): stack blocks (allocas, byval
// copies), heap blocks (malloc, calloc, realloc, strdup) and the copies of
// thread-local globals pthread_create makes. The order in which two
// processes allocate or free such blocks decides which block gets which id,
// so an alloca or a block-freeing return of one process does not commute
// with another process's allocations once the program looks at ids
// (visibility.renumbers). A program looks at an id when it converts a
// pointer to an integer (ptrtoint), orders two pointers (an icmp ult, slt,
// ... of pointers: ir.Func.OrdersPointers), copies or compares a pointer's
// bytes as data (memcpy, memmove, memcmp, realloc, qsort) or prints one
// into memory (sprintf's %p). Globals and functions have fixed ids, and
// null and integers are block 0: converting or ordering them sees nothing
// that depends on the order of steps. Not covered (as before this
// analysis): an equality test of a dangling pointer (undefined behaviour),
// a pointer's bytes read as an integer through a union or as characters by
// the string functions, printf's output (no data the program reads).
//
// seesBlockIDs answers the question by a flow-insensitive, whole-program
// may-analysis: a slot is dynamic when it may hold an address (or a value
// computed from one) of a block allocated at run time. Sources: alloca and
// stacksave results, byval parameters, main's parameters, call results of
// platform functions other than those that return plain numbers, constants
// that point into a thread-local global (vm.remapTLS gives each process
// its own copy; such a constant counts as seen, since ptrtoint (@tl) is
// folded into a constant). Values flow through every instruction to its result (arithmetic and
// conversions included; only comparisons produce plain booleans), through
// phi copies, from a call's arguments to the callee's parameters and from
// its return to the call's result; an indirect call reaches every
// function and may be a platform function's (its result is dynamic, and
// with a dynamic argument so is memory); pthread_create's argument
// reaches its start routine's parameter (every function's when the
// routine is not a constant).
// Memory is one abstract location: a store of a dynamic value anywhere
// (and a platform function that may store an address derived from its
// arguments, a thread's return value that pthread_join stores) makes every
// load dynamic, except loads from private allocas (privateAllocas: their
// address is used only by loads and stores of their own function), which
// are tracked one by one.
func seesBlockIDs(p *ir.Program) bool {
	return provenanceWhy(p) != ""
}

// provenanceWhy returns the first instruction that may see a dynamic
// block's id ("function: instruction"), or "".
func provenanceWhy(p *ir.Program) string {
	return newProvenance(p).run()
}

// provenance is the state of the analysis.
type provenance struct {
	p       *ir.Program
	dyn     [][]bool         // per function, per slot: may hold a dynamic address
	priv    []map[int32]bool // per function: private allocas (by address slot)
	privDyn []map[int32]bool // per function: private allocas whose contents may be dynamic
	ret     []bool           // per function: may return a dynamic value
	// mem: memory other than private allocas may hold a dynamic address.
	mem bool
	// allParams: every parameter of every function may be dynamic (an
	// indirect call, qsort's comparator, a pthread key's destructor or an
	// unknown start routine received a dynamic value).
	allParams bool
	// routines are the functions pthread_create starts (by index);
	// anyRoutine is set when a start routine is not a constant.
	routines   map[int]bool
	anyRoutine bool
	tls        map[uint32]bool // blocks of thread-local globals
	changed    bool
}

func newProvenance(p *ir.Program) *provenance {
	pv := &provenance{p: p, dyn: make([][]bool, len(p.Funcs)), priv: make([]map[int32]bool, len(p.Funcs)),
		privDyn: make([]map[int32]bool, len(p.Funcs)), ret: make([]bool, len(p.Funcs)),
		routines: map[int]bool{}, tls: map[uint32]bool{}}
	for _, g := range p.Globals {
		if g.ThreadLocal {
			pv.tls[g.Block] = true
		}
	}
	for i, f := range p.Funcs {
		if f.External {
			continue
		}
		pv.dyn[i] = make([]bool, f.NRegs)
		pv.priv[i] = privateAllocas(f)
		pv.privDyn[i] = map[int32]bool{}
		for k, c := range f.Consts {
			if pv.tls[ir.PtrBlock(c)] {
				pv.set(i, f.ConstBase+int32(k), 1)
			}
		}
		for k, sz := range f.Byval {
			if sz != 0 && k < len(f.Params) {
				pv.set(i, f.Params[k], 1)
			}
		}
		if i == p.Entry {
			pv.setParams(f, -1)
		}
	}
	return pv
}

// run iterates the transfer functions to their fixpoint and returns the
// first instruction that may see a dynamic block's id, or "".
func (pv *provenance) run() string {
	for {
		pv.changed = false
		for i, f := range pv.p.Funcs {
			if !f.External {
				pv.function(i, f)
			}
		}
		if pv.allParams {
			for _, f := range pv.p.Funcs {
				if !f.External {
					pv.setParams(f, -1)
				}
			}
		}
		for i, r := range pv.ret {
			if r && (pv.anyRoutine || pv.routines[i]) {
				pv.setMem() // pthread_join stores the thread's result
			}
		}
		if !pv.changed {
			break
		}
	}
	for i, f := range pv.p.Funcs {
		if f.External {
			continue
		}
		for _, c := range f.Consts {
			if pv.tls[ir.PtrBlock(c)] {
				// (a constant expression may have converted it: ptrtoint
				// (@tl) is folded into the constant, no instruction)
				return f.Name + ": a constant address of a thread-local variable"
			}
		}
		if pc := pv.observes(i, f); pc >= 0 {
			text := f.Code[pc].Op.String()
			if pc < len(f.Text) {
				text = f.Text[pc]
			}
			return f.Name + ": " + text
		}
	}
	return ""
}

// set marks slots [s, s+n) of function fi dynamic.
func (pv *provenance) set(fi int, s, n int32) {
	d := pv.dyn[fi]
	for k := s; k < s+n; k++ {
		if k >= 0 && int(k) < len(d) && !d[k] {
			d[k] = true
			pv.changed = true
		}
	}
}

// any reports whether a slot in [s, s+n) of function fi may be dynamic.
func (pv *provenance) any(fi int, s, n int32) bool {
	d := pv.dyn[fi]
	for k := s; k < s+n; k++ {
		if k >= 0 && int(k) < len(d) && d[k] {
			return true
		}
	}
	return false
}

func (pv *provenance) setMem() {
	if !pv.mem {
		pv.mem, pv.changed = true, true
	}
}

// setParams marks parameter k of f dynamic (all of them for k < 0).
func (pv *provenance) setParams(f *ir.Func, k int) {
	for j, s := range f.Params {
		if k >= 0 && j != k {
			continue
		}
		n := int32(1)
		if j+1 < len(f.Params) {
			n = f.Params[j+1] - s
		} else if f.NParams > 0 {
			n = int32(f.NParams) - s
		}
		pv.set(f.Index, s, max(n, 1))
	}
}

// argSlots returns the first slot and the number of slots of a call's
// argument k.
func argSlots(cs *ir.CallSite, k int) (int32, int32) {
	n := int32(1)
	if k < len(cs.ArgSlots) && cs.ArgSlots[k] > 0 {
		n = cs.ArgSlots[k]
	}
	return cs.Args[k], n
}

// function applies the transfer function of every instruction of f.
func (pv *provenance) function(fi int, f *ir.Func) {
	priv := pv.priv[fi]
	for _, e := range f.Edges {
		for _, mv := range e.Moves {
			if pv.any(fi, mv.Src, 1) {
				pv.set(fi, mv.Dst, 1)
			}
		}
	}
	for _, in := range f.Code {
		switch in.Op {
		case ir.OpAlloca, ir.OpStackSave:
			pv.set(fi, in.Dst, 1)
		case ir.OpLoad, ir.OpLoadAgg:
			n := int32(1)
			if in.Op == ir.OpLoadAgg {
				n = int32(len(f.Aggs[in.Imm].Offs))
			}
			if priv[in.A] && pv.privDyn[fi][in.A] || !priv[in.A] && pv.mem {
				pv.set(fi, in.Dst, n)
			}
		case ir.OpStore, ir.OpStoreAgg:
			n := int32(1)
			if in.Op == ir.OpStoreAgg {
				n = int32(len(f.Aggs[in.Imm].Offs))
			}
			if pv.any(fi, in.B, n) {
				if priv[in.A] {
					if !pv.privDyn[fi][in.A] {
						pv.privDyn[fi][in.A], pv.changed = true, true
					}
				} else {
					pv.setMem()
				}
			}
		case ir.OpAtomicRMW, ir.OpCmpXchg:
			if pv.any(fi, in.B, 1) || in.Op == ir.OpCmpXchg && pv.any(fi, in.C, 1) {
				pv.setMem()
			}
			if pv.mem {
				pv.set(fi, in.Dst, 2)
			}
		case ir.OpEq, ir.OpNe, ir.OpUlt, ir.OpUle, ir.OpUgt, ir.OpUge, ir.OpSlt, ir.OpSle, ir.OpSgt, ir.OpSge, ir.OpFCmp:
			// a boolean: no address
		case ir.OpCall, ir.OpCallInd, ir.OpCallB:
			pv.call(fi, f, in)
		case ir.OpRet:
			if in.A >= 0 && pv.any(fi, in.A, max(int32(in.Imm), 1)) && !pv.ret[fi] {
				pv.ret[fi], pv.changed = true, true
			}
		case ir.OpGEPN:
			if int(in.Imm) < len(f.GEPs) {
				g := &f.GEPs[in.Imm]
				d := pv.any(fi, g.Base, 1)
				for _, s := range g.Idx {
					d = d || pv.any(fi, s, 1)
				}
				if d {
					pv.set(fi, in.Dst, 1)
				}
			}
		case ir.OpMovN:
			pv.copyRange(fi, in.Dst, in.A, int32(in.Imm))
		case ir.OpSelectN:
			pv.copyRange(fi, in.Dst, in.B, int32(in.Imm))
			pv.copyRange(fi, in.Dst, in.C, int32(in.Imm))
		case ir.OpExtract:
			pv.copyRange(fi, in.Dst, in.A+in.B, int32(in.Imm))
		case ir.OpInsert:
			// (conservative: the whole aggregate when any part is dynamic)
			if pv.any(fi, in.A, in.C) || pv.any(fi, in.B, int32(in.Imm>>32)) {
				pv.set(fi, in.Dst, in.C)
			}
		case ir.OpJmp, ir.OpJmpE, ir.OpBr, ir.OpBrE, ir.OpSwitch, ir.OpNop, ir.OpFence,
			ir.OpUnreachable, ir.OpTrap, ir.OpStackRestore:
		default:
			// arithmetic, conversions (ptrtoint, inttoptr), select, GEPC,
			// GEP1, intrinsics: the result (and a second result, for
			// the overflow intrinsics) may be computed from an address
			d := pv.any(fi, in.A, 1)
			switch in.Op {
			case ir.OpMov, ir.OpTrunc, ir.OpSExt, ir.OpFNeg, ir.OpFAbs, ir.OpSqrt, ir.OpFPTrunc,
				ir.OpFPExt, ir.OpFPToSI, ir.OpFPToUI, ir.OpSIToFP, ir.OpUIToFP, ir.OpCtpop, ir.OpCtlz,
				ir.OpCttz, ir.OpBswap, ir.OpAbs, ir.OpPtrToInt, ir.OpIntToPtr, ir.OpGEPC:
				// one operand (B and C are no slots)
			case ir.OpSelect, ir.OpFshl, ir.OpFshr, ir.OpFMulAdd:
				d = d || pv.any(fi, in.B, 1) || pv.any(fi, in.C, 1)
			default: // two operands
				d = d || pv.any(fi, in.B, 1)
			}
			if d {
				n := int32(1)
				switch in.Op {
				case ir.OpSAddO, ir.OpUAddO, ir.OpSSubO, ir.OpUSubO, ir.OpSMulO, ir.OpUMulO:
					n = 2
				}
				pv.set(fi, in.Dst, n)
			}
		}
	}
}

// copyRange marks dst[k] dynamic where src[k] is, for k < n.
func (pv *provenance) copyRange(fi int, dst, src, n int32) {
	for k := int32(0); k < n; k++ {
		if pv.any(fi, src+k, 1) {
			pv.set(fi, dst+k, 1)
		}
	}
}

// call applies a call's transfer function.
func (pv *provenance) call(fi int, f *ir.Func, in ir.Inst) {
	if int(in.Imm) >= len(f.Calls) {
		return
	}
	cs := &f.Calls[in.Imm]
	dynArg := func(k int) bool {
		s, n := argSlots(cs, k)
		return pv.any(fi, s, n)
	}
	anyArg := false
	for k := range cs.Args {
		anyArg = anyArg || dynArg(k)
	}
	retN := max(cs.RetSlots, 1)
	switch in.Op {
	case ir.OpCall:
		if cs.Callee < 0 || int(cs.Callee) >= len(pv.p.Funcs) {
			pv.unknownCall(fi, cs, anyArg)
			return
		}
		callee := pv.p.Funcs[cs.Callee]
		if callee.External {
			pv.unknownCall(fi, cs, anyArg)
			return
		}
		for k := range cs.Args {
			if dynArg(k) {
				if k >= len(callee.Params) {
					pv.setMem() // (no variadic program functions; conservative)
					continue
				}
				pv.setParams(callee, k)
			}
		}
		if cs.Ret >= 0 && pv.ret[callee.Index] {
			pv.set(fi, cs.Ret, retN)
		}
	case ir.OpCallInd:
		pv.unknownCall(fi, cs, anyArg)
	case ir.OpCallB:
		b := ir.Builtin(in.B)
		switch b {
		case ir.BPthreadCreate:
			if len(cs.Args) < 4 {
				pv.unknownCall(fi, cs, anyArg)
				return
			}
			rt := pv.constFunc(f, cs.Args[2])
			if rt == nil {
				if !pv.anyRoutine {
					pv.anyRoutine, pv.changed = true, true
				}
				if dynArg(3) && !pv.allParams {
					pv.allParams, pv.changed = true, true
				}
			} else {
				if !pv.routines[rt.Index] {
					pv.routines[rt.Index], pv.changed = true, true
				}
				if dynArg(3) {
					pv.setParams(rt, 0)
				}
			}
		case ir.BQsort, ir.BSetspecific:
			// the comparator gets pointers into the array; a key's
			// destructor gets the value
			if anyArg && !pv.allParams {
				pv.allParams, pv.changed = true, true
			}
		}
		e, _ := builtinEffects(b)
		if e.stores && anyArg || b == ir.BMemset && len(cs.Args) > 1 && dynArg(1) {
			pv.setMem()
		}
		if b == ir.BNondet && cs.RetBits >= 64 {
			e.addr = true // (a 64-bit result may be a nondet pointer)
		}
		if cs.Ret >= 0 && e.addr {
			pv.set(fi, cs.Ret, retN)
		}
	}
}

// unknownCall: an indirect call (or one this analysis cannot resolve) may
// reach every function with its arguments, and a platform function through
// a pointer to it (malloc, strtol, ...): its result may be an address, and
// it may store one computed from its arguments.
func (pv *provenance) unknownCall(fi int, cs *ir.CallSite, anyArg bool) {
	if anyArg {
		if !pv.allParams {
			pv.allParams, pv.changed = true, true
		}
		pv.setMem()
	}
	if cs.Ret >= 0 {
		pv.set(fi, cs.Ret, max(cs.RetSlots, 1))
	}
}

// constFunc returns the program function whose address slot s of f holds
// as a constant, or nil.
func (pv *provenance) constFunc(f *ir.Func, s int32) *ir.Func {
	k := s - f.ConstBase
	if s < f.ConstBase || int(k) >= len(f.Consts) {
		return nil
	}
	c := f.Consts[k]
	id := ir.PtrBlock(c)
	if ir.PtrOff(c) != 0 || id < pv.p.FirstFuncBlock || id >= pv.p.FirstFuncBlock+uint32(len(pv.p.Funcs)) {
		return nil
	}
	fn := pv.p.Funcs[id-pv.p.FirstFuncBlock]
	if fn.External {
		return nil
	}
	return fn
}

// observes returns the pc of an instruction of f that may see a dynamic
// block's id, or -1.
func (pv *provenance) observes(fi int, f *ir.Func) int {
	for pc, in := range f.Code {
		switch in.Op {
		case ir.OpPtrToInt:
			if pv.any(fi, in.A, 1) {
				return pc
			}
		case ir.OpUlt, ir.OpUle, ir.OpUgt, ir.OpUge, ir.OpSlt, ir.OpSle, ir.OpSgt, ir.OpSge:
			// (ir keeps no types: in a function that orders pointers,
			// any ordering of a dynamic value)
			if f.OrdersPointers && (pv.any(fi, in.A, 1) || pv.any(fi, in.B, 1)) {
				return pc
			}
		case ir.OpCallB:
			if int(in.Imm) >= len(f.Calls) {
				return pc
			}
			cs := &f.Calls[in.Imm]
			b := ir.Builtin(in.B)
			if e, _ := builtinEffects(b); pv.mem && e.reads {
				return pc // a pointer's bytes copied, compared or printed
			}
			switch b {
			case ir.BSprintf, ir.BSnprintf:
				// (printf's output is no data the program reads back)
				for k := int(max(cs.NFixed, 0)); k < len(cs.Args); k++ {
					if s, n := argSlots(cs, k); pv.any(fi, s, n) {
						return pc // %p of an address, into memory
					}
				}
			}
		}
	}
	return -1
}

// effects is what a platform function may do with addresses.
type effects struct {
	// addr: its result may be an address (of a new block, or computed from
	// its arguments).
	addr bool
	// stores: it may store into memory an address computed from its
	// arguments (strtol's end pointer, strtok_r's state, pthread_exit's
	// result that pthread_join stores, sscanf's %p).
	stores bool
	// reads: it copies or compares the bytes of memory its arguments point
	// to, whatever they hold, so it would see the bytes of a pointer stored
	// there (memcpy into an integer, memcmp). The string functions read
	// bytes up to a zero byte, printf and its kin print the bytes they read
	// as characters: not covered, as reading a pointer's bytes as an
	// integer through a union is not.
	reads bool
}

// builtinEffects classifies platform function b; known is false for one
// this analysis does not know (a new one), which may do anything.
func builtinEffects(b ir.Builtin) (e effects, known bool) {
	switch b {
	case ir.BPthreadCreate, ir.BPthreadJoin, ir.BPthreadSelf, ir.BPthreadEqual,
		ir.BMutexInit, ir.BMutexLock, ir.BMutexTrylock, ir.BMutexUnlock, ir.BMutexDestroy,
		ir.BCondInit, ir.BCondWait, ir.BCondSignal, ir.BCondBroadcast, ir.BCondDestroy,
		ir.BRwlockInit, ir.BRwlockRdlock, ir.BRwlockWrlock, ir.BRwlockTryrdlock, ir.BRwlockTrywrlock,
		ir.BRwlockUnlock, ir.BRwlockDestroy, ir.BOnce, ir.BAttrInit, ir.BAttrInitDetach,
		ir.BAttrSetDetach, ir.BAttrGetDetach, ir.BDetach, ir.BKeyCreate, ir.BKeyDelete,
		ir.BSemInit, ir.BSemWait, ir.BSemTrywait, ir.BSemPost, ir.BSemDestroy, ir.BSemGetvalue,
		ir.BBarrierInit, ir.BBarrierWait, ir.BBarrierDestroy, ir.BYield, ir.BNondet,
		ir.BAssume, ir.BVerifierError, ir.BAtomicBegin, ir.BAtomicEnd, ir.BReachError,
		ir.BAssertFail, // (its arguments are the compiler's string literals)
		ir.BAbort, ir.BExit, ir.BFree, ir.BTime, ir.BClock, ir.BGettimeofday, ir.BClockGettime,
		ir.BSrand, ir.BRand, ir.BCoin, ir.BUniform, ir.BPutchar, ir.BFputc, ir.BFflush,
		ir.BIsalnum, ir.BIsalpha, ir.BIsblank, ir.BIscntrl, ir.BIsdigit, ir.BIsgraph, ir.BIslower,
		ir.BIsprint, ir.BIspunct, ir.BIsspace, ir.BIsupper, ir.BIsxdigit, ir.BToupper, ir.BTolower,
		ir.BAbs, ir.BSqrt, ir.BPow, ir.BFloor, ir.BCeil, ir.BTrunc, ir.BRound, ir.BFabs, ir.BFmod,
		ir.BExp, ir.BExp2, ir.BLog, ir.BLog2, ir.BLog10, ir.BSin, ir.BCos, ir.BTan, ir.BAsin,
		ir.BAcos, ir.BAtan, ir.BAtan2, ir.BSinh, ir.BCosh, ir.BTanh, ir.BHypot, ir.BCbrt, ir.BFmin,
		ir.BFmax, ir.BSetspecific:
		return effects{}, true
	case ir.BPthreadExit:
		return effects{stores: true}, true
	case ir.BMalloc, ir.BCalloc, ir.BGetspecific, ir.BErrnoLocation, ir.BCtypeBLoc,
		ir.BCtypeToupperLoc, ir.BCtypeTolowerLoc:
		return effects{addr: true}, true
	case ir.BMemset: // (stores its value's bytes: see call)
		return effects{addr: true}, true
	case ir.BRealloc, ir.BMemcpy, ir.BMemmove:
		return effects{addr: true, reads: true}, true
	case ir.BMemcmp, ir.BQsort:
		return effects{reads: true}, true
	case ir.BStrcpy, ir.BStrncpy, ir.BStrcat, ir.BStrncat, ir.BStpcpy, ir.BStrchr, ir.BStrrchr,
		ir.BStrstr, ir.BMemchr, ir.BStrpbrk, ir.BStrdup:
		return effects{addr: true}, true
	case ir.BStrtok:
		return effects{addr: true, stores: true}, true
	case ir.BStrtol, ir.BStrtoul, ir.BStrtod, ir.BSscanf:
		return effects{stores: true}, true
	case ir.BStrlen, ir.BStrcmp, ir.BStrncmp, ir.BStrnlen, ir.BStrspn, ir.BStrcspn,
		ir.BStrcasecmp, ir.BPrintf, ir.BPuts, ir.BFputs, ir.BFwrite, ir.BPerror, ir.BSprintf,
		ir.BSnprintf, ir.BFprintf:
		return effects{}, true
	}
	return effects{addr: true, stores: true, reads: true}, false
}
