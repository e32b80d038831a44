package symbolic

import "context"

// Incremental checks within a bound (issue 29, item 3). Each bound asks
// two questions of the same formula: is a violation reachable, and, if
// not, does the bound cut an execution. With shareBoundScope the formula
// is sent to the solver once per bound, in a scope of its own, and each
// question is one more scope holding its goal (push/pop on the long-lived
// z3 and cvc5 processes; boolector, which has no push/pop, runs a process
// per check either way). It is off: measured (BENCHMARKS.md, "Issue #29:
// k-induction and incremental deepening"), z3 4.8 with the formula one
// scope below the goal loses what its check-sat-using tactic gains
// (heap_realloc_stale.c at unwind 1: 0.2 s alone, no answer in 20 s so
// shared; arr_negative_mod.c 0.08 s against 0.8 s), while sending the
// formula again costs milliseconds. Across bounds the formula at K+1 is
// not the one at K with more assertions (the paths leaving a loop merge
// with the extra iteration's before the code after it): on the corpus the
// formula at K/2 shares a common prefix of 61% of its assertions with the
// one at K, which only the same nested scopes could reuse.
var shareBoundScope = false

// boundScope is one bound's formula on a solver.
type boundScope struct {
	s      Solver
	enc    *Encoding
	shared bool // the formula is in an open scope of s
}

// openBound sends enc's formula in a new scope (with shareBoundScope).
func openBound(s Solver, enc *Encoding) (*boundScope, error) {
	if !shareBoundScope {
		return &boundScope{s: s, enc: enc}, nil
	}
	return openScope(s, enc)
}

// openScope sends enc's formula in a new scope.
func openScope(s Solver, enc *Encoding) (*boundScope, error) {
	b := &boundScope{s: s, enc: enc}
	if err := s.Push(); err != nil {
		return nil, err
	}
	b.shared = true
	for _, d := range enc.Query.Decls() {
		if _, err := s.Declare(d.Name, d.Sort); err != nil {
			b.close()
			return nil, err
		}
	}
	for _, a := range enc.Query.Asserts() {
		if err := s.Assert(a); err != nil {
			b.close()
			return nil, err
		}
	}
	return b, nil
}

// check asks whether the formula and goal are satisfiable (the model
// holding the inputs when wantInputs).
func (b *boundScope) check(ctx context.Context, goal Term, wantInputs bool) (Answer, error) {
	if !b.shared {
		return b.s.Check(ctx, withGoal(b.enc, goal, wantInputs))
	}
	if err := b.s.Push(); err != nil {
		return Answer{}, err
	}
	defer func() { _ = b.s.Pop() }()
	if err := b.s.Assert(goal); err != nil {
		return Answer{}, err
	}
	var want []string
	if wantInputs {
		want = b.enc.Query.wanted()
	}
	return b.s.CheckSat(ctx, want...)
}

// close drops the bound's scope.
func (b *boundScope) close() {
	if b.shared {
		_ = b.s.Pop()
		b.shared = false
	}
}

// checkWith checks the formula with more declarations and assertions,
// in a scope of their own.
func (b *boundScope) checkWith(ctx context.Context, decls []Decl, asserts []Term, want []string) (Answer, error) {
	if !b.shared {
		q := withGoal(b.enc, "true", false)
		for _, d := range decls {
			q.Declare(d.Name, d.Sort)
		}
		for _, a := range asserts {
			q.Assert(a)
		}
		q.Want(want...)
		return b.s.Check(ctx, q)
	}
	if err := b.s.Push(); err != nil {
		return Answer{}, err
	}
	defer func() { _ = b.s.Pop() }()
	for _, d := range decls {
		if _, err := b.s.Declare(d.Name, d.Sort); err != nil {
			return Answer{}, err
		}
	}
	for _, a := range asserts {
		if err := b.s.Assert(a); err != nil {
			return Answer{}, err
		}
	}
	return b.s.CheckSat(ctx, want...)
}
