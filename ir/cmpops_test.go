package ir

import "testing"

// evalCmp evaluates integer comparison op on 3-bit values a and b.
func evalCmp(t *testing.T, op Op, a, b uint64) bool {
	s := func(v uint64) int64 { return int64(v<<61) >> 61 }
	switch op {
	case OpEq:
		return a == b
	case OpNe:
		return a != b
	case OpUlt:
		return a < b
	case OpUle:
		return a <= b
	case OpUgt:
		return a > b
	case OpUge:
		return a >= b
	case OpSlt:
		return s(a) < s(b)
	case OpSle:
		return s(a) <= s(b)
	case OpSgt:
		return s(a) > s(b)
	case OpSge:
		return s(a) >= s(b)
	}
	t.Fatalf("%v is not a comparison", op)
	return false
}

func TestSwappedNegatedCmp(t *testing.T) {
	for _, op := range []Op{OpEq, OpNe, OpUlt, OpUle, OpUgt, OpUge, OpSlt, OpSle, OpSgt, OpSge} {
		sw, ng := SwappedCmp(op), NegatedCmp(op)
		for a := uint64(0); a < 8; a++ {
			for b := uint64(0); b < 8; b++ {
				if evalCmp(t, sw, b, a) != evalCmp(t, op, a, b) {
					t.Errorf("SwappedCmp(%v) = %v: differs at a=%d b=%d", op, sw, a, b)
				}
				if evalCmp(t, ng, a, b) == evalCmp(t, op, a, b) {
					t.Errorf("NegatedCmp(%v) = %v: agrees at a=%d b=%d", op, ng, a, b)
				}
			}
		}
	}
	for _, op := range []Op{OpAdd, OpMov, OpLoad, OpNop} {
		if SwappedCmp(op) != OpNop || NegatedCmp(op) != OpNop {
			t.Errorf("%v: not a comparison, want OpNop", op)
		}
	}
}
