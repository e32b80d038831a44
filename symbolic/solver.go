// Package symbolic will hold bounded model checking (issue 11): the
// encoding of a flat ir.Program into bit-precise SMT formulas, the
// symbolic job kind and the replay of witnesses in the vm.
//
// For now it holds the solver layer those build on: SMT-LIB2 terms and
// queries (smtlib.go) and the Solver interface with its backends (this
// file) — z3, cvc5 and boolector run as processes that read SMT-LIB2 on
// stdin and answer on stdout, no Go bindings. A check's answer is sat with
// a model (bitvectors, Bools, arrays as a default and entries), unsat, or
// unknown with a reason: the solver's time limit or ours (the process is
// killed and restarted on next use), a crash (with the tail of its stderr),
// resources, or the solver's own reason-unknown. Nothing here hangs on a
// silent solver or panics on its output.
//
// Next: the encoder (loops unrolled and calls inlined to a bound, memory as
// arrays, paths merged at join points), the symbolic job kind and its
// runner, witnesses replayed concretely in the vm, the CLI's --engine bmc.
package symbolic

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/big"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Status is a check's outcome.
type Status int

// The outcomes of a check.
const (
	Unknown Status = iota // no answer: see Answer.Reason
	Sat                   // satisfiable: Answer.Model holds the wanted values
	Unsat                 // unsatisfiable
)

func (s Status) String() string {
	switch s {
	case Sat:
		return "sat"
	case Unsat:
		return "unsat"
	}
	return "unknown"
}

// Reason says why a check answered unknown.
type Reason string

// Why a check answered unknown.
const (
	ReasonTimeout     Reason = "timeout"      // the solver's time limit or ours (then the process was killed)
	ReasonCanceled    Reason = "canceled"     // the context was canceled (the process was killed)
	ReasonCrashed     Reason = "crashed"      // the process exited or printed something unreadable
	ReasonResourceOut Reason = "resource-out" // the solver ran out of memory or resources
	ReasonSolver      Reason = "solver"       // the solver answered unknown; Detail is its reason-unknown
)

// Answer is a check's result.
type Answer struct {
	Status  Status
	Reason  Reason // for Unknown
	Detail  string // for Unknown: the solver's reason-unknown, or what happened to the process
	Model   Model  // for Sat: the wanted constants' values
	Elapsed time.Duration
	// Solver is the backend that answered (a portfolio's winner).
	Solver string
	// BVOnly: the answer is the one of the query's equisatisfiable
	// version without integers (Query.SetBVOnly), which a solver without
	// integer arithmetic checked instead; its model names that query's
	// constants.
	BVOnly bool
}

func (a Answer) String() string {
	if a.Status != Unknown {
		return a.Status.String()
	}
	if a.Detail != "" {
		return fmt.Sprintf("unknown (%s: %s)", a.Reason, a.Detail)
	}
	return fmt.Sprintf("unknown (%s)", a.Reason)
}

// Solver is an SMT solver process fed SMT-LIB2. Check answers a
// self-contained query in a scope of its own; Push, Declare, Assert,
// CheckSat and Pop use the solver incrementally (assertions persist
// across checks until popped). Declarations and assertions are sent with
// the next check, whose error names a term the solver rejected (and drops
// it). A Solver serialises concurrent calls.
type Solver interface {
	// Name is the backend's name: "z3", "cvc5" or "boolector".
	Name() string
	// Check answers q in a new scope, popped afterwards; the model holds
	// q's wanted constants.
	Check(ctx context.Context, q *Query) (Answer, error)
	// Declare declares a constant in the current scope and returns it.
	Declare(name string, s Sort) (Term, error)
	// Assert adds a Boolean term to the current scope.
	Assert(t Term) error
	// Push opens a scope.
	Push() error
	// Pop drops the innermost scope's declarations and assertions.
	Pop() error
	// CheckSat checks the assertions of all open scopes; a sat answer's
	// model holds the values of the constants named in want.
	CheckSat(ctx context.Context, want ...string) (Answer, error)
	// Incremental tells whether checks reuse one solver process (false:
	// each check runs a fresh process on all assertions).
	Incremental() bool
	// Close stops the process.
	Close() error
}

// Options configure a solver.
type Options struct {
	// Timeout limits each check: the solver's own limit, and a hard kill
	// of the process a little later (then the answer is unknown, reason
	// timeout, and the next check starts a new process). 0: no limit but
	// the context's.
	Timeout time.Duration
	// Path is the solver's binary; empty: the backend's name in PATH.
	Path string
}

// Names are the solver backends New knows.
func Names() []string { return []string{"z3", "cvc5", "boolector"} }

type backend struct {
	args        func(o Options) []string
	preamble    func(o Options) []string // after (set-option :print-success true), before (set-logic …)
	install     string
	incremental bool
	// checkSat is the command that checks (default "(check-sat)").
	checkSat string
	// checkSatReads, where set, replaces checkSat when every array in
	// the open scopes is only read (readsArraysOnly).
	checkSatReads string
	// intLogic, where set, is the logic under which the solver takes
	// the sort Int (linear integer arithmetic) with bitvectors and
	// arrays: a process is started with it when integers are declared,
	// with QF_ABV otherwise, as before they were used. z3 ignores the
	// logics it does not know (answering unsupported), QF_AUFBVLIA
	// among them, and takes ALL.
	intLogic string
}

var backends = map[string]backend{
	"z3": {
		// After a push, z3 4.8 checks with its incremental core, which is
		// about a hundred times slower on BMC encodings (named array
		// definitions) than the tactic it runs on a non-incremental
		// check; ask for that tactic explicitly. elim-uncnstr (which the
		// non-incremental tactic also runs) removes the terms of
		// unconstrained constants: without it strncmp's unrolled
		// comparison over the flat memory array took 2–20 s instead of
		// 0.16 (symbolic/TestStringsFlat), at no cost elsewhere in the
		// package's tests.
		checkSat: "(check-sat-using (then simplify solve-eqs elim-uncnstr smt))",
		// A formula whose arrays are only read (select, the inputs)
		// becomes a pure bit-vector one with bvarray2uf and
		// ackermannize_bv and is bit-blasted to the SAT solver, several
		// times faster than smt there (Euclid's remainders,
		// testdata/bmc/safe_gcd.c: BENCHMARKS.md). bvarray2uf fails with
		// an error (not a tactic failure that or-else would catch) on
		// some formulas that store, so it is only tried where
		// readsArraysOnly holds.
		checkSatReads: "(check-sat-using (then simplify solve-eqs (or-else (then bvarray2uf ackermannize_bv (fail-if (not is-qfbv)) bit-blast sat) smt)))",
		args:          func(Options) []string { return []string{"-in", "-smt2"} },
		preamble: func(o Options) []string {
			out := []string{"(set-option :produce-models true)"}
			if o.Timeout > 0 {
				out = append(out, fmt.Sprintf("(set-option :timeout %d)", ms(o.Timeout)))
			}
			return out
		},
		install:     "apt-get install z3",
		incremental: true,
		intLogic:    "ALL",
	},
	"cvc5": {
		args: func(Options) []string { return []string{"--lang", "smt2", "--incremental", "--produce-models"} },
		preamble: func(o Options) []string {
			var out []string
			if o.Timeout > 0 {
				out = append(out, fmt.Sprintf("(set-option :tlimit-per %d)", ms(o.Timeout)))
			}
			return out
		},
		install:     "apt-get install cvc5",
		incremental: true,
		intLogic:    "QF_AUFBVLIA",
	},
	// Debian's boolector (1.5.118) reads one SMT-LIB2 script: no
	// set-option, push/pop, get-value or declare-const, one check-sat, and
	// its model (-m) in a format of its own. So each check runs a new
	// process on the open scopes' declarations and assertions.
	"boolector": {
		args: func(o Options) []string {
			a := []string{"--smt2"}
			if o.Timeout > 0 {
				secs := (o.Timeout + time.Second - 1) / time.Second
				a = append(a, "-t", strconv.Itoa(int(secs)))
			}
			return a
		},
		install: "apt-get install boolector",
	},
}

func ms(d time.Duration) int64 {
	m := d.Milliseconds()
	if m < 1 {
		m = 1
	}
	return m
}

// New returns the solver name ("z3", "cvc5", "boolector"). The process
// starts on first use; a missing binary is an error here.
//
// The name Portfolio ("portfolio") gives every installed backend at once
// (portfolio.go).
func New(name string, opts Options) (Solver, error) {
	if name == Portfolio {
		return newPortfolio(opts)
	}
	b, ok := backends[name]
	if !ok {
		return nil, fmt.Errorf("symbolic: unknown solver %q (want one of %s or %s)", name, strings.Join(Names(), ", "), Portfolio)
	}
	if opts.Timeout < 0 {
		return nil, fmt.Errorf("symbolic: %s: negative timeout %v", name, opts.Timeout)
	}
	path := opts.Path
	if path == "" {
		path = name
	}
	full, err := exec.LookPath(path)
	if err != nil {
		return nil, fmt.Errorf("symbolic: solver %s: %s not found (install it: %s, or run scripts/install-deps.sh): %w", name, path, b.install, err)
	}
	return &session{name: name, path: full, opts: opts, b: b, frames: []*frame{newFrame()}}, nil
}

// command is a declaration or assertion as sent to the solver; bad marks
// one the solver rejected, which replays skip.
type command struct {
	text string
	bad  bool
}

type frame struct {
	cmds  []*command
	decls map[string]Sort
}

func newFrame() *frame { return &frame{decls: map[string]Sort{}} }

// session implements Solver for every backend. The scopes live here, so
// that a new process (after a kill or a crash, or every check for a
// non-incremental backend) is given the same state again.
type session struct {
	mu     sync.Mutex
	name   string
	path   string
	opts   Options
	b      backend
	frames []*frame
	closed bool

	proc    *proc
	procInt bool         // proc was started with integers in its logic
	buf     bytes.Buffer // commands not yet sent to proc
	pending []*command   // the commands in buf (each answers success or an error)
}

func (s *session) Name() string      { return s.name }
func (s *session) Incremental() bool { return s.b.incremental }

func (s *session) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	s.kill()
	return nil
}

func (s *session) lookup(name string) (Sort, bool) {
	for i := len(s.frames) - 1; i >= 0; i-- {
		if so, ok := s.frames[i].decls[name]; ok {
			return so, true
		}
	}
	return Sort{}, false
}

// queue adds a command for the live process, if any.
func (s *session) queue(c *command) {
	if s.proc == nil {
		return
	}
	s.buf.WriteString(c.text)
	s.buf.WriteByte('\n')
	s.pending = append(s.pending, c)
}

func (s *session) Declare(name string, so Sort) (Term, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.declare(name, so)
}

func (s *session) declare(name string, so Sort) (Term, error) {
	if s.closed {
		return "", fmt.Errorf("symbolic: %s: declare %s: solver closed", s.name, name)
	}
	if err := checkSymbol(name); err != nil {
		return "", fmt.Errorf("symbolic: %s: %w", s.name, err)
	}
	if err := so.check(); err != nil {
		return "", fmt.Errorf("symbolic: %s: declare %s: %w", s.name, name, err)
	}
	if so.Kind == KindInt && s.b.intLogic == "" {
		return "", fmt.Errorf("symbolic: %s: declare %s: this solver takes no integers", s.name, name)
	}
	if _, dup := s.lookup(name); dup {
		return "", fmt.Errorf("symbolic: %s: constant %s already declared", s.name, name)
	}
	f := s.frames[len(s.frames)-1]
	f.decls[name] = so
	c := &command{text: fmt.Sprintf("(declare-fun %s () %s)", name, so)}
	f.cmds = append(f.cmds, c)
	s.queue(c)
	return Term(name), nil
}

func (s *session) Assert(t Term) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.assert(t)
}

func (s *session) assert(t Term) error {
	if s.closed {
		return fmt.Errorf("symbolic: %s: assert: solver closed", s.name)
	}
	if err := checkTerm(t); err != nil {
		return fmt.Errorf("symbolic: %s: assert: %w", s.name, err)
	}
	f := s.frames[len(s.frames)-1]
	c := &command{text: "(assert " + string(t) + ")"}
	f.cmds = append(f.cmds, c)
	s.queue(c)
	return nil
}

func (s *session) Push() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.push()
}

func (s *session) push() error {
	if s.closed {
		return fmt.Errorf("symbolic: %s: push: solver closed", s.name)
	}
	s.frames = append(s.frames, newFrame())
	s.queue(&command{text: "(push 1)"})
	return nil
}

func (s *session) Pop() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.pop()
}

func (s *session) pop() error {
	if s.closed {
		return fmt.Errorf("symbolic: %s: pop: solver closed", s.name)
	}
	if len(s.frames) == 1 {
		return fmt.Errorf("symbolic: %s: pop without push", s.name)
	}
	s.frames = s.frames[:len(s.frames)-1]
	s.queue(&command{text: "(pop 1)"})
	return nil
}

func (s *session) Check(ctx context.Context, q *Query) (Answer, error) {
	if err := q.Err(); err != nil {
		return Answer{}, fmt.Errorf("symbolic: %s: query: %w", s.name, err)
	}
	bvOnly := false
	if s.b.intLogic == "" && q.UsesInt() && q.bvOnly != nil {
		q, bvOnly = q.bvOnly, true
		if err := q.Err(); err != nil {
			return Answer{}, fmt.Errorf("symbolic: %s: query: %w", s.name, err)
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.push(); err != nil {
		return Answer{}, err
	}
	defer func() { _ = s.pop() }()
	for _, d := range q.decls {
		if _, err := s.declare(d.Name, d.Sort); err != nil {
			return Answer{}, err
		}
	}
	for _, a := range q.asserts {
		if err := s.assert(a); err != nil {
			return Answer{}, err
		}
	}
	a, err := s.checkSat(ctx, q.wanted())
	a.BVOnly = bvOnly
	return a, err
}

func (s *session) CheckSat(ctx context.Context, want ...string) (Answer, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.checkSat(ctx, want)
}

// deadline is when a check started at start is given up: the solver's
// own limit plus a grace period for it to answer, or the context's
// deadline if earlier.
func (s *session) deadline(ctx context.Context, start time.Time) time.Time {
	var d time.Time
	if t := s.opts.Timeout; t > 0 {
		grace := t / 2
		if grace < 250*time.Millisecond {
			grace = 250 * time.Millisecond
		}
		if grace > 5*time.Second {
			grace = 5 * time.Second
		}
		d = start.Add(t + grace)
	}
	if cd, ok := ctx.Deadline(); ok && (d.IsZero() || cd.Before(d)) {
		d = cd
	}
	return d
}

func (s *session) checkSat(ctx context.Context, want []string) (Answer, error) {
	start := time.Now()
	if s.closed {
		return Answer{}, fmt.Errorf("symbolic: %s: check: solver closed", s.name)
	}
	sorts := make([]Sort, len(want))
	for i, n := range want {
		so, ok := s.lookup(n)
		if !ok {
			return Answer{}, fmt.Errorf("symbolic: %s: check: wanted constant %s is not declared", s.name, n)
		}
		sorts[i] = so
	}
	if err := ctx.Err(); err != nil {
		return s.lost(ctxReason(err), "", start), nil
	}
	deadline := s.deadline(ctx, start)
	var a Answer
	var err error
	if s.b.incremental {
		a, err = s.checkProc(ctx, deadline, want, sorts, start)
	} else {
		a, err = s.checkOnce(ctx, deadline, want, sorts, start)
	}
	a.Elapsed = time.Since(start)
	a.Solver = s.name
	return a, err
}

func ctxReason(err error) Reason {
	if errors.Is(err, context.Canceled) {
		return ReasonCanceled
	}
	return ReasonTimeout
}

// lost kills the process (if any) and answers unknown.
func (s *session) lost(r Reason, detail string, start time.Time) Answer {
	s.kill()
	if detail == "" {
		switch r {
		case ReasonTimeout:
			detail = fmt.Sprintf("no answer after %v; %s process killed", time.Since(start).Round(time.Millisecond), s.name)
		case ReasonCanceled:
			detail = fmt.Sprintf("canceled after %v; %s process killed", time.Since(start).Round(time.Millisecond), s.name)
		}
	}
	return Answer{Status: Unknown, Reason: r, Detail: detail}
}

// kill stops the process; the next check starts a new one and replays the
// scopes.
func (s *session) kill() {
	if s.proc != nil {
		s.proc.kill()
		s.proc = nil
	}
	s.buf.Reset()
	s.pending = nil
}

// start starts the process and queues the preamble and the replay of the
// open scopes.
func (s *session) start() error {
	p, err := startProc(s.path, s.b.args(s.opts))
	if err != nil {
		return fmt.Errorf("symbolic: start %s (%s): %w", s.name, s.path, err)
	}
	s.proc = p
	s.buf.Reset()
	s.pending = nil
	s.queue(&command{text: "(set-option :print-success true)"})
	for _, t := range s.b.preamble(s.opts) {
		s.queue(&command{text: t})
	}
	s.procInt = s.usesInt()
	lg := "QF_ABV"
	if s.procInt {
		lg = s.b.intLogic
	}
	s.queue(&command{text: "(set-logic " + lg + ")"})
	for i, f := range s.frames {
		if i > 0 {
			s.queue(&command{text: "(push 1)"})
		}
		for _, c := range f.cmds {
			if !c.bad {
				s.queue(c)
			}
		}
	}
	return nil
}

// checkProc checks on the long-lived process (z3, cvc5).
func (s *session) checkProc(ctx context.Context, deadline time.Time, want []string, sorts []Sort, start time.Time) (Answer, error) {
	if s.proc != nil && s.procInt != s.usesInt() {
		// the logic is set once per process: a new one, given the scopes
		// again, where integers come or go (the partial-order check's
		// clocks, encode_po.go), so that a query without them is
		// checked under QF_ABV as it always was
		s.kill()
	}
	if s.proc == nil {
		if err := s.start(); err != nil {
			return Answer{}, err
		}
	}
	p := s.proc
	pending := s.pending
	cs := s.b.checkSat
	if s.b.checkSatReads != "" && s.readsArraysOnly() {
		cs = s.b.checkSatReads
	}
	if cs == "" {
		cs = "(check-sat)"
	}
	text := s.buf.String() + cs + "\n"
	s.buf.Reset()
	s.pending = nil
	got, xerr := p.exchange(ctx, deadline, text, len(pending)+1)
	for i, r := range got {
		if i == len(pending) {
			break
		}
		if r.isAtom("success") {
			continue
		}
		pending[i].bad = true
		s.kill()
		return Answer{}, fmt.Errorf("symbolic: %s rejected %s: %s", s.name, abbrev(pending[i].text), errorText(r))
	}
	if xerr != nil {
		return s.lostProc(p, xerr, start), nil
	}
	r := got[len(pending)]
	switch {
	case r.isAtom("unsat"):
		return Answer{Status: Unsat}, nil
	case r.isAtom("sat"):
		m, err := s.model(ctx, deadline, p, want, sorts)
		if err != nil {
			var lostErr *exchangeError
			if errors.As(err, &lostErr) {
				return s.lostProc(p, lostErr, start), nil
			}
			s.kill()
			return Answer{}, err
		}
		return Answer{Status: Sat, Model: m}, nil
	case r.isAtom("unknown"):
		got, xerr := p.exchange(ctx, deadline, "(get-info :reason-unknown)\n", 1)
		if xerr != nil {
			return s.lostProc(p, xerr, start), nil
		}
		why := reasonText(got[0])
		return Answer{Status: Unknown, Reason: classify(why), Detail: why}, nil
	}
	why := errorText(r)
	if reason := classify(why); r.head() == "error" && reason != ReasonSolver {
		// z3 stopped by its time limit inside a tactic answers (error
		// "tactic failed: canceled") instead of unknown: a limit reached,
		// not a failure of the solver (the process is replaced anyway).
		return s.lost(reason, s.name+": "+why, start), nil
	}
	s.kill()
	return Answer{}, fmt.Errorf("symbolic: %s: check-sat answered %s", s.name, abbrev(why))
}

// lostProc answers unknown for a failed exchange with p.
func (s *session) lostProc(p *proc, err error, start time.Time) Answer {
	var xe *exchangeError
	if !errors.As(err, &xe) {
		return s.lost(ReasonCrashed, err.Error(), start)
	}
	switch xe.kind {
	case xTimeout:
		return s.lost(ReasonTimeout, "", start)
	case xCanceled:
		return s.lost(ReasonCanceled, "", start)
	}
	p.kill()
	return s.lost(ReasonCrashed, s.name+" "+p.exitDetail(xe.readErr), start)
}

// model asks for the wanted constants' values.
func (s *session) model(ctx context.Context, deadline time.Time, p *proc, want []string, sorts []Sort) (Model, error) {
	m := Model{}
	if len(want) == 0 {
		return m, nil
	}
	got, err := p.exchange(ctx, deadline, "(get-value ("+strings.Join(want, " ")+"))\n", 1)
	if err != nil {
		return nil, err
	}
	r := got[0]
	if r.head() == "error" || !r.isList || len(r.list) != len(want) {
		return nil, fmt.Errorf("symbolic: %s: get-value answered %s", s.name, abbrev(errorText(r)))
	}
	ev := &evaluator{}
	for i, pair := range r.list {
		if !pair.isList || len(pair.list) != 2 {
			return nil, fmt.Errorf("symbolic: %s: get-value: malformed pair %s", s.name, abbrev(pair.String()))
		}
		v, err := ev.value(pair.list[1], sorts[i])
		if errors.Is(err, errNeedFuns) && ev.funs == nil {
			got, xerr := p.exchange(ctx, deadline, "(get-model)\n", 1)
			if xerr != nil {
				return nil, xerr
			}
			funs, perr := parseFuns(got[0])
			if perr != nil {
				return nil, fmt.Errorf("symbolic: %s: %w", s.name, perr)
			}
			ev.funs = funs
			v, err = ev.value(pair.list[1], sorts[i])
		}
		if err != nil {
			return nil, fmt.Errorf("symbolic: %s: value of %s: %w", s.name, want[i], err)
		}
		m[want[i]] = v
	}
	return m, nil
}

func errorText(r *sexp) string {
	if r.head() == "error" && len(r.list) == 2 {
		return strings.TrimSpace(r.list[1].atom)
	}
	return r.String()
}

// reasonText reads (:reason-unknown "timeout") — z3 quotes it, cvc5 does
// not.
func reasonText(r *sexp) string {
	if r.isList && len(r.list) == 2 && r.list[0].isAtom(":reason-unknown") {
		if r.list[1].isList {
			return r.list[1].String()
		}
		return r.list[1].atom
	}
	return errorText(r)
}

// classify maps a reason-unknown to a Reason.
func classify(why string) Reason {
	w := strings.ToLower(why)
	switch {
	case strings.Contains(w, "timeout"), strings.Contains(w, "canceled"), strings.Contains(w, "interrupted"):
		return ReasonTimeout
	case strings.Contains(w, "resource"), strings.Contains(w, "memout"), strings.Contains(w, "memory"):
		return ReasonResourceOut
	}
	return ReasonSolver
}

// --- processes ---

// proc is a running solver process: its stdin, and its stdout read as
// s-expressions by a goroutine.
type proc struct {
	cmd     *exec.Cmd
	stdin   io.WriteCloser
	out     chan *sexp
	readErr error // why out was closed, when not at end of input; set before close(out)
	quit    chan struct{}
	exited  chan struct{}
	waitErr error // set before close(exited)
	stderr  *tail
	once    sync.Once
}

func startProc(path string, args []string) (*proc, error) {
	cmd := exec.Command(path, args...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	p := &proc{cmd: cmd, stdin: stdin, out: make(chan *sexp, 64), quit: make(chan struct{}), exited: make(chan struct{}), stderr: &tail{max: 2048}}
	cmd.Stderr = p.stderr
	cmd.WaitDelay = 500 * time.Millisecond // a child of the solver may hold its stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	go func() {
		r := newReader(stdout)
		for {
			e, err := r.next()
			if err != nil {
				p.readErr = err
				break
			}
			if e == nil {
				break
			}
			select {
			case p.out <- e:
			case <-p.quit:
			}
		}
		close(p.out)
		// Unreadable output: stop the process so that Wait returns.
		if p.readErr != nil {
			_ = cmd.Process.Kill()
		}
		p.waitErr = cmd.Wait()
		close(p.exited)
	}()
	return p, nil
}

func (p *proc) kill() {
	p.once.Do(func() {
		close(p.quit)
		_ = p.stdin.Close()
		_ = p.cmd.Process.Kill()
		select {
		case <-p.exited:
		case <-time.After(3 * time.Second):
		}
	})
}

// exitDetail says how the process ended, with its stderr's tail.
func (p *proc) exitDetail(readErr error) string {
	select {
	case <-p.exited:
	case <-time.After(3 * time.Second):
	}
	var b strings.Builder
	if readErr != nil {
		fmt.Fprintf(&b, "printed unreadable output (%v)", readErr)
	} else {
		b.WriteString("stopped answering: end of output")
	}
	select {
	case <-p.exited:
		if p.waitErr != nil {
			fmt.Fprintf(&b, "; %v", p.waitErr)
		} else {
			b.WriteString("; exit status 0")
		}
	default:
	}
	if t := strings.TrimSpace(p.stderr.String()); t != "" {
		fmt.Fprintf(&b, "; stderr: %s", t)
	}
	return b.String()
}

type exchangeKind int

const (
	xTimeout exchangeKind = iota
	xCanceled
	xEOF
)

type exchangeError struct {
	kind    exchangeKind
	readErr error
}

func (e *exchangeError) Error() string {
	switch e.kind {
	case xTimeout:
		return "timeout"
	case xCanceled:
		return "canceled"
	}
	if e.readErr != nil {
		return "unreadable output: " + e.readErr.Error()
	}
	return "end of output"
}

// exchange writes text (concurrently, so that a long text and the answers
// to it cannot block each other) and reads n answers, until deadline (zero:
// none) or ctx is done.
func (p *proc) exchange(ctx context.Context, deadline time.Time, text string, n int) ([]*sexp, error) {
	go func() { _, _ = io.WriteString(p.stdin, text) }()
	var timer <-chan time.Time
	if !deadline.IsZero() {
		t := time.NewTimer(time.Until(deadline))
		defer t.Stop()
		timer = t.C
	}
	got := make([]*sexp, 0, n)
	for len(got) < n {
		select {
		case e, ok := <-p.out:
			if !ok {
				return got, &exchangeError{kind: xEOF, readErr: p.readErr}
			}
			got = append(got, e)
		case <-timer:
			return got, &exchangeError{kind: xTimeout}
		case <-ctx.Done():
			if errors.Is(ctx.Err(), context.Canceled) {
				return got, &exchangeError{kind: xCanceled}
			}
			return got, &exchangeError{kind: xTimeout}
		}
	}
	return got, nil
}

// tail keeps the last max bytes written to it.
type tail struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > t.max {
		t.b = append([]byte(nil), t.b[len(t.b)-t.max:]...)
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.b)
}

// --- one process per check (boolector) ---

// checkOnce runs a new process on the open scopes. Boolector prints a
// model (-m) of every constant, arrays included, which on BMC formulas
// costs up to fifty times the check itself (hl_swap_ptrs_alias.c: 3.8 s
// against 0.08 s); so it checks without one, and runs again with -m only
// when the answer is sat and values are wanted.
func (s *session) checkOnce(ctx context.Context, deadline time.Time, want []string, sorts []Sort, start time.Time) (Answer, error) {
	a, err := s.checkOnceArgs(ctx, deadline, nil, nil, start, nil)
	if err != nil || a.Status != Sat || len(want) == 0 {
		return a, err
	}
	return s.checkOnceArgs(ctx, deadline, want, sorts, start, []string{"-m"})
}

// checkOnceArgs is one boolector run with extra arguments.
func (s *session) checkOnceArgs(ctx context.Context, deadline time.Time, want []string, sorts []Sort, start time.Time, extra []string) (Answer, error) {
	var script bytes.Buffer
	script.WriteString("(set-logic QF_ABV)\n")
	var lines []*command // lines[i] is line i+2 of the script
	for _, f := range s.frames {
		for _, c := range f.cmds {
			if !c.bad {
				script.WriteString(c.text)
				script.WriteByte('\n')
				lines = append(lines, c)
			}
		}
	}
	script.WriteString("(check-sat)\n(exit)\n")
	cctx := ctx
	if !deadline.IsZero() {
		var cancel context.CancelFunc
		cctx, cancel = context.WithDeadline(ctx, deadline)
		defer cancel()
	}
	cmd := exec.CommandContext(cctx, s.path, append(s.b.args(s.opts), extra...)...)
	cmd.Stdin = &script
	var stdout bytes.Buffer
	stderr := &tail{max: 2048}
	cmd.Stdout = &stdout
	cmd.Stderr = stderr
	cmd.WaitDelay = 2 * time.Second
	runErr := cmd.Run()
	if err := cctx.Err(); err != nil {
		return s.lost(ctxReason(err), "", start), nil
	}
	var execErr *exec.Error
	if errors.As(runErr, &execErr) {
		return Answer{}, fmt.Errorf("symbolic: start %s (%s): %w", s.name, s.path, runErr)
	}
	out := stdout.String()
	first, rest, _ := strings.Cut(out, "\n")
	first = strings.TrimSpace(first)
	// "<stdin>:3: undefined symbol 'q'": a term boolector rejects.
	if strings.HasPrefix(first, "<stdin>:") {
		msg := strings.TrimPrefix(first, "<stdin>:")
		if num, after, ok := strings.Cut(msg, ":"); ok {
			if n, err := strconv.Atoi(num); err == nil && n >= 2 && n-2 < len(lines) {
				lines[n-2].bad = true
				return Answer{}, fmt.Errorf("symbolic: %s rejected %s:%s", s.name, abbrev(lines[n-2].text), after)
			}
		}
		return Answer{}, fmt.Errorf("symbolic: %s rejected the script: %s", s.name, msg)
	}
	detail := func() string {
		d := fmt.Sprintf("%s printed %q", s.name, abbrev(strings.TrimSpace(out)))
		if runErr != nil {
			d += fmt.Sprintf("; %v", runErr)
		}
		if t := strings.TrimSpace(stderr.String()); t != "" {
			d += "; stderr: " + t
		}
		return d
	}
	switch first {
	case "unsat":
		return Answer{Status: Unsat}, nil
	case "unknown":
		if s.opts.Timeout > 0 && time.Since(start) >= s.opts.Timeout {
			return Answer{Status: Unknown, Reason: ReasonTimeout, Detail: fmt.Sprintf("%s time limit", s.name)}, nil
		}
		return Answer{Status: Unknown, Reason: ReasonSolver, Detail: s.name + " answered unknown"}, nil
	case "sat":
		m, err := parseBoolectorModel(rest, want, sorts)
		if err != nil {
			return Answer{}, fmt.Errorf("symbolic: %s: %w", s.name, err)
		}
		return Answer{Status: Sat, Model: m}, nil
	}
	return Answer{Status: Unknown, Reason: ReasonCrashed, Detail: detail()}, nil
}

// parseBoolectorModel reads boolector's -m output: "name bits" for
// bitvectors and Bools, "name[idxbits] bits" for array entries; an x bit
// is a bit the model leaves free (read as 0). Constants it does not print
// are unconstrained: 0, false, or an array of unknown default.
func parseBoolectorModel(text string, want []string, sorts []Sort) (Model, error) {
	scalars := map[string]string{}
	arrays := map[string]map[string]string{}
	for _, line := range strings.Split(text, "\n") {
		f := strings.Fields(line)
		if len(f) != 2 {
			continue
		}
		name, val := f[0], f[1]
		if i := strings.IndexByte(name, '['); i > 0 && strings.HasSuffix(name, "]") {
			a := arrays[name[:i]]
			if a == nil {
				a = map[string]string{}
				arrays[name[:i]] = a
			}
			a[name[i+1:len(name)-1]] = val
			continue
		}
		scalars[name] = val
	}
	bits := func(s string) (*big.Int, error) {
		x, ok := new(big.Int).SetString(strings.NewReplacer("x", "0", "X", "0").Replace(s), 2)
		if !ok {
			return nil, fmt.Errorf("model: bad bits %q", s)
		}
		return x, nil
	}
	m := Model{}
	for i, name := range want {
		so := sorts[i]
		switch so.Kind {
		case KindBool:
			m[name] = Value{Sort: so, Bool: scalars[name] == "1"}
		case KindBitVec:
			x := new(big.Int)
			if v, ok := scalars[name]; ok {
				var err error
				if x, err = bits(v); err != nil {
					return nil, fmt.Errorf("%s: %w", name, err)
				}
			}
			m[name] = Value{Sort: so, BV: x}
		case KindArray:
			a := &ArrayValue{Entries: map[uint64]uint64{}}
			keys := make([]string, 0, len(arrays[name]))
			for k := range arrays[name] {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				i, err := bits(k)
				if err != nil {
					return nil, fmt.Errorf("%s: %w", name, err)
				}
				v, err := bits(arrays[name][k])
				if err != nil {
					return nil, fmt.Errorf("%s: %w", name, err)
				}
				a.Entries[i.Uint64()] = v.Uint64()
			}
			m[name] = Value{Sort: so, Array: a}
		}
	}
	return m, nil
}

// usesInt reports whether the open scopes declare an integer.
func (s *session) usesInt() bool {
	for _, f := range s.frames {
		for _, so := range f.decls {
			if so.Kind == KindInt {
				return true
			}
		}
	}
	return false
}

// readsArraysOnly reports whether the open scopes' assertions use each
// declared array only as select's first argument: no store, constant
// array, lambda, array equality or array-valued ite.
func (s *session) readsArraysOnly() bool {
	arrays := map[string]bool{}
	for _, f := range s.frames {
		for name, so := range f.decls {
			if so.Kind == KindArray {
				arrays[name] = true
			}
		}
	}
	for _, f := range s.frames {
		for _, c := range f.cmds {
			if strings.HasPrefix(c.text, "(assert ") && !readsOnly(c.text, arrays) {
				return false
			}
		}
	}
	return true
}

// readsOnly reports whether the term t uses the arrays only as select's
// first argument, and builds no array of its own.
func readsOnly(t string, arrays map[string]bool) bool {
	if strings.Contains(t, "(store ") || strings.Contains(t, "(as const") || strings.Contains(t, "lambda") {
		return false
	}
	const sep = "() \n\t\r"
	for i := 0; i < len(t); {
		if strings.IndexByte(sep, t[i]) >= 0 {
			i++
			continue
		}
		j := i
		for j < len(t) && strings.IndexByte(sep, t[j]) < 0 {
			j++
		}
		if t[i] == '|' || arrays[t[i:j]] && !strings.HasSuffix(t[:i], "(select ") {
			return false
		}
		i = j
	}
	return true
}
