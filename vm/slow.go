package vm

import (
	"math"
	"math/bits"

	"github.com/wyvernmc/wyvern/ir"
)

func f64(v uint64) float64     { return math.Float64frombits(v) }
func f32(v uint64) float32     { return math.Float32frombits(uint32(v)) }
func fromF64(f float64) uint64 { return math.Float64bits(f) }
func fromF32(f float32) uint64 { return uint64(math.Float32bits(f)) }

// floatVal reads a float slot of width w as float64.
func floatVal(v uint64, w uint8) float64 {
	if w == 32 {
		return float64(f32(v))
	}
	return f64(v)
}

func floatSlot(f float64, w uint8) uint64 {
	if w == 32 {
		return fromF32(float32(f))
	}
	return fromF64(f)
}

// execSlow executes the less frequent instructions: floating point,
// conversions, intrinsics, atomics, aggregates and stack save/restore.
func (m *Machine) execSlow(st *State, t *Thread, in *ir.Inst, r []uint64) (ErrKind, string) {
	switch in.Op {
	case ir.OpPtrToInt:
		if in.Aux == ir.AuxPtr32 {
			x, ok := ir.Ptr32(r[in.A])
			if !ok {
				return ErrResourceLimit, ptr32Detail("ptrtoint", r[in.A])
			}
			r[in.Dst] = uint64(x) & in.Imm
			break
		}
		r[in.Dst] = r[in.A] & in.Imm // pointers are integer addresses (ir.MakePtr)
	case ir.OpIntToPtr:
		if in.Aux == ir.AuxPtr32 {
			r[in.Dst] = ir.FromPtr32(uint32(r[in.A]))
			break
		}
		r[in.Dst] = r[in.A]
	case ir.OpFAdd, ir.OpFSub, ir.OpFMul, ir.OpFDiv, ir.OpFRem:
		if in.W == 32 {
			a, b := f32(r[in.A]), f32(r[in.B])
			var v float32
			switch in.Op {
			case ir.OpFAdd:
				v = a + b
			case ir.OpFSub:
				v = a - b
			case ir.OpFMul:
				v = a * b
			case ir.OpFDiv:
				v = a / b
			default:
				v = float32(math.Mod(float64(a), float64(b)))
			}
			r[in.Dst] = fromF32(v)
		} else {
			a, b := f64(r[in.A]), f64(r[in.B])
			var v float64
			switch in.Op {
			case ir.OpFAdd:
				v = a + b
			case ir.OpFSub:
				v = a - b
			case ir.OpFMul:
				v = a * b
			case ir.OpFDiv:
				v = a / b
			default:
				v = math.Mod(a, b)
			}
			r[in.Dst] = fromF64(v)
		}
	case ir.OpFNeg:
		if in.W == 32 {
			r[in.Dst] = r[in.A] ^ (1 << 31)
		} else {
			r[in.Dst] = r[in.A] ^ (1 << 63)
		}
	case ir.OpFAbs:
		if in.W == 32 {
			r[in.Dst] = r[in.A] &^ (1 << 31)
		} else {
			r[in.Dst] = r[in.A] &^ (1 << 63)
		}
	case ir.OpFMulAdd:
		if in.W == 32 {
			p := f32(r[in.A]) * f32(r[in.B])
			r[in.Dst] = fromF32(float32(p) + f32(r[in.C]))
		} else {
			p := f64(r[in.A]) * f64(r[in.B])
			r[in.Dst] = fromF64(float64(p) + f64(r[in.C]))
		}
	case ir.OpSqrt:
		r[in.Dst] = floatSlot(math.Sqrt(floatVal(r[in.A], in.W)), in.W)
	case ir.OpFCmp:
		r[in.Dst] = b2u(fcmp(in.Aux, floatVal(r[in.A], in.W), floatVal(r[in.B], in.W)))
	case ir.OpFPTrunc:
		r[in.Dst] = fromF32(float32(f64(r[in.A])))
	case ir.OpFPExt:
		r[in.Dst] = fromF64(float64(f32(r[in.A])))
	case ir.OpFPToSI:
		f := floatVal(r[in.A], in.W)
		lim := math.Ldexp(1, int(in.Aux)-1)
		if math.IsNaN(f) || f >= lim || f < -lim-1 {
			return ErrOverflow, "floating-point value out of range of the integer type"
		}
		r[in.Dst] = uint64(int64(f)) & in.Imm
	case ir.OpFPToUI:
		f := floatVal(r[in.A], in.W)
		if math.IsNaN(f) || f <= -1 || f >= math.Ldexp(1, int(in.Aux)) {
			return ErrOverflow, "floating-point value out of range of the integer type"
		}
		if f >= math.Ldexp(1, 63) {
			r[in.Dst] = uint64(f-math.Ldexp(1, 63)) + 1<<63
		} else {
			r[in.Dst] = uint64(int64(f)) & in.Imm
		}
	case ir.OpSIToFP:
		v := sx(r[in.A], in.Aux)
		if in.W == 32 {
			r[in.Dst] = fromF32(float32(v))
		} else {
			r[in.Dst] = fromF64(float64(v))
		}
	case ir.OpUIToFP:
		v := r[in.A]
		if in.W == 32 {
			r[in.Dst] = fromF32(float32(v))
		} else {
			r[in.Dst] = fromF64(float64(v))
		}
	case ir.OpLoadAgg:
		acc := &t.Frames[len(t.Frames)-1].Fn.Aggs[in.Imm]
		p := r[in.A]
		for i, off := range acc.Offs {
			v, e := st.Mem.Load(p+uint64(off), uint32(acc.Sizes[i]))
			if e != ErrNone {
				return e, "load"
			}
			if i < len(acc.Ptr32) && acc.Ptr32[i] {
				v = ir.FromPtr32(uint32(v))
			}
			r[in.Dst+int32(i)] = v
		}
	case ir.OpStoreAgg:
		acc := &t.Frames[len(t.Frames)-1].Fn.Aggs[in.Imm]
		p := r[in.A]
		for i, off := range acc.Offs {
			v := r[in.B+int32(i)]
			if i < len(acc.Ptr32) && acc.Ptr32[i] {
				x, ok := ir.Ptr32(v)
				if !ok {
					return ErrResourceLimit, ptr32Detail("store", v)
				}
				v = uint64(x)
			}
			if e := st.Mem.Store(p+uint64(off), uint32(acc.Sizes[i]), v); e != ErrNone {
				return e, "store"
			}
		}
	case ir.OpAtomicRMW:
		p := r[in.A]
		size := uint32(in.W)
		old, e := st.Mem.Load(p, size)
		if e != ErrNone {
			return e, "atomicrmw"
		}
		w := uint8(size * 8)
		mask := ir.Mask(w)
		b := r[in.B]
		var v uint64
		switch in.Aux {
		case ir.RMWXchg:
			v = b
		case ir.RMWAdd:
			v = old + b
		case ir.RMWSub:
			v = old - b
		case ir.RMWAnd:
			v = old & b
		case ir.RMWNand:
			v = ^(old & b)
		case ir.RMWOr:
			v = old | b
		case ir.RMWXor:
			v = old ^ b
		case ir.RMWMax:
			v = old
			if sx(b, w) > sx(old, w) {
				v = b
			}
		case ir.RMWMin:
			v = old
			if sx(b, w) < sx(old, w) {
				v = b
			}
		case ir.RMWUMax:
			v = max(old, b)
		case ir.RMWUMin:
			v = min(old, b)
		}
		if e := st.Mem.Store(p, size, v&mask); e != ErrNone {
			return e, "atomicrmw"
		}
		r[in.Dst] = old
	case ir.OpCmpXchg:
		p := r[in.A]
		old, e := st.Mem.Load(p, uint32(in.W))
		if e != ErrNone {
			return e, "cmpxchg"
		}
		ok := old == r[in.B]
		if ok {
			if e := st.Mem.Store(p, uint32(in.W), r[in.C]); e != ErrNone {
				return e, "cmpxchg"
			}
		}
		r[in.Dst] = old
		r[in.Dst+1] = b2u(ok)
	case ir.OpCtpop:
		r[in.Dst] = uint64(bits.OnesCount64(r[in.A]))
	case ir.OpCtlz:
		a := r[in.A]
		if a == 0 {
			if in.Flags&1 != 0 {
				return ErrBadArg, "ctlz of zero"
			}
			r[in.Dst] = uint64(in.W)
		} else {
			r[in.Dst] = uint64(bits.LeadingZeros64(a) - (64 - int(in.W)))
		}
	case ir.OpCttz:
		a := r[in.A]
		if a == 0 {
			if in.Flags&1 != 0 {
				return ErrBadArg, "cttz of zero"
			}
			r[in.Dst] = uint64(in.W)
		} else {
			r[in.Dst] = uint64(bits.TrailingZeros64(a))
		}
	case ir.OpBswap:
		a := r[in.A]
		switch in.W {
		case 16:
			r[in.Dst] = uint64(bits.ReverseBytes16(uint16(a)))
		case 32:
			r[in.Dst] = uint64(bits.ReverseBytes32(uint32(a)))
		case 64:
			r[in.Dst] = bits.ReverseBytes64(a)
		default:
			return ErrBadArg, "bswap width"
		}
	case ir.OpAbs:
		a := sx(r[in.A], in.W)
		if a < 0 {
			if in.Flags&1 != 0 && r[in.A] == 1<<(in.W-1) {
				return ErrOverflow, "abs of the minimum value"
			}
			a = -a
		}
		r[in.Dst] = uint64(a) & in.Imm
	case ir.OpSMin:
		a, b := r[in.A], r[in.B]
		if sx(b, in.W) < sx(a, in.W) {
			a = b
		}
		r[in.Dst] = a
	case ir.OpSMax:
		a, b := r[in.A], r[in.B]
		if sx(b, in.W) > sx(a, in.W) {
			a = b
		}
		r[in.Dst] = a
	case ir.OpUMin:
		r[in.Dst] = min(r[in.A], r[in.B])
	case ir.OpUMax:
		r[in.Dst] = max(r[in.A], r[in.B])
	case ir.OpFshl, ir.OpFshr:
		a, b, c := r[in.A], r[in.B], r[in.C]%uint64(in.W)
		w := uint64(in.W)
		if c == 0 {
			if in.Op == ir.OpFshl {
				r[in.Dst] = a
			} else {
				r[in.Dst] = b
			}
		} else if in.Op == ir.OpFshl {
			r[in.Dst] = (a<<c | b>>(w-c)) & in.Imm
		} else {
			r[in.Dst] = (a<<(w-c) | b>>c) & in.Imm
		}
	case ir.OpSAddO, ir.OpUAddO, ir.OpSSubO, ir.OpUSubO, ir.OpSMulO, ir.OpUMulO:
		a, b := r[in.A], r[in.B]
		w := in.W
		var v uint64
		var ov bool
		switch in.Op {
		case ir.OpSAddO:
			v = (a + b) & in.Imm
			ov = addOverflow(a, b, v, &ir.Inst{W: w, Flags: ir.FlagNSW, Imm: in.Imm})
		case ir.OpUAddO:
			v = (a + b) & in.Imm
			ov = addOverflow(a, b, v, &ir.Inst{W: w, Flags: ir.FlagNUW, Imm: in.Imm})
		case ir.OpSSubO:
			v = (a - b) & in.Imm
			ov = subOverflow(a, b, v, &ir.Inst{W: w, Flags: ir.FlagNSW, Imm: in.Imm})
		case ir.OpUSubO:
			v = (a - b) & in.Imm
			ov = b > a
		case ir.OpSMulO:
			v = (a * b) & in.Imm
			ov = mulOverflow(a, b, &ir.Inst{W: w, Flags: ir.FlagNSW, Imm: in.Imm})
		case ir.OpUMulO:
			v = (a * b) & in.Imm
			ov = mulOverflow(a, b, &ir.Inst{W: w, Flags: ir.FlagNUW, Imm: in.Imm})
		}
		r[in.Dst] = v
		r[in.Dst+1] = b2u(ov)
	case ir.OpSAddSat, ir.OpSSubSat:
		a, b := sx(r[in.A], in.W), sx(r[in.B], in.W)
		lo, hi := -int64(1)<<(in.W-1), int64(1)<<(in.W-1)-1
		var v int64
		if in.Op == ir.OpSAddSat {
			v = a + b
			if in.W == 64 && ((a >= 0) == (b >= 0)) && ((v >= 0) != (a >= 0)) {
				v = hi
				if a < 0 {
					v = lo
				}
			}
		} else {
			v = a - b
			if in.W == 64 && ((a >= 0) != (b >= 0)) && ((v >= 0) != (a >= 0)) {
				v = hi
				if a < 0 {
					v = lo
				}
			}
		}
		if in.W < 64 {
			v = max(lo, min(hi, v))
		}
		r[in.Dst] = uint64(v) & in.Imm
	case ir.OpUAddSat:
		a, b := r[in.A], r[in.B]
		v := a + b
		if v&in.Imm != v || v < a {
			v = in.Imm
		}
		r[in.Dst] = v
	case ir.OpUSubSat:
		a, b := r[in.A], r[in.B]
		if b > a {
			r[in.Dst] = 0
		} else {
			r[in.Dst] = a - b
		}
	case ir.OpStackSave:
		r[in.Dst] = uint64(len(t.Allocas))
	case ir.OpStackRestore:
		mark := int32(r[in.A])
		fr := &t.Frames[len(t.Frames)-1]
		if mark < fr.AllocaMark || int(mark) > len(t.Allocas) {
			return ErrBadArg, "stackrestore to an invalid point"
		}
		m.popAllocas(st, t, mark)
	default:
		return ErrInvalidCall, "instruction " + in.Op.String() + " is not implemented"
	}
	return ErrNone, ""
}

func fcmp(p uint8, a, b float64) bool {
	uno := math.IsNaN(a) || math.IsNaN(b)
	switch p {
	case ir.FCmpFalse:
		return false
	case ir.FCmpOEQ:
		return !uno && a == b
	case ir.FCmpOGT:
		return !uno && a > b
	case ir.FCmpOGE:
		return !uno && a >= b
	case ir.FCmpOLT:
		return !uno && a < b
	case ir.FCmpOLE:
		return !uno && a <= b
	case ir.FCmpONE:
		return !uno && a != b
	case ir.FCmpORD:
		return !uno
	case ir.FCmpUEQ:
		return uno || a == b
	case ir.FCmpUGT:
		return uno || a > b
	case ir.FCmpUGE:
		return uno || a >= b
	case ir.FCmpULT:
		return uno || a < b
	case ir.FCmpULE:
		return uno || a <= b
	case ir.FCmpUNE:
		return uno || a != b
	case ir.FCmpUNO:
		return uno
	}
	return true
}
