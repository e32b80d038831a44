package vm

import "github.com/wyvernmc/wyvern/ir"

// The argument checks and the result sets of the choosing platform
// functions, defined once over an Algebra: the vm evaluates them on
// numbers (the table's choice entries: an invalid call fails with
// ErrBadArg), bounded model checking builds SMT terms from them (package
// symbolic: the input's range constraint and the BadArg check), and
// TestChoiceRules checks each result set against Choice.DrawFor, the
// distribution's support as the interpreter and explicit search draw it.

// Algebra is the arithmetic the rules are written in: V a 64-bit value,
// B a truth value.
type Algebra[V, B any] interface {
	Const(c uint64) V
	Eq(a, b V) B
	ULT(a, b V) B
	SLT(a, b V) B
	Sub(a, b V) V
	Low(a V, w int) V // the low w bits of a, zero-extended
	Or(a, b B) B
	And(a, b B) B
	Not(a B) B
}

// CoinBad holds when wyvern_coin(num, den) is invalid (num and den are the
// arguments' 32 bits, zero-extended): den = 0 or num > den.
func CoinBad[V, B any](al Algebra[V, B], num, den V) B {
	return al.Or(al.Eq(den, al.Const(0)), al.ULT(den, num))
}

// CoinCan holds when r (the result, zero-extended) is an outcome of a valid
// wyvern_coin(num, den): 1 when num > 0, 0 when num < den.
func CoinCan[V, B any](al Algebra[V, B], num, den, r V) B {
	one := al.And(al.Eq(r, al.Const(1)), al.Not(al.Eq(num, al.Const(0))))
	zero := al.And(al.Eq(r, al.Const(0)), al.ULT(num, den))
	return al.Or(one, zero)
}

// UniformBad holds when wyvern_uniform(lo, hi) is invalid (lo and hi
// sign-extended to 64 bits): lo > hi.
func UniformBad[V, B any](al Algebra[V, B], lo, hi V) B { return al.SLT(hi, lo) }

// UniformCan holds when r (the w-bit result, zero-extended) is an outcome
// of a valid wyvern_uniform(lo, hi): the result is lo + d truncated to w
// bits for a draw d in [0, hi-lo], so r is one when hi-lo covers every w-bit
// value or (r - lo) mod 2^w <= hi - lo.
func UniformCan[V, B any](al Algebra[V, B], lo, hi, r V, w int) B {
	d := al.Sub(hi, lo)
	all := al.Const(ir.Mask(uint8(w)))
	return al.Or(al.Not(al.ULT(d, all)), al.Not(al.ULT(d, al.Low(al.Sub(r, lo), w))))
}

// Numbers is the Algebra of concrete values.
type Numbers struct{}

func (Numbers) Const(c uint64) uint64      { return c }
func (Numbers) Eq(a, b uint64) bool        { return a == b }
func (Numbers) ULT(a, b uint64) bool       { return a < b }
func (Numbers) SLT(a, b uint64) bool       { return int64(a) < int64(b) }
func (Numbers) Sub(a, b uint64) uint64     { return a - b }
func (Numbers) Low(a uint64, w int) uint64 { return a & ir.Mask(uint8(w)) }
func (Numbers) Or(a, b bool) bool          { return a || b }
func (Numbers) And(a, b bool) bool         { return a && b }
func (Numbers) Not(a bool) bool            { return !a }
