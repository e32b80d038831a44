package vm

import (
	"math"
	"testing"

	"github.com/wyvernmc/wyvern/ir"
)

// TestBMCColumn: every platform function has BMC's decision, encoded or
// refused, with a text saying how or why.
func TestBMCColumn(t *testing.T) {
	for b := ir.Builtin(0); b < ir.NumBuiltins; b++ {
		e := BMC(b)
		if e.Support != BMCEncoded && e.Support != BMCRefused {
			t.Errorf("%s (%d): no decision for BMC in vm/platform_bmc.go (encoded or refused, with how or why)", b, b)
		}
		if e.How == "" {
			t.Errorf("%s (%d): BMC's decision %s says neither how nor why", b, b, e.Support)
		}
	}
	if got := len(BMCTable()); got != int(ir.NumBuiltins)-1 {
		t.Errorf("BMCTable has %d rows, want %d", got, ir.NumBuiltins-1)
	}
	if e := BMC(ir.NumBuiltins); e.Support != BMCRefused {
		t.Errorf("BMC(NumBuiltins) = %+v, want refused", e)
	}
}

// TestChoiceRules: the argument checks and result sets of choice_rule.go,
// which symbolic encodes, agree with the distributions the vm draws from:
// a call is invalid exactly when its table entry refuses it, and a value
// is in the result set exactly when Choice.DrawFor has a draw for it.
func TestChoiceRules(t *testing.T) {
	var n Numbers
	vals := []uint64{0, 1, 2, 3, 5, 7, 0xff, 0x100, 0x7fffffff, 0xffffffff, math.MaxInt64, 1 << 63, ^uint64(0), ^uint64(0) - 1}
	for _, num := range []uint64{0, 1, 2, 3, 5, 0xffffffff} {
		for _, den := range []uint64{0, 1, 3, 5, 0xffffffff} {
			bad := CoinBad(n, num, den)
			_, err := platform[ir.BCoin].choice(testArgs(num, den))
			if bad != (err != nil) {
				t.Errorf("wyvern_coin(%d, %d): CoinBad %v, the vm's entry says %v", num, den, bad, err)
			}
			if bad {
				continue
			}
			c := CoinChoice(num, den)
			for _, r := range []uint64{0, 1, 2} {
				_, ok := c.DrawFor(r)
				if got := CoinCan(n, num, den, r); got != ok {
					t.Errorf("wyvern_coin(%d, %d) -> %d: CoinCan %v, DrawFor %v", num, den, r, got, ok)
				}
			}
		}
	}
	ints := []int64{math.MinInt64, -300, -3, -1, 0, 1, 4, 250, 255, 256, math.MaxInt64}
	for _, lo := range ints {
		for _, hi := range ints {
			bad := UniformBad(n, uint64(lo), uint64(hi))
			_, err := platform[ir.BUniform].choice(testArgs(uint64(lo), uint64(hi)))
			if bad != (err != nil) {
				t.Errorf("wyvern_uniform(%d, %d): UniformBad %v, the vm's entry says %v", lo, hi, bad, err)
			}
			if bad {
				continue
			}
			c := UniformChoice(lo, hi)
			for _, w := range []int{8, 32, 64} {
				for _, r := range vals {
					r &= ir.Mask(uint8(w))
					// the vm's result: lo + a draw in [0, N) truncated to w bits
					ok := false
					switch {
					case c.N == 0 || (w < 64 && c.N >= 1<<w):
						ok = true // every w-bit value
					case c.N <= 1<<16:
						for d := uint64(0); d < c.N && !ok; d++ {
							ok = c.Result(d)&ir.Mask(uint8(w)) == r
						}
					default:
						continue // too many draws to enumerate
					}
					if got := UniformCan(n, uint64(lo), uint64(hi), r, w); got != ok {
						t.Errorf("wyvern_uniform(%d, %d) -> %#x on %d bits: UniformCan %v, the distribution %v", lo, hi, r, w, got, ok)
					}
				}
			}
		}
	}
}

// testArgs are a call's two 64-bit arguments.
func testArgs(a, b uint64) args {
	return args{cs: &ir.CallSite{Args: []int32{0, 1}, ArgSizes: []uint8{8, 8}, Ret: 2}, r: []uint64{a, b, 0}}
}
