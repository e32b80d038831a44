package jobs

import (
	"encoding/json"
	"strings"
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

// TestFingerprints: packed fingerprints survive a JSON round trip in order,
// take 16 bytes each (base64 on the wire), and a payload cut inside one is
// named as such.
func TestFingerprints(t *testing.T) {
	hs := [][2]uint64{{0, 0}, {1, ^uint64(0)}, {0x0123456789abcdef, 0xfedcba9876543210}}
	var f Fingerprints
	for _, h := range hs {
		f = f.Append(h)
	}
	if f.Len() != len(hs) || len(f) != len(hs)*FingerprintSize || f.Check() != "" {
		t.Fatalf("packed %d fingerprints into %d bytes (Len %d, Check %q)", len(hs), len(f), f.Len(), f.Check())
	}
	b, err := json.Marshal(TraceOutcomes{States: f})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"states":"`) {
		t.Errorf("fingerprints are not a base64 string on the wire: %s", b)
	}
	var back TraceOutcomes
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	for i, h := range hs {
		if got := back.States.At(i); got != h {
			t.Errorf("fingerprint %d: %#x after the round trip, want %#x", i, got, h)
		}
	}
	for _, n := range []int{1, 15, 17, 47} {
		if Fingerprints(make([]byte, n)).Check() == "" {
			t.Errorf("%d bytes pass as whole fingerprints", n)
		}
	}
}
