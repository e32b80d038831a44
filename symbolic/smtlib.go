package symbolic

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math/big"
	"regexp"
	"strconv"
	"strings"
)

// This file holds the SMT-LIB2 side of the package: sorts, terms and their
// builders, queries, the reader of the solvers' output (s-expressions) and
// the evaluation of model values.

// SortKind is the kind of a sort.
type SortKind int

// The sorts Wyvern's formulas use.
const (
	KindBool   SortKind = iota // Bool
	KindBitVec                 // (_ BitVec Width)
	KindArray                  // (Array (_ BitVec Index) (_ BitVec Elem))
	// KindInt is the mathematical integers: only the partial-order
	// encoding's clocks use it (encode_po.go), compared with <, <= and
	// >=, for the solvers that decide integer difference logic (z3, cvc5).
	KindInt
)

// MaxWidth is the largest bitvector width a sort may have.
const MaxWidth = 1 << 16

// Sort is an SMT sort: Bool, a bitvector of a width, or an array from
// bitvectors to bitvectors (index and element widths at most 64 bits, so
// that a model's arrays are maps of uint64).
type Sort struct {
	Kind  SortKind
	Width int // bitvector width (KindBitVec)
	Index int // index width (KindArray)
	Elem  int // element width (KindArray)
}

// BoolSort is the sort Bool.
func BoolSort() Sort { return Sort{Kind: KindBool} }

// BitVec is the sort (_ BitVec w).
func BitVec(w int) Sort { return Sort{Kind: KindBitVec, Width: w} }

// ArraySort is the sort (Array (_ BitVec index) (_ BitVec elem)).
func ArraySort(index, elem int) Sort { return Sort{Kind: KindArray, Index: index, Elem: elem} }

// IntSort is the sort Int.
func IntSort() Sort { return Sort{Kind: KindInt} }

// Memory is the sort of a byte-addressed memory: (Array (_ BitVec 64) (_ BitVec 8)).
func Memory() Sort { return ArraySort(64, 8) }

// String is the sort in SMT-LIB2.
func (s Sort) String() string {
	switch s.Kind {
	case KindBool:
		return "Bool"
	case KindInt:
		return "Int"
	case KindBitVec:
		return fmt.Sprintf("(_ BitVec %d)", s.Width)
	case KindArray:
		return fmt.Sprintf("(Array (_ BitVec %d) (_ BitVec %d))", s.Index, s.Elem)
	}
	return fmt.Sprintf("<sort kind %d>", int(s.Kind))
}

func (s Sort) check() error {
	switch s.Kind {
	case KindBool, KindInt:
		return nil
	case KindBitVec:
		if s.Width < 1 || s.Width > MaxWidth {
			return fmt.Errorf("bitvector width %d out of range 1..%d", s.Width, MaxWidth)
		}
		return nil
	case KindArray:
		if s.Index < 1 || s.Index > 64 || s.Elem < 1 || s.Elem > 64 {
			return fmt.Errorf("array sort %s: index and element widths must be 1..64", s)
		}
		return nil
	}
	return fmt.Errorf("unknown sort kind %d", int(s.Kind))
}

// Term is an SMT-LIB2 term, as text. Build terms with the helpers below or
// write them directly: Term("(bvult x #x0a)").
type Term string

// symbolRe is the set of names Declare accepts: SMT-LIB2 simple symbols
// that do not start with a digit, without the characters that would need
// quoting.
var symbolRe = regexp.MustCompile(`^[A-Za-z_.$@~][A-Za-z0-9_.$@~!%^&*+\-=<>?/]*$`)

var reserved = map[string]bool{
	"let": true, "forall": true, "exists": true, "match": true, "as": true, "par": true,
	"lambda": true, "_": true, "!": true, "true": true, "false": true, "ite": true,
	"not": true, "and": true, "or": true, "xor": true, "select": true, "store": true,
	"distinct": true, "concat": true, "extract": true,
}

// checkSymbol reports whether name can be declared as a constant.
func checkSymbol(name string) error {
	if !symbolRe.MatchString(name) || reserved[name] || strings.HasPrefix(name, "bv") || strings.HasPrefix(name, "@") || strings.HasPrefix(name, ".") {
		return fmt.Errorf("invalid constant name %q (want a letter or _ then letters, digits and _.$@~!%%^&*+-=<>?/, not a reserved word, not starting with bv)", name)
	}
	return nil
}

// Bool is the Bool literal true or false.
func Bool(b bool) Term {
	if b {
		return "true"
	}
	return "false"
}

// BV is the bitvector literal of width w with value v mod 2^w: #x… when w is
// a multiple of 4, #b… otherwise.
func BV(v uint64, w int) Term {
	return BVBig(new(big.Int).SetUint64(v), w)
}

// BVInt is the bitvector literal of width w for the signed value v (two's
// complement).
func BVInt(v int64, w int) Term {
	return BVBig(big.NewInt(v), w)
}

// BVBig is the bitvector literal of width w for v mod 2^w (v may be
// negative: two's complement).
func BVBig(v *big.Int, w int) Term {
	if w < 1 {
		w = 1
	}
	mod := new(big.Int).Lsh(big.NewInt(1), uint(w))
	x := new(big.Int).Mod(v, mod)
	if w%4 == 0 {
		s := x.Text(16)
		return Term("#x" + strings.Repeat("0", w/4-len(s)) + s)
	}
	s := x.Text(2)
	return Term("#b" + strings.Repeat("0", w-len(s)) + s)
}

// App is the application (op args...).
func App(op string, args ...Term) Term {
	var b strings.Builder
	b.WriteByte('(')
	b.WriteString(op)
	for _, a := range args {
		b.WriteByte(' ')
		b.WriteString(string(a))
	}
	b.WriteByte(')')
	return Term(b.String())
}

// Bitvector arithmetic (modulo 2^width; division by zero as SMT-LIB2
// defines it: bvudiv x 0 = all ones, bvurem x 0 = x).
func BVAdd(a, b Term) Term  { return App("bvadd", a, b) }
func BVSub(a, b Term) Term  { return App("bvsub", a, b) }
func BVMul(a, b Term) Term  { return App("bvmul", a, b) }
func BVUDiv(a, b Term) Term { return App("bvudiv", a, b) }
func BVSDiv(a, b Term) Term { return App("bvsdiv", a, b) }
func BVURem(a, b Term) Term { return App("bvurem", a, b) }
func BVSRem(a, b Term) Term { return App("bvsrem", a, b) }
func BVNeg(a Term) Term     { return App("bvneg", a) }

// Bitwise operations and shifts (a shift by ≥ width gives 0, or all sign
// bits for bvashr).
func BVAnd(a, b Term) Term  { return App("bvand", a, b) }
func BVOr(a, b Term) Term   { return App("bvor", a, b) }
func BVXor(a, b Term) Term  { return App("bvxor", a, b) }
func BVNot(a Term) Term     { return App("bvnot", a) }
func BVShl(a, b Term) Term  { return App("bvshl", a, b) }
func BVLShr(a, b Term) Term { return App("bvlshr", a, b) }
func BVAShr(a, b Term) Term { return App("bvashr", a, b) }

// Comparisons.
func BVULT(a, b Term) Term { return App("bvult", a, b) }
func BVULE(a, b Term) Term { return App("bvule", a, b) }
func BVUGT(a, b Term) Term { return App("bvugt", a, b) }
func BVUGE(a, b Term) Term { return App("bvuge", a, b) }

// IntLT is a < b on integers.
func IntLT(a, b Term) Term { return App("<", a, b) }

// IntLE is a <= b on integers.
func IntLE(a, b Term) Term { return App("<=", a, b) }

// IntGE is a >= b on integers.
func IntGE(a, b Term) Term { return App(">=", a, b) }
func BVSLT(a, b Term) Term { return App("bvslt", a, b) }
func BVSLE(a, b Term) Term { return App("bvsle", a, b) }
func BVSGT(a, b Term) Term { return App("bvsgt", a, b) }
func BVSGE(a, b Term) Term { return App("bvsge", a, b) }

// Eq is (= a b ...).
func Eq(a, b Term, more ...Term) Term { return App("=", append([]Term{a, b}, more...)...) }

// Distinct is (distinct a b ...).
func Distinct(a, b Term, more ...Term) Term { return App("distinct", append([]Term{a, b}, more...)...) }

// Boolean connectives. And and Or of no terms are true and false.
func Not(a Term) Term        { return App("not", a) }
func Implies(a, b Term) Term { return App("=>", a, b) }
func Xor(a, b Term) Term     { return App("xor", a, b) }

// And is the conjunction of ts (true for none).
func And(ts ...Term) Term {
	switch len(ts) {
	case 0:
		return "true"
	case 1:
		return ts[0]
	}
	return App("and", ts...)
}

// Or is the disjunction of ts (false for none).
func Or(ts ...Term) Term {
	switch len(ts) {
	case 0:
		return "false"
	case 1:
		return ts[0]
	}
	return App("or", ts...)
}

// Ite is (ite c a b).
func Ite(c, a, b Term) Term { return App("ite", c, a, b) }

// Extract is ((_ extract hi lo) a): bits hi down to lo.
func Extract(hi, lo int, a Term) Term {
	return App(fmt.Sprintf("(_ extract %d %d)", hi, lo), a)
}

// Concat is (concat a b ...), a in the high bits.
func Concat(a, b Term, more ...Term) Term { return App("concat", append([]Term{a, b}, more...)...) }

// ZeroExt is ((_ zero_extend n) a): a widened by n bits.
func ZeroExt(n int, a Term) Term {
	if n == 0 {
		return a
	}
	return App(fmt.Sprintf("(_ zero_extend %d)", n), a)
}

// SignExt is ((_ sign_extend n) a): a widened by n bits.
func SignExt(n int, a Term) Term {
	if n == 0 {
		return a
	}
	return App(fmt.Sprintf("(_ sign_extend %d)", n), a)
}

// Select is (select arr i).
func Select(arr, i Term) Term { return App("select", arr, i) }

// Store is (store arr i v).
func Store(arr, i, v Term) Term { return App("store", arr, i, v) }

// ConstArray is ((as const s) v): the array of sort s whose every element is v.
func ConstArray(s Sort, v Term) Term { return App("(as const "+s.String()+")", v) }

// Decl is a declared constant.
type Decl struct {
	Name string
	Sort Sort
}

// Query is a self-contained satisfiability question: constants, assertions,
// and the constants whose values a sat answer's model holds (all declared
// constants unless Want names some). Build it, then Solver.Check it; the
// solver checks it in a scope of its own (push … pop).
type Query struct {
	decls   []Decl
	byName  map[string]Sort
	asserts []Term
	want    []string
	err     error
	// bvOnly is the same question without the sort Int, for the
	// solvers that do not take integers (boolector): see SetBVOnly.
	bvOnly *Query
}

// SetBVOnly gives q an equisatisfiable query b without integers, which a
// solver without integer arithmetic (boolector) checks instead of q; its
// answer then says so (Answer.BVOnly), and its model names b's constants.
func (q *Query) SetBVOnly(b *Query) { q.bvOnly = b }

// UsesInt reports whether q declares a constant of sort Int.
func (q *Query) UsesInt() bool {
	for _, d := range q.decls {
		if d.Sort.Kind == KindInt {
			return true
		}
	}
	return false
}

// NewQuery returns an empty query.
func NewQuery() *Query { return &Query{byName: map[string]Sort{}} }

// Declare declares a constant of sort s and returns it as a term. An invalid
// or repeated name is reported by Err and by Check.
func (q *Query) Declare(name string, s Sort) Term {
	if q.byName == nil {
		q.byName = map[string]Sort{}
	}
	if err := checkSymbol(name); err != nil {
		q.fail(err)
		return Term(name)
	}
	if err := s.check(); err != nil {
		q.fail(fmt.Errorf("declare %s: %w", name, err))
		return Term(name)
	}
	if _, dup := q.byName[name]; dup {
		q.fail(fmt.Errorf("constant %s declared twice", name))
		return Term(name)
	}
	q.byName[name] = s
	q.decls = append(q.decls, Decl{name, s})
	return Term(name)
}

// BitVec declares a bitvector constant of width w.
func (q *Query) BitVec(name string, w int) Term { return q.Declare(name, BitVec(w)) }

// Bool declares a Bool constant.
func (q *Query) Bool(name string) Term { return q.Declare(name, BoolSort()) }

// Memory declares an array (_ BitVec 64) → (_ BitVec 8).
func (q *Query) Memory(name string) Term { return q.Declare(name, Memory()) }

// Assert adds a Boolean term. A term with unbalanced parentheses is
// reported by Err and Check.
func (q *Query) Assert(t Term) {
	if err := checkTerm(t); err != nil {
		q.fail(err)
		return
	}
	q.asserts = append(q.asserts, t)
}

// Want limits the model of a sat answer to the named constants.
func (q *Query) Want(names ...string) {
	for _, n := range names {
		if _, ok := q.byName[n]; !ok {
			q.fail(fmt.Errorf("want %s: not declared", n))
			return
		}
	}
	q.want = append(q.want, names...)
}

// Decls are the declared constants, in order.
func (q *Query) Decls() []Decl { return q.decls }

// Asserts are the assertions, in order.
func (q *Query) Asserts() []Term { return q.asserts }

// Err is the first error made building the query.
func (q *Query) Err() error { return q.err }

func (q *Query) fail(err error) {
	if q.err == nil {
		q.err = err
	}
}

// wanted is the list of constants the model must hold.
func (q *Query) wanted() []string {
	if q.want != nil {
		return q.want
	}
	out := make([]string, len(q.decls))
	for i, d := range q.decls {
		out[i] = d.Name
	}
	return out
}

// String is the query as a complete SMT-LIB2 script (for files and
// messages): logic, declarations, assertions, check-sat.
func (q *Query) String() string {
	var b strings.Builder
	if q.UsesInt() {
		b.WriteString("(set-logic ALL)\n") // z3 knows no narrower one
	} else {
		b.WriteString("(set-logic QF_ABV)\n")
	}
	for _, d := range q.decls {
		fmt.Fprintf(&b, "(declare-fun %s () %s)\n", d.Name, d.Sort)
	}
	for _, a := range q.asserts {
		fmt.Fprintf(&b, "(assert %s)\n", a)
	}
	b.WriteString("(check-sat)\n")
	return b.String()
}

// checkTerm rejects a term that is not one balanced s-expression: a solver
// would wait for the rest of it and never answer.
func checkTerm(t Term) error {
	r := newReader(strings.NewReader(string(t)))
	e, err := r.next()
	if err != nil {
		return fmt.Errorf("term %q: %w", abbrev(string(t)), err)
	}
	if e == nil {
		return fmt.Errorf("empty term")
	}
	if e2, err := r.next(); err != nil || e2 != nil {
		return fmt.Errorf("term %q: more than one s-expression", abbrev(string(t)))
	}
	return nil
}

func abbrev(s string) string {
	const n = 120
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// --- s-expressions ---

// sexp is an s-expression read from a solver: an atom (symbol, literal,
// keyword, or a string when str is set) or a list.
type sexp struct {
	atom   string
	str    bool // atom was a "string literal" (unquoted in atom)
	list   []*sexp
	isList bool
}

func (e *sexp) String() string {
	if e == nil {
		return "<nil>"
	}
	if !e.isList {
		if e.str {
			return strconv.Quote(e.atom)
		}
		return e.atom
	}
	parts := make([]string, len(e.list))
	for i, c := range e.list {
		parts[i] = c.String()
	}
	return "(" + strings.Join(parts, " ") + ")"
}

// head is the atom a list starts with, or "".
func (e *sexp) head() string {
	if e == nil || !e.isList || len(e.list) == 0 || e.list[0].isList {
		return ""
	}
	return e.list[0].atom
}

func (e *sexp) isAtom(s string) bool { return e != nil && !e.isList && !e.str && e.atom == s }

type reader struct {
	r *bufio.Reader
}

func newReader(r io.Reader) *reader { return &reader{bufio.NewReaderSize(r, 1<<16)} }

// next reads one s-expression; (nil, nil) at the end of input between
// s-expressions, an error inside one.
func (r *reader) next() (*sexp, error) {
	var stack [][]*sexp
	for {
		c, err := r.r.ReadByte()
		if err != nil {
			if len(stack) == 0 {
				return nil, nil
			}
			return nil, fmt.Errorf("unexpected end of input inside a list (%d open)", len(stack))
		}
		var done *sexp
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			continue
		case c == ';':
			for c != '\n' {
				if c, err = r.r.ReadByte(); err != nil {
					break
				}
			}
			continue
		case c == '(':
			stack = append(stack, []*sexp{})
			continue
		case c == ')':
			if len(stack) == 0 {
				return nil, errors.New("unbalanced ')'")
			}
			done = &sexp{list: stack[len(stack)-1], isList: true}
			stack = stack[:len(stack)-1]
		case c == '"':
			var b []byte
			for {
				c, err = r.r.ReadByte()
				if err != nil {
					return nil, errors.New("unterminated string")
				}
				if c == '"' {
					c2, err := r.r.ReadByte()
					if err == nil && c2 == '"' {
						b = append(b, '"')
						continue
					}
					if err == nil {
						_ = r.r.UnreadByte()
					}
					break
				}
				b = append(b, c)
			}
			done = &sexp{atom: string(b), str: true}
		case c == '|':
			var b []byte
			for {
				c, err = r.r.ReadByte()
				if err != nil {
					return nil, errors.New("unterminated |symbol|")
				}
				if c == '|' {
					break
				}
				b = append(b, c)
			}
			done = &sexp{atom: string(b)}
		default:
			b := []byte{c}
			for {
				c, err = r.r.ReadByte()
				if err != nil {
					break
				}
				if c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '(' || c == ')' || c == '"' || c == ';' || c == '|' {
					_ = r.r.UnreadByte()
					break
				}
				b = append(b, c)
			}
			done = &sexp{atom: string(b)}
		}
		if len(stack) == 0 {
			return done, nil
		}
		stack[len(stack)-1] = append(stack[len(stack)-1], done)
	}
}

// parseSexp reads exactly one s-expression from s.
func parseSexp(s string) (*sexp, error) {
	r := newReader(strings.NewReader(s))
	e, err := r.next()
	if err != nil {
		return nil, err
	}
	if e == nil {
		return nil, errors.New("empty input")
	}
	if e2, err := r.next(); err != nil || e2 != nil {
		return nil, errors.New("more than one s-expression")
	}
	return e, nil
}

// --- model values ---

// Value is a constant's value in a model.
type Value struct {
	Sort  Sort
	Bool  bool        // KindBool
	BV    *big.Int    // KindBitVec: the unsigned value, 0 ≤ BV < 2^Width; KindInt: the integer
	Array *ArrayValue // KindArray
}

// Uint64 is a bitvector's value modulo 2^64 (1/0 for a Bool).
func (v Value) Uint64() uint64 {
	switch v.Sort.Kind {
	case KindBool:
		if v.Bool {
			return 1
		}
		return 0
	case KindBitVec, KindInt:
		if v.BV == nil {
			return 0
		}
		m := new(big.Int).And(v.BV, new(big.Int).SetUint64(^uint64(0)))
		return m.Uint64()
	}
	return 0
}

// Int64 is a bitvector's value read as a signed number of its width
// (sign-extended to 64 bits; widths over 64 are truncated first).
func (v Value) Int64() int64 {
	u := v.Uint64()
	w := v.Sort.Width
	if v.Sort.Kind != KindBitVec || w >= 64 {
		return int64(u)
	}
	s := uint(64 - w)
	return int64(u<<s) >> s
}

// String is the value in SMT-LIB2 notation (arrays as default and entries).
func (v Value) String() string {
	switch v.Sort.Kind {
	case KindBool:
		return string(Bool(v.Bool))
	case KindBitVec:
		if v.BV == nil {
			return "<nil>"
		}
		return string(BVBig(v.BV, v.Sort.Width))
	case KindInt:
		if v.BV == nil {
			return "<nil>"
		}
		return v.BV.String()
	case KindArray:
		return v.Array.String()
	}
	return "<value>"
}

// ArrayValue is an array in a model: a default element and the entries
// that differ from it (or, where DefaultKnown is false — boolector — only
// the entries the solver printed: the others are unconstrained).
type ArrayValue struct {
	Default      uint64
	DefaultKnown bool
	Entries      map[uint64]uint64
}

// At is the element at index i.
func (a *ArrayValue) At(i uint64) uint64 {
	if a == nil {
		return 0
	}
	if v, ok := a.Entries[i]; ok {
		return v
	}
	return a.Default
}

// String lists the default and the entries by index.
func (a *ArrayValue) String() string {
	if a == nil {
		return "<nil array>"
	}
	idx := make([]uint64, 0, len(a.Entries))
	for i := range a.Entries {
		idx = append(idx, i)
	}
	sortU64(idx)
	var b strings.Builder
	if a.DefaultKnown {
		fmt.Fprintf(&b, "default %#x", a.Default)
	} else {
		b.WriteString("default ?")
	}
	for _, i := range idx {
		fmt.Fprintf(&b, ", [%#x]=%#x", i, a.Entries[i])
	}
	return b.String()
}

func sortU64(s []uint64) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// Model maps constant names to their values.
type Model map[string]Value

// Uint64 is the value of the bitvector (or Bool) constant name, and
// whether the model holds it.
func (m Model) Uint64(name string) (uint64, bool) {
	v, ok := m[name]
	if !ok {
		return 0, false
	}
	return v.Uint64(), true
}

// --- evaluation of values printed by solvers ---

// funDef is a function of one argument printed by get-model (for z3's
// (_ as-array f)).
type funDef struct {
	params []string
	body   *sexp
}

// errNeedFuns means a value refers to a function by (_ as-array f) and the
// model's function definitions are needed.
var errNeedFuns = errors.New("value refers to a function (as-array)")

// evaluator turns the value expressions solvers print into Values: literals,
// let, store chains over const arrays, lambdas and as-array functions
// whose bodies are ite chains on the index.
type evaluator struct {
	funs map[string]*funDef
}

type binding struct {
	name string
	arr  *ArrayValue
	bv   *big.Int
	w    int
	b    *bool
	next *binding
}

func (env *binding) lookup(name string) *binding {
	for e := env; e != nil; e = e.next {
		if e.name == name {
			return e
		}
	}
	return nil
}

// value evaluates e as a value of sort s.
func (ev *evaluator) value(e *sexp, s Sort) (Value, error) {
	switch s.Kind {
	case KindBool:
		b, err := ev.boolean(e, nil)
		return Value{Sort: s, Bool: b}, err
	case KindBitVec:
		x, w, err := ev.bv(e, nil)
		if err == nil && w != s.Width {
			err = fmt.Errorf("value %s has width %d, want %d", abbrev(e.String()), w, s.Width)
		}
		return Value{Sort: s, BV: x}, err
	case KindArray:
		a, err := ev.array(e, nil, s)
		return Value{Sort: s, Array: a}, err
	case KindInt:
		x, err := intValue(e)
		return Value{Sort: s, BV: x}, err
	}
	return Value{}, fmt.Errorf("unknown sort %s", s)
}

// intValue parses an integer value: a numeral, or (- numeral).
func intValue(e *sexp) (*big.Int, error) {
	neg := false
	if e != nil && e.head() == "-" && len(e.list) == 2 {
		neg, e = true, e.list[1]
	}
	if e == nil || e.isList || e.str {
		return nil, fmt.Errorf("unsupported integer value %s", abbrev(e.String()))
	}
	x, ok := new(big.Int).SetString(e.atom, 10)
	if !ok {
		return nil, fmt.Errorf("unsupported integer value %s", abbrev(e.String()))
	}
	if neg {
		x.Neg(x)
	}
	return x, nil
}

// bvLiteral parses #b…, #x… and (_ bvN w).
func bvLiteral(e *sexp) (*big.Int, int, bool) {
	if e == nil {
		return nil, 0, false
	}
	if !e.isList && !e.str {
		a := e.atom
		switch {
		case strings.HasPrefix(a, "#b") && len(a) > 2:
			x, ok := new(big.Int).SetString(a[2:], 2)
			return x, len(a) - 2, ok
		case strings.HasPrefix(a, "#x") && len(a) > 2:
			x, ok := new(big.Int).SetString(a[2:], 16)
			return x, 4 * (len(a) - 2), ok
		}
		return nil, 0, false
	}
	if len(e.list) == 3 && e.head() == "_" && strings.HasPrefix(e.list[1].atom, "bv") && !e.list[1].isList && !e.list[2].isList {
		x, ok := new(big.Int).SetString(e.list[1].atom[2:], 10)
		w, err := strconv.Atoi(e.list[2].atom)
		if !ok || err != nil || w < 1 {
			return nil, 0, false
		}
		mod := new(big.Int).Lsh(big.NewInt(1), uint(w))
		return x.Mod(x, mod), w, true
	}
	return nil, 0, false
}

func (ev *evaluator) bv(e *sexp, env *binding) (*big.Int, int, error) {
	if x, w, ok := bvLiteral(e); ok {
		return x, w, nil
	}
	if e != nil && !e.isList {
		if b := env.lookup(e.atom); b != nil && b.bv != nil {
			return b.bv, b.w, nil
		}
	}
	if e != nil && e.head() == "let" {
		env2, body, err := ev.let(e, env)
		if err != nil {
			return nil, 0, err
		}
		return ev.bv(body, env2)
	}
	if e != nil && e.head() == "ite" && len(e.list) == 4 {
		c, err := ev.boolean(e.list[1], env)
		if err != nil {
			return nil, 0, err
		}
		if c {
			return ev.bv(e.list[2], env)
		}
		return ev.bv(e.list[3], env)
	}
	return nil, 0, fmt.Errorf("unsupported bitvector value %s", abbrev(e.String()))
}

func (ev *evaluator) boolean(e *sexp, env *binding) (bool, error) {
	switch {
	case e.isAtom("true"):
		return true, nil
	case e.isAtom("false"):
		return false, nil
	}
	if !e.isList {
		if b := env.lookup(e.atom); b != nil && b.b != nil {
			return *b.b, nil
		}
	}
	switch e.head() {
	case "let":
		env2, body, err := ev.let(e, env)
		if err != nil {
			return false, err
		}
		return ev.boolean(body, env2)
	case "not":
		if len(e.list) == 2 {
			b, err := ev.boolean(e.list[1], env)
			return !b, err
		}
	case "=":
		if len(e.list) == 3 {
			x, _, err1 := ev.bv(e.list[1], env)
			y, _, err2 := ev.bv(e.list[2], env)
			if err1 == nil && err2 == nil {
				return x.Cmp(y) == 0, nil
			}
		}
	}
	return false, fmt.Errorf("unsupported Bool value %s", abbrev(e.String()))
}

// let evaluates a let's bindings (in parallel, as SMT-LIB2 says) and
// returns the environment of its body.
func (ev *evaluator) let(e *sexp, env *binding) (*binding, *sexp, error) {
	if len(e.list) != 3 || !e.list[1].isList {
		return nil, nil, fmt.Errorf("malformed let %s", abbrev(e.String()))
	}
	out := env
	for _, bnd := range e.list[1].list {
		if !bnd.isList || len(bnd.list) != 2 || bnd.list[0].isList {
			return nil, nil, fmt.Errorf("malformed let binding %s", abbrev(bnd.String()))
		}
		nb := &binding{name: bnd.list[0].atom, next: out}
		v := bnd.list[1]
		if x, w, err := ev.bv(v, env); err == nil {
			nb.bv, nb.w = x, w
		} else if b, err := ev.boolean(v, env); err == nil {
			nb.b = &b
		} else {
			a, err := ev.array(v, env, Sort{Kind: KindArray, Index: 64, Elem: 64})
			if err != nil {
				return nil, nil, fmt.Errorf("let binding %s: %w", bnd.list[0].atom, err)
			}
			nb.arr = a
		}
		out = nb
	}
	return out, e.list[2], nil
}

func (ev *evaluator) array(e *sexp, env *binding, s Sort) (*ArrayValue, error) {
	if e == nil {
		return nil, errors.New("missing array value")
	}
	if !e.isList {
		if b := env.lookup(e.atom); b != nil && b.arr != nil {
			return copyArray(b.arr), nil
		}
		return nil, fmt.Errorf("unsupported array value %s", abbrev(e.String()))
	}
	// ((as const (Array …)) v)
	if len(e.list) == 2 && e.list[0].head() == "as" && len(e.list[0].list) >= 2 && e.list[0].list[1].isAtom("const") {
		d, _, err := ev.bv(e.list[1], env)
		if err != nil {
			return nil, fmt.Errorf("const array: %w", err)
		}
		return &ArrayValue{Default: d.Uint64(), DefaultKnown: true, Entries: map[uint64]uint64{}}, nil
	}
	switch e.head() {
	case "store":
		if len(e.list) != 4 {
			break
		}
		a, err := ev.array(e.list[1], env, s)
		if err != nil {
			return nil, err
		}
		i, _, err := ev.bv(e.list[2], env)
		if err != nil {
			return nil, fmt.Errorf("store index: %w", err)
		}
		v, _, err := ev.bv(e.list[3], env)
		if err != nil {
			return nil, fmt.Errorf("store value: %w", err)
		}
		a.Entries[i.Uint64()] = v.Uint64()
		return a, nil
	case "let":
		env2, body, err := ev.let(e, env)
		if err != nil {
			return nil, err
		}
		return ev.array(body, env2, s)
	case "ite":
		if len(e.list) != 4 {
			break
		}
		c, err := ev.boolean(e.list[1], env)
		if err != nil {
			return nil, err
		}
		if c {
			return ev.array(e.list[2], env, s)
		}
		return ev.array(e.list[3], env, s)
	case "lambda":
		// (lambda ((x (_ BitVec 64))) body)
		if len(e.list) != 3 || !e.list[1].isList || len(e.list[1].list) != 1 || !e.list[1].list[0].isList || len(e.list[1].list[0].list) != 2 {
			break
		}
		return ev.function(e.list[1].list[0].list[0].atom, e.list[2], env)
	case "_":
		// (_ as-array f)
		if len(e.list) == 3 && e.list[1].isAtom("as-array") {
			name := e.list[2].atom
			f, ok := ev.funs[name]
			if !ok {
				return nil, fmt.Errorf("%w: %s", errNeedFuns, name)
			}
			if len(f.params) != 1 {
				return nil, fmt.Errorf("as-array function %s has %d parameters, want 1", name, len(f.params))
			}
			return ev.function(f.params[0], f.body, env)
		}
	}
	return nil, fmt.Errorf("unsupported array value %s", abbrev(e.String()))
}

func copyArray(a *ArrayValue) *ArrayValue {
	c := &ArrayValue{Default: a.Default, DefaultKnown: a.DefaultKnown, Entries: make(map[uint64]uint64, len(a.Entries))}
	for k, v := range a.Entries {
		c.Entries[k] = v
	}
	return c
}

// function turns a function body over parameter p — an ite chain whose
// conditions compare p with literals — into an array: the first branch
// that matches an index wins, the final else is the default.
func (ev *evaluator) function(p string, body *sexp, env *binding) (*ArrayValue, error) {
	a := &ArrayValue{Entries: map[uint64]uint64{}}
	set := func(idx []uint64, v uint64) {
		for _, i := range idx {
			if _, done := a.Entries[i]; !done {
				a.Entries[i] = v
			}
		}
	}
	for steps := 0; ; steps++ {
		if steps > 1<<20 {
			return nil, errors.New("function body too long")
		}
		if body.head() == "let" {
			env2, b, err := ev.let(body, env)
			if err != nil {
				return nil, err
			}
			env, body = env2, b
			continue
		}
		if body.head() == "ite" && len(body.list) == 4 {
			idx, err := ev.indexCond(p, body.list[1], env)
			if err != nil {
				return nil, err
			}
			v, _, err := ev.bv(body.list[2], env)
			if err != nil {
				return nil, fmt.Errorf("function value: %w", err)
			}
			set(idx, v.Uint64())
			body = body.list[3]
			continue
		}
		d, _, err := ev.bv(body, env)
		if err != nil {
			return nil, fmt.Errorf("function default: %w", err)
		}
		a.Default, a.DefaultKnown = d.Uint64(), true
		return a, nil
	}
}

// indexCond reads a condition (= p k), (= k p) or (or …) of them.
func (ev *evaluator) indexCond(p string, c *sexp, env *binding) ([]uint64, error) {
	switch c.head() {
	case "=":
		if len(c.list) == 3 {
			x, y := c.list[1], c.list[2]
			if y.isAtom(p) {
				x, y = y, x
			}
			if x.isAtom(p) {
				k, _, err := ev.bv(y, env)
				if err != nil {
					return nil, err
				}
				return []uint64{k.Uint64()}, nil
			}
		}
	case "or":
		var out []uint64
		for _, d := range c.list[1:] {
			idx, err := ev.indexCond(p, d, env)
			if err != nil {
				return nil, err
			}
			out = append(out, idx...)
		}
		return out, nil
	}
	return nil, fmt.Errorf("unsupported condition on the index in an array value: %s", abbrev(c.String()))
}

// parseFuns reads get-model's answer: a list of (define-fun f ((x S)…) S body).
func parseFuns(e *sexp) (map[string]*funDef, error) {
	out := map[string]*funDef{}
	if e == nil || !e.isList {
		return nil, fmt.Errorf("get-model: unexpected answer %s", abbrev(e.String()))
	}
	items := e.list
	if e.head() == "model" { // older format: (model (define-fun …) …)
		items = items[1:]
	}
	for _, d := range items {
		if d.head() != "define-fun" || len(d.list) != 5 || !d.list[2].isList {
			continue
		}
		f := &funDef{body: d.list[4]}
		for _, p := range d.list[2].list {
			if !p.isList || len(p.list) != 2 {
				return nil, fmt.Errorf("get-model: malformed parameter in %s", abbrev(d.String()))
			}
			f.params = append(f.params, p.list[0].atom)
		}
		out[d.list[1].atom] = f
	}
	return out, nil
}
