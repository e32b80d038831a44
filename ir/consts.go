package ir

import (
	"encoding/binary"
	"fmt"
	"math"

	lir "github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/types"
)

// scalarConst evaluates a scalar constant (or constant expression) to its
// slot value.
func (l *loader) scalarConst(c constant.Constant) (uint64, error) {
	switch c := c.(type) {
	case *constant.Int:
		w, ok := intWidth(c.Typ)
		if !ok {
			return 0, fmt.Errorf("integer constant of type %s is not supported", c.Typ)
		}
		x := c.X
		if x.Sign() < 0 {
			return uint64(x.Int64()) & Mask(w), nil
		}
		if !x.IsUint64() {
			return 0, fmt.Errorf("integer constant %s does not fit 64 bits", x)
		}
		return x.Uint64() & Mask(w), nil
	case *constant.Float:
		return floatBits(c)
	case *constant.Index:
		return l.scalarConst(c.Constant)
	case *constant.Null, *constant.Undef, *constant.Poison, *constant.ZeroInitializer:
		return 0, nil
	case *lir.Global:
		idx, ok := l.globalIdx[c]
		if !ok {
			return 0, fmt.Errorf("unknown global @%s", c.Name())
		}
		return MakePtr(l.prog.Globals[idx].Block, 0), nil
	case *lir.Func:
		idx, ok := l.funcIdx[c]
		if !ok {
			return 0, fmt.Errorf("unknown function @%s", c.Name())
		}
		return MakePtr(l.prog.FirstFuncBlock+uint32(idx), 0), nil
	case *constant.ExprGetElementPtr:
		base, err := l.scalarConst(c.Src)
		if err != nil {
			return 0, err
		}
		idx := make([]int64, len(c.Indices))
		for i, ix := range c.Indices {
			v, err := l.scalarConst(ix)
			if err != nil {
				return 0, err
			}
			w, _ := intWidth(ix.Type())
			idx[i] = sext(v, w)
		}
		off, err := l.dl.constGEPOffset(c.ElemType, idx)
		if err != nil {
			return 0, err
		}
		return base + uint64(off), nil
	case *constant.ExprBitCast:
		return l.scalarConst(c.From)
	case *constant.ExprAddrSpaceCast:
		return l.scalarConst(c.From)
	case *constant.ExprPtrToInt:
		v, err := l.scalarConst(c.From)
		if err == nil && l.dl.ilp32 {
			x, ok := Ptr32(v)
			if !ok {
				return 0, fmt.Errorf("constant %s: the pointer has no 32-bit form (ILP32: block ids up to %d, offsets from -64 KiB to 960 KiB)", c.Ident(), Ptr32MaxBlock)
			}
			v = uint64(x)
		}
		w, _ := intWidth(c.To)
		return v & Mask(w), err
	case *constant.ExprIntToPtr:
		v, err := l.scalarConst(c.From)
		if err == nil && l.dl.ilp32 {
			v = FromPtr32(uint32(v))
		}
		return v, err
	case *constant.ExprTrunc:
		v, err := l.scalarConst(c.From)
		w, _ := intWidth(c.To)
		return v & Mask(w), err
	case *constant.ExprZExt:
		return l.scalarConst(c.From)
	case *constant.ExprSExt:
		v, err := l.scalarConst(c.From)
		fw, _ := intWidth(c.From.Type())
		w, _ := intWidth(c.To)
		return uint64(sext(v, fw)) & Mask(w), err
	case *constant.ExprAdd:
		return l.binConst(c.X, c.Y, func(a, b uint64) uint64 { return a + b })
	case *constant.ExprSub:
		return l.binConst(c.X, c.Y, func(a, b uint64) uint64 { return a - b })
	case *constant.ExprMul:
		return l.binConst(c.X, c.Y, func(a, b uint64) uint64 { return a * b })
	case *constant.ExprAnd:
		return l.binConst(c.X, c.Y, func(a, b uint64) uint64 { return a & b })
	case *constant.ExprOr:
		return l.binConst(c.X, c.Y, func(a, b uint64) uint64 { return a | b })
	case *constant.ExprXor:
		return l.binConst(c.X, c.Y, func(a, b uint64) uint64 { return a ^ b })
	case *constant.ExprShl:
		return l.binConst(c.X, c.Y, func(a, b uint64) uint64 { return a << (b & 63) })
	case *constant.ExprLShr:
		return l.binConst(c.X, c.Y, func(a, b uint64) uint64 { return a >> (b & 63) })
	case *constant.ExprUDiv: // alignment tests on a global's integer address fold to these
		return l.divConst(c, c.X, c.Y, func(a, b uint64) uint64 { return a / b })
	case *constant.ExprURem:
		return l.divConst(c, c.X, c.Y, func(a, b uint64) uint64 { return a % b })
	case *constant.ExprSDiv: // pointer differences of globals (&g[3] - &g[0]) fold to these
		w, _ := intWidth(c.X.Type())
		return l.divConst(c, c.X, c.Y, func(a, b uint64) uint64 {
			x, y := sext(a, w), sext(b, w)
			if y == -1 {
				return uint64(-x) // (INT_MIN / -1 wraps: no trap in a constant)
			}
			return uint64(x / y)
		})
	case *constant.ExprICmp:
		a, err := l.scalarConst(c.X)
		if err != nil {
			return 0, err
		}
		b, err := l.scalarConst(c.Y)
		if err != nil {
			return 0, err
		}
		w, _ := intWidth(c.X.Type())
		if icmpConst(c.Pred, a, b, w) {
			return 1, nil
		}
		return 0, nil
	case *constant.ExprSelect:
		cv, err := l.scalarConst(c.Cond)
		if err != nil {
			return 0, err
		}
		if cv&1 != 0 {
			return l.scalarConst(c.X)
		}
		return l.scalarConst(c.Y)
	}
	return 0, fmt.Errorf("constant %s is not supported", c.Ident())
}

// divConst folds an unsigned division or remainder; a zero divisor is an
// error.
func (l *loader) divConst(c, x, y constant.Constant, f func(a, b uint64) uint64) (uint64, error) {
	if b, err := l.scalarConst(y); err != nil || b == 0 {
		if err == nil {
			err = fmt.Errorf("constant %s divides by zero", c.Ident())
		}
		return 0, err
	}
	return l.binConst(x, y, f)
}

func (l *loader) binConst(x, y constant.Constant, f func(a, b uint64) uint64) (uint64, error) {
	a, err := l.scalarConst(x)
	if err != nil {
		return 0, err
	}
	b, err := l.scalarConst(y)
	if err != nil {
		return 0, err
	}
	w, _ := intWidth(x.Type())
	return f(a, b) & Mask(w), nil
}

func icmpConst(p enum.IPred, a, b uint64, w uint8) bool {
	sa, sb := sext(a, w), sext(b, w)
	switch p {
	case enum.IPredEQ:
		return a == b
	case enum.IPredNE:
		return a != b
	case enum.IPredUGT:
		return a > b
	case enum.IPredUGE:
		return a >= b
	case enum.IPredULT:
		return a < b
	case enum.IPredULE:
		return a <= b
	case enum.IPredSGT:
		return sa > sb
	case enum.IPredSGE:
		return sa >= sb
	case enum.IPredSLT:
		return sa < sb
	case enum.IPredSLE:
		return sa <= sb
	}
	return false
}

func sext(v uint64, w uint8) int64 {
	if w == 0 || w >= 64 {
		return int64(v)
	}
	s := 64 - w
	return int64(v<<s) >> s
}

func floatBits(c *constant.Float) (uint64, error) {
	var f float64
	if c.NaN || c.X == nil {
		f = math.NaN()
	} else {
		f, _ = c.X.Float64()
	}
	switch c.Typ.Kind {
	case types.FloatKindFloat:
		return uint64(math.Float32bits(float32(f))), nil
	case types.FloatKindDouble:
		return math.Float64bits(f), nil
	}
	return 0, fmt.Errorf("floating-point constant of type %s is not supported", c.Typ)
}

// constGEPOffset computes the byte offset of a GEP with constant indices.
func (dl layout) constGEPOffset(elem types.Type, idx []int64) (int64, error) {
	if len(idx) == 0 {
		return 0, nil
	}
	es, err := dl.sizeOf(elem)
	if err != nil {
		return 0, err
	}
	off := idx[0] * int64(es)
	t := elem
	for _, ix := range idx[1:] {
		switch tt := t.(type) {
		case *types.StructType:
			offs, _, err := dl.structLayout(tt)
			if err != nil {
				return 0, err
			}
			if ix < 0 || ix >= int64(len(offs)) {
				return 0, fmt.Errorf("struct index %d out of range", ix)
			}
			off += int64(offs[ix])
			t = tt.Fields[ix]
		case *types.ArrayType:
			s, err := dl.sizeOf(tt.ElemType)
			if err != nil {
				return 0, err
			}
			off += ix * int64(s)
			t = tt.ElemType
		default:
			return 0, fmt.Errorf("cannot index into %s", t)
		}
	}
	return off, nil
}

// constSlots evaluates a constant of any first-class type to its slots.
func (l *loader) constSlots(c constant.Constant, dst []uint64) ([]uint64, error) {
	switch t := c.Type().(type) {
	case *types.StructType, *types.ArrayType:
		switch c := c.(type) {
		case *constant.Struct:
			for _, f := range c.Fields {
				var err error
				if dst, err = l.constSlots(f, dst); err != nil {
					return nil, err
				}
			}
			return dst, nil
		case *constant.Array:
			for _, e := range c.Elems {
				var err error
				if dst, err = l.constSlots(e, dst); err != nil {
					return nil, err
				}
			}
			return dst, nil
		case *constant.CharArray:
			for _, b := range c.X {
				dst = append(dst, uint64(b))
			}
			return dst, nil
		case *constant.ZeroInitializer, *constant.Undef, *constant.Poison:
			n, err := slotsOf(t)
			if err != nil {
				return nil, err
			}
			for i := 0; i < n; i++ {
				dst = append(dst, 0)
			}
			return dst, nil
		}
		return nil, fmt.Errorf("aggregate constant %s is not supported", c.Ident())
	}
	v, err := l.scalarConst(c)
	if err != nil {
		return nil, err
	}
	return append(dst, v), nil
}

// constBytes writes the in-memory representation of a constant.
func (l *loader) constBytes(c constant.Constant, buf []byte) error {
	switch c := c.(type) {
	case *constant.ZeroInitializer, *constant.Undef, *constant.Poison, *constant.Null:
		for i := range buf {
			buf[i] = 0
		}
		return nil
	case *constant.CharArray:
		copy(buf, c.X)
		return nil
	case *constant.Array:
		if len(c.Elems) == 0 {
			return nil
		}
		es, err := l.dl.sizeOf(c.Elems[0].Type())
		if err != nil {
			return err
		}
		for i, e := range c.Elems {
			if err := l.constBytes(e, buf[uint64(i)*es:uint64(i+1)*es]); err != nil {
				return err
			}
		}
		return nil
	case *constant.Struct:
		st := c.Typ
		if st == nil {
			st = types.NewStruct()
			for _, f := range c.Fields {
				st.Fields = append(st.Fields, f.Type())
			}
		}
		offs, _, err := l.dl.structLayout(st)
		if err != nil {
			return err
		}
		for i, f := range c.Fields {
			// (a scalar field's store size: in a packed struct the
			// bytes after an odd-width integer's may be the next field's)
			fs, err := l.dl.storeSize(f.Type())
			if err != nil {
				return err
			}
			if err := l.constBytes(f, buf[offs[i]:offs[i]+fs]); err != nil {
				return err
			}
		}
		return nil
	}
	v, err := l.scalarConst(c)
	if err != nil {
		return err
	}
	if _, ptr := c.Type().(*types.PointerType); ptr && l.dl.ilp32 {
		x, ok := Ptr32(v)
		if !ok {
			return fmt.Errorf("constant %s: the pointer has no 32-bit form (ILP32: block ids up to %d, offsets from -64 KiB to 960 KiB)", c.Ident(), Ptr32MaxBlock)
		}
		v = uint64(x)
	}
	var tmp [8]byte
	binary.LittleEndian.PutUint64(tmp[:], v)
	copy(buf, tmp[:])
	return nil
}
