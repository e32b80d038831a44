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
// bit-identical to glibc's. The others use Go's math package (with log2,
// log10, asin and acos rewritten where Go's lose precision), which is not
// glibc's correctly rounded code: exp, exp2, log, log2, log10, pow, sin,
// cos, tan, asin, acos, atan, atan2, sinh, cosh, tanh, hypot and cbrt
// differ from glibc in the last bit or two of a double on 3% (log) to 57%
// (log10) of TestMathAgainstGlibc's 400 arguments, never by more than 2
// ulps; printed with up to ~14 significant digits they agree.
// errno is not set (domain and range errors leave it as it is).

// mathUnary and mathBinary are the functions on double; a float variant
// computes in double and rounds once.
var mathUnary = map[ir.Builtin]func(float64) float64{
	ir.BSqrt: math.Sqrt, ir.BFloor: math.Floor, ir.BCeil: math.Ceil, ir.BTrunc: math.Trunc,
	ir.BRound: math.Round, ir.BFabs: math.Abs, ir.BExp: math.Exp, ir.BExp2: math.Exp2,
	ir.BLog: math.Log, ir.BLog2: log2, ir.BLog10: log10, ir.BSin: math.Sin,
	ir.BCos: math.Cos, ir.BTan: math.Tan, ir.BAsin: asin, ir.BAcos: acos,
	ir.BAtan: math.Atan, ir.BSinh: math.Sinh, ir.BCosh: math.Cosh, ir.BTanh: math.Tanh,
	ir.BCbrt: math.Cbrt,
}

var mathBinary = map[ir.Builtin]func(x, y float64) float64{
	ir.BPow: math.Pow, ir.BFmod: math.Mod, ir.BAtan2: math.Atan2, ir.BHypot: math.Hypot,
	ir.BFmin: fmin, ir.BFmax: fmax,
}

func init() {
	for b, f := range mathUnary {
		platform[b] = platformFunc{pure: true, run: func(c call, a args) int {
			w := floatWidthOf(a)
			a.ret(floatSlot(f(floatVal(a.arg(0), w)), w))
			return bNext
		}}
	}
	for b, f := range mathBinary {
		platform[b] = platformFunc{pure: true, run: func(c call, a args) int {
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

// log2 and log10: Go's math.Log2 and math.Log10 lose precision near 1
// (they subtract the exponent of frexp's fraction), so they are computed
// from math.Log, exactly for powers of two and of ten as glibc's are.
func log2(x float64) float64 {
	if frac, e := math.Frexp(x); frac == 0.5 {
		return float64(e - 1)
	}
	return math.Log(x) / math.Ln2
}

func log10(x float64) float64 {
	r := math.Log(x) / math.Ln10
	if k := math.Round(r); k >= -22 && k <= 22 && math.Abs(r-k) < 1e-9 && math.Pow10(int(k)) == x {
		return k
	}
	return r
}

// asin and acos: Go's lose precision for |x| near 1 (acos(x) = Pi/2 -
// asin(x) there); these use the half-angle forms that glibc's do.
func asin(x float64) float64 {
	if a := math.Abs(x); a > 0.5 && a <= 1 {
		return math.Copysign(math.Pi/2-2*math.Asin(math.Sqrt((1-a)/2)), x)
	}
	return math.Asin(x)
}

func acos(x float64) float64 {
	switch {
	case x > 0.5 && x <= 1:
		return 2 * math.Asin(math.Sqrt((1-x)/2))
	case x < -0.5 && x >= -1:
		return math.Pi - 2*math.Asin(math.Sqrt((1+x)/2))
	}
	return math.Acos(x)
}
