package ir

import (
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/value"
)

// ReusesAddresses reports whether a run of p may compare the address of a
// freed heap block with that of a block allocated after it: p frees heap
// memory (it declares free or realloc) and has a FlagPtrCmp comparison.
// Only then does the vm model an allocator's reuse of freed addresses
// (docs/semantics.md, "Behaviours POSIX allows"), so the semantics and the
// state space of every other program stay as they were.
func (p *Program) ReusesAddresses() bool {
	frees := false
	for _, f := range p.Funcs {
		if f.External && (f.Builtin == BFree || f.Builtin == BRealloc) {
			frees = true
			break
		}
	}
	if !frees {
		return false
	}
	for _, f := range p.Funcs {
		for i := range f.Code {
			if in := &f.Code[i]; (in.Op == OpEq || in.Op == OpNe) && in.Flags&FlagPtrCmp != 0 {
				return true
			}
		}
	}
	return false
}

// isConstant reports whether v is a constant (null, a global's or a
// function's address, a constant expression of them).
func isConstant(v value.Value) bool {
	_, ok := v.(constant.Constant)
	return ok
}

// MallocsUndefined reports whether a run of p may allocate heap memory
// whose bytes are undefined until written: p declares malloc or realloc
// (calloc's bytes are zero).
func (p *Program) MallocsUndefined() bool {
	for _, f := range p.Funcs {
		if f.External && (f.Builtin == BMalloc || f.Builtin == BRealloc) {
			return true
		}
	}
	return false
}

// UndefinedMemory reports whether a run of p may allocate memory whose
// bytes are undefined until written: heap memory (MallocsUndefined) or an
// alloca marked AuxUndef (an array, a struct, a variable whose address is
// passed on). Only then does the vm track undefined bytes
// (docs/semantics.md, "Memory"), so every other program's code and states
// stay as they were.
func (p *Program) UndefinedMemory() bool {
	if p.MallocsUndefined() {
		return true
	}
	for _, f := range p.Funcs {
		for i := range f.Code {
			if in := &f.Code[i]; in.Op == OpAlloca && in.Aux == AuxUndef {
				return true
			}
		}
	}
	return false
}
