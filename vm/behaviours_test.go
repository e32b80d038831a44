package vm

import (
	"testing"

	"github.com/wyvernmc/wyvern/internal/testutil"
)

// countingChooser draws from a Rand under given behaviours and records
// the ranges of the draws a step makes.
type countingChooser struct {
	r  *Rand
	ns []uint64
}

func (c *countingChooser) Choose(n uint64) uint64 { c.ns = append(c.ns, n); return c.r.Choose(n) }
func (c *countingChooser) Behaviours() Behaviours { return c.r.Behaviours() }

// TestNextDrawAnnounces: under each platform, a step draws exactly when
// NextDraw announces a draw, over the announced range, so that exhaustive
// search enumerates every draw a step makes and nothing else (random runs
// of testdata/mt/cond_outcomes.c, whose signal finds two waiters, and of
// cond_order.c, whose signals find zero, one or two).
func TestNextDrawAnnounces(t *testing.T) {
	for _, path := range []string{"../testdata/mt/cond_outcomes.c", "../testdata/mt/cond_order.c"} {
		m := NewMachine(testutil.Program(t, path))
		for _, b := range []Behaviours{{}, SimBehaviours, PosixBehaviours, {SignalAny: true, Spurious: SpuriousChoice(0.3)}} {
			draws := 0
			for i := range uint64(200) {
				st := m.NewState()
				m.Settle(st, nil)
				r := NewRand(3, i)
				r.SetBehaviours(b)
				sched := NewRand(4, i)
				for k := 0; k < 10_000 && st.Status == Running; k++ {
					en := m.EnabledThreads(st, nil)
					tid := en[sched.Choose(uint64(len(en)))]
					t0 := st.Threads[tid]
					c, ok := m.NextDraw(st, t0, b)
					ch := &countingChooser{r: r}
					m.StepOnly(st, tid, ch)
					m.Settle(st, nil)
					switch {
					case ok && (len(ch.ns) != 1 || ch.ns[0] != c.Range()):
						t.Fatalf("%s, %+v, trace %d: NextDraw announced %+v (range %d), the step drew %v", path, b, i, c, c.Range(), ch.ns)
					case !ok && len(ch.ns) != 0:
						t.Fatalf("%s, %+v, trace %d: the step drew %v unannounced", path, b, i, ch.ns)
					}
					draws += len(ch.ns)
				}
			}
			if b.SignalAny && draws == 0 {
				t.Errorf("%s, %+v: no step drew in 200 runs", path, b)
			}
			if b == (Behaviours{}) && draws != 0 {
				t.Errorf("%s: LODIN's platform drew %d times", path, draws)
			}
		}
	}
}
