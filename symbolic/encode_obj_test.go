package symbolic

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wyvernmc/wyvern/internal/testutil"
	"github.com/wyvernmc/wyvern/ir"
)

// objEncoder is an object-memory encoder of an empty program (main at
// block 1, no globals) and its initial state, for the points-to tests.
func objEncoder(t *testing.T) (*encoder, *pstate) {
	t.Helper()
	p := &ir.Program{Funcs: []*ir.Func{{Name: "main", Block: 1}}, Entry: 0, FirstDynBlock: 2}
	e := &encoder{p: p, q: NewQuery(), sites: map[[2]int]int{}, graphs: map[int]*graph{},
		active: map[int]int{}, calls: map[string][]int32{}, obj: true, maxTerms: DefaultMaxTerms}
	for k := range e.errs {
		e.errs[k] = true
	}
	s, err := e.initial()
	if err != nil {
		t.Fatal(err)
	}
	return e, s
}

// holds asks z3 whether the encoder's assertions imply goal (nothing
// contradicts it).
func holds(t *testing.T, e *encoder, goal Term) bool {
	t.Helper()
	s := newSolver(t, "z3", Options{Timeout: 10 * time.Second})
	for _, d := range e.q.Decls() {
		if _, err := s.Declare(d.Name, d.Sort); err != nil {
			t.Fatal(err)
		}
	}
	for _, a := range e.q.Asserts() {
		if err := s.Assert(a); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Assert(Not(goal)); err != nil {
		t.Fatal(err)
	}
	a, err := s.CheckSat(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if a.Status == Unknown {
		t.Fatalf("z3: unknown")
	}
	return a.Status == Unsat
}

// TestPointsTo checks the points-to resolution of object memory: a
// pointer that may name two blocks (a branch chose it, or it was stored
// in memory and loaded back) reads and writes the right block under each
// guard, keeps its value set through memory, and a freed block's access
// is the vm's use after free under the guard that names it only.
func TestPointsTo(t *testing.T) {
	type setup struct {
		e    *encoder
		s    *pstate
		c    Term // which block p names: the first where c holds
		a, b val  // the two blocks (16 bytes each, heap)
		p    val  // c ? a+8 : b+8
	}
	mk := func(t *testing.T) setup {
		e, s := objEncoder(t)
		a, b := e.malloc(s, cst(16, 64), false), e.malloc(s, cst(16, 64), false)
		if !a.isConst() || !b.isConst() || ir.PtrBlock(a.c) == ir.PtrBlock(b.c) {
			t.Fatalf("malloc: %+v %+v", a, b)
		}
		e.oWrite(s, e.add64(a, cst(8, 64)), cst(11, 32), 4)
		e.oWrite(s, e.add64(b, cst(8, 64)), cst(22, 32), 4)
		c := e.q.Bool("c")
		p := e.add64(e.sel(c, a, b), cst(8, 64))
		return setup{e, s, c, a, b, p}
	}
	eq32 := func(v val, k uint64) Term { return eqT(v.t, BV(k, 32)) }
	tests := []struct {
		name string
		run  func(t *testing.T, x setup)
	}{
		{"the set of a chosen pointer", func(t *testing.T, x setup) {
			if len(x.p.cs) != 2 || x.p.guess {
				t.Fatalf("p's set: %v (guess %v), want two exact values", x.p.cs, x.p.guess)
			}
		}},
		{"a load gives each block's value under its guard", func(t *testing.T, x setup) {
			v := x.e.oRead(x.s, x.p, 4)
			if v.isConst() {
				t.Fatalf("load folded to %d", v.c)
			}
			if !holds(t, x.e, Implies(x.c, eq32(v, 11))) || !holds(t, x.e, Implies(Not(x.c), eq32(v, 22))) {
				t.Fatalf("load through p: not 11 under c and 22 elsewhere")
			}
		}},
		{"a store changes only the block named", func(t *testing.T, x setup) {
			x.e.oWrite(x.s, x.p, cst(33, 32), 4)
			va := x.e.oRead(x.s, x.e.add64(x.a, cst(8, 64)), 4)
			vb := x.e.oRead(x.s, x.e.add64(x.b, cst(8, 64)), 4)
			if !holds(t, x.e, Implies(x.c, And(eq32(va, 33), eq32(vb, 22)))) ||
				!holds(t, x.e, Implies(Not(x.c), And(eq32(va, 11), eq32(vb, 33)))) {
				t.Fatalf("store through p changed the wrong block")
			}
		}},
		{"a pointer loaded back from memory keeps its set", func(t *testing.T, x setup) {
			slot := x.e.malloc(x.s, cst(8, 64), false)
			x.e.oWrite(x.s, slot, x.p, 8)
			q := x.e.oRead(x.s, slot, 8)
			if len(q.cs) != 2 || q.guess {
				t.Fatalf("loaded pointer's set: %v (guess %v), want p's", q.cs, q.guess)
			}
			v := x.e.oRead(x.s, q, 4)
			if !holds(t, x.e, Implies(x.c, eq32(v, 11))) || !holds(t, x.e, Implies(Not(x.c), eq32(v, 22))) {
				t.Fatalf("load through the loaded pointer: wrong values")
			}
		}},
		{"a freed block's access is a use after free where p names it", func(t *testing.T, x setup) {
			x.e.oFree(x.s, x.a)
			n := len(x.e.viol)
			x.e.oAccess(x.s, x.p, BV(4, 64), false)
			if len(x.e.viol) != n+1 {
				t.Fatalf("%d violations, want one more", len(x.e.viol)-n)
			}
			uaf := x.e.viol[n]
			if !holds(t, x.e, Implies(x.c, uaf)) || !holds(t, x.e, Implies(Not(x.c), Not(uaf))) {
				t.Fatalf("use after free: not exactly where p names the freed block")
			}
		}},
		{"a double free through a two-block pointer", func(t *testing.T, x setup) {
			x.e.oFree(x.s, x.a)
			n := len(x.e.viol)
			x.e.oFree(x.s, x.e.sel(x.c, x.a, x.b))
			if len(x.e.viol) != n+1 {
				t.Fatalf("%d violations, want one more", len(x.e.viol)-n)
			}
			df := x.e.viol[n]
			if !holds(t, x.e, Implies(x.c, df)) || !holds(t, x.e, Implies(Not(x.c), Not(df))) {
				t.Fatalf("double free: not exactly where the pointer names the freed block")
			}
		}},
		{"null in the set is a null dereference", func(t *testing.T, x setup) {
			q := x.e.sel(x.c, cst(0, 64), x.a)
			n := len(x.e.viol)
			x.e.oAccess(x.s, q, BV(4, 64), true)
			if len(x.e.viol) != n+1 || !holds(t, x.e, Implies(x.c, x.e.viol[n])) || !holds(t, x.e, Implies(Not(x.c), Not(x.e.viol[n]))) {
				t.Fatalf("null dereference: not exactly where q is null")
			}
		}},
		{"pointers stored on two paths merge as values at the join", func(t *testing.T, x setup) {
			slot := x.e.malloc(x.s, cst(8, 64), true) // calloc: cleared, null
			for _, storeB := range []bool{true, false} {
				t1, t2 := x.s.clone(), x.s.clone()
				t1.g, t2.g = x.c, x.e.defBool(Not(x.c))
				x.e.oWrite(t1, slot, x.a, 8)
				want := []uint64{x.a.c, x.b.c}
				if storeB {
					x.e.oWrite(t2, slot, x.b, 8)
				} else {
					want = []uint64{0, x.a.c} // t2 keeps the null the block was cleared to
				}
				m, err := x.e.merge([]*pstate{t1, t2})
				if err != nil {
					t.Fatal(err)
				}
				q := x.e.oRead(m, slot, 8)
				if len(q.cs) != 2 || q.guess || q.cs[0] != min(want[0], want[1]) || q.cs[1] != max(want[0], want[1]) {
					t.Fatalf("merged pointer's set: %v (guess %v), want %v", q.cs, q.guess, want)
				}
				if !holds(t, x.e, Implies(x.c, eqT(q.t, BV(x.a.c, 64)))) {
					t.Fatalf("merged pointer: not a where c holds")
				}
			}
		}},
		{"a guessed set cuts the path where the pointer is outside it", func(t *testing.T, x setup) {
			u := val{t: x.e.q.BitVec("u", 64), w: 64} // an integer of unknown value
			q := x.e.sel(x.c, x.a, u)
			if !q.guess || len(q.cs) != 1 {
				t.Fatalf("a merged with an unknown integer: cs %v guess %v, want a guess of a", q.cs, q.guess)
			}
			n := len(x.e.unwound)
			x.e.oAccess(x.s, q, BV(4, 64), false)
			if len(x.e.unwound) != n+1 {
				t.Fatalf("no cut for the guess")
			}
			cut := x.e.unwound[n]
			if !holds(t, x.e, Implies(x.c, Not(cut))) || holds(t, x.e, Not(cut)) {
				t.Fatalf("the cut is not exactly where q is not a")
			}
		}},
		{"a symbolic index into a block", func(t *testing.T, x setup) {
			i := val{t: x.e.q.BitVec("i", 64), w: 64}
			q := x.e.add64(x.a, i)
			if q.cs != nil || len(q.pts) != 1 {
				t.Fatalf("a+i: cs %v pts %v, want one block", q.cs, q.pts)
			}
			v := x.e.oRead(x.s, q, 4)
			if !holds(t, x.e, Implies(eqT(i.t, BV(8, 64)), eq32(v, 11))) {
				t.Fatalf("a[i] at i = 8: not the value stored there")
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			x := mk(t)
			tc.run(t, x)
			if x.e.err != nil {
				t.Fatal(x.e.err)
			}
		})
	}
}

// TestObjectMemoryUsed: heap programs (lists, realloc, strlen) are
// encoded with object memory; FlatMemory asks for the flat array.
func TestObjectMemoryUsed(t *testing.T) {
	for _, name := range []string{"hl_sll_search_null.c", "hl_dll_remove_bug.c", "hl_vec_realloc_stale.c", "hl_strlen_safe.c"} {
		p := testutil.Program(t, filepath.Join("..", "testdata", "bmc-heap", name))
		enc, err := Encode(p, EncodeOptions{Unwind: 3})
		if err != nil {
			t.Fatal(err)
		}
		if !enc.ObjectMemory {
			t.Errorf("%s: the flat array was used: %s", name, enc.FlatReason)
		}
		flat, err := Encode(p, EncodeOptions{Unwind: 3, FlatMemory: true})
		if err != nil {
			t.Fatal(err)
		}
		if flat.ObjectMemory {
			t.Errorf("%s: FlatMemory ignored", name)
		}
	}
}

// askZ3 is the status of goal with the encoding's assertions (z3, 8 s).
func askZ3(t *testing.T, enc *Encoding, goal Term) Status {
	s, err := New("z3", Options{Timeout: 8 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, d := range enc.Query.Decls() {
		if _, err := s.Declare(d.Name, d.Sort); err != nil {
			return Unknown
		}
	}
	for _, a := range enc.Query.Asserts() {
		if err := s.Assert(a); err != nil {
			return Unknown
		}
	}
	if err := s.Assert(goal); err != nil {
		return Unknown
	}
	a, err := s.CheckSat(context.Background())
	if err != nil {
		return Unknown
	}
	return a.Status
}

// TestObjectMemoryAgrees compares object memory with the flat array
// (encode_obj.go) on the C programs of the testdata directories named in
// WYVERN_BMC_DIFF (comma-separated, e.g. memsafety,errors,diff), at
// unwind 1 and 3: whether a violation is reachable and whether the bound
// cuts an execution must agree wherever z3 answers both (object memory may
// only be less complete: a violation the flat array finds behind a cut of
// a guessed value set). A program the flat array refuses may be encoded
// with object memory (constant folding through memory leaves unreachable
// code out). It takes minutes; it runs only when asked.
func TestObjectMemoryAgrees(t *testing.T) {
	dirs := os.Getenv("WYVERN_BMC_DIFF")
	if dirs == "" {
		t.Skip("set WYVERN_BMC_DIFF=memsafety,errors,diff to compare object memory with the flat array")
	}
	for _, d := range strings.Split(dirs, ",") {
		files, _ := filepath.Glob(filepath.Join("..", "testdata", d, "*.c"))
		for _, f := range files {
			p, err := ir.Load(f, ir.Options{})
			if err != nil || Threaded(p) {
				continue
			}
			for _, k := range []int{1, 3} {
				eo, err1 := Encode(p, EncodeOptions{Unwind: k})
				ef, err2 := Encode(p, EncodeOptions{Unwind: k, FlatMemory: true})
				if err1 != nil || err2 != nil {
					if err1 != nil && err2 == nil {
						t.Errorf("%s k%d: object memory refuses what the flat array encodes: %v", f, k, err1)
					} else if err1 == nil {
						t.Logf("%s k%d: the flat array refuses (object memory does not reach it): %v", f, k, err2)
					}
					continue
				}
				if !eo.ObjectMemory {
					t.Logf("%s k%d: flat (%s)", f, k, eo.FlatReason)
					continue
				}
				vo, vf := askZ3(t, eo, eo.Violation), askZ3(t, ef, ef.Violation)
				uo, uf := askZ3(t, eo, eo.Unwound), askZ3(t, ef, ef.Unwound)
				ok := (vo == vf || vo == Unknown || vf == Unknown) && (uo == uf || uo == Unknown || uf == Unknown)
				if vo == Unsat && vf == Sat && uo == Sat {
					ok = true // incomplete, not wrong
				}
				if !ok {
					t.Errorf("%s k%d: object memory and the flat array disagree: obj viol %s unw %s (%d terms) / flat viol %s unw %s (%d)", f, k, vo, uo, eo.Terms, vf, uf, ef.Terms)
				} else {
					t.Logf("%s k%d: obj viol %s unw %s (%d) / flat viol %s unw %s (%d)", f, k, vo, uo, eo.Terms, vf, uf, ef.Terms)
				}
			}
		}
	}
}
