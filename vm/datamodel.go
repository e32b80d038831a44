package vm

import (
	"fmt"

	"github.com/wyvernmc/wyvern/ir"
)

// The ILP32 data model (ir.DataModel): the interpreter keeps pointers in
// their 64-bit register form (ir.MakePtr) in both models; an ILP32
// program's pointers are converted to and from their 32-bit form where
// they meet memory or integers (ir.Ptr32, ir.FromPtr32): the one-leaf
// aggregate accesses the loader compiles pointer loads and stores to,
// ptrtoint and inttoptr (ir.AuxPtr32), and the platform functions below.
// LP64 programs take none of these paths.

// ptr32Detail says why pointer p cannot be stored or converted under ILP32.
func ptr32Detail(what string, p uint64) string {
	return fmt.Sprintf("%s: the pointer to offset %d of block %d has no 32-bit form (ILP32: block ids up to %d, offsets from -64 KiB to 960 KiB)",
		what, int32(ir.PtrOff(p)), ir.PtrBlock(p), ir.Ptr32MaxBlock)
}

// PtrBytes is the size of a pointer in the program's memory: 8, or 4
// under ILP32.
func (m *Machine) PtrBytes() uint32 {
	if m.ilp32 {
		return 4
	}
	return 8
}

// LoadPtr loads the pointer stored at p in st's memory.
func (m *Machine) LoadPtr(st *State, p uint64) (uint64, ErrKind) {
	if !m.ilp32 {
		return st.Mem.Load(p, 8)
	}
	v, e := st.Mem.Load(p, 4)
	return ir.FromPtr32(uint32(v)), e
}

// StorePtr stores pointer v at p in st's memory: under ILP32 its 32-bit
// form, and ResourceLimit when it has none.
func (m *Machine) StorePtr(st *State, p, v uint64) ErrKind {
	if !m.ilp32 {
		return st.Mem.Store(p, 8, v)
	}
	x, ok := ir.Ptr32(v)
	if !ok {
		return ErrResourceLimit
	}
	return st.Mem.Store(p, 4, uint64(x))
}

// storeULong stores v as a C unsigned long (pthread_t): 8 bytes, 4 under
// ILP32.
func (m *Machine) storeULong(st *State, p, v uint64) ErrKind {
	return st.Mem.Store(p, m.PtrBytes(), v&ir.Mask(uint8(m.PtrBytes()*8)))
}
