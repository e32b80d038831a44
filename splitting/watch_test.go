package splitting

import (
	"context"
	"math"
	"reflect"
	"testing"

	"github.com/wyvernmc/wyvern/query"
	"github.com/wyvernmc/wyvern/vm"
)

// TestSplitWatch checks that showing the score only the states where
// something it reads can have changed (query.Compiled.SplitWatch) gives the
// estimate of showing it every state, segment for segment, for fixed and
// adaptive splitting over levels and scores that read processes' control
// states only (the case where states are skipped).
func TestSplitWatch(t *testing.T) {
	for _, text := range []string{
		"Pr[<=3000](<> [1.crit] && [2.crit]) {Split=fixed, Levels=[[1.crit] || [2.crit]], N=100, M=3}",
		"Pr[<=3000](<> [1.crit] && [2.crit]) {Split=adaptive, Score=[1.crit] + [2.crit], N=100, K=10, M=3}",
	} {
		t.Run(text, func(t *testing.T) {
			q, s, ex := setup(t, "../testdata/smc/petersonsBug.c", text, 11)
			c, err := ex.Compile()
			if err != nil {
				t.Fatal(err)
			}
			if c.SplitWatch.All || c.SplitWatch.Procs != 0 || c.SplitWatch.Calls != 6 {
				t.Fatalf("watch %+v, want the next calls of processes 1 and 2", c.SplitWatch)
			}
			// Segment for segment: the same steps, maxima, records (with
			// their steps and states) and crossings.
			all, err := ex.Compile()
			if err != nil {
				t.Fatal(err)
			}
			all.SplitWatch = vm.Watch{All: true}
			rw, err := NewRunner(c)
			if err != nil {
				t.Fatal(err)
			}
			ra, err := NewRunner(all)
			if err != nil {
				t.Fatal(err)
			}
			b := &Batch{Starts: []Start{InitialStart}}
			for i := 0; i < 300; i++ {
				task := Task{Replica: i, Stop: math.MaxInt64, Record: true, Cap: math.MaxInt64}
				sw, err := rw.Run(11, b, task)
				if err != nil {
					t.Fatal(err)
				}
				sa, err := ra.Run(11, b, task)
				if err != nil {
					t.Fatal(err)
				}
				sw.Nanos, sa.Nanos = 0, 0
				if !reflect.DeepEqual(sw, sa) {
					t.Fatalf("replica %d: watched %+v, every state %+v", i, sw, sa)
				}
			}
			watched, err := Estimate(context.Background(), q, s, ex, 11, 2, nil)
			if err != nil {
				t.Fatal(err)
			}
			compile := ex.Compile
			ex.Compile = func() (*query.Compiled, error) {
				c, err := compile()
				if c != nil {
					c.SplitWatch = vm.Watch{All: true}
				}
				return c, err
			}
			every, err := Estimate(context.Background(), q, s, ex, 11, 2, nil)
			if err != nil {
				t.Fatal(err)
			}
			if watched.Estimate != every.Estimate || watched.Segments != every.Segments || watched.Lo != every.Lo || watched.Hi != every.Hi {
				t.Fatalf("watched: %g [%g, %g] in %d segments; every state: %g [%g, %g] in %d segments",
					watched.Estimate, watched.Lo, watched.Hi, watched.Segments, every.Estimate, every.Lo, every.Hi, every.Segments)
			}
			if watched.Estimate == 0 {
				t.Fatalf("estimate 0: the case tests little")
			}
			t.Logf("%g in %d segments", watched.Estimate, watched.Segments)
		})
	}
}
