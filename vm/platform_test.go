package vm

import (
	"math"
	"testing"

	"github.com/wyvernmc/wyvern/ir"
)

// TestPlatformTable checks that every platform function has one complete
// entry: exactly one of an implementation, an implementation that draws a
// behaviour, or a choice, and that blocking functions are scheduling
// points.
func TestPlatformTable(t *testing.T) {
	for b := ir.Builtin(0); b < ir.NumBuiltins; b++ {
		p := &platform[b]
		if n := b2u(p.run != nil) + b2u(p.draws != nil) + b2u(p.choice != nil); n != 1 {
			t.Errorf("%s (%d): want exactly one of run, draws and choice, not %d", b, b, n)
		}
		if p.enabled != nil && !p.yields {
			t.Errorf("%s: blocks but does not yield", b)
		}
		if p.choice != nil && (p.enabled != nil || p.yields) {
			t.Errorf("%s: a choosing function neither blocks nor yields", b)
		}
	}
	for _, name := range []string{"pthread_mutex_lock", "wyvern_coin", "__VERIFIER_nondet_char", "llvm.memcpy.p0i8.p0i8.i64"} {
		if b, ok := ir.LookupBuiltin(name); !ok || b == ir.BNone || b >= ir.NumBuiltins {
			t.Errorf("LookupBuiltin(%q) = %d, %v", name, b, ok)
		}
	}
}

// fixedDraw answers every Choose with one value and records the ranges.
type fixedDraw struct {
	v  uint64
	ns []uint64
}

func (f *fixedDraw) Choose(n uint64) uint64 { f.ns = append(f.ns, n); return f.v }

// TestChoiceOutcomes checks each distribution's enumeration against its
// sampling: outcomes are draws in range, their probabilities sum to 1, and
// for a coin the result of each outcome has the stated probability.
func TestChoiceOutcomes(t *testing.T) {
	for _, c := range []Choice{
		CoinChoice(1, 3), CoinChoice(0, 5), CoinChoice(4, 4),
		UniformChoice(-2, 5), UniformChoice(7, 7), UniformChoice(math.MaxInt64-1, math.MaxInt64),
		BitsChoice(1), BitsChoice(8),
		UniformDraw(6),
	} {
		n := c.Outcomes()
		sum, pOne := 0.0, 0.0
		seen := map[uint64]bool{}
		for i := uint64(0); i < n; i++ {
			d, p := c.Outcome(i)
			if r := c.Range(); r != 0 && d >= r {
				t.Errorf("%+v: outcome %d draws %d, outside [0, %d)", c, i, d, r)
			}
			res := c.Result(d)
			if seen[res] {
				t.Errorf("%+v: outcome %d repeats result %d", c, i, res)
			}
			seen[res] = true
			f := &fixedDraw{v: d}
			if got := c.Sample(f); got != res || len(f.ns) != 1 || f.ns[0] != c.Range() {
				t.Errorf("%+v: Sample with draw %d = %d after Choose%v; want %d after Choose([%d])", c, d, got, f.ns, res, c.Range())
			}
			sum += p
			if res == 1 {
				pOne += p
			}
		}
		if math.Abs(sum-1) > 1e-12 {
			t.Errorf("%+v: probabilities sum to %v", c, sum)
		}
		if c.Kind == Coin && math.Abs(pOne-float64(c.Num)/float64(c.N)) > 1e-12 {
			t.Errorf("%+v: P(result 1) = %v", c, pOne)
		}
	}
	for _, c := range []Choice{BitsChoice(64), UniformChoice(math.MinInt64, math.MaxInt64), UniformDraw(0)} {
		if c.Outcomes() != 0 || c.Range() != 0 {
			t.Errorf("%+v: Outcomes %d, Range %d; want 0 (2^64)", c, c.Outcomes(), c.Range())
		}
	}
	for _, w := range []uint8{1, 8, 32, 64} {
		c := BitsChoice(w)
		if c.Width() != int(w) || c.Range() != 0 || c.Result(^uint64(0)) != ir.Mask(w) {
			t.Errorf("BitsChoice(%d): width %d, range %d, all ones -> %#x", w, c.Width(), c.Range(), c.Result(^uint64(0)))
		}
	}
}

// TestNextChoice runs a program whose steps draw, directly and through a
// function pointer, and checks that before each step NextChoice announces
// exactly the draw the step makes and the result it returns.
func TestNextChoice(t *testing.T) {
	const src = `
@r = global [8 x i64] zeroinitializer
declare i32 @wyvern_coin(i32, i32)
declare i64 @wyvern_uniform(i64, i64)
declare i8 @__VERIFIER_nondet_char()
declare i1 @__VERIFIER_nondet_bool()
declare i32 @__VERIFIER_nondet_int()
define i32 @main() {
entry:
  %a = call i32 @wyvern_coin(i32 1, i32 3)
  %b = call i64 @wyvern_uniform(i64 -2, i64 5)
  %c = call i8 @__VERIFIER_nondet_char()
  %d = call i1 @__VERIFIER_nondet_bool()
  %e = call i32 @__VERIFIER_nondet_int()
  %fp = select i1 %d, i32 (i32, i32)* @wyvern_coin, i32 (i32, i32)* @wyvern_coin
  %f = call i32 %fp(i32 2, i32 7)
  %g = call i32 @wyvern_coin(i32 3, i32 3)
  ret i32 0
}
`
	p, err := ir.ParseLL("choice.ll", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	m := NewMachine(p)
	st := m.NewState()
	rng := NewRand(7, 0)
	want := []ChoiceKind{Coin, Uniform, Bits, Bits, Bits, Coin, Coin}
	var got []ChoiceKind
	indirect := 0
	for st.Status == Running {
		th := st.Threads[0]
		c, ok := m.NextChoice(st, th)
		fr := &th.Frames[len(th.Frames)-1]
		in := fr.Fn.Code[fr.PC]
		f := &fixedDraw{v: 0}
		if ok {
			f.v = rng.Choose(c.Range())
			got = append(got, c.Kind)
			if in.Op == ir.OpCallInd {
				indirect++
			}
		}
		m.Step(st, th.ID, f)
		if !ok {
			if len(f.ns) != 0 {
				t.Fatalf("unannounced draw Choose%v at %s", f.ns, m.Loc(th))
			}
			continue
		}
		if len(f.ns) != 1 || f.ns[0] != c.Range() {
			t.Fatalf("%+v announced, step drew Choose%v", c, f.ns)
		}
		w := uint8(64)
		if cs := &fr.Fn.Calls[in.Imm]; cs.RetBits != 0 {
			w = cs.RetBits
		}
		if r := th.Regs[fr.Base+in.Dst]; r != c.Result(f.v)&ir.Mask(w) {
			t.Fatalf("%+v with draw %d returned %d, want %d", c, f.v, r, c.Result(f.v))
		}
	}
	if st.Status != Exited || len(got) != len(want) || indirect != 1 {
		t.Fatalf("status %s, choices %v (%d through a pointer); want %v (1)", st.Status, got, indirect, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("choices %v; want %v", got, want)
		}
	}
}

// TestChoiceDrawFor: DrawFor inverts Result for every value a choice can
// return, and refuses the values it cannot.
func TestChoiceDrawFor(t *testing.T) {
	for _, c := range []Choice{UniformChoice(-3, 4), UniformChoice(10, 10), CoinChoice(1, 3), CoinChoice(0, 5), CoinChoice(5, 5), BitsChoice(8), BitsChoice(1)} {
		seen := map[uint64]bool{}
		for i := uint64(0); i < c.Outcomes(); i++ {
			d, _ := c.Outcome(i)
			v := c.Result(d)
			seen[v] = true
			back, ok := c.DrawFor(v)
			if !ok || c.Result(back) != v {
				t.Errorf("%+v: value %d: draw %d (%v) gives %d", c, v, back, ok, c.Result(back))
			}
		}
		for _, v := range []uint64{2, 5, 300, ^uint64(0)} {
			if _, ok := c.DrawFor(v); ok != seen[v] {
				t.Errorf("%+v: DrawFor(%d) ok = %v, but the choice can%s return it", c, v, ok, map[bool]string{false: "not", true: ""}[seen[v]])
			}
		}
	}
}
