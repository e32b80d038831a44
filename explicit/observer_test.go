package explicit

import (
	"slices"
	"strings"
	"testing"
)

// textObserver is the scan of the query text that localObserver replaced
// (it now reads what the compiled query records): kept here to show that
// both decide the same.
func textObserver(text string) string {
	if strings.Contains(text, "@") {
		return "registers (@i.f.%r)"
	}
	if strings.Contains(text, "::") {
		return "local variables (f::x)"
	}
	for _, w := range strings.FieldsFunc(text, func(r rune) bool {
		return !(r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
	}) {
		if w == "DivZero" || w == "OverFlows" {
			return w
		}
	}
	return ""
}

// TestLocalObserverFromReads: deciding from the compiled query's reads
// turns the reductions off for the same propositions, with the same note,
// as the scan of the query text did.
func TestLocalObserverFromReads(t *testing.T) {
	m := machine(t, "testdata/dice.c")
	f := m.Prog.Funcs[m.Prog.FuncIdx["main"]]
	var regs []string
	for r := range f.RegSlots {
		regs = append(regs, r)
	}
	slices.Sort(regs)
	if len(regs) == 0 {
		t.Fatal("main has no registers")
	}
	reg := "@0.main.%" + regs[0] + ";si32"
	for _, q := range []string{
		"E<> sum == 7",
		"E<> main::a == 6",
		"A[] !(main::a == 6 && sum > 3)",
		"E<> " + reg + " == 1",
		"E<> " + reg + " == 1 || main::b == 2",
		"E<> sum == 7 && main::a == 1 && DivZero",
		"E<> DivZero || OverFlows",
		"E<> OverFlows || DivZero",
		"A[] !OverFlows",
		"E<> Error(DivZero)",
		"E<> Error(NullDeref) || Error",
		"E<> Error(Overflow) || OverFlows",
		"E<> [0.main] || Deadlock || DataRace",
		"E<> [0.main:12] && sum == 2",
		"E<> Exists (p)([p.main] && sum > 1)",
		"E<> (sum + 1) * 2 > 3",
	} {
		c := compile(t, m, q)
		if got, want := localObserver(c.Reads), textObserver(q); got != want {
			t.Errorf("%s: localObserver says %q, the text scan %q (reads %s)", q, got, want, c.Reads.Set)
		}
	}
}
