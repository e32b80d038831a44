package symbolic

import (
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"
)

func newPortfolioT(t *testing.T, opts Options) Solver {
	t.Helper()
	for _, n := range Names() {
		if _, err := exec.LookPath(n); err != nil {
			t.Skipf("%s not installed: the portfolio test wants all three", n)
		}
	}
	s, err := New(Portfolio, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// TestPortfolio: the portfolio answers as each member would, names the
// member that answered, keeps scopes for all of them, and after a race
// (the losers killed) answers the next check.
func TestPortfolio(t *testing.T) {
	s := newPortfolioT(t, Options{Timeout: 5 * time.Second})
	ctx := context.Background()
	x, err := s.Declare("x", BitVec(32))
	must(t, err)
	must(t, s.Assert(BVUGT(x, BV(10, 32))))
	for i, c := range []struct {
		goal Term
		want Status
	}{
		{Eq(BVMul(x, BV(3, 32)), BV(1, 32)), Sat},
		{BVULT(x, BV(5, 32)), Unsat},
		{Eq(x, BV(77, 32)), Sat},
	} {
		must(t, s.Push())
		must(t, s.Assert(c.goal))
		a, err := s.CheckSat(ctx, "x")
		if err != nil {
			t.Fatal(err)
		}
		if a.Status != c.want || a.Solver == "" || a.Solver == Portfolio {
			t.Fatalf("check %d (%s): %v from %q, want %v from a member", i, c.goal, a, a.Solver, c.want)
		}
		if a.Status == Sat {
			v, _ := a.Model.Uint64("x")
			if v <= 10 || (i == 0 && uint32(v)*3 != 1) || (i == 2 && v != 77) {
				t.Fatalf("check %d: model x = %#x from %s", i, v, a.Solver)
			}
		}
		must(t, s.Pop())
		t.Logf("check %d: %v from %s in %v", i, a, a.Solver, a.Elapsed)
	}
	// A self-contained query in its own scope.
	q := NewQuery()
	y := q.BitVec("y", 16)
	q.Assert(Eq(BVAdd(y, BV(1, 16)), BV(0, 16)))
	if a := check(t, s, q); a.Status != Sat || a.Model["y"].Uint64() != 0xffff {
		t.Fatalf("y + 1 == 0: %v %v", a, a.Model)
	}
}

// TestPortfolioTimeout: when no member answers in time the portfolio
// answers unknown (timeout), naming every member, soon after the limit.
func TestPortfolioTimeout(t *testing.T) {
	s := newPortfolioT(t, Options{Timeout: 300 * time.Millisecond})
	q := NewQuery()
	factoring(q)
	start := time.Now()
	a := check(t, s, q)
	if a.Status != Unknown || a.Reason != ReasonTimeout {
		t.Fatalf("factoring in 300ms: %v, want unknown (timeout)", a)
	}
	for _, n := range Names() {
		if !strings.Contains(a.Detail, n) {
			t.Errorf("the unknown answer does not name %s: %s", n, a.Detail)
		}
	}
	if el := time.Since(start); el > 3*time.Second {
		t.Fatalf("factoring in 300ms answered after %v", el)
	}
	if _, err := New(Portfolio, Options{Path: "/bin/z3"}); err == nil {
		t.Fatal("a portfolio with one binary path accepted")
	}
}

// TestPortfolioLateMember: a query with integers and a bitvector version
// (Query.SetBVOnly, the partial-order check's clocks) goes to z3 and cvc5
// at once and to boolector only after portfolioLate: where they do not
// answer, boolector's answer on the bitvector version wins; where they
// answer first, the race is decided without waiting for the delay.
func TestPortfolioLateMember(t *testing.T) {
	s := newPortfolioT(t, Options{Timeout: 20 * time.Second})
	defer func(d time.Duration) { portfolioLate = d }(portfolioLate)

	// z3 and cvc5 get a factoring problem they do not solve in the test's
	// time; boolector gets a trivial one
	hard := NewQuery()
	factoring(hard)
	n := hard.Declare("n", IntSort())
	hard.Assert(IntLE("0", n))
	easy := NewQuery()
	y := easy.BitVec("y", 8)
	easy.Assert(Eq(y, BV(7, 8)))
	hard.SetBVOnly(easy)
	portfolioLate = 100 * time.Millisecond
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	a, err := s.Check(ctx, hard)
	if err != nil {
		t.Fatal(err)
	}
	if a.Status != Sat || a.Solver != "boolector" || !a.BVOnly || a.Model["y"].Uint64() != 7 {
		t.Fatalf("hard integer version, easy bitvector one: %v from %s (bv-only %v), want sat y = 7 from boolector", a, a.Solver, a.BVOnly)
	}
	if a.Elapsed < portfolioLate {
		t.Fatalf("boolector answered after %v, before its delay %v", a.Elapsed, portfolioLate)
	}

	// the other way round: z3 and cvc5 answer, the late member never runs
	// and the race does not wait for its delay
	easyInt := NewQuery()
	m := easyInt.Declare("m", IntSort())
	easyInt.Assert(IntLE("3", m))
	hardBV := NewQuery()
	factoring(hardBV)
	easyInt.SetBVOnly(hardBV)
	portfolioLate = time.Hour
	start := time.Now()
	a, err = s.Check(ctx, easyInt)
	if err != nil {
		t.Fatal(err)
	}
	if a.Status != Sat || a.BVOnly || (a.Solver != "z3" && a.Solver != "cvc5") {
		t.Fatalf("easy integer version: %v from %s (bv-only %v), want sat from z3 or cvc5", a, a.Solver, a.BVOnly)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Fatalf("the race took %v: it waited for the late member", d)
	}
}
