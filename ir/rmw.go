package ir

import (
	lir "github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"
)

// bitfieldRMW returns the loads of f that read a bit-field's storage unit
// only to store it back with one field changed, as clang compiles a store
// to a bit-field:
//
//	%l = load iN, iN* %p
//	%c = and iN %l, MASK      (the other fields' bits)
//	%s = or iN %c, %v         (or %v, %c)
//	store iN %s, iN* %p
//
// each value used once, by the next instruction of the pattern. Such a
// load reads no value the program goes on with but the other fields'
// bits, which the store writes back unchanged, so the vm does not draw the
// undefined bytes it reads (FlagRMW, vm/undef.go).
func bitfieldRMW(f *lir.Func) map[*lir.InstLoad]bool {
	uses := map[value.Value]int{}
	var users []lir.Instruction
	for _, b := range f.Blocks {
		for _, in := range b.Insts {
			if o, ok := in.(interface{ Operands() []*value.Value }); ok {
				for _, op := range o.Operands() {
					uses[unwrapArg(*op)]++
				}
			}
			users = append(users, in)
		}
		if t, ok := b.Term.(interface{ Operands() []*value.Value }); ok {
			for _, op := range t.Operands() {
				uses[unwrapArg(*op)]++
			}
		}
	}
	var out map[*lir.InstLoad]bool
	for _, in := range users {
		st, ok := in.(*lir.InstStore)
		if !ok || st.Volatile || st.Atomic {
			continue
		}
		or, ok := st.Src.(*lir.InstOr)
		if !ok || uses[or] != 1 {
			continue
		}
		for _, x := range []value.Value{or.X, or.Y} {
			and, ok := x.(*lir.InstAnd)
			if !ok || uses[and] != 1 {
				continue
			}
			l, ok := and.X.(*lir.InstLoad)
			if _, cst := and.Y.(constant.Constant); !ok || !cst {
				continue
			}
			if uses[l] == 1 && l.Src == st.Dst && !l.Volatile && !l.Atomic {
				if out == nil {
					out = map[*lir.InstLoad]bool{}
				}
				out[l] = true
			}
		}
	}
	return out
}

// undefAllocas returns the allocas of f whose bytes are undefined until
// written (AuxUndef): arrays, structs, allocas of several elements, and
// allocas whose address is used otherwise than by the loads from it and
// the stores to it (passed to a function, stored, offset by a GEP).
func undefAllocas(f *lir.Func) map[*lir.InstAlloca]bool {
	var out map[*lir.InstAlloca]bool
	mark := func(a *lir.InstAlloca) {
		if out == nil {
			out = map[*lir.InstAlloca]bool{}
		}
		out[a] = true
	}
	use := func(in interface{ Operands() []*value.Value }, allowed *value.Value) {
		for _, op := range in.Operands() {
			if op == allowed {
				continue
			}
			if a, ok := unwrapArg(*op).(*lir.InstAlloca); ok {
				mark(a)
			}
		}
	}
	for _, b := range f.Blocks {
		for _, in := range b.Insts {
			switch in := in.(type) {
			case *lir.InstAlloca:
				switch in.ElemType.(type) {
				case *types.IntType, *types.PointerType, *types.FloatType:
					if in.NElems != nil {
						mark(in)
					}
				default:
					mark(in)
				}
			case *lir.InstLoad:
				use(in, &in.Src)
			case *lir.InstStore:
				use(in, &in.Dst)
			case interface{ Operands() []*value.Value }:
				use(in, nil)
			}
		}
		if t, ok := b.Term.(interface{ Operands() []*value.Value }); ok {
			use(t, nil)
		}
	}
	return out
}
