package explicit

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/wyvernmc/wyvern/query"
	"github.com/wyvernmc/wyvern/vm"
)

// Exact probabilities. The semantics are the simulator's (vm.Machine.Observe,
// the one rule of which states a run observes), run by run:
//
//   - P is checked at s0 and before every step; a run stops at the first
//     state satisfying P (satisfaction absorbs);
//   - at each step the process is chosen uniformly among the enabled ones
//     (no draw when only one is enabled); the step's choices have their
//     exact probabilities (choose.go);
//   - a run ends when it exits, deadlocks, fails (error state), fails an
//     __VERIFIER_assume, or has taken N steps; the state it ends in is
//     checked too (after N steps with status step-bound). Runs ending
//     with a failed assume are ordinary runs: they count as satisfying
//     exactly when P holds at one of their states, as in the simulator.
//
// The computation propagates probability mass forward over (state, step):
// layer k maps each distinct state reachable in exactly k steps without
// satisfying P to the probability of reaching it so; equal states of a
// layer merge (the step counter is the layer, so states of different layers
// never do). Masses are float64 sums with Neumaier compensation.

// ExactResult is the outcome of Exact. It is JSON-serialisable.
type ExactResult struct {
	Query string `json:"query"`
	Bound uint64 `json:"bound"`
	// Probability that a run satisfies the property; when the computation
	// is incomplete, the lower bound (the mass found satisfying so far).
	Probability float64 `json:"probability"`
	Complete    bool    `json:"complete"`
	Reason      string  `json:"reason,omitempty"`
	// Lower and Upper bound the probability: equal up to rounding when
	// complete; when incomplete Upper adds the mass not yet decided.
	Lower float64 `json:"lower"`
	Upper float64 `json:"upper"`
	// Holds is the answer of a hypothesis query (Pr[..](<> P) >= θ or <= θ).
	Holds *bool `json:"holds,omitempty"`
	// Ends gives the probability of the runs that do not satisfy the
	// property, by how they end (exited, deadlock, error, assume-failed,
	// step-bound).
	Ends map[string]float64 `json:"ends"`
	// States counts distinct (state, step) pairs, Transitions the
	// successors generated; MaxLayer is the largest layer.
	States      int64   `json:"states"`
	Transitions int64   `json:"transitions"`
	MaxLayer    int     `json:"max_layer"`
	Steps       uint64  `json:"steps"` // layers processed
	Compact     bool    `json:"compact"`
	Omission    float64 `json:"omission_probability"`
	ElapsedSec  float64 `json:"elapsed_s"`
}

// kahan is a Neumaier-compensated sum.
type kahan struct{ sum, c float64 }

func (k *kahan) add(x float64) {
	t := k.sum + x
	if math.Abs(k.sum) >= math.Abs(x) {
		k.c += (k.sum - t) + x
	} else {
		k.c += (x - t) + k.sum
	}
	k.sum = t
}

func (k *kahan) value() float64 { return k.sum + k.c }

type layerEntry struct {
	st     *vm.State
	mass   kahan
	encOff uint32
	encLen uint32
	next   uint32
}

// layer is the distribution over states after k steps.
type layer struct {
	index map[vm.Hash128]uint32
	ents  []layerEntry
	enc   []uint64
	bytes int64
}

// indexEntryBytes estimates one entry of a layer's index (16-byte key,
// 4-byte value, padding, control bytes and the load factor of Go's swiss
// tables).
const indexEntryBytes = 40

func (l *layer) reset() {
	clear(l.index)
	clear(l.ents)
	l.ents = l.ents[:0]
	l.enc = l.enc[:0]
	l.bytes = 0
}

// Exact computes the probability of a Pr[<=N](<> P) query (or answers a
// hypothesis query with it) on a finite state space. Limits on states,
// memory and time end it with Complete false and bounds [Lower, Upper];
// cancellation also returns ctx's error. opts.Reduction and opts.Order are
// not used: the step bound counts single steps.
func Exact(ctx context.Context, c *query.Compiled, opts Options) (*ExactResult, error) {
	q := c.Q
	if q.Kind != query.Probability && q.Kind != query.Hypothesis {
		return nil, fmt.Errorf("explicit: exact probabilities are for Pr[<=N](<> P) queries, not %s queries", q.Kind)
	}
	if c.Prop == nil {
		return nil, fmt.Errorf("explicit: query %q has no compiled proposition", q.Text)
	}
	m := c.M
	start := time.Now()
	res := &ExactResult{Query: q.Text, Bound: q.Bound, Compact: opts.Compact, Ends: map[string]float64{}}
	g := newGen(m, None, opts.maxBranching(), opts.behaviours(q))
	maxBytes := opts.maxBytes()
	mem := newMemGuard(maxBytes)
	defer mem.stop()
	cur := &layer{index: map[vm.Hash128]uint32{}}
	next := &layer{index: map[vm.Hash128]uint32{}}
	var (
		sat     kahan
		ends    [vm.StepBound + 1]kahan
		key     []uint64
		en      []int32
		mass    float64
		stopped string
		kh      = newKeyHash()
	)
	s0 := m.NewState()
	s0.AllocateInBulk()
	m.Settle(s0, nil)
	key = m.AppendKey(key, s0)
	cur.ents = append(cur.ents, layerEntry{st: s0, mass: kahan{sum: 1}, encLen: uint32(len(key)), next: noRec})
	cur.enc = append(cur.enc, key...)
	res.States = 1
	settle := true
	add := func(st *vm.State, tid int32, choices []uint64, p float64) error {
		res.Transitions++
		x := mass * p
		key = m.AppendKey(key[:0], st)
		h := kh.sum(key)
		head, ok := next.index[h]
		if !ok {
			head = noRec
		}
		for r := head; r != noRec; r = next.ents[r].next {
			e := &next.ents[r]
			if opts.Compact || slices.Equal(next.enc[e.encOff:e.encOff+e.encLen], key) {
				e.mass.add(x)
				return nil
			}
		}
		ns := g.take() // st itself: no copy
		e := layerEntry{st: ns, mass: kahan{sum: x}, next: head}
		if !opts.Compact {
			e.encOff, e.encLen = uint32(len(next.enc)), uint32(len(key))
			next.enc = append(next.enc, key...)
		}
		next.index[h] = uint32(len(next.ents))
		next.ents = append(next.ents, e)
		next.bytes += stateBytes(st, len(key)) + indexEntryBytes + 64
		res.States++
		if opts.MaxStates > 0 && res.States >= opts.MaxStates {
			stopped = fmt.Sprintf("state limit of %d reached", opts.MaxStates)
			return errStop
		}
		if b := cur.bytes + next.bytes; b > maxBytes {
			stopped = fmt.Sprintf("memory limit of %d bytes reached (estimated %d bytes)", maxBytes, b)
			return errStop
		}
		if why := mem.over(); why != "" {
			stopped = why
			return errStop
		}
		return nil
	}
	nextCheck := start.Add(opts.progressEvery())
	var k uint64
	var err error
	n := 0
layers:
	for k = 0; ; k++ {
		res.MaxLayer = max(res.MaxLayer, len(cur.ents))
		settle = k+1 < q.Bound
		for i := range cur.ents {
			e := &cur.ents[i]
			w := e.mass.value()
			s := e.st
			e.st = nil
			if n++; n&255 == 0 {
				if err = ctx.Err(); err != nil {
					stopped = "cancelled: " + err.Error()
					break layers
				}
				now := time.Now()
				if opts.MaxTime > 0 && now.Sub(start) >= opts.MaxTime {
					stopped = fmt.Sprintf("time limit of %s reached", opts.MaxTime)
					break layers
				}
				if opts.Progress != nil && now.After(nextCheck) {
					el := now.Sub(start).Seconds()
					opts.Progress(Progress{States: res.States, Transitions: res.Transitions, Queue: len(cur.ents),
						Depth: int(k), Bytes: cur.bytes + next.bytes, ElapsedSec: el, StatesPerSec: float64(res.States) / el})
					nextCheck = now.Add(opts.progressEvery())
				}
			}
			if s.Status == vm.Running && k >= q.Bound {
				s.Status = vm.StepBound
			}
			if s.Status != vm.Running {
				if c.Prop(s) {
					sat.add(w)
				} else {
					ends[s.Status].add(w)
				}
				continue
			}
			if c.Prop(s) {
				sat.add(w)
				continue
			}
			en = m.Settle(s, en)
			if len(en) == 0 { // cannot happen: layers before the bound are settled
				if c.Prop(s) {
					sat.add(w)
				} else {
					ends[s.Status].add(w)
				}
				continue
			}
			mass = w / float64(len(en))
			if err = g.expand(s, en, settle, add); err != nil {
				if errors.Is(err, errStop) {
					err = nil
					break layers
				}
				return nil, err
			}
			g.recycle(s)
		}
		cur, next = next, cur
		next.reset()
		if len(cur.ents) == 0 {
			k++
			break
		}
	}
	res.Steps = k
	res.ElapsedSec = time.Since(start).Seconds()
	p := sat.value()
	res.Probability, res.Lower, res.Upper = p, p, p
	for st, e := range ends {
		if v := e.value(); v != 0 {
			res.Ends[vm.Status(st).String()] = v
		}
	}
	if opts.Compact {
		n := float64(res.MaxLayer)
		res.Omission = float64(res.Steps+1) * n * (n - 1) / math.Exp2(129)
	}
	if stopped != "" {
		// Mass is conserved: what has not been decided is 1 minus what
		// ended satisfying or not.
		decided := kahan{sum: p}
		for i := range ends {
			decided.add(ends[i].value())
		}
		res.Upper = min(1, max(p, p+1-decided.value()))
		res.Reason = stopped
		if err != nil {
			return res, fmt.Errorf("explicit: exact computation cancelled: %w", err)
		}
		return res, nil
	}
	res.Complete = true
	if q.Kind == query.Hypothesis {
		h := p >= q.Theta
		if q.Cmp == "<=" {
			h = p <= q.Theta
		}
		res.Holds = &h
	}
	return res, nil
}
