package simulator

import (
	"testing"

	"github.com/wyvernmc/wyvern/vm"
)

// TestStateSet: the set agrees with a Go map over inserts that grow the
// table many times, with fingerprints that collide in their low bits (long
// probe runs that wrap around the table's end), the zero fingerprint, and
// Clear followed by reuse.
func TestStateSet(t *testing.T) {
	var s StateSet
	for round := 0; round < 2; round++ {
		want := map[vm.Hash128]bool{}
		for i := uint64(0); i < 5000; i++ {
			cases := []vm.Hash128{
				{i * 0x9e3779b97f4a7c15, i},
				{i << 20, i ^ 1},          // equal low bits: one probe run
				{^uint64(0) - i%3, i % 3}, // the table's last slots, wrapping
				{0, i % 2},                // zero low lane; {0, 0} is the zero fingerprint
			}
			for _, h := range cases {
				if got, fresh := s.Add(h), !want[h]; got != fresh {
					t.Fatalf("round %d: Add(%x) = %v, want %v", round, h, got, fresh)
				}
				want[h] = true
			}
		}
		if s.Len() != len(want) {
			t.Fatalf("round %d: Len %d, want %d", round, s.Len(), len(want))
		}
		seen := 0
		for h := range s.All() {
			if !want[h] || !s.Has(h) {
				t.Fatalf("round %d: All yields %x, not added", round, h)
			}
			seen++
		}
		if seen != len(want) || s.Has(vm.Hash128{7, 7}) {
			t.Fatalf("round %d: All yields %d of %d, or Has finds what was not added", round, seen, len(want))
		}
		s.Clear()
		if s.Len() != 0 || s.Has(vm.Hash128{}) || s.Has(vm.Hash128{1, 0}) {
			t.Fatal("Clear left fingerprints in the set")
		}
	}
}
