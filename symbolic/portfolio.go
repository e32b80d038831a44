package symbolic

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// Portfolio is the name of the solver that runs z3, cvc5 and boolector in
// parallel on the same query: the first definite answer (sat with a model,
// or unsat) wins and the other processes are killed.
const Portfolio = "portfolio"

// DefaultSolver is the solver BMC uses when none is named: the portfolio,
// chosen by measurement on testdata/bmc and testdata/bmc-heap (BENCHMARKS.md,
// "BMC solver portfolio"): it decides every line one of its members decides,
// and the lines z3 alone leaves undecided (mt_rare_lost_update.c,
// mt_atomic_safe.c, heap programs boolector decides), at about the time of
// the fastest member where cores are free.
const DefaultSolver = Portfolio

// SolverNames are the names --solver accepts: the backends and the
// portfolio.
func SolverNames() []string { return append(Names(), Portfolio) }

// ValidSolver reports whether name is one of SolverNames.
func ValidSolver(name string) bool {
	for _, n := range SolverNames() {
		if n == name {
			return true
		}
	}
	return false
}

// portfolio implements Solver over several backends. Declarations,
// assertions and scopes go to every member; a check runs on all of them at
// once.
type portfolio struct {
	mu      sync.Mutex
	members []Solver
}

// newPortfolio starts nothing: each member's process starts on its first
// check. Members whose binary is missing are left out; none at all is an
// error naming them.
func newPortfolio(opts Options) (Solver, error) {
	if opts.Path != "" {
		return nil, fmt.Errorf("symbolic: %s: a binary path names one solver, not a portfolio", Portfolio)
	}
	var ms []Solver
	var missing []string
	for _, name := range Names() {
		if _, err := exec.LookPath(name); err != nil {
			missing = append(missing, name)
			continue
		}
		s, err := New(name, opts)
		if err != nil {
			return nil, fmt.Errorf("symbolic: %s: %w", Portfolio, err)
		}
		ms = append(ms, s)
	}
	if len(ms) == 0 {
		return nil, fmt.Errorf("symbolic: %s: none of %s is installed (run scripts/install-deps.sh)", Portfolio, strings.Join(missing, ", "))
	}
	return &portfolio{members: ms}, nil
}

func (p *portfolio) Name() string { return Portfolio }

// Incremental: a portfolio keeps its scopes for every member, so it can be
// used incrementally whatever its members do.
func (p *portfolio) Incremental() bool {
	for _, m := range p.members {
		if !m.Incremental() {
			return false
		}
	}
	return true
}

// each applies f to every member, returning the first error.
func (p *portfolio) each(f func(Solver) error) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, m := range p.members {
		if err := f(m); err != nil {
			return err
		}
	}
	return nil
}

func (p *portfolio) Declare(name string, s Sort) (Term, error) {
	err := p.each(func(m Solver) error { _, err := m.Declare(name, s); return err })
	if err != nil {
		return "", err
	}
	return Term(name), nil
}

func (p *portfolio) Assert(t Term) error { return p.each(func(m Solver) error { return m.Assert(t) }) }
func (p *portfolio) Push() error         { return p.each(func(m Solver) error { return m.Push() }) }
func (p *portfolio) Pop() error          { return p.each(func(m Solver) error { return m.Pop() }) }

func (p *portfolio) Close() error {
	return p.each(func(m Solver) error { return m.Close() })
}

func (p *portfolio) Check(ctx context.Context, q *Query) (Answer, error) {
	if err := q.Err(); err != nil {
		return Answer{}, fmt.Errorf("symbolic: %s: query: %w", Portfolio, err)
	}
	if q.UsesInt() && q.bvOnly == nil {
		// only the members that take integers (z3, cvc5): the others
		// would refuse the query
		var ms []Solver
		for _, m := range p.members {
			if s, ok := m.(*session); !ok || s.b.intLogic != "" {
				ms = append(ms, m)
			}
		}
		if len(ms) == 0 {
			return Answer{}, fmt.Errorf("symbolic: %s: no member takes integers (z3, cvc5)", Portfolio)
		}
		return (&portfolio{members: ms}).race(ctx, nil, func(ctx context.Context, m Solver) (Answer, error) { return m.Check(ctx, q) })
	}
	var late func(Solver) time.Duration
	if q.UsesInt() {
		// a bitvector version attached (Query.SetBVOnly): the members
		// without integers check it, joining late
		late = func(m Solver) time.Duration {
			if s, ok := m.(*session); ok && s.b.intLogic == "" {
				return portfolioLate
			}
			return 0
		}
	}
	return p.race(ctx, late, func(ctx context.Context, m Solver) (Answer, error) { return m.Check(ctx, q) })
}

// portfolioLate is how long the members without integers (boolector) wait
// before they check a query's bitvector version (Query.SetBVOnly: the
// partial-order check's clocks as bitvectors): where z3 and cvc5 answer
// within it (the BMC corpus's threaded lines: under a second), boolector
// takes no CPU from them; where they do not, it races them (SV-COMP's
// queue_ok: boolector 8.4 s, z3 156 s; BENCHMARKS.md).
var portfolioLate = 2 * time.Second

func (p *portfolio) CheckSat(ctx context.Context, want ...string) (Answer, error) {
	return p.race(ctx, nil, func(ctx context.Context, m Solver) (Answer, error) { return m.CheckSat(ctx, want...) })
}

// race runs check on every member in parallel, each after its delay late
// (nil: none; a member whose delay has not passed when the race is decided
// never starts). The first sat or unsat answer wins: the others are
// canceled (their processes killed) and awaited. Without one, the answer
// is unknown with every member's reason (timeout when one of them timed
// out), or, when every member failed, the first error.
func (p *portfolio) race(ctx context.Context, late func(Solver) time.Duration, check func(context.Context, Solver) (Answer, error)) (Answer, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	start := time.Now()
	rctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type result struct {
		i   int
		a   Answer
		err error
	}
	out := make(chan result, len(p.members))
	for i, m := range p.members {
		go func() {
			if late != nil {
				if d := late(m); d > 0 {
					t := time.NewTimer(d)
					select {
					case <-t.C:
					case <-rctx.Done():
						t.Stop()
						out <- result{i, Answer{Status: Unknown, Reason: ctxReason(rctx.Err())}, nil}
						return
					}
				}
			}
			a, err := check(rctx, m)
			out <- result{i, a, err}
		}()
	}
	var win *result
	var unknowns []string
	var errs []error
	reason := Reason("")
	for range p.members {
		r := <-out
		switch {
		case win != nil:
			// a loser, canceled: its answer does not count
		case r.err != nil:
			errs = append(errs, fmt.Errorf("%s: %w", p.members[r.i].Name(), r.err))
		case r.a.Status != Unknown:
			win = &r
			cancel()
		default:
			unknowns = append(unknowns, p.members[r.i].Name()+": "+r.a.String())
			if reason == "" || r.a.Reason == ReasonTimeout || r.a.Reason == ReasonCanceled {
				reason = r.a.Reason
			}
		}
	}
	if win != nil {
		a := win.a
		a.Solver = p.members[win.i].Name()
		a.Elapsed = time.Since(start)
		return a, nil
	}
	if len(unknowns) == 0 {
		return Answer{}, fmt.Errorf("symbolic: %s: every solver failed: %w", Portfolio, errors.Join(errs...))
	}
	for _, e := range errs {
		unknowns = append(unknowns, e.Error())
	}
	if err := ctx.Err(); err != nil {
		reason = ctxReason(err)
	}
	return Answer{Status: Unknown, Reason: reason, Detail: strings.Join(unknowns, "; "), Elapsed: time.Since(start)}, nil
}
