package ir

import (
	"fmt"

	"github.com/llir/llvm/ir/types"
)

// The data layout is x86-64 SysV (what clang-14 emits for the host).

// sizeOf returns the allocation size of a type in bytes.
func sizeOf(t types.Type) (uint64, error) {
	switch t := t.(type) {
	case *types.IntType:
		return intAllocSize(t.BitSize), nil
	case *types.PointerType:
		return 8, nil
	case *types.FloatType:
		switch t.Kind {
		case types.FloatKindFloat:
			return 4, nil
		case types.FloatKindDouble:
			return 8, nil
		}
		return 0, fmt.Errorf("floating-point type %s is not supported", t)
	case *types.ArrayType:
		es, err := sizeOf(t.ElemType)
		if err != nil {
			return 0, err
		}
		return es * t.Len, nil
	case *types.StructType:
		if t.Opaque {
			return 0, fmt.Errorf("opaque struct %s has no size", t)
		}
		offs, size, err := structLayout(t)
		_ = offs
		return size, err
	case *types.VectorType:
		return 0, fmt.Errorf("vector type %s is not supported", t)
	}
	return 0, fmt.Errorf("type %s has no size", t)
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
func alignOf(t types.Type) uint64 {
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
			return 8
		}
		return 16
	case *types.PointerType:
		return 8
	case *types.FloatType:
		if t.Kind == types.FloatKindFloat {
			return 4
		}
		return 8
	case *types.ArrayType:
		return alignOf(t.ElemType)
	case *types.StructType:
		if t.Packed {
			return 1
		}
		a := uint64(1)
		for _, f := range t.Fields {
			if fa := alignOf(f); fa > a {
				a = fa
			}
		}
		return a
	}
	return 8
}

func structLayout(t *types.StructType) ([]uint64, uint64, error) {
	offs := make([]uint64, len(t.Fields))
	var off uint64
	for i, f := range t.Fields {
		a := uint64(1)
		if !t.Packed {
			a = alignOf(f)
		}
		off = (off + a - 1) / a * a
		offs[i] = off
		s, err := sizeOf(f)
		if err != nil {
			return nil, 0, err
		}
		off += s
	}
	a := alignOf(t)
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
func leaves(t types.Type, base uint64, acc *AggAccess, kinds *[]ValueKind) error {
	switch tt := t.(type) {
	case *types.StructType:
		offs, _, err := structLayout(tt)
		if err != nil {
			return err
		}
		for i, f := range tt.Fields {
			if err := leaves(f, base+offs[i], acc, kinds); err != nil {
				return err
			}
		}
		return nil
	case *types.ArrayType:
		es, err := sizeOf(tt.ElemType)
		if err != nil {
			return err
		}
		for i := uint64(0); i < tt.Len; i++ {
			if err := leaves(tt.ElemType, base+i*es, acc, kinds); err != nil {
				return err
			}
		}
		return nil
	}
	s, err := sizeOf(t)
	if err != nil {
		return err
	}
	if _, err := slotsOf(t); err != nil {
		return err
	}
	acc.Offs = append(acc.Offs, uint32(base))
	acc.Sizes = append(acc.Sizes, uint8(s))
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
