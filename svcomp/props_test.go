package svcomp

import (
	"strings"
	"testing"

	"github.com/wyvernmc/wyvern/internal/testutil"
	"github.com/wyvernmc/wyvern/ir"
	"github.com/wyvernmc/wyvern/query"
)

// TestGoalOf: each property maps to propositions that parse and compile
// on the program (BMC's to targets BMC accepts), TRUE is allowed exactly
// where the property is checked in full, and the error function is
// watched as a call only when the program defines it. Overflow wraps
// around for every property but no-overflow (and termination, below), in
// the machine Machine makes and in the program itself (absint reads it).
func TestGoalOf(t *testing.T) {
	for _, tc := range []struct {
		file, prop string
		why        bool   // no engine runs
		provable   bool   // TRUE may be claimed
		focus      string // a part Focus must contain
		bmc        bool   // BMC has a query
		bmcNoProof bool   // BMC's proof is no TRUE (leaks unchecked)
		wrap       bool   // overflow wraps around
	}{
		{file: "lost_update.c", prop: "unreach-call", provable: true, focus: "Exists (p)([p.reach_error])", bmc: true, wrap: true},
		{file: "rare_input.c", prop: "unreach-call", provable: true, focus: "Error(VerifierError)", bmc: true, wrap: true},
		{file: "race.c", prop: "no-data-race", provable: true, focus: "DataRace", bmc: true, wrap: true},
		{file: "null_deref.c", prop: "valid-memsafety", provable: true, focus: "Error(MemLeak)", bmc: true, bmcNoProof: true, wrap: true},
		{file: "mutex_safe.c", prop: "valid-memsafety", provable: true, focus: "Error(DoubleFree)", bmc: true, wrap: true},
		{file: "null_deref.c", prop: "valid-memcleanup", provable: true, focus: "Error(MemCleanup)", wrap: true},
		{file: "assume_abort.c", prop: "no-overflow", provable: true, focus: "Error(Overflow)", bmc: true},
		{file: "overflow_then_error.c", prop: "no-overflow", provable: true, focus: "Error(Overflow)", bmc: true},
		{file: "overflow_then_error.c", prop: "unreach-call", provable: true, focus: "Exists (p)([p.reach_error])", bmc: true, wrap: true},
	} {
		t.Run(tc.file+"/"+tc.prop, func(t *testing.T) {
			prog := loadFresh(t, "testdata/"+tc.file) // (Machine may change it)
			p, err := ReadProperty("testdata/properties/" + tc.prop + ".prp")
			if err != nil {
				t.Fatal(err)
			}
			g := GoalOf(p, prog)
			if (g.Why != "") != tc.why {
				t.Fatalf("Why = %q", g.Why)
			}
			if tc.why {
				return
			}
			if g.Provable != tc.provable || !strings.Contains(g.Focus, tc.focus) || !strings.Contains(g.Primary, "!Error(Abort)") {
				t.Errorf("goal %+v", g)
			}
			if strings.Contains(g.Focus, "Error(Abort)") {
				t.Errorf("abort() is a violation: %q", g.Focus)
			}
			if (g.BMCNoProof != "") != tc.bmcNoProof {
				t.Errorf("BMCNoProof %q", g.BMCNoProof)
			}
			if g.WrapOverflow != tc.wrap {
				t.Errorf("WrapOverflow %v, want %v", g.WrapOverflow, tc.wrap)
			}
			m := g.Machine(prog)
			if m.Prog.WrapsOverflow != tc.wrap || prog.WrapsOverflow != tc.wrap {
				t.Errorf("the machine's program wraps %v, the program %v; want %v", m.Prog.WrapsOverflow, prog.WrapsOverflow, tc.wrap)
			}
			for _, prop := range []string{g.Primary, g.Focus} {
				q, err := query.Parse("E<> " + prop)
				if err == nil {
					_, err = query.Compile(q, m)
				}
				if err != nil {
					t.Errorf("E<> %s: %v", prop, err)
				}
			}
			for _, prop := range []string{g.BMCPrimary, g.BMCFocus} {
				if prop == "" {
					continue
				}
				q, err := query.Parse("E<> " + prop)
				if err == nil {
					_, err = query.BMCTarget(q)
				}
				if err != nil {
					t.Errorf("BMC E<> %s: %v", prop, err)
				}
			}
			if (g.BMCPrimary != "") != tc.bmc {
				t.Errorf("BMCPrimary %q", g.BMCPrimary)
			}
		})
	}
}

// TestGoalOfTermination: termination keeps overflow an error state (its
// engine reads an overflow as the end of a run, never as a cycle).
func TestGoalOfTermination(t *testing.T) {
	prog := loadFresh(t, "testdata/reset_loop.c")
	p, err := ReadProperty("testdata/properties/termination.prp")
	if err != nil {
		t.Fatal(err)
	}
	if g := GoalOf(p, prog); g.WrapOverflow || g.Machine(prog).Prog.WrapsOverflow {
		t.Errorf("termination: overflow wraps")
	}
}

// loadFresh loads a program of its own (testutil.Program shares one per
// path, which Goal.Machine may change).
func loadFresh(t *testing.T, path string) *ir.Program {
	t.Helper()
	testutil.NeedClang(t)
	p, err := ir.Load(path, ir.Options{})
	if err != nil {
		t.Fatalf("load %s: %v", path, err)
	}
	return p
}
