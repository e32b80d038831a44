package symbolic

import (
	"errors"
	"strings"
	"testing"
)

func TestLiterals(t *testing.T) {
	for _, c := range []struct {
		got  Term
		want string
	}{
		{BV(5, 3), "#b101"},
		{BV(255, 8), "#xff"},
		{BV(256, 8), "#x00"},
		{BV(1, 12), "#x001"},
		{BVInt(-1, 32), "#xffffffff"},
		{BVInt(-2, 5), "#b11110"},
		{BV(0, 1), "#b0"},
		{Extract(7, 0, "x"), "((_ extract 7 0) x)"},
		{ZeroExt(0, "x"), "x"},
		{SignExt(8, "x"), "((_ sign_extend 8) x)"},
		{And(), "true"},
		{Or("a"), "a"},
		{ConstArray(Memory(), BV(0, 8)), "((as const (Array (_ BitVec 64) (_ BitVec 8))) #x00)"},
	} {
		if string(c.got) != c.want {
			t.Errorf("got %s, want %s", c.got, c.want)
		}
	}
}

func TestQueryErrors(t *testing.T) {
	for _, c := range []struct {
		build func(q *Query)
		want  string
	}{
		{func(q *Query) { q.BitVec("1x", 8) }, "invalid constant name"},
		{func(q *Query) { q.BitVec("bv3", 8) }, "invalid constant name"},
		{func(q *Query) { q.BitVec("a b", 8) }, "invalid constant name"},
		{func(q *Query) { q.BitVec("x", 0) }, "width 0"},
		{func(q *Query) { q.Declare("m", ArraySort(65, 8)) }, "1..64"},
		{func(q *Query) { q.Bool("x"); q.Bool("x") }, "declared twice"},
		{func(q *Query) { q.Assert("(and a") }, "end of input"},
		{func(q *Query) { q.Assert("a b") }, "more than one"},
		{func(q *Query) { q.Assert("") }, "empty"},
		{func(q *Query) { q.Want("nope") }, "not declared"},
	} {
		q := NewQuery()
		c.build(q)
		if q.Err() == nil || !strings.Contains(q.Err().Error(), c.want) {
			t.Errorf("err = %v, want %q", q.Err(), c.want)
		}
	}
	q := NewQuery()
	x := q.BitVec("x", 8)
	q.Assert(BVULT(x, BV(3, 8)))
	want := "(set-logic QF_ABV)\n(declare-fun x () (_ BitVec 8))\n(assert (bvult x #x03))\n(check-sat)\n"
	if q.String() != want {
		t.Errorf("script:\n%s\nwant:\n%s", q.String(), want)
	}
}

// TestValues reads the value forms z3 4.8 and cvc5 1.0 print (copied from
// their output), and z3's lambda and as-array forms.
func TestValues(t *testing.T) {
	mem := Memory()
	cases := []struct {
		name    string
		text    string
		sort    Sort
		funs    string
		check   func(v Value) bool
		wantErr string
	}{
		{"z3 hex", "#xaaaaaaab", BitVec(32), "", func(v Value) bool { return v.Uint64() == 0xaaaaaaab }, ""},
		{"cvc5 binary", "#b10101010101010101010101010101011", BitVec(32), "", func(v Value) bool { return v.Uint64() == 0xaaaaaaab }, ""},
		{"indexed", "(_ bv3 8)", BitVec(8), "", func(v Value) bool { return v.Uint64() == 3 }, ""},
		{"signed", "#x80000000", BitVec(32), "", func(v Value) bool { return v.Int64() == -1<<31 }, ""},
		{"wide", "#x0000000000000001ffffffffffffffff", BitVec(128), "", func(v Value) bool {
			return v.Uint64() == ^uint64(0) && v.BV.BitLen() == 65
		}, ""},
		{"width mismatch", "#x01", BitVec(16), "", nil, "width 8, want 16"},
		{"bool", "true", BoolSort(), "", func(v Value) bool { return v.Bool }, ""},
		{"const", "((as const (Array (_ BitVec 64) (_ BitVec 8))) #x00)", mem, "", func(v Value) bool {
			return v.Array.DefaultKnown && v.Array.Default == 0 && len(v.Array.Entries) == 0
		}, ""},
		{"z3 let store", `(let ((a!1 (store (store (store ((as const (Array (_ BitVec 64) (_ BitVec 8)))
                                  #x6b)
                                #x0000000000000002
                                #x63)
                         #x0000000000000001
                         #xff)
                  #x8000000000000000
                  #x07)))
  (store a!1 #x0000000000000000 #x05))`, mem, "", func(v Value) bool {
			a := v.Array
			return a.At(0) == 5 && a.At(1) == 0xff && a.At(2) == 0x63 && a.At(1<<63) == 7 && a.At(3) == 0x6b
		}, ""},
		{"cvc5 store", "(store (store ((as const (Array (_ BitVec 64) (_ BitVec 8))) #b00000000) #b0000000000000000000000000000000000000000000000000000000000010000 #b00101010) #b0000000000000000000000000000000000000000000000000000000000010000 #b00101011)", mem, "", func(v Value) bool {
			return v.Array.At(0x10) == 0x2b && v.Array.At(0x11) == 0
		}, ""},
		{"lambda", "(lambda ((x!1 (_ BitVec 64))) (ite (= x!1 #x0000000000000002) #x04 (ite (or (= #x0000000000000001 x!1) (= x!1 #x0000000000000005)) #x03 (ite (= x!1 #x0000000000000002) #x09 #x11))))", mem, "", func(v Value) bool {
			a := v.Array
			return a.At(2) == 4 && a.At(1) == 3 && a.At(5) == 3 && a.At(7) == 0x11 && a.DefaultKnown
		}, ""},
		{"as-array", "(_ as-array k!0)", mem, `(
  (define-fun m () (Array (_ BitVec 64) (_ BitVec 8))
    (_ as-array k!0))
  (define-fun k!0 ((x!0 (_ BitVec 64))) (_ BitVec 8)
    (ite (= x!0 #x0000000000000002) #x04
    (ite (= x!0 #x0000000000000001) #x03
      #x00)))
)`, func(v Value) bool { return v.Array.At(2) == 4 && v.Array.At(1) == 3 && v.Array.At(9) == 0 }, ""},
		{"as-array without model", "(_ as-array k!0)", mem, "", nil, "as-array"},
		{"unsupported", "(lambda ((x (_ BitVec 64))) (bvadd x #x01))", mem, "", nil, "unsupported"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e, err := parseSexp(c.text)
			if err != nil {
				t.Fatal(err)
			}
			ev := &evaluator{}
			if c.funs != "" {
				fe, err := parseSexp(c.funs)
				if err != nil {
					t.Fatal(err)
				}
				if ev.funs, err = parseFuns(fe); err != nil {
					t.Fatal(err)
				}
			}
			v, err := ev.value(e, c.sort)
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("err = %v, want %q", err, c.wantErr)
				}
				if c.wantErr == "as-array" && !errors.Is(err, errNeedFuns) {
					t.Fatalf("err = %v, want errNeedFuns", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !c.check(v) {
				t.Fatalf("value %s", v)
			}
		})
	}
}

func TestSexpStrings(t *testing.T) {
	// cvc5's errors span lines; z3 doubles quotes inside strings.
	e, err := parseSexp("(error \"Parse Error: <stdin>:5.14: Symbol q is not declared.\n\n  (assert (= x q))\n\")")
	if err != nil || errorText(e) != "Parse Error: <stdin>:5.14: Symbol q is not declared.\n\n  (assert (= x q))" {
		t.Fatalf("%q %v", errorText(e), err)
	}
	e, err = parseSexp(`(:reason-unknown "say ""hi""")`)
	if err != nil || reasonText(e) != `say "hi"` {
		t.Fatalf("%q %v", reasonText(e), err)
	}
	e, err = parseSexp(`(:reason-unknown timeout)`)
	if err != nil || classify(reasonText(e)) != ReasonTimeout {
		t.Fatalf("%v %v", e, err)
	}
	for why, want := range map[string]Reason{"timeout": ReasonTimeout, "canceled": ReasonTimeout, "resourceout": ReasonResourceOut,
		"max. memory exceeded": ReasonResourceOut, "incomplete": ReasonSolver, "(incomplete quantifiers)": ReasonSolver} {
		if got := classify(why); got != want {
			t.Errorf("classify(%q) = %s, want %s", why, got, want)
		}
	}
}

func TestBoolectorModel(t *testing.T) {
	out := "y 00000001\nu xxxxxxx1\nc 1\nm[0000000000000000000000000000000000000000000000000000000000000010] 00000111\n"
	m, err := parseBoolectorModel(out, []string{"y", "u", "c", "m", "free"}, []Sort{BitVec(8), BitVec(8), BoolSort(), Memory(), BitVec(4)})
	if err != nil {
		t.Fatal(err)
	}
	if m["y"].Uint64() != 1 || m["u"].Uint64() != 1 || !m["c"].Bool || m["m"].Array.Entries[2] != 7 || m["m"].Array.DefaultKnown || m["free"].Uint64() != 0 {
		t.Fatalf("model %v", m)
	}
}
