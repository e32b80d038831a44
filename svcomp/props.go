package svcomp

import (
	"fmt"
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
// it is an infeasible run, not a violation.
var (
	derefKinds = []vm.ErrKind{vm.ErrNullDeref, vm.ErrOutOfBounds, vm.ErrUseAfterFree, vm.ErrUseAfterReturn, vm.ErrInvalidPtr}
	freeKinds  = []vm.ErrKind{vm.ErrDoubleFree, vm.ErrInvalidFree}
	reachKinds = []vm.ErrKind{vm.ErrReachError, vm.ErrVerifierErr, vm.ErrAssertFail}
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
	// Provable: whether TRUE may be claimed at all (not for
	// valid-memsafety, whose valid-memtrack part Wyvern does not check,
	// unless the program allocates nothing).
	Provable bool
	// Note says what is approximated or left unchecked, for the report.
	Note string
}

func errorOr(kinds []vm.ErrKind) string {
	var parts []string
	for _, k := range kinds {
		parts = append(parts, "Error("+k.String()+")")
	}
	return strings.Join(parts, " || ")
}

// notAbort are every error kind but abort's.
func notAbort() []vm.ErrKind {
	var out []vm.ErrKind
	for _, name := range vm.ErrKindNames() {
		k, _ := vm.ErrKindByName(name)
		if k != vm.ErrAbort {
			out = append(out, k)
		}
	}
	return out
}

// GoalOf maps property p of program prog to the propositions the engines
// look for.
func GoalOf(p *Property, prog *ir.Program) *Goal {
	g := &Goal{Prop: p, Provable: true}
	anyError := "(Error && !Error(Abort))"
	all := errorOr(notAbort())
	switch p.Kind {
	case UnreachCall:
		g.Focus = errorOr(reachKinds)
		g.BMCFocus = g.Focus
	case NoDataRace:
		g.Focus = "DataRace"
	case ValidMemsafety:
		g.Focus = errorOr(append(append([]vm.ErrKind{}, derefKinds...), freeKinds...))
		g.BMCFocus = g.Focus
		if allocates(prog) {
			g.Provable = false
			g.Note = "valid-memtrack (memory leaks) is not checked: no TRUE for a program that allocates"
		} else {
			g.Note = "valid-memtrack holds trivially: the program calls no allocation function"
		}
	case NoOverflow:
		g.Focus = errorOr([]vm.ErrKind{vm.ErrOverflow})
		g.BMCFocus = g.Focus
	case Termination:
		g.Why = "termination is not checked (no bounded answer is sound)"
		return g
	case ValidMemcleanup:
		g.Why = "valid-memcleanup (memory freed at exit) is not checked"
		return g
	default:
		g.Why = fmt.Sprintf("property %s is not checked", p.Kind)
		return g
	}
	if p.Kind == NoDataRace {
		g.Primary = "DataRace || " + anyError
		// BMC accepts single-threaded programs only, where no race exists:
		// its proof that no error is reachable proves no-data-race.
		g.BMCPrimary = all
	} else {
		g.Primary = anyError
		g.BMCPrimary = all
	}
	return g
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

// Classify says whether st, the last state of a witness, violates the
// goal's property, and which (sub)property: the verdict FALSE(sub). race
// tells whether st has a data race (the DataRace proposition).
func (g *Goal) Classify(st *vm.State, race bool) (sub string, ok bool) {
	p := g.Prop
	if p.Kind == NoDataRace {
		return "no-data-race", race
	}
	if st.Status != vm.Failed || st.Err == nil {
		return "", false
	}
	k := st.Err.Kind
	switch p.Kind {
	case UnreachCall:
		switch k {
		case vm.ErrReachError, vm.ErrVerifierErr:
			return "unreach-call", true
		case vm.ErrAssertFail:
			// __assert_fail is the violation only where the error function
			// calls it (reach_error(){ __assert_fail(...); }), not an
			// assert() elsewhere.
			if st.Err.Func == p.Func || st.Err.Func == "reach_error" || st.Err.Func == "__VERIFIER_error" {
				return "unreach-call", true
			}
		}
	case ValidMemsafety:
		for _, d := range derefKinds {
			if k == d {
				return "valid-deref", true
			}
		}
		for _, f := range freeKinds {
			if k == f {
				return "valid-free", true
			}
		}
	case NoOverflow:
		if k == vm.ErrOverflow {
			return "no-overflow", true
		}
	}
	return "", false
}

// RaceProp compiles the DataRace proposition for m.
func RaceProp(m *vm.Machine) (func(*vm.State) bool, error) {
	q, err := query.Parse("E<> DataRace")
	if err != nil {
		return nil, err
	}
	c, err := query.Compile(q, m)
	if err != nil {
		return nil, err
	}
	return c.Prop, nil
}
