package svcomp

import (
	"testing"

	"github.com/wyvernmc/wyvern/internal/testutil"
)

// TestTerminationGoal: termination is checked (by the termination kind),
// not refused.
func TestTerminationGoal(t *testing.T) {
	prog := testutil.Program(t, "testdata/assume_abort.c")
	p, err := ReadProperty("testdata/properties/termination.prp")
	if err != nil {
		t.Fatal(err)
	}
	if g := GoalOf(p, prog); g.Why != "" {
		t.Errorf("termination refused: %s", g.Why)
	}
}
