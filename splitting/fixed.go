package splitting

import (
	"context"
	"fmt"
	"math"

	"github.com/wyvernmc/wyvern/vm"
)

// runFixed is one replication of fixed-effort splitting: N runs per level;
// the runs of level k+1 restart from the states where runs of level k first
// crossed it, balanced (each state gets floor(N/R) runs, the remainder goes
// to a uniformly random subset chosen by the seeded generator). The last
// level is the property itself. The estimate is the product of the
// fractions R_k/N; a level no run crosses ends the replication with 0.
func runFixed(ctx context.Context, ex Executor, s *Spec, seed uint64, rep int) (*Replication, error) {
	starts := []Start{InitialStart}
	levels := append(append([]int64(nil), s.Thresholds...), Sat)
	out := &Replication{Estimate: 1, Extinct: -1, MaxSeen: math.MinInt64}
	for k, thr := range levels {
		counts := balance(s.N, len(starts), SegmentSeed(seed, rep, k)^0xba1a)
		b := &Batch{Rep: rep, Stage: k, Starts: starts}
		for i, c := range counts {
			for ; c > 0; c-- {
				b.Tasks = append(b.Tasks, Task{Replica: len(b.Tasks), Start: i, Stop: thr, NoSnap: k == len(levels)-1})
			}
		}
		segs, err := ex.Run(ctx, b)
		if err != nil {
			return nil, err
		}
		if len(segs) != len(b.Tasks) {
			return nil, fmt.Errorf("replication %d level %d: %d results for %d runs", rep, k, len(segs), len(b.Tasks))
		}
		lc := LevelCount{Level: thr, Runs: s.N}
		var next []Start
		for _, sg := range segs {
			out.add(&sg)
			lc.Nanos += sg.Nanos
			if sg.Crossed {
				if len(sg.Records) != 1 || (k < len(levels)-1 && sg.Records[0].Snap == nil) {
					return nil, fmt.Errorf("replication %d level %d replica %d: crossing without its state", rep, k, sg.Replica)
				}
				lc.Crossed++
				r := &sg.Records[0]
				if sg.Sat && k < len(levels)-1 && sg.PreSat < thr {
					out.SatBelow++
				}
				next = append(next, Start{Snap: r.Snap, Stage: r.Stage, Max: r.Score})
			}
		}
		out.Levels = append(out.Levels, lc)
		out.Estimate *= float64(lc.Crossed) / float64(s.N)
		if lc.Crossed == 0 {
			out.Extinct, out.Estimate = k, 0
			break
		}
		starts = next
	}
	return out, nil
}

// balance spreads n runs over r start states: floor(n/r) each, and one more
// for each of n mod r states chosen uniformly at random (a partial
// Fisher-Yates shuffle keyed by key).
func balance(n, r int, key uint64) []int {
	counts := make([]int, r)
	for i := range counts {
		counts[i] = n / r
	}
	rem := n % r
	if rem == 0 {
		return counts
	}
	perm := make([]int, r)
	for i := range perm {
		perm[i] = i
	}
	rng := vm.NewRand(key, 0)
	for i := 0; i < rem; i++ {
		j := i + int(rng.Choose(uint64(r-i)))
		perm[i], perm[j] = perm[j], perm[i]
		counts[perm[i]]++
	}
	return counts
}
