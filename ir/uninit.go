package ir

import (
	"fmt"

	lir "github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/metadata"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"
)

// UninitPrefix starts the name of the function a read of an uninitialised
// local variable draws its value from (uninitInputs): a
// __VERIFIER_nondet_ function, so every engine treats the value as an
// input, and a name an engine's message can recognise. It goes on with
// 'i' for a signed variable or 'u' for an unsigned one (its debug
// information's type; signed without one) and the width: a witness writes
// the value as its C type reads it.
const UninitPrefix = "__VERIFIER_nondet_uninit_"

// uninitInputs makes the value of every local integer variable that a run
// may read before writing it an input: right after its alloca it stores a
// value drawn by a call of a __VERIFIER_nondet_ function (UninitPrefix,
// the signedness and the width), declared in mod for the purpose, at the
// variable's declaration (its llvm.dbg.declare's location; else its first
// load's).
//
// C gives such a variable an indeterminate value (reading it is undefined
// when its address is never taken), and verification tools, SV-COMP's
// tasks among them, read it as any value of its type. Fresh stack memory
// is otherwise zeroed (vm), and a proof that held only for 0 would be a
// wrong TRUE (goblint-regression's idxunknown tasks index an array with an
// uninitialised int). Exhaustive search refuses such an input of more than
// MaxBranching values by name, unless its uses tell few values apart; BMC
// and simulation take it as any input. The analysis does not tell
// feasible paths from others (uninitReads): a variable written first on
// every path the program can take, but not on every path of its graph,
// gets an input that is never read (exhaustive search may then refuse a
// program it searched before).
//
// Only scalar integer allocas whose address is used by nothing but loads
// from and stores to it are analysed: an array, a struct or a variable
// whose address is passed on stays zeroed as before.
func uninitInputs(mod *lir.Module) {
	decls := map[string]*lir.Func{}
	n := 0
	for _, f := range mod.Funcs {
		if len(f.Blocks) == 0 {
			continue
		}
		for _, a := range uninitReads(f) {
			it := a.ElemType.(*types.IntType)
			v, md := declOf(f, a)
			sign := 'i'
			if v != nil && !signedVar(v) {
				sign = 'u'
			}
			key := fmt.Sprintf("%s%c%d", UninitPrefix, sign, it.BitSize)
			fn, ok := decls[key]
			if !ok {
				fn = uninitFunc(mod, key, it)
				decls[key] = fn
			}
			call := lir.NewCall(fn)
			// (a name of its own: an unnamed value's is its number, and
			// the function's register names map to slots, RegSlots)
			call.SetName(fmt.Sprintf("wyvern.uninit.%d", n))
			n++
			store := lir.NewStore(call, a)
			call.Metadata, store.Metadata = md, md
			insertAfter(f, a, call, store)
		}
	}
}

// uninitFunc returns a declaration of function name returning t without
// parameters: the module's own if it has one of that signature, else a
// new one, under name, or name with underscores added where the program
// uses name otherwise.
func uninitFunc(mod *lir.Module, name string, t *types.IntType) *lir.Func {
	for {
		var g *lir.Func
		for _, h := range mod.Funcs {
			if h.Name() == name {
				g = h
			}
		}
		if g == nil {
			return mod.NewFunc(name, t)
		}
		if len(g.Blocks) == 0 && len(g.Params) == 0 && !g.Sig.Variadic && g.Sig.RetType.Equal(t) {
			return g
		}
		name += "_"
	}
}

// signedVar tells whether the C type of variable v is signed (true when
// its debug information does not say).
func signedVar(v *metadata.DILocalVariable) bool {
	if t := cTypeOf(v.Type); t != nil && t.Kind == CScalar {
		return t.Signed
	}
	return true
}

// insertAfter puts the instructions ins right after instruction at in f.
func insertAfter(f *lir.Func, at lir.Instruction, ins ...lir.Instruction) {
	for _, b := range f.Blocks {
		for i, in := range b.Insts {
			if in == at {
				b.Insts = append(b.Insts[:i+1], append(ins, b.Insts[i+1:]...)...)
				return
			}
		}
	}
}

// declOf returns the debug information of alloca a in f (from its
// llvm.dbg.declare; nil without one) and the location to give its input:
// the declaration's, else the first load's of a (nil if neither has one).
func declOf(f *lir.Func, a *lir.InstAlloca) (*metadata.DILocalVariable, lir.Metadata) {
	var v *metadata.DILocalVariable
	var md, load lir.Metadata
	found := false
	for _, b := range f.Blocks {
		for _, in := range b.Insts {
			if ld, ok := in.(*lir.InstLoad); ok && ld.Src == value.Value(a) && load == nil {
				load = dbgOf(ld.Metadata)
			}
			call, ok := in.(*lir.InstCall)
			if !ok || found {
				continue
			}
			if g, ok := call.Callee.(*lir.Func); !ok || g.Name() != "llvm.dbg.declare" {
				continue
			}
			if val, dv := declared(call); val == value.Value(a) {
				v, md, found = dv, dbgOf(call.Metadata), true
			}
		}
	}
	if md == nil {
		md = load
	}
	return v, md
}

// dbgOf returns the !dbg attachment of mds alone (nil if none).
func dbgOf(mds lir.Metadata) lir.Metadata {
	for _, md := range mds {
		if md.Name == "dbg" {
			return lir.Metadata{md}
		}
	}
	return nil
}

// uninitReads returns the allocas of f of one integer of at most 64 bits
// that some path from f's entry loads before it stores to them, in f's
// order. An alloca whose address any instruction uses other than as the
// address of a load or a store (a call's argument, a stored value, a cast,
// a getelementptr) is left out: the code it escapes to may initialise it.
// Must-initialised sets are computed forward over f's blocks (the meet of
// the predecessors' sets, all variables at blocks not yet reached).
func uninitReads(f *lir.Func) []*lir.InstAlloca {
	idx := map[value.Value]int{}
	var vars []*lir.InstAlloca
	for _, b := range f.Blocks {
		for _, in := range b.Insts {
			a, ok := in.(*lir.InstAlloca)
			if !ok || a.NElems != nil {
				continue
			}
			if it, ok := a.ElemType.(*types.IntType); ok && it.BitSize >= 1 && it.BitSize <= 64 {
				idx[a] = len(vars)
				vars = append(vars, a)
			}
		}
	}
	if len(vars) == 0 {
		return nil
	}
	escaped := make([]bool, len(vars))
	addressUses(f, func(v value.Value) {
		if i, ok := idx[v]; ok {
			escaped[i] = true
		}
	})
	words := (len(vars) + 63) / 64
	type set []uint64
	full := func() set {
		s := make(set, words)
		for i := range s {
			s[i] = ^uint64(0)
		}
		return s
	}
	bi := map[*lir.Block]int{}
	for i, b := range f.Blocks {
		bi[b] = i
	}
	preds := make([][]int, len(f.Blocks))
	for i, b := range f.Blocks {
		if b.Term == nil {
			continue
		}
		for _, s := range b.Term.Succs() {
			if j, ok := bi[s]; ok {
				preds[j] = append(preds[j], i)
			}
		}
	}
	out := make([]set, len(f.Blocks))
	for i := range out {
		out[i] = full()
	}
	flagged := make([]bool, len(vars))
	// transfer runs block i from its entry set in, flagging loads of
	// variables not in it when flag is set; it returns the exit set.
	transfer := func(i int, in set, flag bool) set {
		s := append(set(nil), in...)
		for _, inst := range f.Blocks[i].Insts {
			switch inst := inst.(type) {
			case *lir.InstAlloca:
				// (an alloca run again, in a loop: a fresh variable)
				if v, ok := idx[inst]; ok {
					s[v/64] &^= 1 << (v % 64)
				}
			case *lir.InstStore:
				if v, ok := idx[inst.Dst]; ok && !escaped[v] {
					s[v/64] |= 1 << (v % 64)
				}
			case *lir.InstLoad:
				if v, ok := idx[inst.Src]; ok && !escaped[v] && s[v/64]>>(v%64)&1 == 0 && flag {
					flagged[v] = true
				}
			}
		}
		return s
	}
	entry := func(i int) set {
		if i == 0 {
			return make(set, words) // nothing initialised at f's entry
		}
		s := full()
		for _, p := range preds[i] {
			for w := range s {
				s[w] &= out[p][w]
			}
		}
		return s
	}
	for changed := true; changed; {
		changed = false
		for i := range f.Blocks {
			o := transfer(i, entry(i), false)
			for w := range o {
				if o[w] != out[i][w] {
					changed = true
				}
			}
			out[i] = o
		}
	}
	for i := range f.Blocks {
		transfer(i, entry(i), true)
	}
	var res []*lir.InstAlloca
	for v, a := range vars {
		if flagged[v] && !escaped[v] {
			res = append(res, a)
		}
	}
	return res
}
