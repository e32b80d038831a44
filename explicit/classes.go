package explicit

import (
	"math"
	"slices"

	"github.com/wyvernmc/wyvern/ir"
)

// Input classes (issue #30, docs/explicit.md). A __VERIFIER_nondet_* call
// of 2^32 or 2^64 values cannot be enumerated, but most programs only
// compare the value with constants: `if (nondet_int())`, `switch (x)`,
// `if (x == 123456789)`, or store it and compare what they load back
// (stack-1 pushes values and compares the popped ones with UNDERFLOW).
// The constants cut [0, 2^w) into a few intervals whose values the program
// cannot tell apart; the search enumerates the first value of each.
//
// inputClasses follows the value of each wide nondet call (the source)
// through the whole program, flow-insensitively: the source's result slot
// is tainted; a copy (mov, which is also zext), a select's chosen operand,
// a phi copy, a direct call's parameter, a return to a direct call's
// result, and a load that may read a tainted memory object taint their
// destination; a store of a tainted value taints the objects its address
// may point into (a points-to analysis, flow below). Every other read of a
// tainted slot must be a comparison with a constant or a switch: the
// constants are the cuts. Anything else (arithmetic, an address, an index,
// a platform call's argument such as printf's or assume's, an indirect
// call, a return to an unknown caller, a truncation or sign extension, an
// aggregate) refuses the source, which keeps the error the search gave
// before. Memory objects are globals and allocas (each alloca instruction
// one object for all its frames); a tainted object must not escape (its
// address only flows, through the same copies, GEPs, direct calls and
// returns, to the address operands of loads and stores, and to
// comparisons), must not be thread-local, and every access to it is a load
// or store of one width, at least the source's, at offsets that are
// multiples of that width (every GEP into it and every constant pointer
// into it is a multiple), so that a load reads back exactly one stored
// value: a tainted value v or an untainted one, zero-extended. A store of
// a tainted value must go through an address that points only into known
// objects.
//
// Sound for queries that read no registers, locals, globals or operands
// (DivZero, OverFlows): take two values v, v' of one class and a run that
// draws v at the source. Replacing v by v' in that draw and in every slot
// and memory cell that holds a copy of it gives a run of the same
// instructions: every instruction that reads a copy only copies it on or
// compares it with a constant whose outcome is the same for v and v' (they
// lie in the same interval between cuts), so control flow, every untainted
// value, every address, every error and every enabled set stay the same,
// and the states differ only in cells the query does not read. So each
// state reachable with v' corresponds to one reachable with the class's
// first value that the query cannot tell apart, and the search over
// representatives visits a state of every such class. A representative is
// itself a value of the class, so every trace is a run of the program (a
// witness replays as it is). Probabilities are those of the classes (their
// sizes over 2^w). Used only where the choice would otherwise be refused
// (more outcomes than MaxBranching), so no search that worked before
// changes.

// classes are the values that a nondet call's result is enumerated by.
type classes struct {
	reps []uint64 // first value of each class, ascending from 0
	w    uint8    // width of the value in bits
}

// size returns the number of values of class i.
func (c *classes) size(i int) float64 {
	end := math.Exp2(float64(c.w))
	if i+1 < len(c.reps) {
		end = float64(c.reps[i+1])
	}
	return end - float64(c.reps[i])
}

// prob returns the probability of class i under a uniform draw.
func (c *classes) prob(i int) float64 { return c.size(i) / math.Exp2(float64(c.w)) }

// objs is what a pointer slot may point into: known objects (globals,
// then allocas) and, if unknown, anything else.
type objs struct {
	unknown bool
	o       []int32 // sorted
}

func (s *objs) add(t *objs) bool {
	ch := false
	if t.unknown && !s.unknown {
		s.unknown, ch = true, true
	}
	for _, x := range t.o {
		if i, found := slices.BinarySearch(s.o, x); !found {
			s.o = slices.Insert(s.o, i, x)
			ch = true
		}
	}
	return ch
}

// callRef is a direct call: caller and pc.
type callRef struct {
	fn int
	pc int
}

// flow is the points-to analysis shared by the sources.
type flow struct {
	p       *ir.Program
	nG      int
	allocas map[site]int32
	nObj    int
	base    [][]objs // per function, per slot
	escaped []bool   // per object: its address reaches untracked places
	// contents are, per object that has not escaped, what the pointers
	// stored into it may point into (field-insensitive)
	contents []objs
	direct   []bool // per function: entered only by direct calls
	callers  [][]callRef
	tls      []bool  // per object: thread-local global
	rets     [][]int // per function: pcs of its returns of a value
}

func newFlow(p *ir.Program) *flow {
	fl := &flow{p: p, nG: len(p.Globals), allocas: map[site]int32{}, base: make([][]objs, len(p.Funcs)),
		direct: make([]bool, len(p.Funcs)), callers: make([][]callRef, len(p.Funcs)), rets: make([][]int, len(p.Funcs))}
	fl.nObj = fl.nG
	for _, f := range p.Funcs {
		if f.External {
			continue
		}
		fl.base[f.Index] = make([]objs, f.NRegs)
		fl.direct[f.Index] = f.Index != p.Entry
		for pc, in := range f.Code {
			if in.Op == ir.OpRet && in.A >= 0 {
				fl.rets[f.Index] = append(fl.rets[f.Index], pc)
			}
			if in.Op == ir.OpAlloca {
				fl.allocas[site{f.Index, int32(pc)}] = int32(fl.nObj)
				fl.nObj++
			}
		}
	}
	fl.escaped = make([]bool, fl.nObj)
	fl.contents = make([]objs, fl.nObj)
	fl.tls = make([]bool, fl.nObj)
	for i, g := range p.Globals {
		fl.tls[i] = g.ThreadLocal
	}
	// functions whose address is taken are entered by unknown callers
	fnOf := func(v uint64) int {
		b := ir.PtrBlock(v)
		if b >= p.FirstFuncBlock && b < p.FirstFuncBlock+uint32(len(p.Funcs)) {
			return int(b - p.FirstFuncBlock)
		}
		return -1
	}
	for _, f := range p.Funcs {
		for _, v := range f.Consts {
			if i := fnOf(v); i >= 0 {
				fl.direct[i] = false
			}
		}
	}
	// pointers in initial memory: the objects escape, the functions are
	// address-taken (every 4- and 8-byte window, both encodings)
	for _, g := range p.Globals {
		for i := 0; i+4 <= len(g.Init); i++ {
			var ws []uint64
			x := uint64(g.Init[i]) | uint64(g.Init[i+1])<<8 | uint64(g.Init[i+2])<<16 | uint64(g.Init[i+3])<<24
			ws = append(ws, ir.FromPtr32(uint32(x)))
			if i+8 <= len(g.Init) {
				y := x | uint64(g.Init[i+4])<<32 | uint64(g.Init[i+5])<<40 | uint64(g.Init[i+6])<<48 | uint64(g.Init[i+7])<<56
				ws = append(ws, y)
			}
			for _, v := range ws {
				if j := fnOf(v); j >= 0 {
					fl.direct[j] = false
				}
				if o := fl.global(v); o >= 0 {
					fl.escape(o)
				}
			}
		}
	}
	for _, f := range p.Funcs {
		if f.External {
			continue
		}
		for pc, in := range f.Code {
			if in.Op == ir.OpCall && int(in.Imm) < len(f.Calls) {
				if c := f.Calls[in.Imm].Callee; c >= 0 && int(c) < len(p.Funcs) {
					fl.callers[c] = append(fl.callers[c], callRef{f.Index, pc})
				}
			}
		}
	}
	fl.solve()
	return fl
}

// global returns the object of the global a pointer value points into, or -1.
func (fl *flow) global(v uint64) int32 {
	if b := ir.PtrBlock(v); b >= 1 && int(b) <= fl.nG {
		return int32(b - 1)
	}
	return -1
}

// isConst reports whether slot s of f is a constant, and its value.
func isConst(f *ir.Func, s int32) (uint64, bool) {
	if s >= f.ConstBase && int(s-f.ConstBase) < len(f.Consts) {
		return f.Consts[s-f.ConstBase], true
	}
	return 0, false
}

// reads calls fn for every range of slots that in reads.
func reads(f *ir.Func, in *ir.Inst, fn func(start, n int32)) {
	one := func(s int32) {
		if s >= 0 {
			fn(s, 1)
		}
	}
	switch in.Op {
	case ir.OpNop, ir.OpFence, ir.OpJmp, ir.OpJmpE, ir.OpUnreachable, ir.OpTrap, ir.OpStackSave:
	case ir.OpMov, ir.OpTrunc, ir.OpSExt, ir.OpFPToSI, ir.OpFPToUI, ir.OpSIToFP, ir.OpUIToFP, ir.OpFPTrunc,
		ir.OpFPExt, ir.OpFNeg, ir.OpGEPC, ir.OpLoad, ir.OpLoadAgg, ir.OpBr, ir.OpBrE, ir.OpSwitch,
		ir.OpCtpop, ir.OpCtlz, ir.OpCttz, ir.OpBswap, ir.OpAbs, ir.OpFAbs, ir.OpSqrt, ir.OpPtrToInt,
		ir.OpIntToPtr, ir.OpStackRestore, ir.OpAlloca:
		one(in.A)
	case ir.OpMovN:
		fn(in.A, int32(in.Imm))
	case ir.OpSelectN:
		one(in.A)
		fn(in.B, int32(in.Imm))
		fn(in.C, int32(in.Imm))
	case ir.OpExtract:
		fn(in.A, in.B+int32(in.Imm))
	case ir.OpInsert:
		fn(in.A, in.C)
		fn(in.B, int32(in.Imm>>32))
	case ir.OpStoreAgg:
		one(in.A)
		if int(in.Imm) < len(f.Aggs) {
			fn(in.B, int32(len(f.Aggs[in.Imm].Offs)))
		}
	case ir.OpGEPN:
		if int(in.Imm) < len(f.GEPs) {
			g := &f.GEPs[in.Imm]
			one(g.Base)
			for _, s := range g.Idx {
				one(s)
			}
		}
	case ir.OpRet:
		if in.A >= 0 {
			fn(in.A, max(int32(in.Imm), 1))
		}
	case ir.OpCall, ir.OpCallInd, ir.OpCallB:
		if int(in.Imm) < len(f.Calls) {
			cs := &f.Calls[in.Imm]
			if in.Op == ir.OpCallInd {
				one(cs.FnSlot)
			}
			for i, a := range cs.Args {
				n := int32(1)
				if i < len(cs.ArgSlots) && cs.ArgSlots[i] > 0 {
					n = cs.ArgSlots[i]
				}
				fn(a, n)
			}
		}
	case ir.OpSelect, ir.OpFshl, ir.OpFshr, ir.OpFMulAdd, ir.OpCmpXchg:
		one(in.A)
		one(in.B)
		one(in.C)
	default: // two-operand instructions (C is unused, often 0)
		one(in.A)
		one(in.B)
	}
}

// dsts returns the slots in writes (over-approximated).
func dsts(f *ir.Func, in *ir.Inst) (int32, int32) {
	switch in.Op {
	case ir.OpStore, ir.OpStoreAgg, ir.OpBr, ir.OpBrE, ir.OpSwitch, ir.OpJmp, ir.OpJmpE, ir.OpRet,
		ir.OpNop, ir.OpFence, ir.OpUnreachable, ir.OpTrap, ir.OpStackRestore:
		return 0, 0
	case ir.OpMovN, ir.OpSelectN, ir.OpExtract:
		return in.Dst, int32(in.Imm)
	case ir.OpInsert:
		return in.Dst, in.C
	case ir.OpLoadAgg:
		if int(in.Imm) < len(f.Aggs) {
			return in.Dst, int32(len(f.Aggs[in.Imm].Offs))
		}
	case ir.OpCall, ir.OpCallInd, ir.OpCallB:
		if int(in.Imm) < len(f.Calls) {
			cs := &f.Calls[in.Imm]
			if cs.Ret >= 0 {
				return cs.Ret, max(cs.RetSlots, 1)
			}
		}
		return 0, 0
	}
	if in.Dst < 0 {
		return 0, 0
	}
	switch in.Op {
	case ir.OpSAddO, ir.OpUAddO, ir.OpSSubO, ir.OpUSubO, ir.OpSMulO, ir.OpUMulO, ir.OpCmpXchg:
		return in.Dst, 2
	}
	return in.Dst, 1
}

// escape marks o and what it may hold escaped; it reports whether that
// changed anything.
func (fl *flow) escape(o int32) bool {
	if fl.escaped[o] {
		return false
	}
	fl.escaped[o] = true
	for _, x := range fl.contents[o].o {
		fl.escape(x)
	}
	return true
}

// solve computes base and contents to a fixpoint, and escaped.
func (fl *flow) solve() {
	p := fl.p
	unknown := &objs{unknown: true}
	for _, f := range p.Funcs {
		if f.External {
			continue
		}
		b := fl.base[f.Index]
		for i, v := range f.Consts {
			if o := fl.global(v); o >= 0 {
				b[f.ConstBase+int32(i)] = objs{o: []int32{o}}
			}
		}
		for i, s := range f.Params {
			if !fl.direct[f.Index] || f.HasByval && i < len(f.Byval) && f.Byval[i] > 0 {
				for k := s; k < int32(len(b)) && (k == s || k < int32(f.NParams)); k++ {
					b[k].unknown = true
				}
			}
		}
		if !fl.direct[f.Index] {
			for k := 0; k < f.NParams && k < len(b); k++ {
				b[k].unknown = true
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for _, f := range p.Funcs {
			if f.External {
				continue
			}
			b := fl.base[f.Index]
			slot := func(s int32) *objs {
				if s >= 0 && int(s) < len(b) {
					return &b[s]
				}
				return &objs{}
			}
			prop := func(src, dst int32) {
				if src >= 0 && dst >= 0 && int(dst) < len(b) && slot(dst).add(slot(src)) {
					changed = true
				}
			}
			setUnknown := func(start, n int32) {
				for s := start; s < start+n && s >= 0 && int(s) < len(b); s++ {
					if b[s].add(unknown) {
						changed = true
					}
				}
			}
			escape := func(start, n int32) {
				for s := start; s < start+n && s >= 0 && int(s) < len(b); s++ {
					for _, o := range b[s].o {
						if fl.escape(o) {
							changed = true
						}
					}
				}
			}
			for _, e := range f.Edges {
				for _, mv := range e.Moves {
					prop(mv.Src, mv.Dst)
				}
			}
			for pc := range f.Code {
				in := &f.Code[pc]
				switch in.Op {
				case ir.OpMov, ir.OpGEPC:
					prop(in.A, in.Dst)
				case ir.OpSelect:
					prop(in.B, in.Dst)
					prop(in.C, in.Dst)
				case ir.OpGEP1:
					prop(in.A, in.Dst)
					escape(in.B, 1)
				case ir.OpGEPN:
					if int(in.Imm) < len(f.GEPs) {
						g := &f.GEPs[in.Imm]
						prop(g.Base, in.Dst)
						for _, s := range g.Idx {
							escape(s, 1)
						}
					}
				case ir.OpAlloca:
					if o, ok := fl.allocas[site{f.Index, int32(pc)}]; ok && slot(in.Dst).add(&objs{o: []int32{o}}) {
						changed = true
					}
				case ir.OpLoad, ir.OpLoadAgg:
					// what the stores into its objects stored (an
					// aggregate, as ILP32's pointers are, leaf by leaf)
					start, n := in.Dst, int32(1)
					if in.Op == ir.OpLoadAgg {
						start, n = dsts(f, in)
					}
					a := slot(in.A)
					for d := start; d < start+n && d >= 0 && int(d) < len(b); d++ {
						if a.unknown || len(a.o) == 0 {
							setUnknown(d, 1)
						}
						for _, o := range a.o {
							if fl.escaped[o] {
								setUnknown(d, 1)
							} else if b[d].add(&fl.contents[o]) {
								changed = true
							}
						}
					}
				case ir.OpStore, ir.OpStoreAgg:
					start, n := in.B, int32(1)
					if in.Op == ir.OpStoreAgg {
						n = int32(len(f.Aggs[in.Imm].Offs))
					}
					a := slot(in.A)
					if a.unknown || len(a.o) == 0 {
						escape(start, n)
					}
					for _, o := range a.o {
						if fl.escaped[o] {
							escape(start, n)
							continue
						}
						for v := start; v < start+n; v++ {
							if fl.contents[o].add(slot(v)) {
								changed = true
							}
						}
					}
				case ir.OpEq, ir.OpNe, ir.OpUlt, ir.OpUle, ir.OpUgt, ir.OpUge, ir.OpSlt, ir.OpSle, ir.OpSgt, ir.OpSge,
					ir.OpBr, ir.OpBrE, ir.OpSwitch, ir.OpJmp, ir.OpJmpE, ir.OpNop, ir.OpFence, ir.OpUnreachable:
					// reads no pointer into a new place
				case ir.OpCall:
					cs := &f.Calls[in.Imm]
					g := p.Funcs[cs.Callee]
					gb := fl.base[g.Index]
					for i, a := range cs.Args {
						n := int32(1)
						if i < len(cs.ArgSlots) && cs.ArgSlots[i] > 0 {
							n = cs.ArgSlots[i]
						}
						if g.External || gb == nil || i >= len(g.Params) || n != 1 || g.HasByval && i < len(g.Byval) && g.Byval[i] > 0 {
							escape(a, n)
							continue
						}
						if ps := g.Params[i]; int(ps) < len(gb) && gb[ps].add(slot(a)) {
							changed = true
						}
					}
					if cs.Ret >= 0 {
						if g.External || gb == nil {
							setUnknown(cs.Ret, max(cs.RetSlots, 1))
							continue
						}
						for _, pc := range fl.rets[g.Index] {
							r := &g.Code[pc]
							for k := int32(0); k < max(int32(r.Imm), 1) && k < max(cs.RetSlots, 1); k++ {
								if int(r.A+k) < len(gb) && int(cs.Ret+k) < len(b) && b[cs.Ret+k].add(&gb[r.A+k]) {
									changed = true
								}
							}
						}
					}
				case ir.OpRet:
					if !fl.direct[f.Index] && in.A >= 0 {
						escape(in.A, max(int32(in.Imm), 1))
					}
				default:
					reads(f, in, escape)
					setUnknown(dsts(f, in))
				}
			}
		}
	}
}

// mirror turns k op v into v op' k.
var mirror = map[ir.Op]ir.Op{ir.OpEq: ir.OpEq, ir.OpNe: ir.OpNe, ir.OpUlt: ir.OpUgt, ir.OpUle: ir.OpUge,
	ir.OpUgt: ir.OpUlt, ir.OpUge: ir.OpUle, ir.OpSlt: ir.OpSgt, ir.OpSle: ir.OpSge, ir.OpSgt: ir.OpSlt, ir.OpSge: ir.OpSle}

// nondetSources returns the nondet calls of p and their widths.
func nondetSources(p *ir.Program) map[site]uint8 {
	out := map[site]uint8{}
	for _, f := range p.Funcs {
		if f.External {
			continue
		}
		for pc := range f.Code {
			if b, ok := builtinAt(p, f, pc); ok && b == ir.BNondet {
				cs := &f.Calls[f.Code[pc].Imm]
				if cs.Ret >= 0 && cs.RetSlots == 1 && cs.RetBits >= 8 && cs.RetBits <= 64 {
					out[site{f.Index, int32(pc)}] = cs.RetBits
				}
			}
		}
	}
	return out
}

// inputClasses returns the classes of each nondet call of p of more than
// max values that the analysis accepts.
func inputClasses(p *ir.Program, max uint64) map[site]*classes {
	var fl *flow
	var out map[site]*classes
	for s, w := range nondetSources(p) {
		if w < 64 && uint64(1)<<w <= max {
			continue
		}
		if fl == nil {
			fl = newFlow(p)
		}
		if c, why := fl.classesOf(s, w); why == "" && uint64(len(c.reps)) <= max {
			if out == nil {
				out = map[site]*classes{}
			}
			out[s] = c
		}
	}
	return out
}

// classesOf runs the taint analysis of one source: its classes, or why
// it refuses the source.
func (fl *flow) classesOf(src site, w uint8) (*classes, string) {
	p := fl.p
	mask := ^uint64(0)
	if w < 64 {
		mask = 1<<w - 1
	}
	cuts := map[uint64]bool{0: true}
	cut := func(k uint64) {
		if k <= mask && k != 0 {
			cuts[k] = true
		}
	}
	tainted := make([][]bool, len(p.Funcs))
	for _, f := range p.Funcs {
		if !f.External {
			tainted[f.Index] = make([]bool, f.NRegs)
		}
	}
	tobj := make([]bool, fl.nObj)
	width := make([]uint8, fl.nObj) // access width in bytes of a tainted object
	changed := false
	taint := func(fn int, s int32) {
		if t := tainted[fn]; s >= 0 && int(s) < len(t) && !t[s] {
			t[s], changed = true, true
		}
	}
	f0 := p.Funcs[src.fn]
	taint(src.fn, f0.Calls[f0.Code[src.pc].Imm].Ret)
	for changed = true; changed; {
		changed = false
		for _, f := range p.Funcs {
			if f.External {
				continue
			}
			t, b := tainted[f.Index], fl.base[f.Index]
			is := func(s int32) bool { return s >= 0 && int(s) < len(t) && t[s] }
			anyIn := func(start, n int32) bool {
				for s := start; s < start+n; s++ {
					if is(s) {
						return true
					}
				}
				return false
			}
			for _, e := range f.Edges {
				for _, mv := range e.Moves {
					if is(mv.Src) {
						taint(f.Index, mv.Dst)
					}
				}
			}
			for pc := range f.Code {
				in := &f.Code[pc]
				if in.Op == ir.OpLoad && in.A >= 0 && int(in.A) < len(b) {
					for _, o := range b[in.A].o {
						if tobj[o] {
							taint(f.Index, in.Dst)
						}
					}
				}
				hit := false
				reads(f, in, func(start, n int32) { hit = hit || anyIn(start, n) })
				if !hit {
					continue
				}
				switch in.Op {
				case ir.OpMov:
					taint(f.Index, in.Dst)
				case ir.OpSelect:
					if is(in.A) {
						return nil, "a select on the value"
					}
					taint(f.Index, in.Dst)
				case ir.OpEq, ir.OpNe, ir.OpUlt, ir.OpUle, ir.OpUgt, ir.OpUge, ir.OpSlt, ir.OpSle, ir.OpSgt, ir.OpSge:
					var k uint64
					var ok bool
					switch {
					case is(in.A) && !is(in.B):
						k, ok = isConst(f, in.B)
					case is(in.B) && !is(in.A):
						k, ok = isConst(f, in.A)
					}
					if !ok {
						return nil, "compared with a non-constant"
					}
					// v < k and v >= k change at k, v <= k and v > k at
					// k+1, v == k and v != k at both (k op v mirrored); a
					// signed predicate at v's width also at its sign bit
					// (v zero-extended to a wider type is non-negative
					// there; a cut for a constant beyond v's range only
					// refines)
					op := in.Op
					if !is(in.A) {
						op = mirror[op]
					}
					switch op {
					case ir.OpUlt, ir.OpUge, ir.OpSlt, ir.OpSge:
						cut(k & mask)
					case ir.OpUle, ir.OpUgt, ir.OpSle, ir.OpSgt:
						cut((k + 1) & mask)
					default:
						cut(k & mask)
						cut((k + 1) & mask)
					}
					if in.Op >= ir.OpSlt {
						if in.W != 0 && in.W < w {
							return nil, "a signed comparison narrower than the value"
						}
						if in.W == 0 || in.W == w {
							cut(1 << (w - 1))
						}
					}
				case ir.OpSwitch:
					if int(in.Imm) >= len(f.Switches) {
						return nil, "a switch table out of range"
					}
					for _, k := range f.Switches[in.Imm].Vals {
						cut(k)
						if k != math.MaxUint64 {
							cut(k + 1)
						}
					}
				case ir.OpStore:
					if is(in.A) || int(in.W)*8 < int(w) || in.A < 0 || int(in.A) >= len(b) {
						return nil, "stored as an address, or narrower"
					}
					a := &b[in.A]
					if a.unknown || len(a.o) == 0 {
						return nil, "stored through a pointer to unknown memory"
					}
					for _, o := range a.o {
						if !tobj[o] {
							tobj[o], width[o], changed = true, in.W, true
						}
					}
				case ir.OpCall:
					cs := &f.Calls[in.Imm]
					g := p.Funcs[cs.Callee]
					for i, a := range cs.Args {
						n := int32(1)
						if i < len(cs.ArgSlots) && cs.ArgSlots[i] > 0 {
							n = cs.ArgSlots[i]
						}
						if !anyIn(a, n) {
							continue
						}
						if g.External || tainted[g.Index] == nil || n != 1 || i >= len(g.Params) || g.HasByval && i < len(g.Byval) && g.Byval[i] > 0 {
							return nil, "passed to an external, variadic, aggregate or byval parameter"
						}
						taint(g.Index, g.Params[i])
					}
				case ir.OpRet:
					if !fl.direct[f.Index] || in.Imm > 1 {
						return nil, "returned to an unknown caller"
					}
					for _, c := range fl.callers[f.Index] {
						g := p.Funcs[c.fn]
						cs := &g.Calls[g.Code[c.pc].Imm]
						if cs.Ret < 0 || cs.RetSlots > 1 {
							return nil, "returned as an aggregate"
						}
						taint(c.fn, cs.Ret)
					}
				default:
					return nil, "used by " + in.Op.String()
				}
			}
		}
	}
	// the tainted objects: not escaped, not thread-local, accessed whole
	for o, on := range tobj {
		if on && (fl.escaped[o] || fl.tls[o]) {
			return nil, "stored into an object whose address escapes or a thread-local"
		}
	}
	hits := func(s *objs) bool {
		for _, o := range s.o {
			if tobj[o] {
				return true
			}
		}
		return false
	}
	aligned := func(s *objs, off int64) bool {
		for _, o := range s.o {
			if tobj[o] && off%int64(width[o]) != 0 {
				return false
			}
		}
		return true
	}
	for _, f := range p.Funcs {
		if f.External {
			continue
		}
		b := fl.base[f.Index]
		at := func(s int32) *objs {
			if s >= 0 && int(s) < len(b) {
				return &b[s]
			}
			return &objs{}
		}
		for _, v := range f.Consts {
			if o := fl.global(v); o >= 0 && tobj[o] && int64(ir.PtrOff(v))%int64(width[o]) != 0 {
				return nil, "a pointer into its object not aligned to the access width"
			}
		}
		for pc := range f.Code {
			in := &f.Code[pc]
			switch in.Op {
			case ir.OpLoad, ir.OpStore:
				for _, o := range at(in.A).o {
					if tobj[o] && in.W != width[o] {
						return nil, "an access of another width to its object"
					}
				}
			case ir.OpLoadAgg, ir.OpStoreAgg, ir.OpAtomicRMW, ir.OpCmpXchg:
				if hits(at(in.A)) {
					return nil, "an aggregate or atomic access to its object"
				}
			case ir.OpGEPC:
				if !aligned(at(in.A), int64(in.Imm)) {
					return nil, "a pointer into its object not aligned to the access width"
				}
			case ir.OpGEP1:
				if !aligned(at(in.A), int64(in.Imm)) {
					return nil, "a pointer into its object not aligned to the access width"
				}
			case ir.OpGEPN:
				g := &f.GEPs[in.Imm]
				if !aligned(at(g.Base), g.Off) {
					return nil, "a pointer into its object not aligned to the access width"
				}
				for _, sc := range g.Scale {
					if !aligned(at(g.Base), sc) {
						return nil, "a pointer into its object not aligned to the access width"
					}
				}
			}
		}
	}
	reps := make([]uint64, 0, len(cuts))
	for k := range cuts {
		reps = append(reps, k)
	}
	slices.Sort(reps)
	return &classes{reps: reps, w: w}, ""
}
