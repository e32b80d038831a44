package ir

// Op is an instruction opcode. The interpreter switches on it; keep it dense.
type Op uint8

// Opcodes. Integer values are kept zero-extended to their width in uint64
// slots; W is the bit width and Imm the width's mask for arithmetic.
const (
	OpNop Op = iota
	// integer arithmetic: Dst = A op B (masked by Imm); Flags = nsw/nuw/exact
	OpAdd
	OpSub
	OpMul
	OpUDiv
	OpSDiv
	OpURem
	OpSRem
	OpShl
	OpLShr
	OpAShr
	OpAnd
	OpOr
	OpXor
	// integer comparisons: Dst = A pred B (W = width for signed ones)
	OpEq
	OpNe
	OpUlt
	OpUle
	OpUgt
	OpUge
	OpSlt
	OpSle
	OpSgt
	OpSge
	// moves and conversions
	OpMov     // Dst = A
	OpMovN    // Dst[0:Imm] = A[0:Imm]
	OpSelect  // Dst = A ? B : C (one slot)
	OpSelectN // Dst[0:Imm] = A ? B[..] : C[..]
	OpTrunc   // Dst = A & Imm
	OpSExt    // Dst = sext(A from W bits) & Imm
	OpFPToSI  // W=src float bits (32/64), Aux = dst int width
	OpFPToUI  //
	OpSIToFP  // W=dst float bits, Aux = src int width
	OpUIToFP  //
	OpFPTrunc // f64 -> f32
	OpFPExt   // f32 -> f64
	OpFAdd    // W = 32/64
	OpFSub    //
	OpFMul    //
	OpFDiv    //
	OpFRem    //
	OpFNeg    //
	OpFCmp    // Aux = predicate (FCmp* below)
	OpExtract // Dst[0:Imm] = A[B : B+Imm]  (extractvalue, B is a slot offset)
	OpInsert  // Dst = A (C slots of aggregate), Dst[Imm2..] = B ; Imm = offset | nslots<<32
	// memory
	OpAlloca    // Dst = new stack block of Imm bytes * (A<0 ? 1 : value of A with width W)
	OpLoad      // Dst = *A, W = byte size
	OpStore     // *A = B, W = byte size
	OpLoadAgg   // Dst.. = *A, Imm = index into Func.Aggs
	OpStoreAgg  // *A = B.., Imm = index into Func.Aggs
	OpGEPC      // Dst = A + Imm
	OpGEP1      // Dst = A + sext(B, W) * int64(Imm) + C? (C unused)
	OpGEPN      // Imm = index into Func.GEPs
	OpAtomicRMW // Dst = *A; *A = Aux-op(*A, B); W = byte size
	OpCmpXchg   // Dst = *A; Dst+1 = (*A == B); if so *A = C; W = byte size
	OpFence
	// control
	OpJmp    // pc = Imm
	OpJmpE   // take edge Imm
	OpBr     // pc = A ? B : C   (B, C are pcs)
	OpBrE    // take edge A ? B : C (B, C are edge indices)
	OpSwitch // Imm = index into Func.Switches
	OpRet    // return A[0:Imm]; A = -1 for void
	OpUnreachable
	OpCall    // Imm = call site; direct call of a defined function
	OpCallInd // Imm = call site; callee from the function-pointer slot
	OpCallB   // Imm = call site; platform builtin number in B
	// intrinsics
	OpCtpop
	OpCtlz
	OpCttz
	OpBswap
	OpAbs // Flags&1: int_min_poison
	OpSMin
	OpSMax
	OpUMin
	OpUMax
	OpFshl // Dst = fshl(A, B, C)
	OpFshr
	OpSAddO // Dst, Dst+1 = A + B, overflow
	OpUAddO
	OpSSubO
	OpUSubO
	OpSMulO
	OpUMulO
	OpStackSave
	OpStackRestore
	OpTrap
	OpFAbs
	OpSqrt
	OpFMulAdd // Dst = A*B + C (unfused, as x86-64 without FMA computes it)
	OpSAddSat
	OpUAddSat
	OpSSubSat
	OpUSubSat
	OpPtrToInt // Dst = A & Imm (pointers are integer addresses: MakePtr); Aux = AuxPtr32: Ptr32(A) & Imm
	OpIntToPtr // Dst = A; Aux = AuxPtr32: FromPtr32(uint32(A))
	numOps
)

// Overflow and exactness flags on integer arithmetic.
const (
	FlagNSW   = 1
	FlagNUW   = 2
	FlagExact = 4
	// FlagLax marks code compiled with optimisations (no optnone): the
	// optimiser speculates poison-producing instructions, so poison there is
	// not reported as an error and a shift by >= width yields 0.
	FlagLax = 8
	// FlagPtrCmp marks an OpEq or OpNe of two pointers neither of which is
	// a constant (null, a global's or a function's address): where one
	// points into a freed heap block and the other into a block allocated
	// after that free, an allocator may have given both the same address
	// (Program.ReusesAddresses, vm's address reuse).
	FlagPtrCmp = 16
	// FlagRMW marks an OpLoad whose value only goes back, through an and
	// with a constant and an or, into a store to the same address: clang's
	// store of a bit-field, which reads its storage unit to keep the
	// other fields' bits (bitfieldRMW). The vm does not draw the
	// undefined bytes it reads (vm/undef.go).
	FlagRMW = 32
)

// AuxAtomic marks an atomic load or store (Aux of OpLoad/OpStore): atomic
// accesses do not race.
const AuxAtomic uint8 = 1

// AuxUndef marks an OpAlloca whose bytes are undefined until written
// (undefAllocas): an array, a struct, or a variable whose address is
// passed on. The vm draws what a load reads of them before they are
// written (vm/undef.go); the other allocas, scalars used only by loads
// and stores, are zeroed, or get an input where a run may read them first
// (uninitInputs).
const AuxUndef uint8 = 1

// AuxPtr32 marks a ptrtoint or inttoptr of an ILP32 module (Aux of
// OpPtrToInt/OpIntToPtr): the integer is the pointer's 32-bit form.
const AuxPtr32 uint8 = 1

// Floating-point comparison predicates (Aux of OpFCmp).
const (
	FCmpFalse uint8 = iota
	FCmpOEQ
	FCmpOGT
	FCmpOGE
	FCmpOLT
	FCmpOLE
	FCmpONE
	FCmpORD
	FCmpUEQ
	FCmpUGT
	FCmpUGE
	FCmpULT
	FCmpULE
	FCmpUNE
	FCmpUNO
	FCmpTrue
)

// atomicrmw operations (Aux of OpAtomicRMW).
const (
	RMWXchg uint8 = iota
	RMWAdd
	RMWSub
	RMWAnd
	RMWNand
	RMWOr
	RMWXor
	RMWMax
	RMWMin
	RMWUMax
	RMWUMin
)

var opNames = [...]string{
	OpNop: "nop", OpAdd: "add", OpSub: "sub", OpMul: "mul", OpUDiv: "udiv", OpSDiv: "sdiv",
	OpURem: "urem", OpSRem: "srem", OpShl: "shl", OpLShr: "lshr", OpAShr: "ashr", OpAnd: "and",
	OpOr: "or", OpXor: "xor", OpEq: "eq", OpNe: "ne", OpUlt: "ult", OpUle: "ule", OpUgt: "ugt",
	OpUge: "uge", OpSlt: "slt", OpSle: "sle", OpSgt: "sgt", OpSge: "sge", OpMov: "mov",
	OpMovN: "movn", OpSelect: "select", OpSelectN: "selectn", OpTrunc: "trunc", OpSExt: "sext",
	OpFPToSI: "fptosi", OpFPToUI: "fptoui", OpSIToFP: "sitofp", OpUIToFP: "uitofp",
	OpFPTrunc: "fptrunc", OpFPExt: "fpext", OpFAdd: "fadd", OpFSub: "fsub", OpFMul: "fmul",
	OpFDiv: "fdiv", OpFRem: "frem", OpFNeg: "fneg", OpFCmp: "fcmp", OpExtract: "extractvalue",
	OpInsert: "insertvalue", OpAlloca: "alloca", OpLoad: "load", OpStore: "store",
	OpLoadAgg: "loadagg", OpStoreAgg: "storeagg", OpGEPC: "gepc", OpGEP1: "gep1", OpGEPN: "gepn",
	OpAtomicRMW: "atomicrmw", OpCmpXchg: "cmpxchg", OpFence: "fence", OpJmp: "jmp",
	OpJmpE: "jmpe", OpBr: "br", OpBrE: "bre", OpSwitch: "switch", OpRet: "ret",
	OpUnreachable: "unreachable", OpCall: "call", OpCallInd: "callind", OpCallB: "callb",
	OpCtpop: "ctpop", OpCtlz: "ctlz", OpCttz: "cttz", OpBswap: "bswap", OpAbs: "abs",
	OpSMin: "smin", OpSMax: "smax", OpUMin: "umin", OpUMax: "umax", OpFshl: "fshl",
	OpFshr: "fshr", OpSAddO: "sadd.with.overflow", OpUAddO: "uadd.with.overflow",
	OpSSubO: "ssub.with.overflow", OpUSubO: "usub.with.overflow", OpSMulO: "smul.with.overflow",
	OpUMulO: "umul.with.overflow", OpStackSave: "stacksave", OpStackRestore: "stackrestore",
	OpTrap: "trap", OpFAbs: "fabs", OpSqrt: "sqrt", OpFMulAdd: "fmuladd",
	OpSAddSat: "sadd.sat", OpUAddSat: "uadd.sat", OpSSubSat: "ssub.sat", OpUSubSat: "usub.sat",
	OpPtrToInt: "ptrtoint", OpIntToPtr: "inttoptr",
}

func (o Op) String() string {
	if int(o) < len(opNames) && opNames[o] != "" {
		return opNames[o]
	}
	return "op?"
}

// SwappedCmp is integer comparison op with its operands exchanged
// (a < b is b > a), OpNop when op is not an integer comparison.
func SwappedCmp(op Op) Op {
	switch op {
	case OpEq, OpNe:
		return op
	case OpSlt:
		return OpSgt
	case OpSle:
		return OpSge
	case OpSgt:
		return OpSlt
	case OpSge:
		return OpSle
	case OpUlt:
		return OpUgt
	case OpUle:
		return OpUge
	case OpUgt:
		return OpUlt
	case OpUge:
		return OpUle
	}
	return OpNop
}

// NegatedCmp is the negation of integer comparison op (!(a < b) is
// a >= b), OpNop when op is not an integer comparison.
func NegatedCmp(op Op) Op {
	switch op {
	case OpEq:
		return OpNe
	case OpNe:
		return OpEq
	case OpSlt:
		return OpSge
	case OpSle:
		return OpSgt
	case OpSgt:
		return OpSle
	case OpSge:
		return OpSlt
	case OpUlt:
		return OpUge
	case OpUle:
		return OpUgt
	case OpUgt:
		return OpUle
	case OpUge:
		return OpUlt
	}
	return OpNop
}
