package symbolic

import (
	"math/big"
	"testing"
)

// TestAffineSpace: assignments, joins (affine hulls) and the equalities
// that define the result, on the two-variable spaces of x += 2; y++ from
// (0, 0) and of a swap.
func TestAffineSpace(t *testing.T) {
	r := func(x int64) *big.Rat { return big.NewRat(x, 1) }
	eqs := func(s *affSpace) []string {
		var out []string
		for _, e := range s.equalities(2) {
			out = append(out, e.coef[0].String()+"x+"+e.coef[1].String()+"y="+e.rhs.String())
		}
		return out
	}
	s := topSpace(2)
	if got := eqs(s); len(got) != 0 {
		t.Fatalf("top: %v, want no equality", got)
	}
	s.assign(0, []*big.Rat{r(0), r(0)}, r(0), 2) // x := 0
	s.assign(1, []*big.Rat{r(0), r(0)}, r(0), 2) // y := 0
	if got := eqs(s); len(got) != 2 {
		t.Fatalf("after x := 0, y := 0: %v, want two equalities", got)
	}
	// one iteration of x += 2; y++, joined with the entry: the line x = 2y
	it := s.clone()
	it.assign(0, []*big.Rat{r(1), r(0)}, r(2), 2)
	it.assign(1, []*big.Rat{r(0), r(1)}, r(1), 2)
	if !s.join(it, 2) {
		t.Fatal("join: no growth")
	}
	got := eqs(s)
	if len(got) != 1 || got[0] != "-2x+4y=0" && got[0] != "1x+-2y=0" && got[0] != "-1x+2y=0" && got[0] != "2x+-4y=0" {
		t.Fatalf("after the join: %v, want x - 2y = 0 (up to a factor)", got)
	}
	// a second iteration stays on the line: no growth (the fixpoint)
	it2 := s.clone()
	it2.assign(0, []*big.Rat{r(1), r(0)}, r(2), 2)
	it2.assign(1, []*big.Rat{r(0), r(1)}, r(1), 2)
	if s.join(it2, 2) {
		t.Fatalf("a second iteration grew the space: %v", eqs(s))
	}
	// x := y gives x = y; y's value becoming unknown then loses it
	u := topSpace(2)
	u.assign(0, []*big.Rat{r(0), r(1)}, r(0), 2) // x := y
	if got := eqs(u); len(got) != 1 {
		t.Fatalf("x := y: %v, want x = y", got)
	}
	u.assign(1, nil, nil, 2) // y unknown
	if got := eqs(u); len(got) != 0 {
		t.Fatalf("x := y, then y unknown: %v, want nothing", got)
	}
	// bottom joins to the other side
	b := &affSpace{bot: true}
	if !b.join(it, 2) || len(eqs(b)) != 2 {
		t.Fatalf("bottom joined with a point: %v, want its two equalities", eqs(b))
	}
}
