// Package ir loads C, LLVM bitcode and LLVM assembly and compiles them into a
// flat, index-resolved Program that the vm package executes.
//
// Every SSA value is a register slot (aggregates occupy consecutive slots),
// every basic block a pc in its function's code, phi nodes are lowered to
// parallel copies on CFG edges and constants are folded to immediates that are
// preloaded into each frame's constant slots. One LLVM instruction compiles to
// exactly one Inst, so a vm step is one LLVM instruction, as in LODIN.
package ir

import "fmt"

// Pointer layout: a pointer to offset o of block b is the 64-bit integer
// address b<<32 | (base(b) + o) mod 2^32. Block 0 is null (base(0) = 0, so
// null is 0 and integers below 2^32 are pointers into the null block). For
// b != 0, base(b) = (b mod 2^18) * 4096 + 4096 lies in [2^12, 2^30], so the
// low 32 bits of a pointer to any byte of a block (or one past its end:
// blocks are at most 2^31 bytes) are never 0 — as with native addresses,
// (int)p is non-zero for a non-null p — and a block's first byte is
// 4096-aligned. ptrtoint and inttoptr are the identity on these bits: every
// pointer round-trips through an integer, also through memory (an integer
// stored and loaded back as a pointer, as clang -O0 compiles
// __sync_bool_compare_and_swap on pointers), integer differences are byte
// distances within a block, and integers order like pointers (by block,
// then offset).
const (
	PtrBlockShift = 32
	PtrOffMask    = 0xffffffff
)

// MakePtr builds the pointer to offset off of block.
func MakePtr(block, off uint32) uint64 {
	return uint64(block)<<PtrBlockShift | uint64(off+PtrBase(block))
}

// PtrOff is the offset a pointer designates in its block (PtrBlock).
func PtrOff(p uint64) uint32 { return uint32(p) - PtrBase(uint32(p>>PtrBlockShift)) }

// PtrBlock is the block a pointer designates.
func PtrBlock(p uint64) uint32 { return uint32(p >> PtrBlockShift) }

// PtrBase returns base(b), the low 32 bits of block b's first byte.
func PtrBase(b uint32) uint32 {
	if b == 0 {
		return 0
	}
	return (b&(1<<18-1))<<12 + 1<<12
}

// Program is a loaded, compiled module.
type Program struct {
	Name    string // file the program came from
	Funcs   []*Func
	FuncIdx map[string]int
	Globals []*Global
	// GlobalIdx maps a global's LLVM name to its index in Globals.
	GlobalIdx map[string]int
	// FirstFuncBlock is the block id of Funcs[0]; function i has block id
	// FirstFuncBlock+i. Globals have block ids 1..len(Globals).
	FirstFuncBlock uint32
	// FirstDynBlock is the first block id available for allocation at run time.
	FirstDynBlock uint32
	Locs          []SrcLoc // source locations, indexed by Func.Locs entries
	Entry         int      // index of main in Funcs
	// DataModel is the data model the module was compiled for (from its
	// target datalayout): under ILP32 pointers are 32-bit in memory and
	// as integers (Ptr32).
	DataModel DataModel
	// WrapsOverflow is set once WrapOverflow has made signed and unsigned
	// overflow of add, sub, mul, shl and abs wrap around instead of being
	// errors.
	WrapsOverflow bool
}

// SrcLoc is a source position from debug info.
type SrcLoc struct {
	File string
	Line int32
	Col  int32
}

func (l SrcLoc) String() string {
	if l.File == "" && l.Line == 0 {
		return "?"
	}
	if l.Col > 0 {
		return fmt.Sprintf("%s:%d:%d", l.File, l.Line, l.Col)
	}
	return fmt.Sprintf("%s:%d", l.File, l.Line)
}

// Global is a global variable laid out in its own memory block.
type Global struct {
	Name  string // LLVM name without '@'
	CName string // C name from debug info ("" if none)
	CType *CType // C type from debug info (nil if none)
	Block uint32
	Size  uint32
	Init  []byte // initial bytes (len == Size)
	Const bool   // marked constant: stores are errors
	// ThreadLocal: __thread/_Thread_local, one copy per process (the
	// block is main's copy; the vm gives each thread its own).
	ThreadLocal bool
	ElemKind    ValueKind
}

// ValueKind classifies scalar values for printing and propositions.
type ValueKind uint8

const (
	KindInt ValueKind = iota
	KindPtr
	KindF32
	KindF64
	KindAgg
)

// Func is a compiled function.
type Func struct {
	Name     string
	Index    int
	Block    uint32 // block id of the function's address
	Builtin  Builtin
	External bool // declared, implemented by the platform
	Variadic bool
	NParams  int     // number of parameter slots
	Params   []int32 // slot of each parameter's first slot
	NRegs    int     // total slots (params + values + temporaries + constants)
	// Slots [ConstBase, ConstBase+len(Consts)) hold constants; a frame's
	// slots there are initialised from Consts on entry.
	ConstBase int32
	Consts    []uint64
	RetSlots  int
	Code      []Inst
	Locs      []int32  // per pc: index into Program.Locs (0 = unknown)
	Text      []string // per pc: LLVM text of the instruction
	Blocks    []string // basic block names
	Edges     []Edge
	Calls     []CallSite
	Switches  []Switch
	GEPs      []GEP
	Aggs      []AggAccess
	// UndefMasks are the bitmaps (bit i: byte i) of the bytes of an
	// AuxUndef alloca that its type's fields cover, where padding is
	// left out (OpAlloca's B is the index + 1; 0: every byte): padding
	// is never read, so it is not undefined (vm/undef.go).
	UndefMasks [][]byte
	Vars       []Var // C variables from debug info (dbg.declare)
	// RegSlots maps an LLVM register name (without %) to its first slot.
	RegSlots map[string]int32
	Atomic   bool // name starts with __VERIFIER_atomic_: runs atomically
	// Synthetic: made by the loader, with no source of its own (the exit
	// path of a program that calls atexit, ir/atexit.go): a place inside
	// it is reported at its caller's.
	Synthetic bool
	// Byval gives, per parameter, the size of the copy a byval pointer
	// parameter receives (0 for ordinary parameters); HasByval if any.
	Byval    []uint32
	HasByval bool
	// Optimised is set for functions without optnone (see FlagLax).
	Optimised bool
	// OrdersPointers is set when the function orders two pointers (an
	// icmp ult, ugt, slt, ... of pointer operands): the result depends on
	// the blocks' ids, not only on the objects (explicit.visibility).
	OrdersPointers bool
	// NumLoads are the pcs of the loads that read memory as numbers (an
	// integer, a float, an aggregate with a leaf that is no pointer, the
	// old value of an atomicrmw or cmpxchg of a number): such a load
	// of bytes a pointer was stored into (a union, a type pun) sees the
	// pointer's block id, as ptrtoint does (explicit.seesBlockIDs).
	NumLoads []int32
	SrcLoc   SrcLoc
}

// Var maps a C local variable to the slot holding its address (an alloca).
type Var struct {
	Name string
	Slot int32 // slot holding the address
	Kind ValueKind
	Size uint8 // scalar size in bytes (0 if aggregate)
}

// Move is one slot copy of a phi lowering.
type Move struct{ Dst, Src int32 }

// Edge is a CFG edge with the phi copies it performs. Copies are already
// sequentialised (through temporaries where needed) so they can run in order.
type Edge struct {
	PC    int32
	Moves []Move
}

// CallSite describes a call instruction.
type CallSite struct {
	Callee   int32   // function index, or -1 when indirect
	FnSlot   int32   // slot with the function pointer when indirect
	Args     []int32 // first slot of each argument
	ArgSlots []int32 // number of slots of each argument
	ArgKinds []ValueKind
	ArgSizes []uint8 // scalar size in bytes (for varargs formatting)
	Ret      int32   // destination slot, -1 when void
	RetSlots int32
	RetBits  uint8 // bit width of a scalar result (64 for pointers)
	NFixed   int32 // number of fixed (non-variadic) parameters of the callee type
}

// Switch is a switch terminator's table.
type Switch struct {
	Vals    []uint64
	Targets []int32 // edge indices
	Default int32   // edge index
}

// GEP describes a getelementptr with several dynamic indices.
type GEP struct {
	Base  int32
	Off   int64
	Idx   []int32 // slots
	Scale []int64
	Width []uint8 // index bit width for sign extension
}

// AggAccess describes a load or store of a first-class aggregate.
type AggAccess struct {
	Offs  []uint32 // byte offset of each leaf
	Sizes []uint8  // byte size of each leaf, its store size (1 to 8)
	// Ptr32[i]: leaf i is an ILP32 pointer, 32 bits in memory (Ptr32);
	// shorter than Offs when the last leaves are not (nil under LP64).
	Ptr32 []bool
}

// Inst is one compiled instruction. Dst, A, B, C are slot indices unless the
// opcode says otherwise; Imm holds masks, offsets, pcs or table indices.
type Inst struct {
	Op    Op
	W     uint8 // bit width (integer ops) or byte size (memory ops)
	Flags uint8
	Aux   uint8
	Dst   int32
	A     int32
	B     int32
	C     int32
	Imm   uint64
}

// Builtin identifies a function implemented by the platform.
type Builtin uint16

// Mask returns the all-ones mask of a bit width.
func Mask(w uint8) uint64 {
	if w >= 64 {
		return ^uint64(0)
	}
	return 1<<w - 1
}
