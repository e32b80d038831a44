package ir

import (
	"fmt"
	"strings"

	"github.com/llir/llvm/ir/types"
)

// layout is a module's data layout: x86-64 SysV (LP64, what clang-14
// emits for the host) or i386 System V (ILP32, clang -m32): 4-byte
// pointers, and 8-byte integers and doubles aligned to 4 bytes in memory
// and in structs.
type layout struct {
	ilp32 bool
}

// ptrBytes is the size and alignment of a pointer in memory.
func (dl layout) ptrBytes() uint64 {
	if dl.ilp32 {
		return 4
	}
	return 8
}

// argSize is the size recorded for a scalar call argument (CallSite.ArgSizes):
// a pointer's is its register form's, 8 bytes, in both data models.
func (dl layout) argSize(t types.Type) uint8 {
	if _, ok := t.(*types.PointerType); ok {
		return 8
	}
	s, _ := dl.sizeOf(t)
	return uint8(s)
}

// sizeOf returns the allocation size of a type in bytes.
func (dl layout) sizeOf(t types.Type) (uint64, error) {
	switch t := t.(type) {
	case *types.IntType:
		return intAllocSize(t.BitSize), nil
	case *types.PointerType:
		return dl.ptrBytes(), nil
	case *types.FloatType:
		switch t.Kind {
		case types.FloatKindFloat:
			return 4, nil
		case types.FloatKindDouble:
			return 8, nil
		}
		return 0, fmt.Errorf("floating-point type %s is not supported", t)
	case *types.ArrayType:
		es, err := dl.sizeOf(t.ElemType)
		if err != nil {
			return 0, err
		}
		return es * t.Len, nil
	case *types.StructType:
		if t.Opaque {
			return 0, fmt.Errorf("opaque struct %s has no size", t)
		}
		offs, size, err := dl.structLayout(t)
		_ = offs
		return size, err
	case *types.VectorType:
		return 0, fmt.Errorf("vector type %s is not supported", t)
	}
	return 0, fmt.Errorf("type %s has no size", t)
}

// storeSize returns the number of bytes a load or store of a scalar of
// type t accesses: LLVM's store size, which for an integer of an odd
// width is its bytes, ceil(bits/8) (an i24 reads and writes 3 bytes, an
// i48 6), not its allocation size (4 and 8: where the next array element
// or struct field starts). clang accesses bit-field runs of 24, 40, 48 or
// 56 bits as such integers, and a packed struct (or the field after the
// run) may hold other data, or nothing, in the bytes between the two.
func (dl layout) storeSize(t types.Type) (uint64, error) {
	if it, ok := t.(*types.IntType); ok {
		return (it.BitSize + 7) / 8, nil
	}
	return dl.sizeOf(t)
}

// intAllocSize rounds odd integer sizes up to a power of two bytes
// (i24 -> 4 bytes), as the x86-64 layout does.
func intAllocSize(bits uint64) uint64 {
	b := (bits + 7) / 8
	p := uint64(1)
	for p < b {
		p <<= 1
	}
	return p
}

// alignOf returns the ABI alignment of a type.
func (dl layout) alignOf(t types.Type) uint64 {
	switch t := t.(type) {
	case *types.IntType:
		switch {
		case t.BitSize <= 8:
			return 1
		case t.BitSize <= 16:
			return 2
		case t.BitSize <= 32:
			return 4
		case t.BitSize <= 64:
			if dl.ilp32 {
				return 4
			}
			return 8
		}
		return 16
	case *types.PointerType:
		return dl.ptrBytes()
	case *types.FloatType:
		if t.Kind == types.FloatKindFloat || dl.ilp32 {
			return 4
		}
		return 8
	case *types.ArrayType:
		return dl.alignOf(t.ElemType)
	case *types.StructType:
		if t.Packed {
			return 1
		}
		a := uint64(1)
		for _, f := range t.Fields {
			if fa := dl.alignOf(f); fa > a {
				a = fa
			}
		}
		return a
	}
	return 8
}

func (dl layout) structLayout(t *types.StructType) ([]uint64, uint64, error) {
	offs := make([]uint64, len(t.Fields))
	var off uint64
	for i, f := range t.Fields {
		a := uint64(1)
		if !t.Packed {
			a = dl.alignOf(f)
		}
		off = (off + a - 1) / a * a
		offs[i] = off
		s, err := dl.sizeOf(f)
		if err != nil {
			return nil, 0, err
		}
		off += s
	}
	a := dl.alignOf(t)
	off = (off + a - 1) / a * a
	return offs, off, nil
}

// slotsOf returns the number of register slots a first-class value of type t
// occupies: 1 for scalars, the sum of the leaves for aggregates.
func slotsOf(t types.Type) (int, error) {
	switch t := t.(type) {
	case *types.IntType:
		if t.BitSize > 64 {
			return 0, fmt.Errorf("integer type %s wider than 64 bits is not supported", t)
		}
		return 1, nil
	case *types.PointerType:
		return 1, nil
	case *types.FloatType:
		if t.Kind != types.FloatKindFloat && t.Kind != types.FloatKindDouble {
			return 0, fmt.Errorf("floating-point type %s is not supported", t)
		}
		return 1, nil
	case *types.ArrayType:
		n, err := slotsOf(t.ElemType)
		return n * int(t.Len), err
	case *types.StructType:
		total := 0
		for _, f := range t.Fields {
			n, err := slotsOf(f)
			if err != nil {
				return 0, err
			}
			total += n
		}
		return total, nil
	case *types.VoidType:
		return 0, nil
	case *types.VectorType:
		return 0, fmt.Errorf("vector type %s is not supported", t)
	case *types.LabelType, *types.MetadataType, *types.TokenType:
		return 0, nil
	}
	return 0, fmt.Errorf("type %s is not supported as a value", t)
}

// slotOffset returns the slot offset and slot count of the aggregate member
// reached by indices.
func slotOffset(t types.Type, indices []uint64) (int, types.Type, error) {
	off := 0
	for _, idx := range indices {
		switch tt := t.(type) {
		case *types.StructType:
			if idx >= uint64(len(tt.Fields)) {
				return 0, nil, fmt.Errorf("index %d out of range for %s", idx, tt)
			}
			for i := uint64(0); i < idx; i++ {
				n, err := slotsOf(tt.Fields[i])
				if err != nil {
					return 0, nil, err
				}
				off += n
			}
			t = tt.Fields[idx]
		case *types.ArrayType:
			n, err := slotsOf(tt.ElemType)
			if err != nil {
				return 0, nil, err
			}
			off += n * int(idx)
			t = tt.ElemType
		default:
			return 0, nil, fmt.Errorf("cannot index into %s", t)
		}
	}
	return off, t, nil
}

// leaves lists the scalar leaves of a type with their byte offsets, sizes and
// kinds, in slot order.
func (dl layout) leaves(t types.Type, base uint64, acc *AggAccess, kinds *[]ValueKind) error {
	switch tt := t.(type) {
	case *types.StructType:
		offs, _, err := dl.structLayout(tt)
		if err != nil {
			return err
		}
		for i, f := range tt.Fields {
			if err := dl.leaves(f, base+offs[i], acc, kinds); err != nil {
				return err
			}
		}
		return nil
	case *types.ArrayType:
		es, err := dl.sizeOf(tt.ElemType)
		if err != nil {
			return err
		}
		for i := uint64(0); i < tt.Len; i++ {
			if err := dl.leaves(tt.ElemType, base+i*es, acc, kinds); err != nil {
				return err
			}
		}
		return nil
	}
	s, err := dl.storeSize(t)
	if err != nil {
		return err
	}
	if _, err := slotsOf(t); err != nil {
		return err
	}
	acc.Offs = append(acc.Offs, uint32(base))
	acc.Sizes = append(acc.Sizes, uint8(s))
	if _, ptr := t.(*types.PointerType); ptr && dl.ilp32 {
		// a 32-bit pointer in memory: the vm converts it from and to
		// the register form (Ptr32, FromPtr32)
		for len(acc.Ptr32) < len(acc.Offs)-1 {
			acc.Ptr32 = append(acc.Ptr32, false)
		}
		acc.Ptr32 = append(acc.Ptr32, true)
	}
	if kinds != nil {
		*kinds = append(*kinds, kindOf(t))
	}
	return nil
}

func kindOf(t types.Type) ValueKind {
	switch t := t.(type) {
	case *types.PointerType:
		return KindPtr
	case *types.FloatType:
		if t.Kind == types.FloatKindFloat {
			return KindF32
		}
		return KindF64
	case *types.StructType, *types.ArrayType:
		return KindAgg
	}
	return KindInt
}

// intWidth returns the bit width of an integer or pointer type (64 for pointers).
func intWidth(t types.Type) (uint8, bool) {
	switch t := t.(type) {
	case *types.IntType:
		if t.BitSize > 64 || t.BitSize == 0 {
			return 0, false
		}
		return uint8(t.BitSize), true
	case *types.PointerType:
		return 64, true
	}
	return 0, false
}

// fieldMask returns the bitmap (bit i: byte i) of the bytes of size bytes
// of elements of type t (an alloca's) that t's scalar leaves cover, or nil
// when they cover every byte (no padding), t is no aggregate, or the
// block is over 4 KiB (the vm does not track its bytes: vm/undef.go).
func (dl layout) fieldMask(t types.Type, size uint64) []byte {
	switch t.(type) {
	case *types.StructType, *types.ArrayType:
	default:
		return nil
	}
	es, err := dl.sizeOf(t)
	if err != nil || es == 0 || size == 0 || size > 4096 || size%es != 0 {
		return nil
	}
	if hasUnion(t) {
		return nil // (its LLVM type is one member's: the others' bytes are no padding)
	}
	var acc AggAccess
	if err := dl.leaves(t, 0, &acc, nil); err != nil {
		return nil
	}
	m := make([]byte, (size+7)/8)
	for e := uint64(0); e < size; e += es {
		for i, off := range acc.Offs {
			for j := uint64(0); j < uint64(acc.Sizes[i]); j++ {
				if b := e + uint64(off) + j; b < size {
					m[b>>3] |= 1 << (b & 7)
				}
			}
		}
	}
	for b := uint64(0); b < size; b++ {
		if m[b>>3]>>(b&7)&1 == 0 {
			return m // padding
		}
	}
	return nil
}

// hasUnion reports whether t holds a C union (clang's struct type named
// union.*, whose fields are those of one member only).
func hasUnion(t types.Type) bool {
	switch tt := t.(type) {
	case *types.StructType:
		if strings.HasPrefix(tt.TypeName, "union.") {
			return true
		}
		for _, f := range tt.Fields {
			if hasUnion(f) {
				return true
			}
		}
	case *types.ArrayType:
		return hasUnion(tt.ElemType)
	}
	return false
}
