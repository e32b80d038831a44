package ir

import (
	lir "github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
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
