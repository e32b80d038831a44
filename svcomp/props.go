package svcomp

import (
	"fmt"
	"slices"
	"strings"

	"github.com/wyvernmc/wyvern/ir"
	"github.com/wyvernmc/wyvern/query"
	"github.com/wyvernmc/wyvern/vm"
)

// Verdicts as SV-COMP writes them (the first word of verify's verdict line).
const (
	True    = "TRUE"
	Unknown = "UNKNOWN"
)

// False is the verdict of a violated (sub)property, e.g.
// FALSE(unreach-call), FALSE(valid-deref).
func False(sub string) string { return "FALSE(" + sub + ")" }

// The error kinds behind each property. abort() is none of them: SV-COMP
// tasks use it as an assumption (assume_abort_if_not), so a run that calls
// it is an infeasible run, not a violation (but for valid-memcleanup, the
// vm's MemCleanup: the program terminates there with its blocks).
var (
	derefKinds = []vm.ErrKind{vm.ErrNullDeref, vm.ErrOutOfBounds, vm.ErrUseAfterFree, vm.ErrUseAfterReturn, vm.ErrInvalidPtr}
	freeKinds  = []vm.ErrKind{vm.ErrDoubleFree, vm.ErrInvalidFree}
)

// Goal is what the engines look for to decide a property.
type Goal struct {
	Prop *Property
	// Why, when set, is why no engine runs: the property is not one Wyvern
	// checks (termination, valid-memcleanup); the verdict is UNKNOWN.
	Why string
	// Primary holds in a state that violates the property or ends a run
	// in any error state but abort(): a complete search that reaches no
	// such state proves the property (TRUE), whatever undefined behaviour
	// the vm's error checks stand for. Focus holds in the property's own
	// violations only.
	Primary, Focus string
	// BMCPrimary and BMCFocus are the same as disjunctions of error kinds
	// for bounded model checking ("" when BMC cannot express the property:
	// a data race).
	BMCPrimary, BMCFocus string
	// Provable: whether TRUE may be claimed at all.
	Provable bool
	// Leaks are the leak checks the engines' machines make (valid-memtrack,
	// valid-memcleanup): Machine gives them.
	Leaks vm.LeakChecks
	// BMCNoProof, when set, is why bounded model checking's proof is no
	// TRUE: it does not check the leaks of a program that allocates.
	BMCNoProof string
	// Note says what is approximated or left unchecked, for the report.
	Note string
	// WrapOverflow: the engines check the program with two's-complement
	// wrap-around for add, sub, mul, shl and abs (ir.Program.WrapOverflow),
	// as SV-COMP's verifiers do for every property but no-overflow, so
	// that an overflow is no error state blocking TRUE. Machine applies it;
	// the portfolio's experiments ask the workers for it.
	WrapOverflow bool
}

func errorOr(kinds []vm.ErrKind) string {
	var parts []string
	for _, k := range kinds {
		parts = append(parts, "Error("+k.String()+")")
	}
	return strings.Join(parts, " || ")
}

// notAbort are every error kind but abort's, the leak checks' (which
// bounded model checking, the one user, does not express) and except's.
func notAbort(except ...vm.ErrKind) []vm.ErrKind {
	var out []vm.ErrKind
	for _, name := range vm.ErrKindNames() {
		k, _ := vm.ErrKindByName(name)
		if k != vm.ErrAbort && vm.LeakChecksFor(k) == 0 && !slices.Contains(except, k) {
			out = append(out, k)
		}
	}
	return out
}

// GoalOf maps property p of program prog to the propositions the engines
// look for.
func GoalOf(p *Property, prog *ir.Program) *Goal {
	// Signed overflow is undefined in C but no violation of these
	// properties: SV-COMP's verifiers (CBMC, ESBMC, CPAchecker) give
	// signed arithmetic two's-complement wrap-around except under
	// no-overflow, and so does the program compiled at -O0 on real
	// hardware. Termination keeps overflow an error (its engine reads an
	// overflow as the end of a run, never as a cycle).
	wrap := p.Kind == UnreachCall || p.Kind == NoDataRace || p.Kind == ValidMemsafety || p.Kind == ValidMemcleanup
	g := &Goal{Prop: p, Provable: true, WrapOverflow: wrap}
	anyError := "(Error && !Error(Abort))"
	all := errorOr(notAbort())
	switch p.Kind {
	case UnreachCall:
		// The property is the call itself: reach_error may be defined as
		// an empty function followed by abort() (older tasks), so a defined
		// error function is watched as "a process is about to call it"; an
		// undefined reach_error and __VERIFIER_error are the vm's error
		// states ReachError and VerifierError.
		var focus, bmc []string
		for _, fn := range errorFuncs(p, prog) {
			focus = append(focus, "Exists (p)([p."+fn+"])")
			if createsThreads(prog) {
				// any thread's call (with [0.f], a thread's call of an
				// empty reach_error followed by abort() was no violation:
				// lazy01 got a wrong TRUE from BMC alone)
				bmc = append(bmc, "Exists (p)([p."+fn+"])")
			} else {
				bmc = append(bmc, "[0."+fn+"]")
			}
		}
		kinds := errorOr([]vm.ErrKind{vm.ErrReachError, vm.ErrVerifierErr})
		g.Focus = strings.Join(append(focus, kinds), " || ")
		g.BMCFocus = strings.Join(append(bmc, kinds), " || ")
	case NoDataRace:
		g.Focus = "DataRace"
	case ValidMemsafety:
		// SV-COMP's order: valid-free, valid-deref, valid-memtrack (a run
		// ends in one error; Classify names its sub-property).
		g.BMCFocus = errorOr(append(append([]vm.ErrKind{}, freeKinds...), derefKinds...))
		g.Focus = g.BMCFocus + " || " + errorOr([]vm.ErrKind{vm.ErrMemLeak})
		g.Leaks = vm.CheckMemTrack
		if allocates(prog) {
			g.BMCNoProof = "bounded model checking does not check valid-memtrack (leaks) of a program that allocates"
			g.Note = "valid-memtrack (leaks) is checked by explicit search and simulation, not by bounded model checking"
		} else {
			g.Note = "valid-memtrack holds trivially: the program calls no allocation function"
		}
	case ValidMemcleanup:
		g.Focus = errorOr([]vm.ErrKind{vm.ErrMemCleanup})
		g.Leaks = vm.CheckMemCleanup
		g.Note = "valid-memcleanup is checked by explicit search and simulation, not by bounded model checking"
	case NoOverflow:
		g.Focus = errorOr([]vm.ErrKind{vm.ErrOverflow})
		g.BMCFocus = g.Focus
	case Termination:
		// One engine answers: the termination kind (Verify).
		if createsThreads(prog) {
			g.Note = "the program creates threads: termination is only refuted (a lasso), never proved"
		}
		return g
	default:
		g.Why = fmt.Sprintf("property %s is not checked", p.Kind)
		return g
	}
	switch p.Kind {
	case NoDataRace:
		// A failed assert() (__assert_fail) aborts the program as abort()
		// does: no access of any thread follows it, so for no-data-race it
		// ends a run like abort() and does not stop a TRUE (tasks define
		// reach_error() as assert(0) and call it where their own check
		// fails). Racy states before it are still found: DataRace holds in
		// the state where the two accesses are about to happen.
		g.Primary = "DataRace || (Error && !Error(Abort) && !Error(AssertFail))"
		// BMC has no DataRace: the portfolio runs it only on programs that
		// create no thread, where no race exists and its proof that no
		// error is reachable proves no-data-race.
		g.BMCPrimary = errorOr(notAbort(vm.ErrAssertFail))
	case UnreachCall:
		g.Primary = g.Focus + " || " + anyError
		g.BMCPrimary = g.BMCFocus + " || " + all
	case ValidMemsafety, ValidMemcleanup:
		// (the leak kinds named, so that the machines check them)
		g.Primary = g.Focus + " || " + anyError
		if g.BMCFocus != "" {
			g.BMCPrimary = all
		}
	default:
		g.Primary = anyError
		g.BMCPrimary = all
	}
	return g
}

// errorFuncs are the error functions of unreach-call that prog defines
// (a body, not the platform's): the property's own, reach_error and
// __VERIFIER_error.
func errorFuncs(p *Property, prog *ir.Program) []string {
	var out []string
	for _, fn := range []string{p.Func, "reach_error", "__VERIFIER_error"} {
		if slices.Contains(out, fn) {
			continue
		}
		if i, ok := prog.FuncIdx[fn]; ok && !prog.Funcs[i].External {
			out = append(out, fn)
		}
	}
	return out
}

// allocates reports whether prog calls an allocation function (malloc,
// calloc, realloc, ...): the platform functions that make heap blocks.
func allocates(prog *ir.Program) bool {
	for _, f := range prog.Funcs {
		if !f.External {
			continue
		}
		switch f.Name {
		case "malloc", "calloc", "realloc", "reallocarray", "aligned_alloc", "memalign", "posix_memalign", "valloc", "strdup", "strndup":
			return true
		}
	}
	return false
}

// Machine prepares prog for the goal's engines: with its overflow
// semantics (WrapOverflow, applied to prog itself, so that an engine
// reading prog, absint, sees the same program) and its leak checks.
func (g *Goal) Machine(prog *ir.Program) *vm.Machine {
	if g.WrapOverflow {
		prog.WrapOverflow()
	}
	m := vm.NewMachine(prog)
	m.Leaks = g.Leaks
	return m
}

// Classify says whether st, the last state of a witness on machine m,
// violates the goal's property (satisfies Focus), and which
// (sub)property: the verdict FALSE(sub).
func (g *Goal) Classify(m *vm.Machine, st *vm.State) (sub string, ok bool, err error) {
	q, err := query.Parse("E<> " + g.Focus)
	if err != nil {
		return "", false, fmt.Errorf("property %s: %w", g.Prop.Kind, err)
	}
	c, err := query.Compile(q, m)
	if err != nil {
		return "", false, fmt.Errorf("property %s: %w", g.Prop.Kind, err)
	}
	if !c.Prop(st) {
		return "", false, nil
	}
	if g.Prop.Kind == NoDataRace {
		// DataRace also holds where one of the two accesses is inside an
		// atomic section (__VERIFIER_atomic_begin, __VERIFIER_atomic_*),
		// while the other process cannot step until it ends. Whether that
		// is a race is read differently by tools; Wyvern claims only races
		// no atomic section is involved in.
		for _, t := range st.Threads {
			if t.Atomic > 0 {
				return "", false, nil
			}
		}
	}
	if g.Prop.Kind == ValidMemsafety && st.Err != nil {
		switch {
		case slices.Contains(freeKinds, st.Err.Kind):
			return "valid-free", true, nil
		case st.Err.Kind == vm.ErrMemLeak:
			return "valid-memtrack", true, nil
		}
		return "valid-deref", true, nil
	}
	return g.Prop.Kind.String(), true, nil
}
