package symbolic

import (
	"context"
	"fmt"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// solvers are the backends every test runs with.
var solvers = []string{"z3", "cvc5", "boolector"}

// newSolver returns the named solver. Without its binary the test is
// skipped on a developer machine and fails in CI (CI=true), as
// internal/testutil does for clang.
func newSolver(t *testing.T, name string, opts Options) Solver {
	t.Helper()
	if opts.Path == "" {
		if _, err := exec.LookPath(name); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("%s not found in PATH (required when CI=true; run scripts/install-deps.sh): %v", name, err)
			}
			t.Skipf("%s not found in PATH; skipping (apt-get install %s)", name, name)
		}
	}
	s, err := New(name, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

func forEach(t *testing.T, f func(t *testing.T, name string)) {
	for _, name := range solvers {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			f(t, name)
		})
	}
}

func check(t *testing.T, s Solver, q *Query) Answer {
	t.Helper()
	a, err := s.Check(context.Background(), q)
	if err != nil {
		t.Fatalf("%s: %v", s.Name(), err)
	}
	return a
}

func TestModularInverse(t *testing.T) {
	forEach(t, func(t *testing.T, name string) {
		s := newSolver(t, name, Options{Timeout: 5 * time.Second})
		q := NewQuery()
		x := q.BitVec("x", 32)
		q.Assert(Eq(BVMul(x, BV(3, 32)), BV(1, 32)))
		a := check(t, s, q)
		if a.Status != Sat {
			t.Fatalf("x*3 == 1 over 32 bits: %v, want sat", a)
		}
		v, _ := a.Model.Uint64("x")
		if uint32(v)*3 != 1 {
			t.Fatalf("model x = %#x: x*3 = %#x, want 1", v, uint32(v)*3)
		}
	})
}

// TestSquares: x*x == c over 8 bits, sat exactly when Go finds a root.
func TestSquares(t *testing.T) {
	forEach(t, func(t *testing.T, name string) {
		s := newSolver(t, name, Options{Timeout: 5 * time.Second})
		for _, c := range []uint64{2, 3, 9, 17, 0, 128, 4, 100} {
			root := false
			for x := 0; x < 256; x++ {
				if uint8(x*x) == uint8(c) {
					root = true
				}
			}
			q := NewQuery()
			x := q.BitVec("x", 8)
			q.Assert(Eq(BVMul(x, x), BV(c, 8)))
			a := check(t, s, q)
			want := Unsat
			if root {
				want = Sat
			}
			if a.Status != want {
				t.Fatalf("x*x == %d over 8 bits: %v, want %v", c, a, want)
			}
			if a.Status == Sat {
				if v, _ := a.Model.Uint64("x"); uint8(v*v) != uint8(c) {
					t.Fatalf("x*x == %d: model x = %d", c, v)
				}
			}
		}
	})
}

// TestSignedDivOverflow: the only 32-bit x / y that overflows is INT_MIN / -1,
// the only quotient of two negative numbers that is negative.
func TestSignedDivOverflow(t *testing.T) {
	forEach(t, func(t *testing.T, name string) {
		s := newSolver(t, name, Options{Timeout: 5 * time.Second})
		q := NewQuery()
		x, y := q.BitVec("x", 32), q.BitVec("y", 32)
		zero := BV(0, 32)
		q.Assert(And(BVSLT(x, zero), BVSLT(y, zero), BVSLT(BVSDiv(x, y), zero)))
		a := check(t, s, q)
		if a.Status != Sat {
			t.Fatalf("INT_MIN / -1: %v, want sat", a)
		}
		if xv, yv := a.Model["x"].Int64(), a.Model["y"].Int64(); xv != -1<<31 || yv != -1 {
			t.Fatalf("model x = %d, y = %d, want INT_MIN, -1", xv, yv)
		}
		// With x ≠ INT_MIN it cannot overflow.
		q.Assert(Distinct(x, BVInt(-1<<31, 32)))
		if a := check(t, s, q); a.Status != Unsat {
			t.Fatalf("overflow with x ≠ INT_MIN: %v, want unsat", a)
		}
	})
}

// TestShiftWidth: SMT-LIB2 shifts by ≥ width give 0 (no undefined
// behaviour in the formula: the encoder must test the amount itself).
func TestShiftWidth(t *testing.T) {
	forEach(t, func(t *testing.T, name string) {
		s := newSolver(t, name, Options{Timeout: 5 * time.Second})
		for _, tc := range []struct {
			bound bool
			want  Status
		}{{true, Unsat}, {false, Sat}} {
			q := NewQuery()
			sh := q.BitVec("s", 8)
			q.Assert(Eq(BVShl(BV(1, 8), sh), BV(0, 8)))
			if tc.bound {
				q.Assert(BVULT(sh, BV(8, 8)))
			}
			a := check(t, s, q)
			if a.Status != tc.want {
				t.Fatalf("1 << s == 0 (s < 8: %v): %v, want %v", tc.bound, a, tc.want)
			}
			if a.Status == Sat {
				if v, _ := a.Model.Uint64("s"); v < 8 {
					t.Fatalf("model s = %d, want ≥ 8", v)
				}
			}
		}
	})
}

// known is a's element at i where the model fixes it.
func known(a *ArrayValue, i uint64) (uint64, bool) {
	if v, ok := a.Entries[i]; ok {
		return v, true
	}
	return a.Default, a.DefaultKnown
}

func TestArrays(t *testing.T) {
	forEach(t, func(t *testing.T, name string) {
		s := newSolver(t, name, Options{Timeout: 5 * time.Second})
		q := NewQuery()
		m, n := q.Memory("m"), q.Memory("n")
		i, j := q.BitVec("i", 64), q.BitVec("j", 64)
		b := q.Bool("b")
		q.Assert(Eq(n, Store(m, i, BV(5, 8))))
		q.Assert(Eq(Select(Store(m, i, BV(0x2a, 8)), BV(0x10, 64)), BV(0x2a, 8)))
		q.Assert(Eq(Select(m, BV(0x10, 64)), BV(7, 8)))
		q.Assert(Eq(Select(m, BVAdd(i, BV(1, 64))), BV(8, 8)))
		q.Assert(Eq(Select(n, j), BV(9, 8)))
		q.Assert(Eq(b, BVUGT(j, i)))
		a := check(t, s, q)
		if a.Status != Sat {
			t.Fatalf("arrays: %v, want sat", a)
		}
		iv, _ := a.Model.Uint64("i")
		jv, _ := a.Model.Uint64("j")
		mv, nv := a.Model["m"].Array, a.Model["n"].Array
		if iv != 0x10 {
			t.Fatalf("i = %#x, want 0x10", iv)
		}
		if a.Model["b"].Bool != (jv > iv) {
			t.Fatalf("b = %v, j = %#x, i = %#x", a.Model["b"].Bool, jv, iv)
		}
		for _, c := range []struct {
			arr  *ArrayValue
			at   uint64
			want uint64
		}{{mv, 0x10, 7}, {mv, 0x11, 8}, {nv, 0x10, 5}, {nv, jv, 9}} {
			if v, ok := known(c.arr, c.at); ok && v != c.want {
				t.Errorf("[%#x] = %#x, want %#x (array %s)", c.at, v, c.want, c.arr)
			} else if !ok && name != "boolector" {
				t.Errorf("[%#x] not in the model (array %s)", c.at, c.arr)
			}
		}
		// n = store(m, i, 5) elsewhere too, where both are known.
		if name != "boolector" {
			for idx := range mv.Entries {
				if idx != iv && nv.At(idx) != mv.At(idx) {
					t.Errorf("n[%#x] = %#x, m[%#x] = %#x", idx, nv.At(idx), idx, mv.At(idx))
				}
			}
		}
	})
}

func TestIncremental(t *testing.T) {
	forEach(t, func(t *testing.T, name string) {
		s := newSolver(t, name, Options{Timeout: 5 * time.Second})
		ctx := context.Background()
		x, err := s.Declare("x", BitVec(8))
		if err != nil {
			t.Fatal(err)
		}
		must(t, s.Assert(BVUGT(x, BV(10, 8))))
		steps := []struct {
			assert Term
			want   Status
			x      int // model value, -1 for any
		}{
			{BVULT(x, BV(5, 8)), Unsat, -1},
			{Eq(x, BV(200, 8)), Sat, 200},
			{Eq(x, BV(3, 8)), Unsat, -1},
			{"true", Sat, -1},
		}
		for _, st := range steps {
			must(t, s.Push())
			must(t, s.Assert(st.assert))
			a, err := s.CheckSat(ctx, "x")
			if err != nil {
				t.Fatal(err)
			}
			if a.Status != st.want {
				t.Fatalf("x > 10 ∧ %s: %v, want %v", st.assert, a, st.want)
			}
			if a.Status == Sat {
				v, _ := a.Model.Uint64("x")
				if v <= 10 || (st.x >= 0 && v != uint64(st.x)) {
					t.Fatalf("x > 10 ∧ %s: x = %d", st.assert, v)
				}
			}
			must(t, s.Pop())
		}
		if err := s.Pop(); err == nil {
			t.Fatal("pop without push: no error")
		}
		// A declaration in a popped scope is gone.
		must(t, s.Push())
		if _, err := s.Declare("y", BoolSort()); err != nil {
			t.Fatal(err)
		}
		must(t, s.Pop())
		if _, err := s.CheckSat(ctx, "y"); err == nil || !strings.Contains(err.Error(), "not declared") {
			t.Fatalf("want of a popped constant: %v", err)
		}
		if _, err := s.Declare("y", BitVec(4)); err != nil {
			t.Fatalf("redeclare after pop: %v", err)
		}
	})
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// factoring is hard: a 64-bit semiprime (3538334777 · 2767054501) as the
// product of two 32-bit factors.
func factoring(q *Query) {
	x, y := q.BitVec("p", 64), q.BitVec("r", 64)
	for _, v := range []Term{x, y} {
		q.Assert(BVULT(v, BV(1<<32, 64)))
		q.Assert(BVUGT(v, BV(1, 64)))
	}
	n := new(big.Int).Mul(big.NewInt(3538334777), big.NewInt(2767054501))
	q.Assert(Eq(BVMul(x, y), BVBig(n, 64)))
}

func TestTimeout(t *testing.T) {
	forEach(t, func(t *testing.T, name string) {
		s := newSolver(t, name, Options{Timeout: 200 * time.Millisecond})
		must(t, s.Assert(Eq(BV(1, 4), BV(1, 4)))) // survives a restart
		q := NewQuery()
		factoring(q)
		start := time.Now()
		a := check(t, s, q)
		if a.Status != Unknown || a.Reason != ReasonTimeout {
			t.Fatalf("factoring in 200ms: %v, want unknown (timeout)", a)
		}
		if el := time.Since(start); el > 1500*time.Millisecond {
			t.Fatalf("factoring in 200ms answered after %v", el)
		}
		t.Logf("%s: %v after %v", name, a, a.Elapsed)
		// The solver still answers.
		q = NewQuery()
		x := q.BitVec("x", 16)
		q.Assert(Eq(BVAdd(x, BV(1, 16)), BV(0, 16)))
		if a := check(t, s, q); a.Status != Sat || a.Model["x"].Uint64() != 0xffff {
			t.Fatalf("after a timeout: %v %v", a, a.Model)
		}
	})
}

// TestContextDeadline: without a solver timeout, the context's deadline
// kills the process; the next check replays the scopes on a new one.
func TestContextDeadline(t *testing.T) {
	forEach(t, func(t *testing.T, name string) {
		s := newSolver(t, name, Options{})
		x, err := s.Declare("x", BitVec(8))
		must(t, err)
		must(t, s.Assert(BVUGT(x, BV(250, 8))))
		must(t, s.Push())
		q := NewQuery()
		factoring(q)
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		defer cancel()
		a, err := s.Check(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		if a.Status != Unknown || a.Reason != ReasonTimeout || a.Elapsed > time.Second {
			t.Fatalf("factoring, context 300ms: %v after %v, want unknown (timeout)", a, a.Elapsed)
		}
		must(t, s.Pop())
		a, err = s.CheckSat(context.Background(), "x")
		if err != nil {
			t.Fatal(err)
		}
		if v, _ := a.Model.Uint64("x"); a.Status != Sat || v <= 250 {
			t.Fatalf("after a kill, x > 250: %v x = %d", a, v)
		}
		// A canceled context answers at once.
		ctx, cancel = context.WithCancel(context.Background())
		cancel()
		if a, err := s.CheckSat(ctx); err != nil || a.Reason != ReasonCanceled {
			t.Fatalf("canceled: %v %v", a, err)
		}
	})
}

func TestCrash(t *testing.T) {
	dir := t.TempDir()
	script := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	cases := []struct {
		path   string
		detail string
	}{
		{"/bin/false", "exit status 1"},
		{script("boom", "echo 'solver: out of cheese' >&2; exit 3"), "out of cheese"},
		{script("half", "head -c 40 >/dev/null; echo success; echo 'segfault' >&2; kill -SEGV $$"), "segfault"},
		{script("garbage", "echo ')))'; sleep 5"), "unreadable"},
	}
	forEach(t, func(t *testing.T, name string) {
		for _, c := range cases {
			if name == "boolector" && c.detail == "unreadable" {
				continue // boolector's output is read when it exits: this one times out
			}
			s := newSolver(t, name, Options{Path: c.path, Timeout: 2 * time.Second})
			q := NewQuery()
			q.Assert(Eq(q.BitVec("x", 8), BV(1, 8)))
			for range 2 { // crashes again on the next check, no hang
				a := check(t, s, q)
				if a.Status != Unknown || a.Reason != ReasonCrashed || !strings.Contains(a.Detail, c.detail) {
					t.Fatalf("%s: %v, want unknown (crashed) with %q", c.path, a, c.detail)
				}
				if a.Elapsed > time.Second {
					t.Fatalf("%s: crash seen after %v", c.path, a.Elapsed)
				}
			}
		}
	})
}

// TestLimitAsError: a solver that reports its own time limit as an error
// to check-sat (z3 stopped inside a tactic: (error "tactic failed:
// canceled")) answers unknown (timeout), not an error; a solver error of
// another kind is still an error.
func TestLimitAsError(t *testing.T) {
	dir := t.TempDir()
	script := func(name, answer string) string {
		p := filepath.Join(dir, name)
		body := "#!/bin/sh\nwhile IFS= read -r line; do\n  case \"$line\" in\n" +
			"    *check-sat*) echo '" + answer + "' ;;\n" +
			"    '') ;;\n" +
			"    *) echo success ;;\n  esac\ndone\n"
		if err := os.WriteFile(p, []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	cases := []struct {
		answer string
		reason Reason // "" for an error
	}{
		{`(error "tactic failed: canceled")`, ReasonTimeout},
		{`(error "timeout")`, ReasonTimeout},
		{`(error "out of memory")`, ReasonResourceOut},
		{`(error "invalid command")`, ""},
	}
	for i, c := range cases {
		s := newSolver(t, "z3", Options{Path: script(fmt.Sprintf("s%d", i), c.answer), Timeout: 5 * time.Second})
		q := NewQuery()
		q.Assert(Eq(q.BitVec("x", 8), BV(1, 8)))
		a, err := s.Check(context.Background(), q)
		switch {
		case c.reason == "" && err == nil:
			t.Errorf("%s: %v, want an error", c.answer, a)
		case c.reason == "" && !strings.Contains(err.Error(), "invalid command"):
			t.Errorf("%s: error %v does not name the answer", c.answer, err)
		case c.reason != "" && (err != nil || a.Status != Unknown || a.Reason != c.reason || !strings.Contains(a.Detail, "z3")):
			t.Errorf("%s: %v, %v; want unknown (%s)", c.answer, a, err, c.reason)
		}
	}
}

func TestRejected(t *testing.T) {
	forEach(t, func(t *testing.T, name string) {
		s := newSolver(t, name, Options{Timeout: 5 * time.Second})
		x, err := s.Declare("x", BitVec(8))
		must(t, err)
		must(t, s.Assert(Eq(x, BV(4, 8))))
		must(t, s.Assert(Eq(x, Term("undeclared_q"))))
		_, err = s.CheckSat(context.Background(), "x")
		if err == nil || !strings.Contains(err.Error(), "undeclared_q") {
			t.Fatalf("rejected assertion: err = %v", err)
		}
		// The rejected assertion is dropped; the others remain.
		a, err := s.CheckSat(context.Background(), "x")
		if err != nil || a.Status != Sat || a.Model["x"].Uint64() != 4 {
			t.Fatalf("after a rejected assertion: %v %v", a, err)
		}
		if err := s.Assert("(bvadd x"); err == nil {
			t.Fatal("unbalanced term accepted")
		}
		if _, err := s.Declare("let", BoolSort()); err == nil {
			t.Fatal("declared let")
		}
		if _, err := s.Declare("x", BoolSort()); err == nil {
			t.Fatal("declared x twice")
		}
	})
}

func TestNew(t *testing.T) {
	_, err := New("z3", Options{Path: "/nonexistent/z3"})
	if err == nil || !strings.Contains(err.Error(), "apt-get install z3") {
		t.Fatalf("missing binary: %v", err)
	}
	_, err = New("cvc5", Options{Path: "/nonexistent/cvc5"})
	if err == nil || !strings.Contains(err.Error(), "apt-get install cvc5") {
		t.Fatalf("missing binary: %v", err)
	}
	if _, err := New("yices", Options{}); err == nil || !strings.Contains(err.Error(), "z3, cvc5, boolector") {
		t.Fatalf("unknown solver: %v", err)
	}
	if _, err := New("z3", Options{Timeout: -time.Second}); err == nil {
		t.Fatal("negative timeout accepted")
	}
}

// TestZ3BitBlast: z3's check bit-blasts a formula whose arrays are only
// read (bvarray2uf, ackermannize_bv) and falls back to smt on one that
// stores; both give the right answer and, when sat, a model of the arrays
// that satisfies the formula.
func TestZ3BitBlast(t *testing.T) {
	cases := []struct {
		name  string
		build func(q *Query)
		sat   bool
		model func(m Model) error
	}{
		{"reads_sat", func(q *Query) {
			in := q.Declare("in", ArraySort(32, 8))
			x, y := Select(in, BV(0, 32)), Select(in, BV(1, 32))
			q.Assert(Eq(BVMul(x, y), BV(143, 8)))
			q.Assert(BVUGT(x, BV(1, 8)))
			q.Assert(BVUGT(y, BV(1, 8)))
		}, true, func(m Model) error {
			x, y := m["in"].Array.At(0), m["in"].Array.At(1)
			if x*y%256 != 143 || x <= 1 || y <= 1 {
				return fmt.Errorf("in[0] = %d, in[1] = %d", x, y)
			}
			return nil
		}},
		{"reads_unsat", func(q *Query) {
			in := q.Declare("in", ArraySort(32, 8))
			r := q.BitVec("r", 8)
			q.Assert(Eq(r, BVURem(Select(in, BV(0, 32)), BV(7, 8))))
			q.Assert(BVUGE(r, BV(7, 8)))
		}, false, nil},
		{"stores_sat", func(q *Query) {
			m, n := q.Memory("m"), q.Memory("n")
			i, j := q.BitVec("i", 64), q.BitVec("j", 64)
			q.Assert(Eq(n, Store(m, i, BV(5, 8))))
			q.Assert(Not(Eq(i, j)))
			q.Assert(Eq(Select(n, j), BV(9, 8)))
		}, true, func(md Model) error {
			j, _ := md.Uint64("j")
			if v := md["m"].Array.At(j); v != 9 {
				return fmt.Errorf("m[%#x] = %d, want 9", j, v)
			}
			return nil
		}},
		{"stores_unsat", func(q *Query) {
			m := q.Memory("m")
			i := q.BitVec("i", 64)
			q.Assert(Not(Eq(Select(Store(m, i, BV(5, 8)), i), BV(5, 8))))
		}, false, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := newSolver(t, "z3", Options{Timeout: 10 * time.Second})
			q := NewQuery()
			c.build(q)
			a := check(t, s, q)
			want := Unsat
			if c.sat {
				want = Sat
			}
			if a.Status != want {
				t.Fatalf("%v, want %v", a, want)
			}
			if c.model != nil {
				if err := c.model(a.Model); err != nil {
					t.Fatalf("model: %v", err)
				}
			}
		})
	}
}

// TestReadsOnly: the terms under which z3 may bit-blast (arrays only read).
func TestReadsOnly(t *testing.T) {
	arrays := map[string]bool{"in0": true, "m": true}
	cases := []struct {
		term string
		want bool
	}{
		{"(= v1 (select in0 #x00000000))", true},
		{"(= v2 (bvurem v1 (select m (bvadd p #x01))))", true},
		{"(= in01 (select in0 #x00000000))", true}, // in01 is not an array
		{"(= n (store m p #x05))", false},
		{"(= m ((as const (Array (_ BitVec 64) (_ BitVec 8))) #x00))", false},
		{"(= m n)", false},
		{"(= v (select (ite c m n) p))", false},
		{"(= v1 (select |in0| #x00000000))", false},
		{"(= v1 (bvadd v2 #x01))", true},
	}
	for _, c := range cases {
		if got := readsOnly(c.term, arrays); got != c.want {
			t.Errorf("readsOnly(%s) = %v, want %v", c.term, got, c.want)
		}
	}
}

// TestIntClocks: a query with integer constants (the partial-order
// encoding's clocks) is checked by z3 and cvc5 under a logic with
// integers, and by boolector through its bitvector version (Answer.BVOnly);
// a bitvector query after it on the same solver is checked as before
// (the process is restarted with QF_ABV). Models give the integers.
func TestIntClocks(t *testing.T) {
	ints := func(extra Term) *Query {
		q := NewQuery()
		a, b, c := q.Declare("a", IntSort()), q.Declare("b", IntSort()), q.Declare("c", IntSort())
		x := q.BitVec("x", 8)
		q.Assert(IntLE("0", a))
		q.Assert(IntLT(a, b))
		q.Assert(IntLT(b, c))
		q.Assert(Eq(x, BV(7, 8)))
		q.Assert(extra)
		bv := NewQuery()
		ab, bb, cb := bv.BitVec("a", 3), bv.BitVec("b", 3), bv.BitVec("c", 3)
		xb := bv.BitVec("x", 8)
		bv.Assert(BVULT(ab, bb))
		bv.Assert(BVULT(bb, cb))
		bv.Assert(Eq(xb, BV(7, 8)))
		bv.Assert(Term(strings.NewReplacer("(<= ", "(bvule ", "(< ", "(bvult ", "(>= ", "(bvuge ").Replace(string(extra))))
		q.SetBVOnly(bv)
		return q
	}
	tests := []struct {
		extra Term
		want  Status
	}{
		{IntLT("c", "a"), Unsat},      // a cycle
		{IntLE("c", "b"), Unsat},      // b < c
		{IntLE("b", "a"), Unsat},      // a < b
		{IntLT("a", "c"), Sat},        // implied
		{Not(IntLT("c", "b")), Sat},   // c > b
		{Not(Eq("a", "b")), Sat},      // distinct
		{Eq("x", BV(8, 8)), Unsat},    // the bitvector part
		{IntGE("a", "b"), Unsat},      // a < b
		{Not(IntGE("c", "a")), Unsat}, // c > a
	}
	for _, name := range append(Names(), Portfolio) {
		t.Run(name, func(t *testing.T) {
			if name != Portfolio {
				newSolver(t, name, Options{}).Close() // skipped when missing
			}
			s, err := New(name, Options{Timeout: 10 * time.Second})
			if err != nil {
				t.Skip(err)
			}
			defer s.Close()
			for _, tc := range tests {
				a := check(t, s, ints(tc.extra))
				if a.Status != tc.want {
					t.Fatalf("%s: %v, want %v", tc.extra, a, tc.want)
				}
				if want := a.Solver == "boolector"; a.BVOnly != want {
					t.Errorf("%s answered by %s: BVOnly %v", tc.extra, a.Solver, a.BVOnly)
				}
				if a.Status == Sat {
					av, bv, cv := a.Model["a"].Uint64(), a.Model["b"].Uint64(), a.Model["c"].Uint64()
					if !(av < bv && bv < cv) || a.Model["x"].Uint64() != 7 {
						t.Errorf("%s: model a=%d b=%d c=%d x=%d", tc.extra, av, bv, cv, a.Model["x"].Uint64())
					}
					if k := a.Model["a"].Sort.Kind; k != KindInt && !a.BVOnly {
						t.Errorf("%s: a is of sort kind %d, want Int", tc.extra, k)
					}
				}
				// a query without integers on the same solver
				q := NewQuery()
				y := q.BitVec("y", 8)
				q.Assert(BVUGT(y, BV(250, 8)))
				if a := check(t, s, q); a.Status != Sat || a.Model["y"].Uint64() <= 250 || a.BVOnly {
					t.Fatalf("y > 250 after %s: %v (y = %d)", tc.extra, a, a.Model["y"].Uint64())
				}
			}
			// a negative integer's value (z3 and cvc5 print (- 3))
			if name != "boolector" {
				q := NewQuery()
				i := q.Declare("i", IntSort())
				q.Assert(Eq(App("+", i, "3"), "0"))
				if a := check(t, s, q); a.Status != Sat || a.Model["i"].BV.Int64() != -3 {
					t.Errorf("i + 3 = 0: %v, i = %v", a, a.Model["i"])
				}
			}
			// without a bitvector version, boolector refuses integers
			if name == "boolector" {
				q := NewQuery()
				q.Declare("i", IntSort())
				if _, err := s.Check(context.Background(), q); err == nil {
					t.Errorf("boolector checked a query with integers and no bitvector version")
				}
			}
		})
	}
}
