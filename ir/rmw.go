package ir

import (
	"strings"

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
			// (clang names a bit-field store's load bf.load: the same
			// pattern in a program's own code, x = (x & M) | v, reads x)
			if uses[l] == 1 && l.Src == st.Dst && !l.Volatile && !l.Atomic && strings.HasPrefix(l.Name(), "bf.load") {
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
	out := map[*lir.InstAlloca]bool{}
	for _, b := range f.Blocks {
		for _, in := range b.Insts {
			if a, ok := in.(*lir.InstAlloca); ok {
				switch a.ElemType.(type) {
				case *types.IntType, *types.PointerType, *types.FloatType:
					if a.NElems != nil {
						out[a] = true
					}
				default:
					out[a] = true
				}
			}
		}
	}
	addressUses(f, func(v value.Value) {
		if a, ok := v.(*lir.InstAlloca); ok {
			out[a] = true
		}
	})
	return out
}

// addressUses calls use with each operand of f's instructions that is
// used otherwise than as the address of a load or a store: a call's
// argument (unwrapped from its attributes), a stored value, a GEP's base,
// any other instruction's operand.
func addressUses(f *lir.Func, use func(value.Value)) {
	visit := func(in interface{ Operands() []*value.Value }, allowed *value.Value) {
		for _, op := range in.Operands() {
			if op != allowed {
				use(unwrapArg(*op))
			}
		}
	}
	for _, b := range f.Blocks {
		for _, in := range b.Insts {
			switch in := in.(type) {
			case *lir.InstLoad:
				visit(in, &in.Src)
			case *lir.InstStore:
				visit(in, &in.Dst)
			case interface{ Operands() []*value.Value }:
				visit(in, nil)
			}
		}
		if t, ok := b.Term.(interface{ Operands() []*value.Value }); ok {
			visit(t, nil)
		}
	}
}
