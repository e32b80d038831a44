package splitting

import (
	"errors"
	"fmt"
	"math"
	"sync/atomic"
	"time"

	"github.com/wyvernmc/wyvern/jobs"
	"github.com/wyvernmc/wyvern/query"
	"github.com/wyvernmc/wyvern/vm"
)

// The segment types are the wire protocol's (package jobs).
type (
	Start   = jobs.SplitStart
	Task    = jobs.SplitTask
	Record  = jobs.SplitRecord
	Segment = jobs.Segment
)

// InitialStart is the program's initial state.
var InitialStart = Start{Max: math.MinInt64}

// Batch is a set of tasks of one replication and stage.
type Batch struct {
	Rep    int     `json:"rep"`
	Stage  int     `json:"stage"`
	Starts []Start `json:"starts"`
	Tasks  []Task  `json:"tasks"`
}

// SegmentSeed derives the seed of (replication, stage); the replica is the
// trace index under it.
func SegmentSeed(seed uint64, rep, stage int) uint64 {
	z := seed ^ 0x5851f42d4c957f2d
	z = vm.Mix64(z ^ uint64(rep)*0x9e3779b97f4a7c15)
	return vm.Mix64(z ^ uint64(stage+1)*0xd1b54a32d192ed03)
}

// Runner executes segments of one compiled query. Not safe for concurrent
// use: give each goroutine its own (query.Compiled is not either).
type Runner struct {
	c     *query.Compiled
	m     *vm.Machine
	st    *vm.State
	rng   vm.Rand
	stage int32
	// Interrupt, once true, stops the segment running within a slice of
	// steps (vm.State.Interrupt): its result is then not the segment's and
	// must be dropped. SegmentHandler sets it when the job's context ends.
	Interrupt atomic.Bool
}

// NewRunner returns a runner for a compiled Pr query with a score
// (Compiled.Score) or proposition levels (Compiled.Levels).
func NewRunner(c *query.Compiled) (*Runner, error) {
	if c.Prop == nil {
		return nil, errors.New("splitting needs a Pr[<=N](<> P) query")
	}
	if c.Score == nil && len(c.Levels) == 0 {
		return nil, errors.New("splitting needs a score expression or proposition levels")
	}
	r := &Runner{c: c, m: c.M}
	r.rng.SetBehaviours(c.Q.Behaviours())
	return r, nil
}

// score is the splitting score of st: Sat when the property holds, else
// the score expression (clamped below Sat) or the observer's stage, which
// first advances over every level proposition that holds, in order.
func (r *Runner) score(st *vm.State) int64 {
	c := r.c
	for int(r.stage) < len(c.Levels) && c.Levels[r.stage](st) {
		r.stage++
	}
	if c.Prop(st) {
		return Sat
	}
	if c.Score != nil {
		return min(c.Score(st), Sat-1)
	}
	return int64(r.stage)
}

// Run executes task t of batch b under seed.
func (r *Runner) Run(seed uint64, b *Batch, t Task) (Segment, error) {
	t0 := time.Now()
	m, q := r.m, r.c.Q
	if t.Start < 0 || t.Start >= len(b.Starts) {
		return Segment{}, fmt.Errorf("task %d: start %d of %d", t.Replica, t.Start, len(b.Starts))
	}
	start := &b.Starts[t.Start]
	if start.Snap == nil && start.Max != InitialStart.Max {
		return Segment{}, fmt.Errorf("replication %d stage %d replica %d: start %d is a level crossing without its state", b.Rep, b.Stage, t.Replica, t.Start)
	}
	if r.st == nil {
		r.st = m.NewState()
	}
	if start.Snap == nil {
		m.Reset(r.st)
	} else if err := m.RestoreInto(r.st, start.Snap); err != nil {
		return Segment{}, fmt.Errorf("replication %d stage %d replica %d: %w", b.Rep, b.Stage, t.Replica, err)
	}
	st := r.st
	st.Interrupt = &r.Interrupt
	r.stage = start.Stage
	r.rng.Reset(SegmentSeed(seed, b.Rep, b.Stage), uint64(t.Replica))
	seg := Segment{Replica: t.Replica, Max: start.Max}
	steps0 := st.Steps
	recording := t.Record
	// The initial state is never a branching point (every run starts
	// there, so no level lies below it): it is not recorded.
	first := start.Snap == nil
	last := int64(math.MinInt64) // the previous state's score
	see := func(st *vm.State) bool {
		x := r.score(st)
		if x < last && x != Sat {
			seg.Decreased = true
		}
		last = x
		if x == Sat && !seg.Sat {
			seg.PreSat = seg.Max // the highest score before the property held
		}
		if x > seg.Max {
			seg.Max = x
			if recording && x != Sat && !first {
				seg.Records = append(seg.Records, Record{Score: x, Stage: r.stage, Steps: st.Steps, Snap: m.Snapshot(st)})
				if x >= t.Cap {
					recording = false
				}
			}
		}
		if x >= t.Stop {
			seg.Crossed = true
			if !t.Record {
				rec := Record{Score: x, Stage: r.stage, Steps: st.Steps}
				// A crossing where the property already holds keeps its
				// state too: the next level's runs restart there and cross
				// at once (dropping it would restart them from the initial
				// state and bias the product low).
				if !t.NoSnap {
					rec.Snap = m.Snapshot(st)
				}
				seg.Records = append(seg.Records, rec)
			}
		}
		if x == Sat {
			seg.Sat = true
		}
		first = false
		return seg.Crossed
	}
	// The score is shown only the states where something it reads can
	// have changed: every state it skips has the score of the last one it
	// saw, so the segment (its maxima, records and crossings, with their
	// steps) is the one of showing it every state.
	m.ObserveWatch(st, q.Bound, &r.rng, r.c.SplitWatch, func(st *vm.State, _ *vm.Thread) bool { return see(st) })
	seg.Steps = st.Steps - steps0
	seg.End = jobs.End(st.Status)
	seg.Nanos = time.Since(t0).Nanoseconds()
	return seg, nil
}

// RunBatch executes every task of b in order.
func (r *Runner) RunBatch(seed uint64, b *Batch) ([]Segment, error) {
	out := make([]Segment, len(b.Tasks))
	for i, t := range b.Tasks {
		s, err := r.Run(seed, b, t)
		if err != nil {
			return nil, err
		}
		out[i] = s
	}
	return out, nil
}

// levelName prints a threshold.
func levelName(t int64) string {
	if t == Sat {
		return "property"
	}
	return fmt.Sprint(t)
}
