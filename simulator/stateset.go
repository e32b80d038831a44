package simulator

import (
	"iter"

	"github.com/wyvernmc/wyvern/vm"
)

// StateSet is a set of state fingerprints (EnumStatesSMC's distinct states
// of a job): an open-addressing table with linear probing over a flat slice
// of fingerprints, indexed by their low bits (fingerprints are already
// uniform hashes), kept at most 3/4 full. An insert is a probe or two in one
// slice, where a Go map of 16-byte keys hashes the key again and walks
// groups; nothing in it is a pointer, so the garbage collector does not
// scan it. The zero fingerprint marks empty slots and is kept aside.
type StateSet struct {
	slots []vm.Hash128
	n     int
	zero  bool // the fingerprint {0, 0} is in the set
}

// Add puts h in the set and reports whether it was new.
func (s *StateSet) Add(h vm.Hash128) bool {
	if h == (vm.Hash128{}) {
		if s.zero {
			return false
		}
		s.zero = true
		s.n++
		return true
	}
	if 4*(s.n+1) > 3*len(s.slots) {
		s.grow()
	}
	mask := uint64(len(s.slots) - 1)
	for i := h[0] & mask; ; i = (i + 1) & mask {
		switch s.slots[i] {
		case h:
			return false
		case vm.Hash128{}:
			s.slots[i] = h
			s.n++
			return true
		}
	}
}

// Has reports whether h is in the set.
func (s *StateSet) Has(h vm.Hash128) bool {
	if h == (vm.Hash128{}) {
		return s.zero
	}
	if len(s.slots) == 0 {
		return false
	}
	mask := uint64(len(s.slots) - 1)
	for i := h[0] & mask; ; i = (i + 1) & mask {
		switch s.slots[i] {
		case h:
			return true
		case vm.Hash128{}:
			return false
		}
	}
}

func (s *StateSet) grow() {
	old := s.slots
	s.slots = make([]vm.Hash128, max(64, 2*len(old)))
	mask := uint64(len(s.slots) - 1)
	for _, h := range old {
		if h == (vm.Hash128{}) {
			continue
		}
		i := h[0] & mask
		for s.slots[i] != (vm.Hash128{}) {
			i = (i + 1) & mask
		}
		s.slots[i] = h
	}
}

// Len is the number of fingerprints in the set.
func (s *StateSet) Len() int { return s.n }

// Clear empties the set, keeping its table for the next job.
func (s *StateSet) Clear() {
	clear(s.slots)
	s.n, s.zero = 0, false
}

// All iterates over the set's fingerprints (in table order).
func (s *StateSet) All() iter.Seq[vm.Hash128] {
	return func(yield func(vm.Hash128) bool) {
		if s.zero && !yield(vm.Hash128{}) {
			return
		}
		for _, h := range s.slots {
			if h != (vm.Hash128{}) && !yield(h) {
				return
			}
		}
	}
}
