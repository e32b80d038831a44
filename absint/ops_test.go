package absint

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/wyvernmc/wyvern/ir"
)

// concrete is the vm's semantics of an integer operation at width w on
// zero-extended contents: the result, or an error.
func concrete(op ir.Op, flags uint8, w uint8, x, y uint64) (r uint64, err bool) {
	m := mask(w)
	sx := func(v uint64) int64 { return int64(v<<(64-w)) >> (64 - w) }
	// (exact arithmetic in big integers: w may be 64)
	fits := func(v *big.Int) bool {
		return v.Cmp(big.NewInt(smin(w))) >= 0 && v.Cmp(big.NewInt(smax(w))) <= 0
	}
	bs := func(v uint64) *big.Int { return big.NewInt(sx(v)) }
	bu := func(v uint64) *big.Int { return new(big.Int).SetUint64(v) }
	fitsU := func(v *big.Int) bool { return v.Sign() >= 0 && v.Cmp(bu(m)) <= 0 }
	nsw, nuw := flags&ir.FlagNSW != 0, flags&ir.FlagNUW != 0
	switch op {
	case ir.OpAdd:
		return (x + y) & m, (nsw && !fits(new(big.Int).Add(bs(x), bs(y)))) || (nuw && !fitsU(new(big.Int).Add(bu(x), bu(y))))
	case ir.OpSub:
		return (x - y) & m, (nsw && !fits(new(big.Int).Sub(bs(x), bs(y)))) || (nuw && x < y)
	case ir.OpMul:
		return (x * y) & m, (nsw && !fits(new(big.Int).Mul(bs(x), bs(y)))) || (nuw && !fitsU(new(big.Int).Mul(bu(x), bu(y))))
	case ir.OpUDiv, ir.OpURem:
		if y == 0 {
			return 0, true
		}
		if op == ir.OpUDiv {
			return x / y, false
		}
		return x % y, false
	case ir.OpSDiv, ir.OpSRem:
		if y == 0 || (sx(x) == smin(w) && sx(y) == -1) {
			return 0, true
		}
		if op == ir.OpSDiv {
			return uint64(sx(x)/sx(y)) & m, false
		}
		return uint64(sx(x)%sx(y)) & m, false
	case ir.OpShl:
		if y >= uint64(w) {
			return 0, true
		}
		return (x << y) & m, (nsw && !fits(new(big.Int).Lsh(bs(x), uint(y)))) || (nuw && !fitsU(new(big.Int).Lsh(bu(x), uint(y))))
	case ir.OpLShr:
		if y >= uint64(w) {
			return 0, true
		}
		return x >> y, false
	case ir.OpAShr:
		if y >= uint64(w) {
			return 0, true
		}
		return uint64(sx(x)>>y) & m, false
	case ir.OpAnd:
		return x & y, false
	case ir.OpOr:
		return x | y, false
	case ir.OpXor:
		return x ^ y, false
	case ir.OpSMin:
		return uint64(min(sx(x), sx(y))) & m, false
	case ir.OpSMax:
		return uint64(max(sx(x), sx(y))) & m, false
	case ir.OpUMin:
		return min(x, y), false
	case ir.OpUMax:
		return max(x, y), false
	}
	sv := map[ir.Op]bool{}
	switch op {
	case ir.OpEq:
		sv[op] = x == y
	case ir.OpNe:
		sv[op] = x != y
	case ir.OpUlt:
		sv[op] = x < y
	case ir.OpUle:
		sv[op] = x <= y
	case ir.OpUgt:
		sv[op] = x > y
	case ir.OpUge:
		sv[op] = x >= y
	case ir.OpSlt:
		sv[op] = sx(x) < sx(y)
	case ir.OpSle:
		sv[op] = sx(x) <= sx(y)
	case ir.OpSgt:
		sv[op] = sx(x) > sx(y)
	case ir.OpSge:
		sv[op] = sx(x) >= sx(y)
	}
	if sv[op] {
		return 1, false
	}
	return 0, false
}

// randItv draws a content interval of width w, short enough to enumerate.
// Half of the draws start near a boundary: 0, the sign bit, the mask.
func randItv(r *rand.Rand, w uint8) itv {
	lo := r.Uint64()
	if w < 64 {
		lo = r.Uint64N(mask(w) + 1)
	}
	switch r.IntN(6) {
	case 0:
		lo = r.Uint64N(20)
	case 1:
		lo = uint64(1)<<(w-1) - r.Uint64N(20)
	case 2:
		lo = mask(w) - r.Uint64N(20)
	}
	hi := min(mask(w), lo+r.Uint64N(40))
	if hi < lo { // (wrapped at 64 bits)
		hi = mask(w)
	}
	return itv{lo, hi}
}

// TestArithSound checks every integer transfer function against the vm's
// semantics on all pairs of two random intervals: when the analysis
// passes an operation (no refusal), no pair may raise an error and every
// result must lie in the abstract result; comparisons and the refinement
// of their operands likewise.
func TestArithSound(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	type opf struct {
		op    ir.Op
		flags uint8
	}
	var ops []opf
	for _, op := range []ir.Op{ir.OpAdd, ir.OpSub, ir.OpMul, ir.OpShl} {
		for _, f := range []uint8{0, ir.FlagNSW, ir.FlagNUW, ir.FlagNSW | ir.FlagNUW} {
			ops = append(ops, opf{op, f})
		}
	}
	for _, op := range []ir.Op{ir.OpUDiv, ir.OpSDiv, ir.OpURem, ir.OpSRem, ir.OpLShr, ir.OpAShr, ir.OpAnd, ir.OpOr, ir.OpXor, ir.OpSMin, ir.OpSMax, ir.OpUMin, ir.OpUMax} {
		ops = append(ops, opf{op, 0})
	}
	for _, w := range []uint8{8, 16, 32, 64} {
		for _, o := range ops {
			t.Run(fmt.Sprintf("%s-%d-w%d", o.op, o.flags, w), func(t *testing.T) {
				for range 150 {
					x, y := randItv(r, w), randItv(r, w)
					if o.op == ir.OpShl || o.op == ir.OpLShr || o.op == ir.OpAShr {
						y = itv{r.Uint64N(uint64(w) + 2), 0}
						y.hi = y.lo + r.Uint64N(3)
					}
					a := &analysis{checking: true}
					in := ir.Inst{Op: o.op, W: w, Flags: o.flags}
					var res val
					refused := func() (ref bool) {
						defer func() {
							if p := recover(); p != nil {
								if _, ok := p.(refusal); !ok {
									panic(p)
								}
								ref = true
							}
						}()
						res = a.arith(in, val{hasInt: true, i: x}, val{hasInt: true, i: y}, func() string { return "" })
						return false
					}()
					if refused {
						continue
					}
					for dx := range x.hi - x.lo + 1 {
						for dy := range y.hi - y.lo + 1 {
							cx, cy := x.lo+dx, y.lo+dy
							v, err := concrete(o.op, o.flags, w, cx, cy)
							if err {
								t.Fatalf("%s %v %v: passed, but %d, %d is an error", o.op, x, y, cx, cy)
							}
							if !res.has(v) {
								t.Fatalf("%s %v %v = %v: %d, %d gives %d", o.op, x, y, res.i, cx, cy, v)
							}
						}
					}
				}
			})
		}
		for _, op := range []ir.Op{ir.OpEq, ir.OpNe, ir.OpUlt, ir.OpUle, ir.OpUgt, ir.OpUge, ir.OpSlt, ir.OpSle, ir.OpSgt, ir.OpSge} {
			t.Run(fmt.Sprintf("%s-w%d", op, w), func(t *testing.T) {
				for range 300 {
					x, y := randItv(r, w), randItv(r, w)
					if r.IntN(4) == 0 {
						y = itv{x.lo + r.Uint64N(x.hi-x.lo+1), 0}
						y.hi = y.lo
					}
					in := ir.Inst{Op: op, W: w}
					xv, yv := val{hasInt: true, i: x}, val{hasInt: true, i: y}
					c := compare(in, xv, yv)
					for _, taken := range []bool{true, false} {
						rx, okx := refine(op, w, xv, yv, taken)
						ry, oky := refine(swap(op), w, yv, xv, taken)
						for dx := range x.hi - x.lo + 1 {
							for dy := range y.hi - y.lo + 1 {
								cx, cy := x.lo+dx, y.lo+dy
								v, _ := concrete(op, 0, w, cx, cy)
								if !c.has(v) {
									t.Fatalf("%s %v %v = %v, but %d, %d gives %d", op, x, y, c.i, cx, cy, v)
								}
								if (v == 1) != taken {
									continue
								}
								if !okx || !oky || !rx.has(cx) || !ry.has(cy) {
									t.Fatalf("%s taken=%v %v %v: refined to %v (%v) %v (%v), but %d, %d satisfies it", op, taken, x, y, rx.i, okx, ry.i, oky, cx, cy)
								}
							}
						}
					}
				}
			})
		}
	}
}

// samples are the points of a wide interval that the transfer functions'
// corner cases turn on: its ends, their neighbours, 0, ±1 and the signed
// extremes of width w.
func samples(i itv, w uint8) []uint64 {
	h := uint64(1) << (w - 1)
	var out []uint64
	for _, v := range []uint64{i.lo, i.lo + 1, i.hi - 1, i.hi, 0, 1, 2, h - 1, h, h + 1, mask(w), mask(w) - 1} {
		if v >= i.lo && v <= i.hi {
			out = append(out, v)
		}
	}
	return out
}

// TestArithSoundWide checks the transfer functions on wide intervals (up
// to the whole width, 64 bits included) at their sample points: a bound
// computed from |INT64_MIN| or an end's neighbour shows there.
func TestArithSoundWide(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	ops := []ir.Op{ir.OpAdd, ir.OpSub, ir.OpMul, ir.OpUDiv, ir.OpSDiv, ir.OpURem, ir.OpSRem, ir.OpAnd, ir.OpOr, ir.OpXor, ir.OpSMin, ir.OpSMax, ir.OpUMin, ir.OpUMax, ir.OpShl, ir.OpLShr, ir.OpAShr}
	wide := func(w uint8) itv {
		pick := func() uint64 {
			h := uint64(1) << (w - 1)
			c := []uint64{0, 1, 3, 5, h - 1, h, h + 1, mask(w) - 2, mask(w), r.Uint64() & mask(w)}
			return c[r.IntN(len(c))]
		}
		a, b := pick(), pick()
		return itv{min(a, b), max(a, b)}
	}
	for _, w := range []uint8{8, 16, 32, 64} {
		for _, op := range ops {
			for _, flags := range []uint8{0, ir.FlagNSW, ir.FlagNUW} {
				for range 400 {
					x, y := wide(w), wide(w)
					if op == ir.OpShl || op == ir.OpLShr || op == ir.OpAShr {
						y.lo = r.Uint64N(uint64(w))
						y.hi = y.lo + r.Uint64N(uint64(w)-y.lo)
					}
					var res val
					refused := func() (ref bool) {
						defer func() {
							if p := recover(); p != nil {
								if _, ok := p.(refusal); !ok {
									panic(p)
								}
								ref = true
							}
						}()
						a := &analysis{checking: true}
						res = a.arith(ir.Inst{Op: op, W: w, Flags: flags}, val{hasInt: true, i: x}, val{hasInt: true, i: y}, func() string { return "" })
						return false
					}()
					if refused {
						continue
					}
					for _, cx := range samples(x, w) {
						for _, cy := range samples(y, w) {
							v, err := concrete(op, flags, w, cx, cy)
							if err {
								t.Fatalf("w%d %s/%d %v %v: passed, but %#x, %#x is an error", w, op, flags, x, y, cx, cy)
							}
							if !res.has(v) {
								t.Fatalf("w%d %s/%d %v %v = %v: %#x, %#x gives %#x", w, op, flags, x, y, res.i, cx, cy, v)
							}
						}
					}
				}
			}
		}
	}
}

// signedVal draws a small value of width w for TestSignedSound: half of
// the draws a signed range across 0 (a signed constraint), the others a
// content interval; elems lists its integers.
func signedVal(r *rand.Rand, w uint8) (v val, elems []uint64) {
	if r.IntN(2) == 0 {
		x := randItv(r, w)
		v = val{hasInt: true, i: x}
	} else {
		lo, hi := -1-r.Int64N(20), r.Int64N(20)
		v = withSigned(intVal(0, mask(w)), w, lo, hi)
		if v.sw != w {
			panic("no signed constraint")
		}
	}
	for x := v.i.lo; ; x++ {
		if v.has(x) {
			elems = append(elems, x)
		}
		if x == v.i.hi || len(elems) > 100 {
			break
		}
		if v.sw != 0 && x == v.i.lo+uint64(v.sh) {
			x = mask(w) + uint64(v.sl) // (jump to the negative part)
		}
	}
	return v, elems
}

// TestSignedSound checks the transfer functions, comparisons,
// refinements, joins, meets and widening on values with signed
// constraints (ranges across 0) against the vm's semantics: every
// concrete result lies in the abstract one.
func TestSignedSound(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	ops := []ir.Op{ir.OpAdd, ir.OpSub, ir.OpMul, ir.OpSDiv, ir.OpSRem, ir.OpAShr, ir.OpSMin, ir.OpSMax, ir.OpUMin, ir.OpUMax, ir.OpAnd, ir.OpOr}
	th := []uint64{0, 1, 5, 10, 100, mask(8), mask(16), mask(32) - 9, mask(32)}
	for _, w := range []uint8{8, 16, 32, 64} {
		for range 400 {
			x, xs := signedVal(r, w)
			y, ys := signedVal(r, w)
			for _, op := range ops {
				for _, flags := range []uint8{0, ir.FlagNSW} {
					if op == ir.OpAShr {
						y, ys = intVal(0, 3), []uint64{0, 1, 2, 3}
					}
					var res val
					refused := func() (ref bool) {
						defer func() {
							if p := recover(); p != nil {
								if _, ok := p.(refusal); !ok {
									panic(p)
								}
								ref = true
							}
						}()
						a := &analysis{checking: true}
						res = a.arith(ir.Inst{Op: op, W: w, Flags: flags}, x, y, func() string { return "" })
						return false
					}()
					if refused {
						continue
					}
					for _, cx := range xs {
						for _, cy := range ys {
							v, err := concrete(op, flags, w, cx, cy)
							if err {
								t.Fatalf("w%d %s/%d %+v %+v: passed, but %#x, %#x is an error", w, op, flags, x, y, cx, cy)
							}
							if !res.has(v) {
								t.Fatalf("w%d %s/%d %+v %+v = %+v: %#x, %#x gives %#x", w, op, flags, x, y, res, cx, cy, v)
							}
						}
					}
				}
			}
			y, ys = signedVal(r, w)
			for _, op := range []ir.Op{ir.OpEq, ir.OpNe, ir.OpUlt, ir.OpUle, ir.OpSlt, ir.OpSle, ir.OpSgt, ir.OpSge} {
				c := compare(ir.Inst{Op: op, W: w}, x, y)
				for _, taken := range []bool{true, false} {
					rx, okx := refine(op, w, x, y, taken)
					ry, oky := refine(swap(op), w, y, x, taken)
					for _, cx := range xs {
						for _, cy := range ys {
							v, _ := concrete(op, 0, w, cx, cy)
							if !c.has(v) {
								t.Fatalf("w%d %s %+v %+v = %+v, but %#x, %#x gives %d", w, op, x, y, c, cx, cy, v)
							}
							if (v == 1) == taken && (!okx || !oky || !rx.has(cx) || !ry.has(cy)) {
								t.Fatalf("w%d %s taken=%v %+v %+v: refined to %+v (%v) %+v (%v), but %#x, %#x satisfies it", w, op, taken, x, y, rx, okx, ry, oky, cx, cy)
							}
						}
					}
				}
			}
			j, wd := x.join(y), widen(x, y, th)
			m, ok := intersect(x, y)
			for _, cx := range xs {
				if !j.has(cx) || !wd.has(cx) {
					t.Fatalf("w%d join %+v %+v = %+v, widen %+v: %#x lost", w, x, y, j, wd, cx)
				}
				if y.has(cx) && (!ok || !m.has(cx)) {
					t.Fatalf("w%d meet %+v %+v = %+v (%v): %#x lost", w, x, y, m, ok, cx)
				}
			}
			for _, cy := range ys {
				if !j.has(cy) || !wd.has(cy) {
					t.Fatalf("w%d join %+v %+v = %+v, widen %+v: %#x lost", w, x, y, j, wd, cy)
				}
			}
		}
	}
}
