package explicit

import (
	"encoding/binary"
	"math/bits"

	"github.com/wyvernmc/wyvern/ir"
)

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
// ... of pointers: ir.Func.OrdersPointers), compares or sorts a pointer's
// bytes as data (memcmp, qsort), reads them as a number (a load of an
// integer, a float, an aggregate with a leaf that is no pointer, an
// atomicrmw or cmpxchg of a number, from memory that may hold such an
// address: a union, a type pun, a pointer memcpy'd into an integer;
// ir.Func.NumLoads) or prints one into memory (sprintf's %p). Globals,
// functions and the platform's image have fixed ids, and null and integers
// are block 0: converting or ordering them sees nothing that depends on the
// order of steps. Not covered (as before this analysis): an equality test
// of a dangling pointer (undefined behaviour), a pointer's bytes read as
// characters by the string functions, printf's output (no data the program
// reads), an address forged from integers. An equality test of two
// dynamic pointers in a program that may reuse a freed block's address
// (ir.Program.ReusesAddresses) sees ids: which block may take a freed
// one's address depends on the order of frees and allocations.
//
// seesBlockIDs answers the question by a flow-insensitive, whole-program
// points-to analysis (inclusion-based, field-insensitive). Memory is a set
// of abstract locations: each global, each alloca site, each byval
// parameter, each allocating call site (malloc, calloc, realloc, strdup),
// main's arguments, the platform's image (ctype tables, errno) and the
// platform's state (pthread keys' values, strtok's string). Each slot of
// each function has a points-to set: the locations whose addresses the
// value may be, or be computed from; "unknown" (a nondet 64-bit value, the
// result of an indirect or unknown call, stacksave) may be any location. Each
// location has the set of its contents (what a store into it may have
// stored). A location is dynamic when its blocks are allocated at run time
// (allocas, byval copies, heap blocks, main's arguments, thread-local
// globals; unknown); a slot is dynamic when its set holds a dynamic
// location, and a location may hold an address when its contents do.
// Values flow through every instruction to its result (arithmetic and
// conversions included; only comparisons produce plain booleans), through
// phi copies, from a call's arguments to the callee's parameters and from
// its return to the call's result, through memory (a load gets the contents
// of the locations its pointer may point to, a store adds to them; memcpy,
// memmove, realloc, strdup and the string copies copy contents); an
// indirect call reaches every function and may be a platform function's
// (its result is unknown, and it may store its arguments' addresses into
// the memory they point to); pthread_create's argument reaches its start
// routine's parameter (every function's when the routine is not a
// constant); pthread_join stores what the start routines return and
// pthread_exit's argument.
func seesBlockIDs(p *ir.Program) bool {
	return provenanceWhy(p) != ""
}

// provenanceWhy returns the first instruction that may see a dynamic
// block's id ("function: instruction"), or "".
func provenanceWhy(p *ir.Program) string {
	return newProvenance(p).run()
}

// locSet is a set of abstract locations (a bit set; nil is empty).
type locSet []uint64

// add adds location l to *s and reports whether it was new.
func (s *locSet) add(l int, words int) bool {
	if *s == nil {
		*s = make(locSet, words)
	}
	if (*s)[l/64]&(1<<(l%64)) != 0 {
		return false
	}
	(*s)[l/64] |= 1 << (l % 64)
	return true
}

// union adds t to *s and reports whether *s grew.
func (s *locSet) union(t locSet) bool {
	grew := false
	for k, w := range t {
		if w == 0 {
			continue
		}
		if *s == nil {
			*s = make(locSet, len(t))
		}
		if (*s)[k]|w != (*s)[k] {
			(*s)[k] |= w
			grew = true
		}
	}
	return grew
}

func (s locSet) has(l int) bool { return s != nil && s[l/64]&(1<<(l%64)) != 0 }

func (s locSet) meets(t locSet) bool {
	for k := range min(len(s), len(t)) {
		if s[k]&t[k] != 0 {
			return true
		}
	}
	return false
}

// each calls f for every location of s.
func (s locSet) each(f func(int)) {
	for k, w := range s {
		for w != 0 {
			b := bits.TrailingZeros64(w)
			f(k*64 + b)
			w &^= 1 << b
		}
	}
}

// In a points-to set, locUnknown stands for every location, and for a
// value that may be the address of a block allocated at run time (the
// result of an unknown call); locAnywhere stands for every location, but
// the value is no such address (a nondet pointer: its bytes are chosen, not
// a block's id).
const (
	locUnknown = iota
	locAnywhere
)

// provenance is the state of the analysis.
type provenance struct {
	p     *ir.Program
	reuse bool       // p.ReusesAddresses()
	words int        // words of a locSet
	nLocs int        // number of locations (locUnknown included)
	pts   [][]locSet // per function, per slot: points-to set
	ret   []locSet   // per function: what it may return
	cont  []locSet   // per location: what its bytes may hold
	dyn   locSet     // the dynamic locations (locUnknown included)
	all   locSet     // every location but locUnknown
	names []string   // per location, for messages and tests
	// site: per function, per pc, the location an alloca or an allocating
	// call creates (-1 for others); byval: per function, per parameter,
	// the location of its copy (-1 for ordinary parameters).
	site  [][]int32
	byval [][]int32
	// globals: location of each global's block id.
	globals                   map[uint32]int
	image, state, argv, args  int
	joinRet                   locSet // what pthread_join may store
	anyArg                    locSet // what may reach every parameter
	routines                  map[int]bool
	anyRoutine                bool
	tls                       map[uint32]bool // blocks of thread-local globals
	changed                   bool
	firstFunc, afterFunctions uint32
}

// allocating reports whether platform function b returns a new block.
func allocating(b ir.Builtin) bool {
	switch b {
	case ir.BMalloc, ir.BCalloc, ir.BRealloc, ir.BStrdup:
		return true
	}
	return false
}

func newProvenance(p *ir.Program) *provenance {
	pv := &provenance{p: p, pts: make([][]locSet, len(p.Funcs)), ret: make([]locSet, len(p.Funcs)),
		site: make([][]int32, len(p.Funcs)), byval: make([][]int32, len(p.Funcs)),
		globals: map[uint32]int{}, routines: map[int]bool{}, tls: map[uint32]bool{}, reuse: p.ReusesAddresses()}
	dynamic := []bool{true, false} // locUnknown, locAnywhere
	pv.names = []string{"unknown", "anywhere"}
	newLoc := func(name string, dyn bool) int {
		dynamic = append(dynamic, dyn)
		pv.names = append(pv.names, name)
		return len(dynamic) - 1
	}
	for _, g := range p.Globals {
		if g.ThreadLocal {
			pv.tls[g.Block] = true
		}
		pv.globals[g.Block] = newLoc("@"+g.Name, g.ThreadLocal)
	}
	pv.firstFunc = p.FirstFuncBlock
	pv.afterFunctions = p.FirstFuncBlock + uint32(len(p.Funcs))
	pv.image = newLoc("the platform's image", false)
	pv.state = newLoc("the platform's state", false)
	pv.argv = newLoc("main's argv", true)
	pv.args = newLoc("main's argument strings", true)
	for i, f := range p.Funcs {
		if f.External {
			continue
		}
		pv.site[i] = make([]int32, len(f.Code))
		for pc, in := range f.Code {
			pv.site[i][pc] = -1
			switch in.Op {
			case ir.OpAlloca:
				pv.site[i][pc] = int32(newLoc(f.Name+": alloca", true))
			case ir.OpCall, ir.OpCallInd, ir.OpCallB:
				if _, b, unknown := pv.target(f, in); !unknown && allocating(b) {
					pv.site[i][pc] = int32(newLoc(f.Name+": "+b.String(), true))
				}
			}
		}
		pv.byval[i] = make([]int32, len(f.Params))
		for k := range f.Params {
			pv.byval[i][k] = -1
			if k < len(f.Byval) && f.Byval[k] != 0 {
				pv.byval[i][k] = int32(newLoc(f.Name+": byval parameter", true))
			}
		}
	}
	pv.nLocs = len(dynamic)
	pv.words = (pv.nLocs + 63) / 64
	for l, d := range dynamic {
		if d {
			pv.dyn.add(l, pv.words)
		}
		if l != locUnknown && l != locAnywhere {
			pv.all.add(l, pv.words)
		}
	}
	pv.cont = make([]locSet, pv.nLocs)
	pv.cont[pv.image].add(pv.image, pv.words) // (the ctype tables' pointers)
	pv.cont[pv.argv].add(pv.args, pv.words)
	// initial contents of the globals: the addresses of globals in their
	// initial bytes (8-byte pointers, and 4-byte ones of ILP32 programs)
	for _, g := range p.Globals {
		l := pv.globals[g.Block]
		for o := 0; o+4 <= len(g.Init); o += 4 {
			var cands [2]uint64
			cands[0] = ir.FromPtr32(binary.LittleEndian.Uint32(g.Init[o:]))
			if o+8 <= len(g.Init) {
				cands[1] = binary.LittleEndian.Uint64(g.Init[o:])
			}
			for _, c := range cands {
				if gl, ok := pv.globals[ir.PtrBlock(c)]; ok && c != 0 {
					pv.cont[l].add(gl, pv.words)
				}
			}
		}
	}
	for i, f := range p.Funcs {
		if f.External {
			continue
		}
		pv.pts[i] = make([]locSet, f.NRegs)
		for k, c := range f.Consts {
			if l, ok := pv.globals[ir.PtrBlock(c)]; ok {
				pv.pts[i][f.ConstBase+int32(k)].add(l, pv.words)
			}
		}
		for k, l := range pv.byval[i] {
			if l >= 0 {
				pv.pts[i][f.Params[k]].add(int(l), pv.words)
			}
		}
		if i == p.Entry {
			// main (argc, argv, envp): argc is a number
			var a locSet
			a.add(pv.argv, pv.words)
			for k := 1; k < len(f.Params); k++ {
				pv.setParams(f, k, a)
			}
		}
	}
	return pv
}

// slot returns slot s of function fi's set, or nil when s is no slot.
func (pv *provenance) slot(fi int, s int32) *locSet {
	d := pv.pts[fi]
	if s < 0 || int(s) >= len(d) {
		return nil
	}
	return &d[s]
}

// get returns the union of slots [s, s+n) of function fi.
func (pv *provenance) get(fi int, s, n int32) locSet {
	if n == 1 {
		if p := pv.slot(fi, s); p != nil {
			return *p
		}
		return nil
	}
	var u locSet
	for k := s; k < s+n; k++ {
		if p := pv.slot(fi, k); p != nil {
			u.union(*p)
		}
	}
	return u
}

// set adds t to slots [s, s+n) of function fi.
func (pv *provenance) set(fi int, s, n int32, t locSet) {
	for k := s; k < s+n; k++ {
		if p := pv.slot(fi, k); p != nil && p.union(t) {
			pv.changed = true
		}
	}
}

// any reports whether a slot in [s, s+n) of function fi may be dynamic.
func (pv *provenance) any(fi int, s, n int32) bool {
	return pv.get(fi, s, n).meets(pv.dyn)
}

// expand returns the locations a pointer with set t may point into.
func (pv *provenance) expand(t locSet) locSet {
	if t.has(locUnknown) || t.has(locAnywhere) {
		return pv.all
	}
	return t
}

// load returns what a load through a pointer with set t may read.
func (pv *provenance) load(t locSet) locSet {
	var u locSet
	pv.expand(t).each(func(l int) { u.union(pv.cont[l]) })
	return u
}

// store adds v to the contents of the locations a pointer with set t may
// point into.
func (pv *provenance) store(t, v locSet) {
	if len(v) == 0 {
		return
	}
	pv.expand(t).each(func(l int) {
		if pv.cont[l].union(v) {
			pv.changed = true
		}
	})
}

// holdsAddress reports whether a location a pointer with set t may point
// into may hold the address of a dynamic block.
func (pv *provenance) holdsAddress(t locSet) bool {
	found := false
	pv.expand(t).each(func(l int) { found = found || pv.cont[l].meets(pv.dyn) })
	return found
}

func (pv *provenance) unionInto(dst *locSet, t locSet) {
	if dst.union(t) {
		pv.changed = true
	}
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
		for _, f := range pv.p.Funcs {
			if !f.External && len(pv.anyArg) > 0 {
				pv.setParams(f, -1, pv.anyArg)
			}
		}
		for i, r := range pv.ret {
			if pv.anyRoutine || pv.routines[i] {
				pv.unionInto(&pv.joinRet, r) // pthread_join stores the thread's result
			}
		}
		if !pv.changed {
			break
		}
	}
	for _, g := range pv.p.Globals {
		if !g.Const && numberLeaves(g) && pv.cont[pv.globals[g.Block]].meets(pv.dyn) {
			// (a query reads a global's bytes as a number)
			return "@" + g.Name + ": a number that may hold an address of a block allocated at run time"
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

// numberLeaves reports whether global g may be read as a number: it has a
// part that is no pointer by its C type (by its LLVM type without debug
// information).
func numberLeaves(g *ir.Global) bool {
	if g.CType == nil {
		return g.ElemKind != ir.KindPtr
	}
	var walk func(t *ir.CType, depth int) bool
	walk = func(t *ir.CType, depth int) bool {
		switch {
		case t == nil || depth > 32:
			return true
		case t.Kind == ir.CPointer:
			return false
		case t.Kind == ir.CArray:
			return walk(t.Elem, depth+1)
		case t.Kind == ir.CStruct:
			for _, f := range t.Fields {
				if walk(f.Type, depth+1) {
					return true
				}
			}
			return len(t.Fields) == 0
		}
		return true
	}
	return walk(g.CType, 0)
}

// setParams adds t to parameter k of f (to all of them for k < 0).
func (pv *provenance) setParams(f *ir.Func, k int, t locSet) {
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
		pv.set(f.Index, s, max(n, 1), t)
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
	for _, e := range f.Edges {
		for _, mv := range e.Moves {
			pv.set(fi, mv.Dst, 1, pv.get(fi, mv.Src, 1))
		}
	}
	for k, l := range pv.byval[fi] {
		if l >= 0 {
			// the copy holds what the caller's block holds
			if pv.cont[l].union(pv.load(pv.get(fi, f.Params[k], 1))) {
				pv.changed = true
			}
		}
	}
	for pc, in := range f.Code {
		switch in.Op {
		case ir.OpAlloca:
			var t locSet
			t.add(int(pv.site[fi][pc]), pv.words)
			pv.set(fi, in.Dst, 1, t)
		case ir.OpStackSave:
			var t locSet
			t.add(locUnknown, pv.words)
			pv.set(fi, in.Dst, 1, t)
		case ir.OpLoad, ir.OpLoadAgg:
			n := int32(1)
			if in.Op == ir.OpLoadAgg {
				n = int32(len(f.Aggs[in.Imm].Offs))
			}
			pv.set(fi, in.Dst, n, pv.load(pv.get(fi, in.A, 1)))
		case ir.OpStore, ir.OpStoreAgg:
			n := int32(1)
			if in.Op == ir.OpStoreAgg {
				n = int32(len(f.Aggs[in.Imm].Offs))
			}
			pv.store(pv.get(fi, in.A, 1), pv.get(fi, in.B, n))
		case ir.OpAtomicRMW, ir.OpCmpXchg:
			p := pv.get(fi, in.A, 1)
			v := pv.get(fi, in.B, 1)
			if in.Op == ir.OpCmpXchg {
				v = pv.get(fi, in.C, 1)
			}
			pv.store(p, v)
			pv.set(fi, in.Dst, 2, pv.load(p))
		case ir.OpEq, ir.OpNe, ir.OpUlt, ir.OpUle, ir.OpUgt, ir.OpUge, ir.OpSlt, ir.OpSle, ir.OpSgt, ir.OpSge, ir.OpFCmp:
			// a boolean: no address
		case ir.OpCall, ir.OpCallInd, ir.OpCallB:
			pv.call(fi, f, in, pc)
		case ir.OpRet:
			if in.A >= 0 {
				pv.unionInto(&pv.ret[fi], pv.get(fi, in.A, max(int32(in.Imm), 1)))
			}
		case ir.OpGEPN:
			if int(in.Imm) < len(f.GEPs) {
				g := &f.GEPs[in.Imm]
				t := append(locSet(nil), pv.get(fi, g.Base, 1)...)
				for _, s := range g.Idx {
					t.union(pv.get(fi, s, 1))
				}
				pv.set(fi, in.Dst, 1, t)
			}
		case ir.OpMovN:
			pv.copyRange(fi, in.Dst, in.A, int32(in.Imm))
		case ir.OpSelectN:
			pv.copyRange(fi, in.Dst, in.B, int32(in.Imm))
			pv.copyRange(fi, in.Dst, in.C, int32(in.Imm))
		case ir.OpExtract:
			pv.copyRange(fi, in.Dst, in.A+in.B, int32(in.Imm))
		case ir.OpInsert:
			// (conservative: the whole aggregate gets every part)
			t := append(locSet(nil), pv.get(fi, in.A, in.C)...)
			t.union(pv.get(fi, in.B, int32(in.Imm>>32)))
			pv.set(fi, in.Dst, in.C, t)
		case ir.OpJmp, ir.OpJmpE, ir.OpBr, ir.OpBrE, ir.OpSwitch, ir.OpNop, ir.OpFence,
			ir.OpUnreachable, ir.OpTrap, ir.OpStackRestore:
		default:
			// arithmetic, conversions (ptrtoint, inttoptr), select, GEPC,
			// GEP1, intrinsics: the result (and a second result, for
			// the overflow intrinsics) may be computed from an address
			t := append(locSet(nil), pv.get(fi, in.A, 1)...)
			switch in.Op {
			case ir.OpMov, ir.OpTrunc, ir.OpSExt, ir.OpFNeg, ir.OpFAbs, ir.OpSqrt, ir.OpFPTrunc,
				ir.OpFPExt, ir.OpFPToSI, ir.OpFPToUI, ir.OpSIToFP, ir.OpUIToFP, ir.OpCtpop, ir.OpCtlz,
				ir.OpCttz, ir.OpBswap, ir.OpAbs, ir.OpPtrToInt, ir.OpIntToPtr, ir.OpGEPC:
				// one operand (B and C are no slots)
			case ir.OpSelect, ir.OpFshl, ir.OpFshr, ir.OpFMulAdd:
				t.union(pv.get(fi, in.B, 1))
				t.union(pv.get(fi, in.C, 1))
			default: // two operands
				t.union(pv.get(fi, in.B, 1))
			}
			n := int32(1)
			switch in.Op {
			case ir.OpSAddO, ir.OpUAddO, ir.OpSSubO, ir.OpUSubO, ir.OpSMulO, ir.OpUMulO:
				n = 2
			}
			pv.set(fi, in.Dst, n, t)
		}
	}
}

// copyRange adds src[k] to dst[k] for k < n.
func (pv *provenance) copyRange(fi int, dst, src, n int32) {
	for k := int32(0); k < n; k++ {
		pv.set(fi, dst+k, 1, pv.get(fi, src+k, 1))
	}
}

// call applies a call's transfer function.
func (pv *provenance) call(fi int, f *ir.Func, in ir.Inst, pc int) {
	if int(in.Imm) >= len(f.Calls) {
		return
	}
	cs := &f.Calls[in.Imm]
	arg := func(k int) locSet {
		if k >= len(cs.Args) {
			return nil
		}
		s, n := argSlots(cs, k)
		return pv.get(fi, s, n)
	}
	var args locSet // every argument's
	for k := range cs.Args {
		args.union(arg(k))
	}
	retN := max(cs.RetSlots, 1)
	result := func(t locSet) {
		if cs.Ret >= 0 {
			pv.set(fi, cs.Ret, retN, t)
		}
	}
	one := func(l int) locSet {
		var t locSet
		t.add(l, pv.words)
		return t
	}
	callee, b, unknown := pv.target(f, in)
	switch {
	case unknown:
		pv.unknownCall(fi, cs, args)
	case callee != nil:
		for k := range cs.Args {
			if k >= len(callee.Params) {
				// (no variadic program functions; conservative)
				pv.store(one(locUnknown), arg(k))
				continue
			}
			pv.setParams(callee, k, arg(k))
		}
		result(pv.ret[callee.Index])
	default:
		e, _ := builtinEffects(b)
		switch b {
		case ir.BPthreadCreate:
			if len(cs.Args) < 4 {
				pv.unknownCall(fi, cs, args)
				return
			}
			if rt := pv.constFunc(f, cs.Args[2]); rt == nil {
				if !pv.anyRoutine {
					pv.anyRoutine, pv.changed = true, true
				}
				pv.unionInto(&pv.anyArg, arg(3))
			} else {
				if !pv.routines[rt.Index] {
					pv.routines[rt.Index], pv.changed = true, true
				}
				pv.setParams(rt, 0, arg(3))
			}
		case ir.BPthreadJoin:
			pv.store(arg(1), pv.joinRet)
		case ir.BPthreadExit:
			pv.unionInto(&pv.joinRet, arg(0))
		case ir.BQsort:
			// the comparator gets pointers into the array
			pv.unionInto(&pv.anyArg, args)
		case ir.BSetspecific:
			// a key's destructor gets the value, pthread_getspecific
			// returns it
			pv.unionInto(&pv.anyArg, args)
			pv.unionInto(&pv.cont[pv.state], args)
		case ir.BGetspecific:
			result(pv.cont[pv.state])
		case ir.BMalloc, ir.BCalloc:
			result(one(int(pv.site[fi][pc])))
		case ir.BRealloc, ir.BStrdup:
			l := int(pv.site[fi][pc])
			pv.unionInto(&pv.cont[l], pv.load(arg(0)))
			r := one(l)
			if b == ir.BRealloc {
				r.union(arg(0))
			}
			result(r)
		case ir.BErrnoLocation, ir.BCtypeBLoc, ir.BCtypeToupperLoc, ir.BCtypeTolowerLoc:
			result(one(pv.image))
		case ir.BMemset:
			pv.store(arg(0), arg(1))
			result(arg(0))
		case ir.BMemcpy, ir.BMemmove, ir.BStrcpy, ir.BStrncpy, ir.BStrcat, ir.BStrncat, ir.BStpcpy:
			// the destination holds what the source held
			pv.store(arg(0), pv.load(arg(1)))
			result(arg(0))
		case ir.BStrchr, ir.BStrrchr, ir.BStrstr, ir.BMemchr, ir.BStrpbrk:
			result(args)
		case ir.BStrtok:
			// strtok keeps a pointer into its string in the platform's state
			pv.unionInto(&pv.cont[pv.state], arg(0))
			r := append(locSet(nil), arg(0)...)
			r.union(pv.cont[pv.state])
			result(r)
		case ir.BStrtol, ir.BStrtoul, ir.BStrtod:
			pv.store(arg(1), arg(0)) // the end pointer
		case ir.BSscanf:
			// numbers, and characters copied from the string (%s; a
			// pointer read by %p is forged from text)
			var dsts locSet
			for k := 2; k < len(cs.Args); k++ {
				dsts.union(arg(k))
			}
			pv.store(dsts, pv.load(arg(0)))
		case ir.BNondet:
			if cs.RetBits >= 64 {
				result(one(locAnywhere)) // (a 64-bit result may be a nondet pointer)
			}
		default:
			if e.stores {
				pv.store(args, args)
			}
			if e.addr {
				result(one(locUnknown))
			}
		}
	}
}

// unknownCall: an indirect call (or one this analysis cannot resolve) may
// reach every function with its arguments, and a platform function through
// a pointer to it (malloc, strtol, pthread_join, memcpy, ...): its result
// may be any address, and it may store into the memory its arguments point
// to their addresses, what that memory holds, and a thread's result; it may
// start any function.
func (pv *provenance) unknownCall(fi int, cs *ir.CallSite, args locSet) {
	pv.unionInto(&pv.anyArg, args)
	pv.unionInto(&pv.cont[pv.state], args)
	if len(args) > 0 {
		v := append(locSet(nil), args...)
		v.union(pv.load(args))
		v.union(pv.joinRet)
		pv.store(args, v)
	}
	if !pv.anyRoutine {
		pv.anyRoutine, pv.changed = true, true
	}
	if cs.Ret >= 0 {
		var t locSet
		t.add(locUnknown, pv.words)
		pv.set(fi, cs.Ret, max(cs.RetSlots, 1), t)
	}
}

// target resolves a call instruction: the program function it calls
// (callee), or the platform function (b, callee nil), or neither (unknown:
// an indirect call through a variable, or a call this analysis cannot
// resolve). A call through a constant function pointer (a bitcast of
// __VERIFIER_nondet_uint to another type) is resolved.
func (pv *provenance) target(f *ir.Func, in ir.Inst) (callee *ir.Func, b ir.Builtin, unknown bool) {
	if int(in.Imm) >= len(f.Calls) {
		return nil, ir.BNone, true
	}
	cs := &f.Calls[in.Imm]
	var fn *ir.Func
	switch in.Op {
	case ir.OpCallB:
		if _, known := builtinEffects(ir.Builtin(in.B)); !known {
			return nil, ir.BNone, true
		}
		return nil, ir.Builtin(in.B), false
	case ir.OpCall:
		if cs.Callee >= 0 && int(cs.Callee) < len(pv.p.Funcs) {
			fn = pv.p.Funcs[cs.Callee]
		}
	case ir.OpCallInd:
		fn = pv.constFuncAny(f, cs.FnSlot)
	}
	switch {
	case fn == nil:
		return nil, ir.BNone, true
	case !fn.External:
		return fn, ir.BNone, false
	}
	if _, known := builtinEffects(fn.Builtin); fn.Builtin == ir.BNone || !known {
		return nil, ir.BNone, true
	}
	return nil, fn.Builtin, false
}

// constFuncAny returns the function (a program or a platform function)
// whose address slot s of f holds as a constant, or nil.
func (pv *provenance) constFuncAny(f *ir.Func, s int32) *ir.Func {
	k := s - f.ConstBase
	if s < f.ConstBase || int(k) >= len(f.Consts) {
		return nil
	}
	c := f.Consts[k]
	id := ir.PtrBlock(c)
	if ir.PtrOff(c) != 0 || id < pv.firstFunc || id >= pv.afterFunctions {
		return nil
	}
	return pv.p.Funcs[id-pv.firstFunc]
}

// constFunc returns the program function whose address slot s of f holds
// as a constant, or nil.
func (pv *provenance) constFunc(f *ir.Func, s int32) *ir.Func {
	if fn := pv.constFuncAny(f, s); fn != nil && !fn.External {
		return fn
	}
	return nil
}

// observes returns the pc of an instruction of f that may see a dynamic
// block's id, or -1.
func (pv *provenance) observes(fi int, f *ir.Func) int {
	numLoad := make(map[int]bool, len(f.NumLoads))
	for _, pc := range f.NumLoads {
		numLoad[int(pc)] = true
	}
	for pc, in := range f.Code {
		switch in.Op {
		case ir.OpLoad, ir.OpLoadAgg, ir.OpAtomicRMW, ir.OpCmpXchg:
			// a number read from bytes that may hold a dynamic address
			// (a union, a type pun, a pointer copied into an integer)
			if numLoad[pc] && pv.holdsAddress(pv.get(fi, in.A, 1)) {
				return pc
			}
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
		case ir.OpEq, ir.OpNe:
			// whether address reuse may make two blocks equal depends on
			// the order of frees and allocations (vm/reuse.go)
			if in.Flags&ir.FlagPtrCmp != 0 && pv.reuse && pv.any(fi, in.A, 1) && pv.any(fi, in.B, 1) {
				return pc
			}
		case ir.OpCall, ir.OpCallInd, ir.OpCallB:
			if int(in.Imm) >= len(f.Calls) {
				return pc
			}
			cs := &f.Calls[in.Imm]
			callee, b, unknown := pv.target(f, in)
			if callee != nil {
				continue
			}
			// (an unknown call may be memcmp's or qsort's)
			if e, _ := builtinEffects(b); e.reads || unknown {
				for k := range cs.Args {
					if s, n := argSlots(cs, k); pv.holdsAddress(pv.get(fi, s, n)) {
						return pc // a pointer's bytes compared or sorted
					}
				}
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
	// reads: it compares or orders the bytes of memory its arguments
	// point to, whatever they hold, so it would see the bytes of a pointer
	// stored there (memcmp, qsort). memcpy, memmove and realloc copy bytes
	// (the analysis copies the contents: a load of a number from the copy
	// sees them). The string functions read bytes up to a zero byte, printf
	// and its kin print the bytes they read as characters: not covered.
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
		return effects{addr: true}, true
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
