package explicit

import (
	"context"
	"errors"
	"testing"

	"github.com/wyvernmc/wyvern/ir"
)

// TestAssumeBoundsSites checks which nondet calls count as bounded by an
// assumption: the unsigned bound v < 4 admits four values; a signed one
// admits every negative value and is no bound, and a value copied to a
// global before the assumption is observable, so it is not bounded.
func TestAssumeBoundsSites(t *testing.T) {
	for _, p := range []string{"assume_bounded.c", "assume_bounded_char.c", "abort_bounded.c", "abort_bounded_char.c"} {
		b := assumeBounds(machine(t, "../testdata/mt/"+p).Prog)
		if len(b) != 1 {
			t.Fatalf("%s: %d bounded sites (%v), want 1", p, len(b), b)
		}
		for s, n := range b {
			if n != 4 {
				t.Errorf("%s: site %v admits %d values, want 4", p, s, n)
			}
		}
	}
	for _, p := range []string{"assume_signed.c", "assume_escaped.c"} {
		if b := assumeBounds(machine(t, "../testdata/mt/"+p).Prog); len(b) != 0 {
			t.Errorf("%s: bounded sites %v, want none", p, b)
		}
	}
}

// TestAssumeBoundedVerdicts and TestAbortBoundedVerdicts compare the search with inputs bounded by an
// assumption against full enumeration: assume_bounded_char.c has 256-valued
// inputs, enumerated whole by default and, with MaxBranching 16, as the
// four values the assumption admits and one it rejects; assume_bounded.c
// (2^32 values) is always searched bounded. Verdicts and the number of
// error states agree (error states: under the same reduction); the bounded
// searches store fewer states.
func TestAssumeBoundedVerdicts(t *testing.T) { boundedVerdicts(t, "assume_bounded") }

// TestAbortBoundedVerdicts: the same with `if (!(v < 4)) abort();`.
func TestAbortBoundedVerdicts(t *testing.T) { boundedVerdicts(t, "abort_bounded") }

func boundedVerdicts(t *testing.T, name string) {
	queries := map[string]Verdict{
		"E<> Error":                Satisfied,
		"E<> Error(VerifierError)": Satisfied,
		"E<> sum == 5":             Satisfied,
		"E<> sum == 7":             NotSatisfied,
		"A[] sum <= 6":             Satisfied,
		"A[] sum != 4":             NotSatisfied,
		"E<> Deadlock":             NotSatisfied,
	}
	for q, want := range queries {
		// (full enumeration without reduction takes 2 GiB: the bounded
		// searches are checked without and with reduction)
		full := search(t, "../testdata/mt/"+name+"_char.c", q, Options{Reduction: Global})
		for _, red := range []Reduction{None, Global} {
			narrow := search(t, "../testdata/mt/"+name+"_char.c", q, Options{Reduction: red, MaxBranching: 16})
			wide := search(t, "../testdata/mt/"+name+".c", q, Options{Reduction: red})
			par := search(t, "../testdata/mt/"+name+".c", q, Options{Reduction: red, Workers: 2})
			if par.Verdict != wide.Verdict || par.States != wide.States {
				t.Errorf("%s, reduction %s: 2 workers %s in %d states, 1 worker %s in %d", q, red, par.Verdict, par.States, wide.Verdict, wide.States)
			}
			for name, r := range map[string]*Result{"full": full, "char bounded": narrow, "uint bounded": wide} {
				if r.Verdict != want {
					t.Errorf("%s, %s, reduction %s: %s, want %s", q, name, red, r.Verdict, want)
				}
			}
			if full.Verdict == NotSatisfied || q == "A[] sum <= 6" { // complete searches
				// (abort: each rejected value makes its own error state)
				if red == Global && name != "abort_bounded" && (narrow.Errors != full.Errors || wide.Errors != full.Errors) {
					t.Errorf("%s, reduction %s: error states %d full, %d and %d bounded", q, red, full.Errors, narrow.Errors, wide.Errors)
				}
				if red == Global && narrow.States >= full.States {
					t.Errorf("%s, reduction %s: %d states bounded, %d full", q, red, narrow.States, full.States)
				}
			}
			t.Logf("%s, reduction %s: %d states char bounded, %d uint bounded (full, global: %d)", q, red, narrow.States, wide.States, full.States)
		}
	}
}

// TestAssumeBoundedRefused checks that the bound is not used where it would
// be unsound or change the answer: a query that reads local variables (it
// could see the stand-in value), EnumStates (it counts states). (A signed
// bound and a value copied before it is bounded, assume_signed.c and
// assume_escaped.c, are refused by the matcher, TestAssumeBoundsSites;
// the input classes decide them, TestInputClassesVerdicts.)
func TestAssumeBoundedRefused(t *testing.T) {
	cases := []struct{ path, q string }{
		{"../testdata/mt/assume_bounded.c", "E<> add::v == 9"},
		{"../testdata/mt/assume_bounded.c", "EnumStates"},
	}
	for _, c := range cases {
		m := machine(t, c.path)
		_, err := Search(context.Background(), compile(t, m, c.q), Options{Reduction: Global})
		var be *BranchError
		if !errors.As(err, &be) {
			t.Errorf("%s: %s: error %v, want a BranchError", c.path, c.q, err)
		}
	}
}

// TestBoundAfterShapes checks the matcher on hand-built code: v is the
// nondet result (slot 1, 32 bits), slot 10 the constant 4.
func TestBoundAfterShapes(t *testing.T) {
	nondet := ir.Inst{Op: ir.OpCallB, B: int32(ir.BNondet), Dst: 1, Imm: 0}
	assume := ir.Inst{Op: ir.OpCallB, B: int32(ir.BAssume), Dst: -1, Imm: 1} // argument: cases' arg
	cases := []struct {
		name string
		code []ir.Inst
		arg  int32 // the assume's argument slot
		want uint64
	}{
		{"v < 4", []ir.Inst{nondet, {Op: ir.OpUlt, W: 32, Dst: 2, A: 1, B: 10}, assume}, 2, 4},
		{"v <= 4", []ir.Inst{nondet, {Op: ir.OpUle, W: 32, Dst: 2, A: 1, B: 10}, assume}, 2, 5},
		{"4 > v, copied", []ir.Inst{nondet, {Op: ir.OpUgt, W: 32, Dst: 2, A: 10, B: 1}, {Op: ir.OpMov, Dst: 3, A: 2}, assume}, 3, 4},
		{"zext v <s 4", []ir.Inst{nondet, {Op: ir.OpMov, Dst: 2, A: 1}, {Op: ir.OpSlt, W: 64, Dst: 3, A: 2, B: 10}, assume}, 3, 4},
		// a copy at the same width is no extension: v <s 4 admits 2^31 values
		{"copied v <s 4", []ir.Inst{nondet, {Op: ir.OpMov, Dst: 2, A: 1}, {Op: ir.OpSlt, W: 32, Dst: 3, A: 2, B: 10}, assume}, 3, 0},
		{"v <s 4", []ir.Inst{nondet, {Op: ir.OpSlt, W: 32, Dst: 2, A: 1, B: 10}, assume}, 2, 0},
		{"v > 4", []ir.Inst{nondet, {Op: ir.OpUgt, W: 32, Dst: 2, A: 1, B: 10}, assume}, 2, 0},
		{"assume of another slot", []ir.Inst{nondet, {Op: ir.OpUlt, W: 32, Dst: 2, A: 1, B: 10}, assume}, 5, 0},
		{"something between", []ir.Inst{nondet, {Op: ir.OpUlt, W: 32, Dst: 2, A: 1, B: 10}, {Op: ir.OpAdd, W: 32, Dst: 4, A: 1, B: 10}, assume}, 2, 0},
		{"br to abort", []ir.Inst{nondet, {Op: ir.OpUlt, W: 32, Dst: 2, A: 1, B: 10}, {Op: ir.OpBr, A: 2, B: 4, C: 3},
			{Op: ir.OpCallB, B: int32(ir.BAbort), Dst: -1, Imm: 2}, {Op: ir.OpNop}}, 0, 4},
		{"br, abort on the admitted side", []ir.Inst{nondet, {Op: ir.OpUlt, W: 32, Dst: 2, A: 1, B: 10}, {Op: ir.OpBr, A: 2, B: 3, C: 4},
			{Op: ir.OpCallB, B: int32(ir.BAbort), Dst: -1, Imm: 2}, {Op: ir.OpNop}}, 0, 0},
	}
	for _, c := range cases {
		f := &ir.Func{Code: c.code, ConstBase: 10, Consts: []uint64{4},
			Calls: []ir.CallSite{{Callee: -1, Ret: 1, RetSlots: 1, RetBits: 32}, {Callee: -1, Ret: -1, Args: []int32{c.arg}, ArgSlots: []int32{1}}, {Callee: -1, Ret: -1}}}
		n, ok := boundAfter(&ir.Program{}, f, 0, map[int32]bool{})
		if !ok {
			n = 0
		}
		if n != c.want {
			t.Errorf("%s: bound %d, want %d", c.name, n, c.want)
		}
	}
}
