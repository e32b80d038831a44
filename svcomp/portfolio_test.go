package svcomp

import (
	"testing"
	"time"
)

// TestSimPaused: past its share of the time the simulation waits while a
// search runs, and runs again once none does.
func TestSimPaused(t *testing.T) {
	for _, tc := range []struct {
		name      string
		until     time.Duration // simUntil from now
		searching int32
		want      bool
	}{
		{"within its share", time.Minute, 2, false},
		{"past its share, searches running", -time.Second, 1, true},
		{"past its share, no search left", -time.Second, 0, false},
	} {
		r := &runner{simUntil: time.Now().Add(tc.until)}
		r.searching.Store(tc.searching)
		if got := r.simPaused(); got != tc.want {
			t.Errorf("%s: paused %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestBMCStages: a program without threads is one deepening job; a
// threaded one starts with the partial-order check (the only proof for
// threads, Complete so that its verdict is final), goes on with small
// round-robin bounds, and its last stage takes the time left.
func TestBMCStages(t *testing.T) {
	if st := bmcStages(false, false); len(st) != 1 || st[0].share != 1 || st[0].opts.Contexts != 0 || st[0].opts.Unwind != 0 {
		t.Errorf("no threads: %+v, want one deepening job", st)
	}
	var po [2]float64
	for i, bounded := range []bool{false, true} {
		st := bmcStages(true, bounded)
		if len(st) < 2 || !st[0].opts.Complete || st[0].opts.RoundsOnly || st[len(st)-1].share != 1 {
			t.Fatalf("threads (bounded %v): %+v", bounded, st)
		}
		for j, s := range st[:len(st)-1] {
			if s.share <= 0 || s.share >= 1 {
				t.Errorf("bounded %v: stage %d (%s): share %g, want in (0, 1)", bounded, j, s.name, s.share)
			}
		}
		po[i] = st[0].share
	}
	// static trip counts: the partial-order check gets more of the time
	if po[1] <= po[0] {
		t.Errorf("partial-order share %g with static trip counts, %g without: want more", po[1], po[0])
	}
}
