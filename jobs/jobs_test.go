package jobs

import (
	"testing"

	"github.com/wyvernmc/wyvern/vm"
)

// TestEndsMatchVMStatus: End's values are vm.Status's, so a run's status
// converts to its End by value (jobs.End(st.Status)).
func TestEndsMatchVMStatus(t *testing.T) {
	pairs := []struct {
		e End
		s vm.Status
	}{{EndProperty, vm.Running}, {EndExited, vm.Exited}, {EndDeadlock, vm.Deadlock},
		{EndAssumeFailed, vm.AssumeFailed}, {EndError, vm.Failed}, {EndStepBound, vm.StepBound}}
	if len(pairs) != len(Ends) {
		t.Fatalf("%d ends, %d checked", len(Ends), len(pairs))
	}
	for i, p := range pairs {
		if uint8(p.e) != uint8(p.s) || Ends[i] != p.e {
			t.Errorf("%s = %d, vm.%s = %d", p.e, p.e, p.s, p.s)
		}
		if i > 0 && p.e.String() != p.s.String() {
			t.Errorf("%s is named %q, vm calls it %q", p.e, p.e.String(), p.s.String())
		}
	}
}
