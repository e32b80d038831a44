package ir

// WrapOverflow gives p two's-complement wrap-around for the arithmetic
// whose overflow LLVM makes poison and the vm an error (Overflow): the
// nsw and nuw flags of add, sub, mul and shl, and the int_min_poison flag
// of llvm.abs, are cleared, so that every engine (vm, explicit search,
// simulation, BMC, abstract interpretation) computes the wrapped value and
// goes on. It is what the program compiled without optimisations does on
// real hardware (gcc's and clang's -fwrapv), and the semantics SV-COMP's
// verifiers give the properties other than no-overflow.
//
// Kept as errors, deliberately: what real hardware does not silently wrap
// or what is no overflow of a sum or product — sdiv/srem of the minimum
// value by -1 (a trap on x86), udiv/sdiv/lshr/ashr exact with a remainder
// or shifted-out bits (the compiler's own claim, from pointer differences),
// fptosi/fptoui out of range (no wrapped value), and shifts by the bit
// width or more (ShiftOverflow). Code compiled with optimisations has no
// overflow checks (FlagLax) either way.
//
// Call it before the program's machines are made (vm.NewMachine reads the
// flags); it is idempotent.
func (p *Program) WrapOverflow() {
	if p.WrapsOverflow {
		return
	}
	for _, f := range p.Funcs {
		for i := range f.Code {
			in := &f.Code[i]
			switch in.Op {
			case OpAdd, OpSub, OpMul, OpShl:
				in.Flags &^= FlagNSW | FlagNUW
			case OpAbs:
				in.Flags &^= 1 // int_min_poison
			}
		}
	}
	p.WrapsOverflow = true
}
