// Package query parses Wyvern's query language (LODIN's, extended) and
// compiles propositions and expressions into evaluators over vm states.
//
//	Pr[<=5000](<> DataRace)
//	Pr[<=5000](<> Exists (p)([p.reach_error])) {Alpha=0.01, Epsilon=0.005}
//	Pr[<=5000](<> @0.main.%x;ui32 == 3;ui32) >= 0.3 {Delta=0.01}
//	Estimate[<=5000,5000]{max @0.main.%tmp11}
//	EnumStatesSMC <=500 5000
//	E<> DataRace    A[] !([1.crit] && [2.crit])    EnumStates
//
// The `{Key=Value}` options each kind of query takes are declared in one
// table (options.go) and checked by Parse: unknown names, options of another
// kind and bad values are errors at their column. Compiled queries record
// what they read (Compiled.Reads).
package query

import (
	"fmt"
	"strconv"
	"strings"
)

// Kind is the kind of a query.
type Kind int

// Query kinds.
const (
	Probability   Kind = iota // Pr[<=N](<> P)
	Hypothesis                // Pr[<=N](<> P) >= θ  (or <=)
	Estimate                  // Estimate[<=N,R]{max|min|avg E}
	EnumStatesSMC             // EnumStatesSMC <=N R
	Reach                     // E<> P
	Invariant                 // A[] P
	EnumStates                // EnumStates
)

var kindNames = [...]string{"probability", "hypothesis", "estimate", "enum-states-smc", "reach", "invariant", "enum-states"}

func (k Kind) String() string { return kindNames[k] }

// Query is a parsed query.
type Query struct {
	Text    string
	Kind    Kind
	Bound   uint64 // step bound of each run
	Runs    int    // Estimate and EnumStatesSMC: number of runs
	Prop    Prop   // Probability, Hypothesis, Reach, Invariant
	Cmp     string // Hypothesis: ">=" or "<="
	Theta   float64
	Agg     string // Estimate: "max", "min" or "avg"
	Expr    Expr
	Options map[string]Option // keys in lower case; checked against the kind's schema (options.go)
	// Importance splitting ({Split=..., Score=..., Levels=[...]}): the
	// score expression, and the levels either as increasing numbers
	// (LevelCols their columns) or as propositions that must hold in order.
	Score      Expr
	Levels     []float64
	LevelCols  []int
	LevelProps []Prop
	// Until is the column of U when the query is Pr[<=N](P U Q)
	// (Probability, Hypothesis; 0 otherwise): Prop holds at the first state
	// of a run where Q holds if P held at every state before, and never
	// once a state satisfied neither (it watches the run from its first
	// state, so the run cannot be cut: no splitting, no exact computation).
	Until int
	// Always: the query is Pr[<=N]([] P) (Probability, Hypothesis): Prop
	// is !P, whose eventuality the runs check, and the answer is the
	// complement (Pr([] P) = 1 - Pr(<> !P)).
	Always bool
}

// Option is one `{Key=Value}` entry.
type Option struct {
	Key    string // as written
	Value  string // the value's tokens, joined
	Col    int    // the value's column
	KeyCol int    // the name's column
	raw    string // the value as written, trimmed
	num    float64
	hasNum bool // num holds the value of a Number or Integer option
}

// Float returns option key as a number, or def when absent. Prefer the
// typed accessors Num, Int, Enum and Has (options.go), whose defaults are
// the schema's.
func (q *Query) Float(key string, def float64) (float64, error) {
	o, ok := q.Options[strings.ToLower(key)]
	if !ok {
		return def, nil
	}
	f, err := strconv.ParseFloat(o.Value, 64)
	if err != nil {
		return 0, &SyntaxError{Query: q.Text, Col: o.Col, Msg: fmt.Sprintf("option %s: %q is not a number", o.Key, o.Value)}
	}
	return f, nil
}

// String returns option key, or def when absent.
func (q *Query) String(key, def string) string {
	if o, ok := q.Options[strings.ToLower(key)]; ok {
		return o.Value
	}
	return def
}

// SyntaxError is a query error at a column (1-based).
type SyntaxError struct {
	Query string
	Col   int
	Msg   string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("query column %d: %s\n  %s\n  %s^", e.Col, e.Msg, e.Query, strings.Repeat(" ", max(e.Col-1, 0)))
}

// ---- lexer ----

type tokKind int

const (
	tEOF tokKind = iota
	tIdent
	tInt
	tFloat
	tReg // %name after '.'
	tPunct
)

type token struct {
	kind tokKind
	text string
	col  int
}

func lex(s string) ([]token, error) {
	var toks []token
	puncts := []string{"E<>", "A[]", "<=", ">=", "==", "!=", "&&", "||", "<>", "::", "->",
		"<", ">", "!", "(", ")", "[", "]", "{", "}", ",", ";", ":", ".", "@", "=", "+", "-", "*", "/", "%"}
	i := 0
	for i < len(s) {
		c := s[i]
		col := i + 1
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
			continue
		case isDigit(c):
			j := i
			for j < len(s) && isDigit(s[j]) {
				j++
			}
			kind := tInt
			if j+1 < len(s) && s[j] == '.' && isDigit(s[j+1]) {
				kind = tFloat
				j++
				for j < len(s) && isDigit(s[j]) {
					j++
				}
			}
			if j < len(s) && (s[j] == 'e' || s[j] == 'E') {
				k := j + 1
				if k < len(s) && (s[k] == '-' || s[k] == '+') {
					k++
				}
				if k < len(s) && isDigit(s[k]) {
					kind = tFloat
					for k < len(s) && isDigit(s[k]) {
						k++
					}
					j = k
				}
			}
			toks = append(toks, token{kind, s[i:j], col})
			i = j
			continue
		case c == '%' && len(toks) > 0 && toks[len(toks)-1].text == "." && i+1 < len(s) && isRegChar(s[i+1]):
			j := i + 1
			for j < len(s) && isRegChar(s[j]) {
				j++
			}
			toks = append(toks, token{tReg, s[i+1 : j], col})
			i = j
			continue
		case isIdentStart(c):
			if (c == 'E' || c == 'A') && (strings.HasPrefix(s[i:], "E<>") || strings.HasPrefix(s[i:], "A[]")) {
				toks = append(toks, token{tPunct, s[i : i+3], col})
				i += 3
				continue
			}
			j := i
			for j < len(s) && isIdentChar(s[j]) {
				j++
			}
			toks = append(toks, token{tIdent, s[i:j], col})
			i = j
			continue
		}
		matched := false
		for _, p := range puncts {
			if strings.HasPrefix(s[i:], p) {
				toks = append(toks, token{tPunct, p, col})
				i += len(p)
				matched = true
				break
			}
		}
		if !matched {
			return nil, &SyntaxError{Query: s, Col: col, Msg: fmt.Sprintf("unexpected character %q", c)}
		}
	}
	toks = append(toks, token{tEOF, "", len(s) + 1})
	return toks, nil
}

func isDigit(c byte) bool      { return c >= '0' && c <= '9' }
func isIdentStart(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isIdentChar(c byte) bool  { return isIdentStart(c) || isDigit(c) }
func isRegChar(c byte) bool    { return isIdentChar(c) || c == '.' }

// ---- parser ----

type parser struct {
	src  string
	toks []token
	pos  int
	vars []string // bound process variables (Exists)
}

func (p *parser) peek() token { return p.toks[p.pos] }
func (p *parser) next() token {
	t := p.toks[p.pos]
	if p.pos < len(p.toks)-1 {
		p.pos++
	}
	return t
}

func (p *parser) errAt(t token, format string, args ...any) error {
	return &SyntaxError{Query: p.src, Col: t.col, Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) expect(text string) (token, error) {
	t := p.next()
	if t.text != text || t.kind == tEOF {
		if t.kind == tEOF {
			return t, p.errAt(t, "expected %q, found end of query", text)
		}
		return t, p.errAt(t, "expected %q, found %q", text, t.text)
	}
	return t, nil
}

// ident consumes an identifier, or reports what was expected instead.
func (p *parser) ident(what string) (token, error) {
	t := p.next()
	if t.kind != tIdent {
		return t, p.errAt(t, "expected %s, found %q", what, t.text)
	}
	return t, nil
}

func (p *parser) is(text string) bool {
	t := p.peek()
	return t.kind != tEOF && t.text == text
}

func (p *parser) uint() (uint64, error) {
	t := p.next()
	if t.kind != tInt {
		return 0, p.errAt(t, "expected a non-negative integer, found %q", t.text)
	}
	v, err := strconv.ParseUint(t.text, 10, 64)
	if err != nil {
		return 0, p.errAt(t, "integer %s out of range", t.text)
	}
	return v, nil
}

// Parse parses a query.
func Parse(text string) (*Query, error) {
	toks, err := lex(text)
	if err != nil {
		return nil, err
	}
	p := &parser{src: text, toks: toks}
	q := &Query{Text: text, Options: map[string]Option{}}
	thetaCol := 1
	t := p.next()
	switch {
	case t.text == "Pr":
		if err := p.bound(q); err != nil {
			return nil, err
		}
		if _, err := p.expect("("); err != nil {
			return nil, err
		}
		op := p.next()
		switch {
		case op.text == "[" && p.is("]"): // [] P: always
			p.next()
			q.Always = true
		case op.text != "<>":
			// P U Q: until.
			p.pos--
			l, err := p.prop()
			if err != nil || p.peek().text != "U" {
				return nil, p.errAt(op, "expected \"<>\" (eventually), \"[]\" (always) or P U Q (until), found %q", op.text)
			}
			u := p.next()
			r, err := p.prop()
			if err != nil {
				return nil, err
			}
			q.Until = u.col
			q.Prop = propUntil{l: l, r: r, c: u.col}
		}
		if q.Until == 0 {
			if q.Prop, err = p.prop(); err != nil {
				return nil, err
			}
		}
		if q.Always {
			q.Prop = propNot{q.Prop}
		}
		if _, err := p.expect(")"); err != nil {
			return nil, err
		}
		q.Kind = Probability
		if p.is(">=") || p.is("<=") {
			q.Kind = Hypothesis
			q.Cmp = p.next().text
			th := p.next()
			thetaCol = th.col
			if th.kind != tFloat && th.kind != tInt {
				return nil, p.errAt(th, "expected a probability after %s, found %q", q.Cmp, th.text)
			}
			q.Theta, _ = strconv.ParseFloat(th.text, 64)
			if q.Theta <= 0 || q.Theta >= 1 {
				return nil, p.errAt(th, "probability threshold must lie strictly between 0 and 1")
			}
		}
	case t.text == "Estimate":
		if _, err := p.expect("["); err != nil {
			return nil, err
		}
		if _, err := p.expect("<="); err != nil {
			return nil, err
		}
		if q.Bound, err = p.uint(); err != nil {
			return nil, err
		}
		if _, err := p.expect(","); err != nil {
			return nil, err
		}
		r, err := p.uint()
		if err != nil {
			return nil, err
		}
		q.Runs = int(r)
		if _, err := p.expect("]"); err != nil {
			return nil, err
		}
		if _, err := p.expect("{"); err != nil {
			return nil, err
		}
		agg := p.next()
		if agg.text != "max" && agg.text != "min" && agg.text != "avg" {
			return nil, p.errAt(agg, "expected max, min or avg, found %q", agg.text)
		}
		q.Agg = agg.text
		if q.Expr, err = p.arith(); err != nil {
			return nil, err
		}
		if _, err := p.expect("}"); err != nil {
			return nil, err
		}
		q.Kind = Estimate
	case t.text == "E" && p.is("["):
		// UPPAAL's E[<=N; R](max: e), a synonym of Estimate[<=N,R]{max e}.
		if err := p.uppaalEstimate(q); err != nil {
			return nil, err
		}
	case t.text == "EnumStatesSMC":
		if _, err := p.expect("<="); err != nil {
			return nil, err
		}
		if q.Bound, err = p.uint(); err != nil {
			return nil, err
		}
		r, err := p.uint()
		if err != nil {
			return nil, err
		}
		q.Runs = int(r)
		q.Kind = EnumStatesSMC
	case t.text == "E<>" || t.text == "A[]":
		if q.Prop, err = p.prop(); err != nil {
			return nil, err
		}
		q.Kind = Reach
		if t.text == "A[]" {
			q.Kind = Invariant
		}
	case t.text == "EnumStates":
		q.Kind = EnumStates
	default:
		return nil, p.errAt(t, "a query starts with Pr, Estimate (or E[<=N; R]), EnumStatesSMC, E<>, A[] or EnumStates, not %q", t.text)
	}
	if p.is("{") {
		if err := p.options(q); err != nil {
			return nil, err
		}
	}
	if t := p.peek(); t.kind != tEOF {
		return nil, p.errAt(t, "unexpected %q after the end of the query", t.text)
	}
	if (q.Kind == Estimate || q.Kind == EnumStatesSMC) && q.Runs <= 0 {
		return nil, &SyntaxError{Query: text, Col: 1, Msg: "the number of runs must be positive"}
	}
	if err := q.checkOptions(thetaCol); err != nil {
		return nil, err
	}
	if o, ok := q.Options["split"]; ok && q.Until > 0 {
		return nil, q.errAt(o.KeyCol, "importance splitting restarts runs from the middle, where P U Q cannot know the states before: it estimates Pr[<=N](<> P) only")
	}
	if o, ok := q.Options["split"]; ok && q.Always {
		return nil, q.errAt(o.KeyCol, "importance splitting estimates the probability of reaching a rare state: for Pr[<=N]([] P), split Pr[<=N](<> !P) and take 1 minus it")
	}
	return q, nil
}

// uppaalEstimate parses the rest of UPPAAL's E[<=N; R](max: e) (min and
// avg too) into an Estimate query.
func (p *parser) uppaalEstimate(q *Query) error {
	var err error
	if _, err := p.expect("["); err != nil {
		return err
	}
	if _, err := p.expect("<="); err != nil {
		return err
	}
	if q.Bound, err = p.uint(); err != nil {
		return err
	}
	if _, err := p.expect(";"); err != nil {
		return err
	}
	r, err := p.uint()
	if err != nil {
		return err
	}
	q.Runs = int(r)
	if _, err := p.expect("]"); err != nil {
		return err
	}
	if _, err := p.expect("("); err != nil {
		return err
	}
	agg := p.next()
	if agg.text != "max" && agg.text != "min" && agg.text != "avg" {
		return p.errAt(agg, "expected max, min or avg, found %q", agg.text)
	}
	q.Agg = agg.text
	if _, err := p.expect(":"); err != nil {
		return err
	}
	if q.Expr, err = p.arith(); err != nil {
		return err
	}
	if _, err := p.expect(")"); err != nil {
		return err
	}
	q.Kind = Estimate
	return nil
}

func (p *parser) bound(q *Query) error {
	if _, err := p.expect("["); err != nil {
		return err
	}
	if _, err := p.expect("<="); err != nil {
		return err
	}
	var err error
	t := p.peek()
	if q.Bound, err = p.uint(); err != nil {
		return err
	}
	if q.Bound == 0 {
		return p.errAt(t, "the step bound must be positive")
	}
	_, err = p.expect("]")
	return err
}

func (p *parser) options(q *Query) error {
	p.next() // {
	for {
		k := p.next()
		if k.kind != tIdent {
			return p.errAt(k, "expected an option name, found %q", k.text)
		}
		if _, err := p.expect("="); err != nil {
			return err
		}
		key := strings.ToLower(k.text)
		if _, dup := q.Options[key]; dup {
			return p.errAt(k, "option %s given twice", k.text)
		}
		start := p.peek()
		switch key {
		case "score":
			e, err := p.arith()
			if err != nil {
				return err
			}
			q.Score = e
		case "levels":
			if err := p.levels(q); err != nil {
				return err
			}
		}
		if key == "score" || key == "levels" {
			if t := p.peek(); t.text != "," && t.text != "}" {
				return p.errAt(t, "expected \",\" or \"}\" after option %s, found %q", k.text, t.text)
			}
			v := strings.TrimSpace(p.src[start.col-1 : p.peek().col-1])
			q.Options[key] = Option{Key: k.text, Value: v, Col: start.col, KeyCol: k.col, raw: v}
			if p.next().text == "}" {
				return nil
			}
			continue
		}
		// value: everything up to ',' or '}' at bracket depth 0
		depth := 0
		var parts []string
		for {
			t := p.peek()
			if t.kind == tEOF {
				return p.errAt(t, "unterminated options: expected \"}\"")
			}
			if depth == 0 && (t.text == "," || t.text == "}") {
				break
			}
			switch t.text {
			case "[", "(", "{":
				depth++
			case "]", ")":
				depth--
			}
			parts = append(parts, t.text)
			p.next()
		}
		if len(parts) == 0 {
			return p.errAt(start, "option %s has no value", k.text)
		}
		raw := strings.TrimSpace(p.src[start.col-1 : p.peek().col-1])
		q.Options[key] = Option{Key: k.text, Value: strings.Join(parts, ""), Col: start.col, KeyCol: k.col, raw: raw}
		if p.next().text == "}" {
			return nil
		}
	}
}

// levels parses a splitting level list: increasing numbers, or
// propositions that must hold one after the other.
func (p *parser) levels(q *Query) error {
	if _, err := p.expect("["); err != nil {
		return err
	}
	for {
		t := p.peek()
		neg := t.text == "-"
		num := p.toks[p.pos+btoi(neg)]
		after := p.toks[min(p.pos+btoi(neg)+1, len(p.toks)-1)]
		if (num.kind == tInt || num.kind == tFloat) && (after.text == "," || after.text == "]") {
			p.pos += btoi(neg) + 1
			v, err := strconv.ParseFloat(num.text, 64)
			if err != nil {
				return p.errAt(num, "level %s is not a number", num.text)
			}
			if neg {
				v = -v
			}
			q.Levels = append(q.Levels, v)
			q.LevelCols = append(q.LevelCols, t.col)
		} else {
			x, err := p.prop()
			if err != nil {
				return err
			}
			q.LevelProps = append(q.LevelProps, x)
		}
		if len(q.Levels) > 0 && len(q.LevelProps) > 0 {
			return p.errAt(t, "levels are either all numbers or all propositions")
		}
		n := p.next()
		if n.text == "]" {
			break
		}
		if n.text != "," {
			return p.errAt(n, "expected \",\" or \"]\" in the level list, found %q", n.text)
		}
	}
	for i := 1; i < len(q.Levels); i++ {
		if q.Levels[i] <= q.Levels[i-1] {
			return &SyntaxError{Query: p.src, Col: q.LevelCols[i],
				Msg: fmt.Sprintf("levels must increase: level %d (%g) is not above level %d (%g)", i+1, q.Levels[i], i, q.Levels[i-1])}
		}
	}
	return nil
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// ---- propositions ----

// Prop is a boolean proposition over states.
type Prop interface{ col() int }

// Expr is an integer expression over states.
type Expr interface{ col() int }

type (
	propAnd     struct{ l, r Prop }
	propOr      struct{ l, r Prop }
	propNot     struct{ x Prop }
	propConst   struct{ v bool }
	propKeyword struct {
		name string // DataRace, DivZero, OverFlows, Deadlock, Error
		arg  string // Error(kind)
		c    int
	}
	propUntil struct { // l U r
		l, r Prop
		c    int
	}
	propCall struct {
		proc procRef
		fn   string
		line int // -1: about to call fn; else executing fn at this source line
		c    int
	}
	propExists struct {
		v    int
		body Prop
		c    int
	}
	propCmp struct {
		op   string
		l, r Expr
		c    int
	}
	procRef struct {
		lit int32 // when v < 0
		v   int   // bound variable index, -1 for a literal
	}
	exprNum struct {
		v int64
		c int
	}
	exprReg struct {
		proc   procRef
		fn     string
		reg    string
		bits   uint8
		signed bool
		c      int
	}
	exprVar struct {
		fn   string // "" for a global
		name string
		path []pathStep // buf[2], q.head, p->next: into the variable, by its C type
		c    int
	}
	pathStep struct {
		op    string // "[", "." or "->"
		index Expr   // "["
		field string // "." and "->"
		c     int
	}
	exprBin struct {
		op   string
		l, r Expr
		c    int
	}
	exprNeg struct {
		x Expr
		c int
	}
	exprFunc struct { // min(a, b, ...), max(a, b, ...), abs(a)
		fn   string
		args []Expr
		c    int
	}
	exprProp struct { // a proposition as 0 or 1
		x Prop
		c int
	}
	exprExitCode struct { // the exit status (Exited == c)
		c int
	}
)

func (x propAnd) col() int      { return x.l.col() }
func (x propOr) col() int       { return x.l.col() }
func (x propNot) col() int      { return x.x.col() }
func (x propConst) col() int    { return 0 }
func (x propKeyword) col() int  { return x.c }
func (x propCall) col() int     { return x.c }
func (x propUntil) col() int    { return x.c }
func (x propExists) col() int   { return x.c }
func (x propCmp) col() int      { return x.c }
func (x exprNum) col() int      { return x.c }
func (x exprReg) col() int      { return x.c }
func (x exprVar) col() int      { return x.c }
func (x exprBin) col() int      { return x.c }
func (x exprNeg) col() int      { return x.c }
func (x exprFunc) col() int     { return x.c }
func (x exprProp) col() int     { return x.c }
func (x exprExitCode) col() int { return x.c }

func (p *parser) prop() (Prop, error) {
	l, err := p.andProp()
	if err != nil {
		return nil, err
	}
	for p.is("||") {
		p.next()
		r, err := p.andProp()
		if err != nil {
			return nil, err
		}
		l = propOr{l, r}
	}
	return l, nil
}

func (p *parser) andProp() (Prop, error) {
	l, err := p.unaryProp()
	if err != nil {
		return nil, err
	}
	for p.is("&&") {
		p.next()
		r, err := p.unaryProp()
		if err != nil {
			return nil, err
		}
		l = propAnd{l, r}
	}
	return l, nil
}

var cmpOps = map[string]bool{"<": true, "<=": true, ">": true, ">=": true, "==": true, "!=": true}

func (p *parser) unaryProp() (Prop, error) {
	t := p.peek()
	switch {
	case t.text == "!":
		p.next()
		x, err := p.unaryProp()
		if err != nil {
			return nil, err
		}
		return propNot{x}, nil
	case t.text == "(":
		save := p.pos
		p.next()
		x, err := p.prop()
		if err == nil && p.is(")") {
			p.next()
			nt := p.peek().text
			if !cmpOps[nt] && nt != "+" && nt != "-" && nt != "*" && nt != "/" && nt != "%" {
				return x, nil
			}
		}
		p.pos = save // an arithmetic comparison starting with a parenthesis
		return p.comparison()
	case t.kind == tIdent:
		switch t.text {
		case "true", "false":
			p.next()
			return propConst{t.text == "true"}, nil
		case "DataRace", "DivZero", "OverFlows", "Deadlock":
			p.next()
			return propKeyword{name: t.text, c: t.col}, nil
		case "Exited":
			// Exited: the program exited (main returned or exit was
			// called); Exited == c (or another comparison): with a status
			// that compares so.
			p.next()
			exited := propKeyword{name: "Exited", c: t.col}
			op := p.peek()
			if !cmpOps[op.text] || op.kind == tEOF {
				return exited, nil
			}
			p.next()
			r, err := p.arith()
			if err != nil {
				return nil, err
			}
			return propAnd{exited, propCmp{op: op.text, l: exprExitCode{c: t.col}, r: r, c: t.col}}, nil
		case "Error":
			p.next()
			k := propKeyword{name: "Error", c: t.col}
			if p.is("(") {
				p.next()
				a, err := p.ident("an error kind")
				if err != nil {
					return nil, err
				}
				k.arg = a.text
				if _, err := p.expect(")"); err != nil {
					return nil, err
				}
			}
			return k, nil
		case "Exists":
			p.next()
			if _, err := p.expect("("); err != nil {
				return nil, err
			}
			v, err := p.ident("a process variable")
			if err != nil {
				return nil, err
			}
			if _, err := p.expect(")"); err != nil {
				return nil, err
			}
			p.vars = append(p.vars, v.text)
			idx := len(p.vars) - 1
			if _, err := p.expect("("); err != nil {
				return nil, err
			}
			body, err := p.prop()
			if err != nil {
				return nil, err
			}
			if _, err := p.expect(")"); err != nil {
				return nil, err
			}
			p.vars[idx] = "" // out of scope
			return propExists{v: idx, body: body, c: t.col}, nil
		}
	case t.text == "[":
		p.next()
		proc, err := p.procRef()
		if err != nil {
			return nil, err
		}
		if _, err := p.expect("."); err != nil {
			return nil, err
		}
		f, err := p.ident("a function name")
		if err != nil {
			return nil, err
		}
		line := -1
		if p.is(":") { // [i.f:line]: process i is at a source line of f
			p.next()
			l := p.peek()
			v, err := p.uint()
			if err != nil {
				return nil, err
			}
			if v == 0 || v > 1<<30 {
				return nil, p.errAt(l, "line %d out of range", v)
			}
			line = int(v)
		}
		if _, err := p.expect("]"); err != nil {
			return nil, err
		}
		return propCall{proc: proc, fn: f.text, line: line, c: t.col}, nil
	}
	return p.comparison()
}

func (p *parser) procRef() (procRef, error) {
	t := p.next()
	switch t.kind {
	case tInt:
		v, err := strconv.ParseInt(t.text, 10, 32)
		if err != nil {
			return procRef{}, p.errAt(t, "process number %s out of range", t.text)
		}
		return procRef{lit: int32(v), v: -1}, nil
	case tIdent:
		for i := len(p.vars) - 1; i >= 0; i-- {
			if p.vars[i] == t.text {
				return procRef{v: i}, nil
			}
		}
		return procRef{}, p.errAt(t, "unknown process variable %q (bind it with Exists (%s)(...))", t.text, t.text)
	}
	return procRef{}, p.errAt(t, "expected a process number or variable, found %q", t.text)
}

// propNames are the propositions written as a bare name.
var propNames = []string{"DataRace", "DivZero", "OverFlows", "Deadlock", "Error", "Exited", "true", "false"}

// suggestProp returns the proposition name closest to name (at most 2
// edits, and fewer than half its length), "" when none is.
func suggestProp(name string) string {
	best, bestD := "", 3
	for _, c := range propNames {
		d := editDistance(strings.ToLower(name), strings.ToLower(c))
		if d < bestD && d <= len(name)/2 {
			best, bestD = c, d
		}
	}
	return best
}

func (p *parser) comparison() (Prop, error) {
	start, at := p.peek(), p.pos
	l, err := p.arith()
	if err != nil {
		return nil, err
	}
	op := p.peek()
	if !cmpOps[op.text] && start.kind == tIdent && p.pos == at+1 {
		// a lone name that is no proposition: a misspelt one?
		if s := suggestProp(start.text); s != "" {
			return nil, p.errAt(start, "unknown proposition %s; did you mean %s?", start.text, s)
		}
	}
	if !cmpOps[op.text] || op.kind == tEOF {
		if op.kind == tEOF {
			return nil, p.errAt(op, "expected a comparison operator, found end of query")
		}
		return nil, p.errAt(op, "expected a comparison operator (==, !=, <, <=, >, >=), found %q", op.text)
	}
	p.next()
	r, err := p.arith()
	if err != nil {
		return nil, err
	}
	return propCmp{op: op.text, l: l, r: r, c: start.col}, nil
}

func (p *parser) arith() (Expr, error) {
	l, err := p.term()
	if err != nil {
		return nil, err
	}
	for p.is("+") || p.is("-") {
		op := p.next()
		r, err := p.term()
		if err != nil {
			return nil, err
		}
		l = exprBin{op: op.text, l: l, r: r, c: op.col}
	}
	return l, nil
}

func (p *parser) term() (Expr, error) {
	l, err := p.factor()
	if err != nil {
		return nil, err
	}
	for p.is("*") || p.is("/") || p.is("%") {
		op := p.next()
		r, err := p.factor()
		if err != nil {
			return nil, err
		}
		l = exprBin{op: op.text, l: l, r: r, c: op.col}
	}
	return l, nil
}

// function parses min(e, ...), max(e, ...) (one argument or more) and
// abs(e): integer functions for scores (Split=auto writes them).
func (p *parser) function() (Expr, error) {
	t := p.next()
	p.next() // (
	f := exprFunc{fn: t.text, c: t.col}
	for {
		a, err := p.arith()
		if err != nil {
			return nil, err
		}
		f.args = append(f.args, a)
		if !p.is(",") {
			break
		}
		p.next()
	}
	if _, err := p.expect(")"); err != nil {
		return nil, err
	}
	if f.fn == "abs" && len(f.args) != 1 {
		return nil, p.errAt(t, "abs takes one argument, not %d", len(f.args))
	}
	return f, nil
}

// path parses what follows a variable: elements [e], fields .f and
// fields through pointers ->f, in any number.
func (p *parser) path(v exprVar) (Expr, error) {
	for {
		t := p.peek()
		switch {
		case t.text == "[" && t.kind == tPunct:
			p.next()
			i, err := p.arith()
			if err != nil {
				return nil, err
			}
			if _, err := p.expect("]"); err != nil {
				return nil, err
			}
			v.path = append(v.path, pathStep{op: "[", index: i, c: t.col})
		case (t.text == "." || t.text == "->") && t.kind == tPunct:
			p.next()
			f, err := p.ident("a field name after " + t.text)
			if err != nil {
				return nil, err
			}
			v.path = append(v.path, pathStep{op: t.text, field: f.text, c: t.col})
		default:
			return v, nil
		}
	}
}

func (p *parser) typeSuffix() (uint8, bool, error) {
	if !p.is(";") {
		return 0, false, nil
	}
	p.next()
	t := p.next()
	if t.kind == tIdent && len(t.text) > 2 && (t.text[:2] == "ui" || t.text[:2] == "si") {
		switch t.text[2:] {
		case "8", "16", "32", "64":
			b, _ := strconv.Atoi(t.text[2:])
			return uint8(b), t.text[:2] == "si", nil
		}
	}
	return 0, false, p.errAt(t, "expected a type ui8|ui16|ui32|ui64|si8|si16|si32|si64, found %q", t.text)
}

func (p *parser) factor() (Expr, error) {
	t := p.peek()
	switch {
	case t.kind == tInt:
		p.next()
		v, err := strconv.ParseUint(t.text, 10, 64)
		if err != nil {
			return nil, p.errAt(t, "integer %s out of range", t.text)
		}
		bits, signed, err := p.typeSuffix()
		if err != nil {
			return nil, err
		}
		n := int64(v)
		if bits > 0 && bits < 64 {
			n = int64(v & (1<<bits - 1))
			if signed && n >= 1<<(bits-1) {
				n -= 1 << bits
			}
		}
		return exprNum{v: n, c: t.col}, nil
	case t.text == "-":
		p.next()
		x, err := p.factor()
		if err != nil {
			return nil, err
		}
		return exprNeg{x: x, c: t.col}, nil
	case t.text == "(":
		p.next()
		x, err := p.arith()
		if err != nil {
			return nil, err
		}
		if _, err := p.expect(")"); err != nil {
			return nil, err
		}
		return x, nil
	case t.text == "[":
		x, err := p.unaryProp() // [i.f] as 0/1
		if err != nil {
			return nil, err
		}
		return exprProp{x: x, c: t.col}, nil
	case t.text == "@":
		p.next()
		proc, err := p.procRef()
		if err != nil {
			return nil, err
		}
		if _, err := p.expect("."); err != nil {
			return nil, err
		}
		f, err := p.ident("a function name")
		if err != nil {
			return nil, err
		}
		if _, err := p.expect("."); err != nil {
			return nil, err
		}
		r := p.next()
		if r.kind != tReg {
			return nil, p.errAt(r, "expected a register %%name, found %q", r.text)
		}
		bits, signed, err := p.typeSuffix()
		if err != nil {
			return nil, err
		}
		return exprReg{proc: proc, fn: f.text, reg: r.text, bits: bits, signed: signed, c: t.col}, nil
	case t.kind == tIdent && (t.text == "min" || t.text == "max" || t.text == "abs") && p.toks[p.pos+1].text == "(":
		return p.function()
	case t.kind == tIdent:
		p.next()
		if p.is("::") {
			p.next()
			v, err := p.ident("a variable name after ::")
			if err != nil {
				return nil, err
			}
			return p.path(exprVar{fn: t.text, name: v.text, c: t.col})
		}
		return p.path(exprVar{name: t.text, c: t.col})
	case t.kind == tEOF:
		return nil, p.errAt(t, "expected an expression, found end of query")
	}
	return nil, p.errAt(t, "expected an expression, found %q", t.text)
}
