package splitting

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/wyvernmc/wyvern/vm"
)

// replica is an adaptive replica: its records are the states where its
// running maximum rose (scores strictly increasing), from which clones
// branch.
type replica struct {
	recs []Record
	max  int64
	sat  bool
}

// runAdaptive is one replication of generalised adaptive multilevel
// splitting (Bréhier, Gazeau, Goudenège, Lelièvre, Rousset 2016), which
// stays unbiased with discrete scores: each iteration the level Z is the
// K-th smallest running maximum; every replica whose maximum is <= Z is
// killed (ties included, so more than K may die); each is replaced by a
// clone of a survivor chosen uniformly, branching at the survivor's first
// state with score > Z and continuing with fresh randomness. The algorithm
// stops when Z reaches Max (by default: the property); the estimate is
// prod(1 - killed/N) times the fraction of final replicas satisfying the
// property. All replicas killed is extinction (estimate 0); exceeding the
// iteration cap is an error, never a partial estimate.
func runAdaptive(ctx context.Context, ex Executor, s *Spec, seed uint64, rep int) (*Replication, error) {
	n := s.N
	out := &Replication{Estimate: 1, Extinct: -1, MaxSeen: math.MinInt64}
	b := &Batch{Rep: rep, Stage: 0, Starts: []Start{InitialStart}}
	for j := 0; j < n; j++ {
		b.Tasks = append(b.Tasks, Task{Replica: j, Start: 0, Stop: Sat, Record: true, Cap: s.Max})
	}
	segs, err := ex.Run(ctx, b)
	if err != nil {
		return nil, err
	}
	if len(segs) != n {
		return nil, fmt.Errorf("replication %d: %d results for %d replicas", rep, len(segs), n)
	}
	reps := make([]replica, n)
	for i := range segs {
		out.add(&segs[i])
		reps[i] = replica{recs: segs[i].Records, max: segs[i].Max, sat: segs[i].Sat}
	}
	maxes := make([]int64, n)
	for i := range reps {
		maxes[i] = reps[i].max
	}
	slices.Sort(maxes)
	if z1 := maxes[s.K-1]; z1 < s.Max {
		for i := range segs {
			if segs[i].Sat && segs[i].PreSat <= z1 {
				out.SatBelow++ // reached the property from a score where the first level stalls
			}
		}
	}
	for q := 1; ; q++ {
		for i := range reps {
			maxes[i] = reps[i].max
		}
		slices.Sort(maxes)
		z := maxes[s.K-1]
		if z >= s.Max {
			break
		}
		if q > s.MaxIter {
			return nil, fmt.Errorf("replication %d: adaptive splitting did not reach %s within MaxIter = %d iterations (level at score %d); raise MaxIter or K", rep, levelName(s.Max), s.MaxIter, z)
		}
		var killed, survivors []int
		for i := range reps {
			if reps[i].max <= z {
				killed = append(killed, i)
			} else {
				survivors = append(survivors, i)
			}
		}
		lc := LevelCount{Level: z, Runs: n, Crossed: len(survivors)}
		if len(survivors) == 0 {
			out.Levels = append(out.Levels, lc)
			out.Extinct, out.Estimate = len(out.Levels)-1, 0
			return out, nil
		}
		out.Estimate *= float64(len(survivors)) / float64(n)
		// Survivors' records at or below z can never be branching points
		// again (levels only rise): drop them.
		for _, i := range survivors {
			r := &reps[i]
			k := 0
			for k < len(r.recs) && r.recs[k].Score <= z {
				k++
			}
			r.recs = r.recs[k:]
		}
		rng := vm.NewRand(SegmentSeed(seed, rep, q)^0xc10e, 0)
		b := &Batch{Rep: rep, Stage: q}
		type origin struct{ rep, rec int }
		startOf := map[origin]int{}
		prefix := map[int]Record{}
		for _, i := range killed {
			sv := survivors[rng.Choose(uint64(len(survivors)))]
			r := &reps[sv]
			if len(r.recs) == 0 { // the survivor's first state above z satisfies the property
				reps[i] = replica{max: Sat, sat: true}
				continue
			}
			o := origin{sv, 0}
			si, ok := startOf[o]
			if !ok {
				rec := r.recs[0]
				si = len(b.Starts)
				startOf[o] = si
				b.Starts = append(b.Starts, Start{Snap: rec.Snap, Stage: rec.Stage, Max: rec.Score})
			}
			prefix[i] = r.recs[0]
			b.Tasks = append(b.Tasks, Task{Replica: i, Start: si, Stop: Sat, Record: true, Cap: s.Max})
		}
		if len(b.Tasks) > 0 {
			segs, err := ex.Run(ctx, b)
			if err != nil {
				return nil, err
			}
			if len(segs) != len(b.Tasks) {
				return nil, fmt.Errorf("replication %d iteration %d: %d results for %d clones", rep, q, len(segs), len(b.Tasks))
			}
			for k := range segs {
				sg := &segs[k]
				out.add(sg)
				lc.Nanos += sg.Nanos
				i := b.Tasks[k].Replica
				p := prefix[i]
				reps[i] = replica{recs: append([]Record{p}, sg.Records...), max: max(p.Score, sg.Max), sat: sg.Sat}
			}
		}
		out.Levels = append(out.Levels, lc)
	}
	nsat := 0
	for i := range reps {
		if reps[i].sat {
			nsat++
		}
	}
	out.Levels = append(out.Levels, LevelCount{Level: Sat, Runs: n, Crossed: nsat})
	out.Estimate *= float64(nsat) / float64(n)
	if nsat == 0 {
		out.Extinct = len(out.Levels) - 1
	}
	return out, nil
}
