package query

import (
	"fmt"
	"strconv"
	"strings"
)

// A Site is where a location proposition ([i.f], [i.f:L], Error(...)) can
// come true, for Split=auto: the comparisons of program variables that
// hold on every way to it (the guards of its branches), written in the
// query language (`hits >= 18`, `main::i < n`).
type Site struct {
	Guards []Guard
}

// A Guard is a comparison of a program variable that holds on the way to a
// site: Var Op Value, or Var Op Other when Other is not "".
type Guard struct {
	Var   string // a global (`hits`) or a local (`main::i`)
	Op    string // >=, >, <=, <, ==, !=
	Value int64
	Other string // a second variable, compared with Var
}

func (g Guard) String() string {
	if g.Other != "" {
		return fmt.Sprintf("%s %s %s", g.Var, g.Op, g.Other)
	}
	return fmt.Sprintf("%s %s %d", g.Var, g.Op, g.Value)
}

// SiteTarget names the places a location proposition waits for: the function
// about to be called, or executing at a line (Line > 0), or, for Error and
// Error(Kind), the functions whose calls end in that error (Calls).
type SiteTarget struct {
	Fn    string
	Line  int
	Calls []string // Error(...): the error-raising functions
	What  string   // the proposition, for messages
}

// errorCalls are the functions whose call ends a run in an error of the
// kind, for Split=auto's targets of Error(Kind) and Error.
var errorCalls = map[string][]string{
	"":           {"reach_error", "__VERIFIER_error", "__assert_fail", "__assert_rtn", "abort"},
	"assertfail": {"__assert_fail", "__assert_rtn", "reach_error", "__VERIFIER_error"},
	"abort":      {"abort"},
}

// AutoScore derives an importance function for Split=auto from the
// query's property: a score that grows toward the property and never
// decides anything (splitting stays unbiased with any score; a good one
// only lowers the variance).
//   - A comparison is turned into a distance to its satisfaction, capped
//     where it holds: x >= c gives min(x, c); x <= c gives -max(x, c);
//     x == c gives -abs(x - c); x >= y gives min(x - y, 0).
//   - P && Q sums the scores of P and Q, P || Q takes their maximum, and
//     !P negates the comparisons of P.
//   - A location ([i.f], [i.f:L], Error, Error(AssertFail)) is scored by
//     the guards of its sites (sites: the comparisons of variables on the
//     branches that every way to the site takes, from sites(target)): the
//     sum of their distances, the maximum over the sites.
//
// It returns the score's text, ready for Score=. A property without a
// distance (DataRace, Deadlock, x != c, a location no comparison guards)
// is an error saying so, with what to write instead.
func AutoScore(q *Query, sites func(SiteTarget) ([]Site, error)) (string, error) {
	if q.Prop == nil {
		return "", fmt.Errorf("option Split=auto needs a property Pr[<=N](<> P)")
	}
	d := deriver{sites: sites}
	s, err := d.score(q.Prop, false)
	if err != nil {
		return "", fmt.Errorf("option Split=auto: %w", err)
	}
	return s.text, nil
}

// A term is a score's text; cap > 0 when it never exceeds cap and reaches
// it where its comparison holds (min(x, c) for x >= c), so that terms of
// different ranges can be normalised to a common one (maxNorm at most).
type term struct {
	text string
	cap  int64
}

// maxNorm bounds the common range of normalised terms.
const maxNorm = 1 << 20

// combine is the score of a conjunction (and: every term must reach its
// cap) or a disjunction: capped terms are scaled to a common range L and
// the least (the most) of them is taken, so that no term's range swamps
// another's (a loop counter to 60 beside a rare count to 18); terms
// without a cap are summed (and) or maximised (or).
func combine(a, b term, and bool) term {
	if a.cap > 0 && b.cap > 0 {
		if l := lcm(a.cap, b.cap); l <= maxNorm {
			f := "max"
			if and {
				f = "min"
			}
			return term{text: fmt.Sprintf("%s(%s, %s)", f, scaled(a, l/a.cap), scaled(b, l/b.cap)), cap: l}
		}
	}
	if and {
		return term{text: a.text + " + " + b.text}
	}
	return term{text: "max(" + a.text + ", " + b.text + ")"}
}

func scaled(t term, k int64) string {
	if k == 1 {
		return t.text
	}
	return fmt.Sprintf("%s*%d", t.text, k)
}

func lcm(a, b int64) int64 {
	x, y := a, b
	for y != 0 {
		x, y = y, x%y
	}
	if a/x > maxNorm/b+1 {
		return maxNorm + 1
	}
	return a / x * b
}

type deriver struct {
	sites func(SiteTarget) ([]Site, error)
}

// score is p's score (of !p when neg).
func (d *deriver) score(p Prop, neg bool) (term, error) {
	switch p := p.(type) {
	case propNot:
		return d.score(p.x, !neg)
	case propAnd, propOr:
		var l, r Prop
		and := false
		switch p := p.(type) {
		case propAnd:
			l, r, and = p.l, p.r, true
		case propOr:
			l, r = p.l, p.r
		}
		if neg { // De Morgan
			and = !and
		}
		a, err := d.score(l, neg)
		if err != nil {
			return term{}, err
		}
		b, err := d.score(r, neg)
		if err != nil {
			return term{}, err
		}
		return combine(a, b, and), nil
	case propCmp:
		l, ok1 := exprText(p.l)
		r, ok2 := exprText(p.r)
		if !ok1 || !ok2 {
			return term{}, fmt.Errorf("column %d: a comparison over registers or propositions has no distance Split=auto can derive: write Score=EXPR", p.c)
		}
		op := p.op
		if neg {
			op = negOp[op]
		}
		return cmpDistance(l, op, r, p.c)
	case propCall:
		if neg {
			return term{}, fmt.Errorf("column %d: a location that must not be reached has no distance: write Score=EXPR", p.c)
		}
		return d.location(SiteTarget{Fn: p.fn, Line: max(p.line, 0), What: fmt.Sprintf("[%s]", p.fn)})
	case propKeyword:
		if p.name == "Error" && !neg {
			calls, ok := errorCalls[strings.ToLower(p.arg)]
			if !ok {
				return term{}, fmt.Errorf("column %d: Error(%s) is raised by the vm, not by a call Split=auto can find: write Score=EXPR", p.c, p.arg)
			}
			what := "Error"
			if p.arg != "" {
				what += "(" + p.arg + ")"
			}
			return d.location(SiteTarget{Calls: calls, What: what})
		}
		return term{}, fmt.Errorf("column %d: %s has no distance to derive a score from (it holds or not, with nothing in between): write Score=EXPR", p.c, p.name)
	}
	return term{}, fmt.Errorf("column %d: this proposition has no distance Split=auto can derive: write Score=EXPR", p.col())
}

// location scores a location target by the guards of its sites: the
// conjunction of a site's guards, the disjunction of the sites.
func (d *deriver) location(t SiteTarget) (term, error) {
	if d.sites == nil {
		return term{}, fmt.Errorf("%s: no program to find its guards in", t.What)
	}
	sites, err := d.sites(t)
	if err != nil {
		return term{}, err
	}
	var per []term
	for _, s := range sites {
		var site *term
		seen := map[string]bool{}
		for _, g := range s.Guards {
			rhs := strconv.FormatInt(g.Value, 10)
			if g.Other != "" {
				rhs = g.Other
			}
			dist, err := cmpDistance(g.Var, g.Op, rhs, 0)
			if err != nil || seen[dist.text] {
				continue
			}
			seen[dist.text] = true
			if site == nil {
				site = &dist
			} else {
				c := combine(*site, dist, true)
				site = &c
			}
		}
		if site != nil {
			per = append(per, *site)
		}
	}
	if len(per) == 0 {
		return term{}, fmt.Errorf("%s: no comparison of a variable guards the way to it (%d site(s)): nothing to measure progress by; write Score=EXPR", t.What, len(sites))
	}
	out := per[0]
	for _, p := range per[1:] {
		out = combine(out, p, false)
	}
	return out, nil
}

var negOp = map[string]string{">=": "<", ">": "<=", "<=": ">", "<": ">=", "==": "!=", "!=": "=="}

// cmpDistance is the score of l op r: it grows toward satisfaction and
// stops growing where it holds.
func cmpDistance(l, op, r string, col int) (term, error) {
	c, constR := strconv.ParseInt(r, 10, 64)
	if constR == nil {
		switch {
		case op == ">=" && c > 0:
			return term{text: fmt.Sprintf("min(%s, %d)", l, c), cap: c}, nil
		case op == ">" && c >= 0:
			return term{text: fmt.Sprintf("min(%s, %d)", l, c+1), cap: c + 1}, nil
		case op == ">=":
			return term{text: fmt.Sprintf("min(%s, %d)", l, c)}, nil
		case op == ">":
			return term{text: fmt.Sprintf("min(%s, %d)", l, c+1)}, nil
		case op == "<=":
			return term{text: fmt.Sprintf("-max(%s, %d)", l, c)}, nil
		case op == "<":
			return term{text: fmt.Sprintf("-max(%s, %d)", l, c-1)}, nil
		case op == "==":
			return term{text: fmt.Sprintf("-abs(%s - %d)", l, c)}, nil
		}
	} else {
		switch op {
		case ">=":
			return term{text: fmt.Sprintf("min(%s - (%s), 0)", l, r)}, nil
		case ">":
			return term{text: fmt.Sprintf("min(%s - (%s), 1)", l, r)}, nil
		case "<=":
			return term{text: fmt.Sprintf("min(%s - (%s), 0)", r, l)}, nil
		case "<":
			return term{text: fmt.Sprintf("min(%s - (%s), 1)", r, l)}, nil
		case "==":
			return term{text: fmt.Sprintf("-abs(%s - (%s))", l, r)}, nil
		}
	}
	where := ""
	if col > 0 {
		where = fmt.Sprintf("column %d: ", col)
	}
	return term{}, fmt.Errorf("%s%s %s %s has no distance to satisfaction (it holds almost everywhere or nowhere): write Score=EXPR", where, l, op, r)
}

// exprText writes an expression of numbers and variables back as query
// text; ok is false for what a score should not read (registers,
// propositions, the exit code).
func exprText(e Expr) (string, bool) {
	switch e := e.(type) {
	case exprNum:
		return strconv.FormatInt(e.v, 10), true
	case exprNeg:
		x, ok := exprText(e.x)
		return "-(" + x + ")", ok
	case exprBin:
		l, ok1 := exprText(e.l)
		r, ok2 := exprText(e.r)
		return "(" + l + " " + e.op + " " + r + ")", ok1 && ok2
	case exprFunc:
		var args []string
		for _, a := range e.args {
			s, ok := exprText(a)
			if !ok {
				return "", false
			}
			args = append(args, s)
		}
		return e.fn + "(" + strings.Join(args, ", ") + ")", true
	case exprVar:
		var b strings.Builder
		if e.fn != "" {
			b.WriteString(e.fn + "::")
		}
		b.WriteString(e.name)
		for _, s := range e.path {
			switch s.op {
			case "[":
				i, ok := exprText(s.index)
				if !ok {
					return "", false
				}
				b.WriteString("[" + i + "]")
			default:
				b.WriteString(s.op + s.field)
			}
		}
		return b.String(), true
	}
	return "", false
}
