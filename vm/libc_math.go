package vm

import (
	"math"

	"github.com/wyvernmc/wyvern/ir"
)

// The math library on double and float (the f variants, and the LLVM
// intrinsics clang emits for some of them, share an entry: the call's
// result width tells them apart). float variants compute in double and
// round once.
//
// Exactness against glibc 2.36 (x86-64): sqrt, floor, ceil, trunc, round,
// fabs, fmod, fmin and fmax are exact operations, so they are
// bit-identical. The others use Go's math package, whose results are
// within 1 ulp but not always glibc's correctly rounded ones: exp, exp2,
// log, log2, log10, pow, sin, cos, tan, asin, acos, atan, atan2, sinh,
// cosh, tanh, hypot and cbrt may differ from glibc in the last bit of a
// double (TestMathAgainstGlibc measures how often, on a fixed input set;
// printed with %g or up to ~15 significant digits they agree).
// errno is not set.

func init() {
	unary := map[ir.Builtin]func(float64) float64{
		ir.BSqrt: math.Sqrt, ir.BFloor: math.Floor, ir.BCeil: math.Ceil, ir.BTrunc: math.Trunc,
		ir.BRound: math.Round, ir.BFabs: math.Abs, ir.BExp: math.Exp, ir.BExp2: math.Exp2,
		ir.BLog: math.Log, ir.BLog2: math.Log2, ir.BLog10: math.Log10, ir.BSin: math.Sin,
		ir.BCos: math.Cos, ir.BTan: math.Tan, ir.BAsin: math.Asin, ir.BAcos: math.Acos,
		ir.BAtan: math.Atan, ir.BSinh: math.Sinh, ir.BCosh: math.Cosh, ir.BTanh: math.Tanh,
		ir.BCbrt: math.Cbrt,
	}
	for b, f := range unary {
		platform[b] = platformFunc{run: func(c call, a args) int {
			w := floatWidthOf(a)
			a.ret(floatSlot(f(floatVal(a.arg(0), w)), w))
			return bNext
		}}
	}
	binary := map[ir.Builtin]func(x, y float64) float64{
		ir.BPow: math.Pow, ir.BFmod: math.Mod, ir.BAtan2: math.Atan2, ir.BHypot: math.Hypot,
		ir.BFmin: fmin, ir.BFmax: fmax,
	}
	for b, f := range binary {
		platform[b] = platformFunc{run: func(c call, a args) int {
			w := floatWidthOf(a)
			a.ret(floatSlot(f(floatVal(a.arg(0), w), floatVal(a.arg(1), w)), w))
			return bNext
		}}
	}
}

// floatWidthOf is the call's float width: 32 for the f variants.
func floatWidthOf(a args) uint8 {
	if a.cs.RetBits == 32 {
		return 32
	}
	return 64
}

// fmin and fmax follow C: a NaN argument is ignored unless both are NaN
// (Go's math.Min propagates NaN).
func fmin(x, y float64) float64 {
	switch {
	case math.IsNaN(x):
		return y
	case math.IsNaN(y):
		return x
	}
	return math.Min(x, y)
}

func fmax(x, y float64) float64 {
	switch {
	case math.IsNaN(x):
		return y
	case math.IsNaN(y):
		return x
	}
	return math.Max(x, y)
}
