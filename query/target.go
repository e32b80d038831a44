package query

import (
	"fmt"

	"github.com/wyvernmc/wyvern/vm"
)

// Target is what a bounded model checker looks for: a violation made of
// error states (of any kind when AnyError, else of the kinds in Errors)
// and calls of the functions in Calls, by any process.
type Target struct {
	AnyError bool
	Errors   []vm.ErrKind
	Calls    []string
	// CallProcs holds, for each of Calls, the process whose call is the
	// violation ([i.f]: process i), or -1 for any process (a bound
	// variable, exists i [i.f]).
	CallProcs []int32
	// Negated: the query is A[] !(violation) — it holds when no violation
	// is reachable; for E<> (violation) a reachable violation satisfies it.
	Negated bool
}

// BMCTarget reads the target of an E<> or A[] query whose proposition a
// bounded model checker handles: E<> V or A[] !V, with V a disjunction of
// Error, Error(Kind) and [i.f] (any process i: a call of f). Other
// propositions are an error naming what is not supported.
func BMCTarget(q *Query) (Target, error) {
	var t Target
	p := q.Prop
	switch q.Kind {
	case Reach:
	case Invariant:
		n, ok := p.(propNot)
		if !ok {
			return t, fmt.Errorf("bounded model checking answers A[] !V with V made of Error, Error(Kind) and [i.f]; %q is not of that form", q.Text)
		}
		p, t.Negated = n.x, true
	default:
		return t, fmt.Errorf("bounded model checking answers E<> and A[] queries, not %s", q.Kind)
	}
	var walk func(p Prop) error
	walk = func(p Prop) error {
		switch x := p.(type) {
		case propOr:
			if err := walk(x.l); err != nil {
				return err
			}
			return walk(x.r)
		case propKeyword:
			if x.name != "Error" {
				return &SyntaxError{Query: q.Text, Col: x.c, Msg: fmt.Sprintf("%s is not supported by bounded model checking (use Error, Error(Kind) or [i.f])", x.name)}
			}
			if x.arg == "" {
				t.AnyError = true
				return nil
			}
			k, ok := vm.ErrKindByName(x.arg)
			if !ok {
				return &SyntaxError{Query: q.Text, Col: x.c, Msg: fmt.Sprintf("unknown error kind %s", x.arg)}
			}
			if vm.LeakChecksFor(k) != 0 {
				return &SyntaxError{Query: q.Text, Col: x.c, Msg: fmt.Sprintf("Error(%s) is not checked by bounded model checking (leaks are the vm's: use explicit search or simulation)", x.arg)}
			}
			t.Errors = append(t.Errors, k)
			return nil
		case propExists:
			// Exists (p)(... [p.f] ...): a call by any process (a
			// disjunction inside distributes over the processes)
			return walk(x.body)
		case propCall:
			if x.line >= 0 {
				return &SyntaxError{Query: q.Text, Col: x.c, Msg: "source-line locations [i.f:L] are not supported by bounded model checking"}
			}
			t.Calls = append(t.Calls, x.fn)
			proc := int32(-1)
			if x.proc.v < 0 {
				proc = x.proc.lit
			}
			t.CallProcs = append(t.CallProcs, proc)
			return nil
		}
		return &SyntaxError{Query: q.Text, Col: p.col(), Msg: "bounded model checking handles disjunctions of Error, Error(Kind) and [i.f] only"}
	}
	if err := walk(p); err != nil {
		return t, err
	}
	return t, nil
}
