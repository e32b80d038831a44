package termination

import (
	"context"
	"fmt"
	"slices"
	"time"
	"unsafe"

	"github.com/wyvernmc/wyvern/ir"
	"github.com/wyvernmc/wyvern/trace"
	"github.com/wyvernmc/wyvern/vm"
)

// The lasso search is a depth-first search over the vm's states (its
// steps: one instruction of one process, as package explicit's) that keeps
// the states of the current path. A successor whose canonical encoding
// (vm.Machine.AppendKey, the identity explicit's visited sets use) is a
// state of the current path closes a cycle: the path to that state is a
// lasso's stem, the rest of the path and the closing step its cycle, and
// repeating the cycle is an infinite run (non-termination, FALSE).
//
// Choices: a step's choice with at most Options.MaxBranching outcomes
// (bool, char, a coin) is enumerated completely; a wider one (int, long)
// is sampled from a few values (0, 1, -1, the type's extremes, the
// program's constants: samples), which makes the search incomplete. A
// search that enumerated every choice, hit no limit and closed no cycle
// has explored a finite, acyclic state graph: every run ends (TRUE).

// searchStats is what a lasso search did.
type searchStats struct {
	states   int64
	maxDepth int
	sampled  bool   // a wide choice was sampled: no proof
	limit    string // the limit that ended the search ("" if none)
	lasso    *Lasso
	recur    *Lasso // a state of a loop's recurrent set reached (recur.go)
	threads  bool   // a state had more than one process
	// unfair counts the cycles passed over because a process enabled on
	// them never steps (fairCycle): no lasso, and no proof either.
	unfair int
	// undefined is the error kind of a run that ended in undefined
	// behaviour ("" if none): no proof by the search.
	undefined string
}

// frame is a state of the current path with its successor iterator.
type frame struct {
	st  *vm.State // nil once every successor has been generated
	key string
	en  []int32
	ti  int // index in en of the process being stepped
	ch  enumChooser
	// step is the step that led here from the previous frame.
	step trace.Step
	// fresh: the chooser has not started on en[ti] yet.
	fresh bool
}

// enumChooser enumerates the outcomes of the choices one step makes,
// depth-first, as explicit's scripted chooser does, but samples the
// choices too wide to enumerate.
type enumChooser struct {
	picks   []pick
	pos     int
	m       *vm.Machine
	st      *vm.State
	t       *vm.Thread
	max     uint64
	samples *sampleSet
	sampled bool
}

type pick struct {
	draws []uint64
	idx   int
}

func (c *enumChooser) start(m *vm.Machine, st *vm.State, t *vm.Thread, max uint64, s *sampleSet) {
	c.picks, c.pos, c.m, c.st, c.t, c.max, c.samples = c.picks[:0], 0, m, st, t, max, s
}

// Choose implements vm.Chooser.
func (c *enumChooser) Choose(n uint64) uint64 {
	if c.pos < len(c.picks) {
		p := &c.picks[c.pos]
		c.pos++
		return p.draws[p.idx]
	}
	var ch vm.Choice
	ok := false
	if c.pos == 0 {
		// (the step has not run yet when it makes its first choice: the
		// state before it announces the choice)
		ch, ok = c.m.NextDraw(c.st, c.t, vm.Behaviours{})
	}
	if !ok || ch.Range() != n {
		ch = vm.UniformDraw(n)
	}
	var draws []uint64
	if k := ch.Outcomes(); ch.Kind == vm.Coin || (k != 0 && k <= c.max) {
		for i := uint64(0); i < k; i++ {
			d, _ := ch.Outcome(i)
			draws = append(draws, d)
		}
	} else {
		c.sampled = true
		for _, v := range c.samples.values(ch) {
			if d, ok := ch.DrawFor(v); ok && !slices.Contains(draws, d) {
				draws = append(draws, d)
			}
		}
		if len(draws) == 0 {
			draws = []uint64{0}
		}
	}
	c.picks = append(c.picks, pick{draws: draws})
	c.pos++
	return draws[0]
}

// values returns the choices made by the last execution of the step.
func (c *enumChooser) values() []uint64 {
	c.picks = c.picks[:c.pos]
	if len(c.picks) == 0 {
		return nil
	}
	out := make([]uint64, len(c.picks))
	for i := range c.picks {
		out[i] = c.picks[i].draws[c.picks[i].idx]
	}
	return out
}

// next moves to the next combination of outcomes; false when exhausted.
func (c *enumChooser) next() bool {
	for len(c.picks) > 0 {
		last := &c.picks[len(c.picks)-1]
		last.idx++
		if last.idx < len(last.draws) {
			c.pos = 0
			return true
		}
		c.picks = c.picks[:len(c.picks)-1]
	}
	return false
}

// sampleSet holds the values a wide choice is sampled from.
type sampleSet struct {
	consts []uint64 // the program's small integer constants and their neighbours
	extra  []uint64 // values asked for (recurrent sets' parameters)
}

// newSampleSet collects the samples of prog: the integer constants its
// functions compare with (at most maxConsts, smallest magnitude first),
// with extra values first.
func newSampleSet(prog *ir.Program, extra []uint64) *sampleSet {
	seen := map[uint64]bool{}
	var cs []uint64
	for _, f := range prog.Funcs {
		for _, in := range f.Code {
			switch in.Op {
			case ir.OpEq, ir.OpNe, ir.OpUlt, ir.OpUle, ir.OpUgt, ir.OpUge, ir.OpSlt, ir.OpSle, ir.OpSgt, ir.OpSge:
			default:
				continue
			}
			for _, s := range []int32{in.A, in.B} {
				k := s - f.ConstBase
				if s < f.ConstBase || int(k) >= len(f.Consts) {
					continue
				}
				v := ir.Mask(in.W) & f.Consts[k]
				sv := uint64(sx(v, in.W))
				for _, x := range []uint64{sv, sv + 1, sv - 1} {
					if !seen[x] {
						seen[x] = true
						cs = append(cs, x)
					}
				}
			}
		}
	}
	slices.SortFunc(cs, func(a, b uint64) int { return cmpMag(a) - cmpMag(b) })
	if len(cs) > maxConsts {
		cs = cs[:maxConsts]
	}
	return &sampleSet{consts: cs, extra: extra}
}

const maxConsts = 6

func cmpMag(v uint64) int {
	x := int64(v)
	if x < 0 {
		x = -x
	}
	if x > 1<<20 || x < 0 {
		return 1 << 20
	}
	return int(x)
}

// sx sign-extends the low w bits of v.
func sx(v uint64, w uint8) int64 {
	if w == 0 || w >= 64 {
		return int64(v)
	}
	s := 64 - uint(w)
	return int64(v<<s) >> s
}

// values are the samples for choice ch, as results of the call (masked to
// its width where the choice is of bits).
func (s *sampleSet) values(ch vm.Choice) []uint64 {
	w := 64
	if ch.Kind == vm.Bits {
		w = ch.Width()
	}
	mask := ir.Mask(uint8(w))
	smax := mask >> 1
	base := []uint64{0, 1, mask, 2, smax, smax + 1, 5, mask - 1}
	var out []uint64
	add := func(v uint64) {
		v &= mask
		if !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	for _, v := range s.extra {
		add(v)
	}
	for _, v := range base {
		add(v)
	}
	for _, v := range s.consts {
		add(v)
	}
	return out
}

// lassoSearchWatch runs the depth-first search from the initial state;
// watch, if set, is shown every new running state and ends the search when
// the state lies in one of its recurrent sets.
func lassoSearchWatch(ctx context.Context, m *vm.Machine, opts *Options, samples *sampleSet, watch *recurWatch) (*searchStats, error) {
	start := time.Now()
	res := &searchStats{}
	onPath := map[string]int{} // key → index in the path
	done := map[string]bool{}  // states whose successors are all explored without a cycle
	var key []uint64
	keyOf := func(st *vm.State) string {
		key = m.AppendKey(key[:0], st)
		return unsafe.String((*byte)(unsafe.Pointer(unsafe.SliceData(key))), len(key)*8)
	}
	s0 := m.NewState()
	en := m.Settle(s0, nil)
	k0 := keyOf(s0)
	k0 = string([]byte(k0))
	path := []*frame{{st: s0, key: k0, en: slices.Clone(en), fresh: true}}
	onPath[k0] = 0
	res.states = 1
	maxBranch := opts.maxBranching()
	for n := 0; len(path) > 0; n++ {
		if n&1023 == 0 {
			if err := ctx.Err(); err != nil {
				return res, err
			}
			if opts.MaxTime > 0 && time.Since(start) > opts.MaxTime {
				res.limit = fmt.Sprintf("time limit of %s reached", opts.MaxTime)
				return res, nil
			}
		}
		f := path[len(path)-1]
		if len(f.en) > 1 {
			res.threads = true
		}
		// the next successor of f, if any
		var succ *vm.State
		var step trace.Step
		for f.st != nil && f.st.Status == vm.Running && f.ti < len(f.en) {
			tid := f.en[f.ti]
			if f.fresh {
				f.ch.start(m, f.st, f.st.Threads[tid], maxBranch, samples)
				f.fresh = false
			} else if !f.ch.next() {
				f.ti++
				f.fresh = true
				continue
			}
			f.ch.pos = 0
			succ = f.st.Clone()
			if !m.StepOnly(succ, tid, &f.ch) {
				return res, fmt.Errorf("termination: internal error: process %d of an expanded state cannot step", tid)
			}
			if f.ch.sampled {
				res.sampled = true
			}
			step = trace.Step{Thread: tid, Choices: f.ch.values()}
			m.Settle(succ, nil)
			break
		}
		if succ == nil {
			// every successor explored: leave the path
			delete(onPath, f.key)
			done[f.key] = true
			path = path[:len(path)-1]
			continue
		}
		k := keyOf(succ)
		if i, ok := onPath[k]; ok {
			if !fairCycle(path[i:], step) {
				res.unfair++
				continue
			}
			res.lasso = lassoOf(path, i, step)
			return res, nil
		}
		if done[k] {
			continue
		}
		k = string([]byte(k))
		res.states++
		if opts.MaxStates > 0 && res.states > opts.MaxStates {
			res.limit = fmt.Sprintf("state limit of %d reached", opts.MaxStates)
			return res, nil
		}
		if succ.Status != vm.Running {
			if succ.Status == vm.Failed && succ.Err != nil && (succ.Err.Kind == vm.ErrStackOverflow || succ.Err.Kind == vm.ErrResourceLimit) {
				// The machine's limits end such a run, not the program:
				// it may go on forever on a real machine of any size.
				res.limit = "a run ends at the machine's limit (" + succ.Err.Kind.String() + "), which is no termination"
			} else if succ.Status == vm.Failed && succ.Err != nil && succ.Err.Kind != vm.ErrAbort && succ.Err.Kind != vm.ErrAssertFail &&
				succ.Err.Kind != vm.ErrReachError && succ.Err.Kind != vm.ErrVerifierErr && res.undefined == "" {
				// The vm stops at undefined behaviour; C does not: what
				// the program does after it is not known, so a run
				// through it proves no termination.
				res.undefined = succ.Err.Kind.String()
			}
			done[k] = true
			continue
		}
		if opts.MaxDepth > 0 && len(path) >= opts.MaxDepth {
			res.limit = fmt.Sprintf("depth limit of %d reached", opts.MaxDepth)
			// (the path's states past the limit are not explored: the
			// search goes on elsewhere, but proves nothing)
			continue
		}
		if watch != nil {
			if r := watch.check(ctx, succ); r != nil {
				r.Stem = append(stepsOf(path), step)
				res.recur = r
				return res, nil
			}
		}
		nf := &frame{st: succ, key: k, en: m.EnabledThreads(succ, nil), step: step, fresh: true}
		// A state with one process whose next step chooses nothing has
		// one successor: the parent need not keep its state.
		if len(f.en) == 1 && f.ti == 0 && len(f.ch.picks) == 0 {
			f.st = nil
		}
		onPath[k] = len(path)
		path = append(path, nf)
		res.maxDepth = max(res.maxDepth, len(path))
	}
	return res, nil
}

// fairCycle says whether the cycle through the states of path (its first
// state repeated after the path's steps and the closing step) is a fair
// run when repeated forever: every process enabled in any of its states
// steps in it. A cycle that starves an enabled process is a run only an
// unfair scheduler takes, and SV-COMP's termination of threaded programs
// (pthread-atomic/gcd-2: one thread spins while the other could end the
// loop) assumes fair scheduling. Asking this of every process enabled
// anywhere on the cycle (strong fairness) rejects more cycles than weak
// fairness would: a lasso may be missed, never claimed wrongly.
func fairCycle(path []*frame, closing trace.Step) bool {
	stepped := map[int32]bool{closing.Thread: true}
	for _, f := range path[1:] {
		stepped[f.step.Thread] = true
	}
	for _, f := range path {
		for _, tid := range f.en {
			if !stepped[tid] {
				return false
			}
		}
	}
	return true
}

// stepsOf returns the steps of the path.
func stepsOf(path []*frame) []trace.Step {
	var out []trace.Step
	for _, f := range path[1:] {
		out = append(out, f.step)
	}
	return out
}

// lassoOf builds the lasso whose cycle starts at path[i] and closes with
// step from the path's last state.
func lassoOf(path []*frame, i int, step trace.Step) *Lasso {
	l := &Lasso{Kind: LassoCycle}
	for _, f := range path[1 : i+1] {
		l.Stem = append(l.Stem, f.step)
	}
	for _, f := range path[i+1:] {
		l.Cycle = append(l.Cycle, f.step)
	}
	l.Cycle = append(l.Cycle, step)
	return l
}

// checkLasso replays a cycle lasso in the vm: the stem and the stem
// followed by the cycle must reach the same state, a running one.
func checkLasso(m *vm.Machine, l *Lasso) error {
	a, err := trace.ReplayFinal(m, l.Stem)
	if err != nil {
		return fmt.Errorf("the stem does not replay: %w", err)
	}
	if a.Status != vm.Running {
		return fmt.Errorf("the stem ends the run (%s)", a.Describe())
	}
	b, err := trace.ReplayFinal(m, append(slices.Clone(l.Stem), l.Cycle...))
	if err != nil {
		return fmt.Errorf("the cycle does not replay: %w", err)
	}
	if len(l.Cycle) == 0 || !slices.Equal(m.AppendKey(nil, a), m.AppendKey(nil, b)) {
		return fmt.Errorf("the cycle does not return to the state it starts from")
	}
	return nil
}
