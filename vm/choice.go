package vm

import (
	"math/bits"

	"github.com/wyvernmc/wyvern/ir"
)

// ChoiceKind names a distribution a platform function draws from.
type ChoiceKind uint8

// The distributions of platform functions (see Choice for their parameters).
const (
	NoChoice ChoiceKind = iota
	Uniform             // wyvern_uniform
	Coin                // wyvern_coin
	Bits                // __VERIFIER_nondet_*
)

var choiceKindNames = [...]string{NoChoice: "none", Uniform: "uniform", Coin: "coin", Bits: "bits"}

func (k ChoiceKind) String() string {
	if int(k) < len(choiceKindNames) {
		return choiceKindNames[k]
	}
	return "choice?"
}

// A Choice is the probabilistic choice a platform call makes, computed from
// the call's arguments by its table entry (platform.go). It is the one
// definition of the call's distribution: the interpreter samples it (Sample,
// one Chooser draw), explicit-state search enumerates it (Outcomes, Outcome)
// and a symbolic encoding can read it as a free variable of the given kind
// and range.
//
//   - Uniform: Lo plus a value uniform in [0, N), N = hi-lo+1 (0: 2^64);
//   - Coin: 1 with probability Num/N, else 0 (0 <= Num <= N, N > 0);
//   - Bits: a value uniform over the N = 2^w values of w bits (0: 64 bits).
//
// A draw is the value the Chooser returns for Choose(Range()); Result maps
// it to the call's return value. (Four word-sized fields: a Choice stays in
// registers on the interpreter's hot path.)
type Choice struct {
	Kind ChoiceKind
	N    uint64
	Num  uint64 // Coin
	Lo   int64  // Uniform
}

// UniformChoice is the choice of a value uniform in [lo, hi], lo <= hi.
func UniformChoice(lo, hi int64) Choice {
	return Choice{Kind: Uniform, N: uint64(hi-lo) + 1, Lo: lo}
}

// CoinChoice is the choice of 1 with probability num/den, else 0.
func CoinChoice(num, den uint64) Choice {
	return Choice{Kind: Coin, N: den, Num: num}
}

// BitsChoice is the choice of w uniformly random bits, 1 <= w <= 64.
func BitsChoice(w uint8) Choice {
	if w >= 64 {
		return Choice{Kind: Bits}
	}
	return Choice{Kind: Bits, N: uint64(1) << w}
}

// Width is the number of bits of a Bits choice.
func (c Choice) Width() int {
	if c.N == 0 {
		return 64
	}
	return bits.TrailingZeros64(c.N)
}

// Range is the argument of the Chooser draw: draws are uniform in
// [0, Range()), and 0 means any 64-bit value.
func (c Choice) Range() uint64 {
	if c.Kind == Bits {
		return 0 // 64 bits, masked by Result
	}
	return c.N
}

// Result is the call's return value for a draw.
func (c Choice) Result(draw uint64) uint64 {
	switch c.Kind {
	case Coin:
		return b2u(draw < c.Num)
	case Uniform:
		return uint64(c.Lo + int64(draw))
	case Bits:
		return draw & (c.N - 1) // N = 0: all 64 bits
	}
	return draw
}

// DrawFor returns a draw whose Result is v (the inverse of Result, for
// replaying a value a solver chose), and false when no draw gives v.
func (c Choice) DrawFor(v uint64) (uint64, bool) {
	switch c.Kind {
	case Coin:
		switch {
		case v == 1 && c.Num > 0:
			return 0, true
		case v == 0 && c.Num < c.N:
			return c.Num, true
		}
		return 0, false
	case Uniform:
		d := v - uint64(c.Lo)
		if c.N != 0 && d >= c.N {
			return 0, false
		}
		return d, true
	case Bits:
		if c.N != 0 && v >= c.N {
			return 0, false
		}
		return v, true
	}
	return v, true
}

// Sample draws the choice from ch and returns the call's result.
func (c Choice) Sample(ch Chooser) uint64 {
	return c.Result(ch.Choose(c.Range()))
}

// Outcomes is the number of distinguishable outcomes, 0 meaning 2^64 (too
// many to enumerate): 1 or 2 for a coin, N otherwise.
func (c Choice) Outcomes() uint64 {
	if c.Kind == Coin {
		if c.Num == 0 || c.Num >= c.N {
			return 1
		}
		return 2
	}
	return c.N
}

// Outcome returns outcome i < Outcomes(): a draw that produces it and its
// probability. A coin's outcomes are the draws 0 (result 1, probability
// Num/N) and Num (result 0, probability (N-Num)/N); a coin that cannot fail
// or cannot succeed has the single outcome 0 of probability 1. The other
// kinds' outcomes are the draws 0..N-1, each of probability 1/N.
func (c Choice) Outcome(i uint64) (draw uint64, p float64) {
	if c.Kind == Coin {
		switch {
		case c.Outcomes() == 1:
			return 0, 1
		case i == 0:
			return 0, float64(c.Num) / float64(c.N)
		}
		return c.Num, float64(c.N-c.Num) / float64(c.N)
	}
	return i, 1 / float64(c.N)
}

// UniformDraw is the choice of a bare Choose(n): uniform over [0, n), or
// 64 random bits when n is 0.
func UniformDraw(n uint64) Choice {
	return Choice{Kind: Uniform, N: n}
}

// NextChoice returns the choice thread t's next step makes: the
// distribution of the platform function its next instruction calls. ok is
// false when that is no call of a choosing platform function, or when the
// call's arguments are invalid (the call then fails without drawing).
func (m *Machine) NextChoice(st *State, t *Thread) (c Choice, ok bool) {
	fn, in := m.Next(t)
	if in == nil {
		return Choice{}, false
	}
	r := t.Regs[t.Frames[len(t.Frames)-1].Base:]
	var b ir.Builtin
	switch in.Op {
	case ir.OpCallB:
		b = ir.Builtin(in.B)
	case ir.OpCallInd:
		f := m.funcOf(r[fn.Calls[in.Imm].FnSlot])
		if f == nil || !f.External {
			return Choice{}, false
		}
		b = f.Builtin
	default:
		return Choice{}, false
	}
	p := &platform[b]
	if p.choice == nil {
		return Choice{}, false
	}
	c, err := p.choice(args{cs: &fn.Calls[in.Imm], r: r})
	return c, err == nil
}

// Behaviours are the choices among what POSIX allows that a platform
// function makes other than its result value (docs/semantics.md,
// "Behaviours POSIX allows"): which waiter pthread_cond_signal wakes, and
// whether pthread_cond_wait returns without a signal (a spurious wakeup).
// Each is a draw of the step's Chooser, announced by NextDraw, so
// simulation samples it, explicit-state search enumerates it and a
// recorded trace replays it. A Chooser states the behaviours of its runs
// by a method Behaviours() Behaviours (BehaviourChooser); one without it
// runs with the zero value, LODIN's platform: the longest waiter is
// signalled and no wait returns without a signal (no draw at all).
type Behaviours struct {
	// SignalAny: pthread_cond_signal wakes the waiter a draw picks among
	// the k >= 2 processes waiting on the condition variable (draw i: the
	// i-th to arrive), uniformly in simulation; false: the one that
	// arrived first, no draw.
	SignalAny bool
	// Spurious is the coin pthread_cond_wait tosses once it released the
	// mutex: 1 wakes it at once, without a signal (it then only has to
	// reacquire the mutex). A Coin that cannot succeed (Num 0, or Kind
	// NoChoice) draws nothing. An early wakeup covers every later one: a
	// woken process that has not yet reacquired the mutex differs from a
	// waiting one only in that no signal can pick it, and a signal that
	// picked it would have had to pick it (the docs give the argument).
	Spurious Choice
	// AddrReuse: comparing a pointer into a freed heap block with one
	// into a block allocated after the free, at the same offset, tosses a
	// fair coin: heads, the allocator gave the new block the freed one's
	// address, and the two are equal (reuse.go); false: never equal, no
	// draw.
	AddrReuse bool
	// Inputs is the distribution simulation draws 64 random bits from
	// (Rand.Choose(0)): the values of __VERIFIER_nondet_* calls (and of a
	// wyvern_uniform over the whole 64-bit range). Exhaustive engines
	// enumerate or solve for inputs and never read it.
	Inputs InputDist
}

// InputDist is a distribution of simulation's input values.
type InputDist uint8

// Input distributions.
const (
	// InputsUniform: uniform over the 2^64 values (masked to the input's
	// width): the program's semantics, and the default.
	InputsUniform InputDist = iota
	// InputsEdges: with probability 1/2 one of EdgeValues, drawn
	// uniformly, else uniform. For finding violations that need an input
	// at a boundary (0, -1, a type's extreme): a uniform 32-bit draw hits
	// 0 once in 2^32 runs. Probabilities estimated under it are those of
	// this distribution, not of uniform inputs.
	InputsEdges
)

// EdgeValues are InputsEdges' boundary values, as 64-bit draws (an input
// of w bits keeps the low w): 0 to 3, -1, -2, and the signed extremes of
// 8, 16, 32 and 64 bits (each also the unsigned extreme's neighbour).
var EdgeValues = [...]uint64{0, 1, 2, 3, ^uint64(0), ^uint64(1),
	0x7f, 0x80, 0x7fff, 0x8000, 0x7fffffff, 0x80000000, 0x7fffffffffffffff, 0x8000000000000000}

// Simulation's default behaviours: a signal wakes a waiter drawn
// uniformly, no spurious wakeups, freed addresses reused by a fair coin.
var SimBehaviours = Behaviours{SignalAny: true, AddrReuse: true}

// PosixBehaviours are every behaviour POSIX allows, for exhaustive
// engines: every waiter a signal may wake and a spurious wakeup at every
// wait are enumerated (the coin's probability, 1/2, is only its
// distribution in exact probabilities, which use SimBehaviours or the
// query's instead).
var PosixBehaviours = Behaviours{SignalAny: true, Spurious: CoinChoice(1, 2), AddrReuse: true}

// SpuriousChoice is the coin of a spurious wakeup of probability p (0: no
// coin), in 2^-32 steps.
func SpuriousChoice(p float64) Choice {
	if !(p > 0) {
		return Choice{}
	}
	const den = 1 << 32
	num := uint64(p*den + 0.5)
	num = max(min(num, den), 1)
	return CoinChoice(num, den)
}

// spurious reports whether the behaviours' spurious wakeup can happen.
func (b Behaviours) spurious() bool { return b.Spurious.Kind == Coin && b.Spurious.Num > 0 }

// ReplayBehaviours are the behaviours of a replay of one recorded step
// (a process and the draws it made): with draws left to replay,
// PosixBehaviours, so that a condition variable's call draws exactly when
// the recorded step did; without, LODIN's. A pthread_cond_wait or
// pthread_cond_signal makes at most one draw and no value choice, so its
// recorded draws tell whether it drew. A spurious wakeup's recorded draw
// replays as PosixBehaviours' coin reads it (0 wakes, 1 does not): the
// draws an enumeration records (Choice.Outcome: 0 or Num) replay whatever
// the coin's probability; a sampled coin of another probability does not.
func ReplayBehaviours(drawsLeft bool) Behaviours {
	if drawsLeft {
		return PosixBehaviours
	}
	return Behaviours{}
}

// BehaviourChooser is a Chooser that states the behaviours of its runs.
type BehaviourChooser interface {
	Chooser
	Behaviours() Behaviours
}

// BehavioursOf returns the behaviours ch states, the zero value (LODIN's
// platform) when it states none.
func BehavioursOf(ch Chooser) Behaviours {
	if b, ok := ch.(BehaviourChooser); ok {
		return b.Behaviours()
	}
	return Behaviours{}
}

// NextDraw is NextChoice extended to the behaviours b: besides a value
// choice, it announces the draw of a pthread_cond_wait about to release
// its mutex (b.Spurious, when it can succeed) and of a
// pthread_cond_signal with k >= 2 waiters under b.SignalAny (uniform over
// [0, k): the waiters in order of arrival) and the coin of a comparison of
// pointers that address reuse decides (b.AddrReuse, reuse.go). ok is false
// when the step draws nothing.
func (m *Machine) NextDraw(st *State, t *Thread, b Behaviours) (c Choice, ok bool) {
	if c, ok = m.NextChoice(st, t); ok {
		return c, ok
	}
	fn, in := m.Next(t)
	if in == nil {
		return Choice{}, false
	}
	if in.Op == ir.OpLoad || in.Op == ir.OpLoadAgg || in.Op == ir.OpAtomicRMW || in.Op == ir.OpCmpXchg {
		if m.undef {
			r := t.Regs[t.Frames[len(t.Frames)-1].Base:]
			if in.Op == ir.OpLoadAgg {
				if k := undefAggAt(&st.Mem, &fn.Aggs[in.Imm], r[in.A]); k > 0 {
					return undefAggChoice(k), true
				}
			} else if k := undefAt(&st.Mem, r[in.A], in.W); k > 0 && (in.Op != ir.OpLoad || in.Flags&ir.FlagRMW == 0) {
				return undefChoice(k), true
			}
		}
		return Choice{}, false
	}
	if (in.Op == ir.OpEq || in.Op == ir.OpNe) && in.Flags&ir.FlagPtrCmp != 0 {
		r := t.Regs[t.Frames[len(t.Frames)-1].Base:]
		if m.reuseDraws(st, r[in.A], r[in.B], b) {
			return reuseCoin, true
		}
		return Choice{}, false
	}
	if in.Op != ir.OpCallB {
		return Choice{}, false
	}
	switch ir.Builtin(in.B) {
	case ir.BCondWait:
		if t.Wait == waitNone && b.spurious() {
			return b.Spurious, true
		}
	case ir.BCondSignal:
		if b.SignalAny {
			r := t.Regs[t.Frames[len(t.Frames)-1].Base:]
			if k := waiters(st, arg(&fn.Calls[in.Imm], r, 0)); k >= 2 {
				return UniformDraw(uint64(k)), true
			}
		}
	}
	return Choice{}, false
}

// waiters returns the number of processes of st waiting on condition
// variable cv (not yet woken).
func waiters(st *State, cv uint64) int {
	k := 0
	for _, o := range st.Threads {
		if o.Wait == waitCond && o.WaitOn == cv {
			k++
		}
	}
	return k
}
