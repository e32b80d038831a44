package vm

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/wyvernmc/wyvern/internal/testutil"
	"github.com/wyvernmc/wyvern/ir"
)

// referenceRun is the scheduler loop without any caching: the enabled set
// is recomputed before every step and every step is taken alone. Run and
// Observe must make exactly its draws.
//
// visit sees each state a step is taken from; synced is whether the step
// before it was a scheduling point: a platform call that may change which
// processes are enabled (yields), a process finishing, an atomic section
// entered or left.
func (m *Machine) referenceRun(st *State, maxSteps uint64, ch Chooser, visit func(st *State, t *Thread, synced bool)) {
	synced := false
	for st.Status == Running {
		if st.Steps >= maxSteps {
			st.Status = StepBound
			return
		}
		en := m.EnabledThreads(st, nil)
		if len(en) == 0 {
			m.endNoEnabled(st)
			return
		}
		t := st.Threads[en[0]]
		if len(en) > 1 {
			t = st.Threads[en[ch.Choose(uint64(len(en)))]]
		}
		visit(st, t, synced)
		fr := &t.Frames[len(t.Frames)-1]
		in := &fr.Fn.Code[fr.PC]
		yields := in.Op == ir.OpCallB && platform[in.B].yields
		atomic := t.Atomic
		n := m.exec(st, t, 1, ch, nil)
		synced = yields || t.Done || t.Atomic != atomic
		st.Steps += n
		st.LastThread = t.ID
		if n == 0 && st.Status == Running {
			m.fail(st, t, t.Frames[len(t.Frames)-1].PC, ErrPthread,
				"blocking pthread function called through a function pointer")
			return
		}
	}
}

// simRand is simulation's chooser: NewRand with SimBehaviours (a signal
// wakes a drawn waiter; address reuse draws its coin).
func simRand(seed, index uint64) *Rand {
	r := NewRand(seed, index)
	r.SetBehaviours(SimBehaviours)
	return r
}

// TestSchedulerMatchesReference runs programs with every kind of blocking
// call (mutexes, condition variables, barriers, semaphores, rwlocks,
// joins, atomic sections) under many seeds with Run, Observe and
// ObserveWatch and the reference loop: the runs must end in the same state
// after the same steps, Observe must see the reference's states and
// processes, and ObserveWatch a subsequence of them that contains every
// state after a step of a watched process or a platform call.
func TestSchedulerMatchesReference(t *testing.T) {
	testutil.NeedClang(t)
	files := []string{
		"mt/atomic.c", "mt/cond_order.c", "mt/counter_mutex.c", "mt/counter_race.c",
		"mt/deadlock.c", "mt/join_values.c", "mt/peterson_broken.c", "mt/prodcons.c",
		"mt/rwlock.c", "mt/mutex_store.c", "mt/platform_calls.c", "diff/67_barrier_sem.c", "smc/gossip_2.c", "smc/petersonsBug.c",
		"smc/robot.c", "smc/stack.c", "mt/addr_reuse.c",
	}
	seeds := 40
	if testing.Short() {
		seeds = 8
	}
	for _, f := range files {
		t.Run(f, func(t *testing.T) {
			m := NewMachine(testutil.Program(t, filepath.Join("../testdata", f)))
			const bound = 20000
			for i := 0; i < seeds; i++ {
				ref := m.NewState()
				type seen struct {
					steps uint64
					tid   int32
				}
				var refSeen []seen
				var synced []bool
				m.referenceRun(ref, bound, simRand(7, uint64(i)), func(st *State, th *Thread, s bool) {
					refSeen = append(refSeen, seen{st.Steps, th.ID})
					synced = append(synced, s)
				})
				want := ref.Hash()

				st := m.NewState()
				m.Run(st, bound, simRand(7, uint64(i)))
				if st.Steps != ref.Steps || st.Status != ref.Status || st.Hash() != want || string(st.Out) != string(ref.Out) {
					t.Fatalf("seed %d: Run ended %s after %d steps, the reference %s after %d", i, st.Status, st.Steps, ref.Status, ref.Steps)
				}

				st = m.NewState()
				var got []seen
				m.Observe(st, bound, simRand(7, uint64(i)), func(st *State, th *Thread) bool {
					if th != nil {
						got = append(got, seen{st.Steps, th.ID})
					}
					return false
				})
				if st.Hash() != want || len(got) != len(refSeen) {
					t.Fatalf("seed %d: Observe saw %d states, the reference %d", i, len(got), len(refSeen))
				}
				for k := range got {
					if got[k] != refSeen[k] {
						t.Fatalf("seed %d: state %d: Observe saw %+v, the reference %+v", i, k, got[k], refSeen[k])
					}
				}

				// Watch process 1 only: every state after one of its steps,
				// and after each platform call, is seen.
				st = m.NewState()
				got = got[:0]
				m.ObserveWatch(st, bound, simRand(7, uint64(i)), Watch{Procs: 1 << 1}, func(st *State, th *Thread) bool {
					if th != nil {
						got = append(got, seen{st.Steps, th.ID})
					}
					return false
				})
				if st.Hash() != want {
					t.Fatalf("seed %d: ObserveWatch ended elsewhere", i)
				}
				k := 0
				for j, r := range refSeen {
					for k < len(got) && got[k].steps < r.steps {
						k++
					}
					in := k < len(got) && got[k] == r
					if j == 0 && !in {
						t.Fatalf("seed %d: ObserveWatch did not see the start state", i)
					}
					if j > 0 && refSeen[j-1].tid == 1 && !in {
						t.Fatalf("seed %d: ObserveWatch skipped the state after step %d of process 1", i, r.steps)
					}
					if synced[j] && !in {
						t.Fatalf("seed %d: ObserveWatch skipped the state after the platform call at step %d", i, r.steps)
					}
				}
				at := map[uint64]int32{}
				for _, r := range refSeen {
					at[r.steps] = r.tid
				}
				for _, g := range got {
					if tid, ok := at[g.steps]; !ok || tid != g.tid {
						t.Fatalf("seed %d: ObserveWatch saw process %d step from step %d, which the run does not", i, g.tid, g.steps)
					}
				}
			}
		})
	}
}

// TestObserverSeesStates checks the states the interpreter shows an
// observer from inside a call (slicer.next: the steps of watched
// processes, lone or drawn among several) against the reference loop's:
// each state shown must be the reference's state at that step, with its
// last process, and the run must end as the reference's does. The
// observer copies the states it is shown (Clone and CopyInto, which make
// the state share its memory and processes), so the run must then stop
// writing through what it cached and take its processes back: every copy
// must still hold the state it copied when the run has ended.
func TestObserverSeesStates(t *testing.T) {
	testutil.NeedClang(t)
	files := []string{"smc/gossip_2.c", "smc/petersonsBug.c", "smc/fib_8.c", "mt/counter_mutex.c",
		"mt/platform_calls.c", "mt/peterson_broken.c", "smc/stack.c", "mt/deadlock.c", "mt/once.c", "mt/cond_order.c", "mt/prodcons.c", "mt/rwlock.c", "mt/spin_local.c", "mt/atomic.c", "mt/join_values.c", "mt/mutex_store.c", "smc/robot.c", "smc/gossip_3.c", "mt/counter_race.c"}
	seeds := 6
	if testing.Short() {
		seeds = 2
	}
	watches := []Watch{{All: true}, {Procs: 1}, {Procs: 1 << 1}, {Procs: 1<<1 | 1<<2},
		{Calls: 1}, {Calls: 1<<1 | 1<<2}, {Procs: 1 << 1, Calls: 1<<1 | 1<<2}, {Calls: 1 | 1<<1 | 1<<2 | 1<<3}, {Procs: 1, Calls: 1 << 1}}
	for _, f := range files {
		t.Run(f, func(t *testing.T) {
			m := NewMachine(testutil.Program(t, filepath.Join("../testdata", f)))
			const bound = 6000
			type seen struct {
				h    Hash128
				last int32
				tid  int32
			}
			for i := 0; i < seeds; i++ {
				ref := m.NewState()
				refSeen := map[uint64]seen{}
				var order []uint64            // the steps of the reference's states
				atCall := map[uint64]uint64{} // bit p: process p's next instruction is a call
				synced := map[uint64]bool{}   // the state follows a scheduling point
				m.referenceRun(ref, bound, NewRand(7, uint64(i)), func(st *State, th *Thread, s bool) {
					refSeen[st.Steps] = seen{st.Hash(), st.LastThread, th.ID}
					order = append(order, st.Steps)
					synced[st.Steps] = s
					for _, u := range st.Threads {
						if !u.Done && len(u.Frames) > 0 && u.ID < 64 {
							if fr := &u.Frames[len(u.Frames)-1]; isCall(&fr.Fn.Code[fr.PC]) {
								atCall[st.Steps] |= 1 << uint(u.ID)
							}
						}
					}
				})
				want := ref.Hash()
				for _, w := range watches {
					st := m.NewState()
					var copies []*State
					var hashes []Hash128
					shown := 0
					seenAt := map[uint64]bool{}
					m.ObserveWatch(st, bound, NewRand(7, uint64(i)), w, func(st *State, th *Thread) bool {
						if th == nil {
							return false
						}
						shown++
						seenAt[st.Steps] = true
						h := st.Hash()
						if r, ok := refSeen[st.Steps]; !ok || r != (seen{h, st.LastThread, th.ID}) {
							t.Fatalf("seed %d, watch %+v: the state shown at step %d (last process %d, next %d) is not the reference's",
								i, w, st.Steps, st.LastThread, th.ID)
						}
						if len(copies) < 400 {
							var c *State
							if len(copies)%2 == 0 {
								c = st.Clone()
							} else {
								c = m.NewState()
								m.CopyInto(c, st)
							}
							copies, hashes = append(copies, c), append(hashes, h)
						}
						return false
					})
					if st.Hash() != want || st.Steps != ref.Steps || st.Status != ref.Status {
						t.Fatalf("seed %d, watch %+v: the run ended %s after %d steps, the reference %s after %d",
							i, w, st.Status, st.Steps, ref.Status, ref.Steps)
					}
					// every state after a step of a process the observer
					// follows by its calls, from or to a call, is seen
					for j := 1; j < len(order); j++ {
						p := refSeen[order[j-1]].tid
						if p >= 64 || w.Calls>>uint(p)&1 == 0 {
							continue
						}
						bit := uint64(1) << uint(p)
						if (atCall[order[j-1]]|atCall[order[j]])&bit != 0 && !seenAt[order[j]] {
							t.Fatalf("seed %d, watch %+v: the state at step %d after a step of process %d at or to a call is not shown",
								i, w, order[j], p)
						}
						if synced[order[j]] && !seenAt[order[j]] {
							t.Fatalf("seed %d, watch %+v: the state after the scheduling point at step %d is not shown", i, w, order[j])
						}
					}
					for k, c := range copies {
						if c.Hash() != hashes[k] {
							t.Fatalf("seed %d, watch %+v: copy %d of %d changed after it was made", i, w, k, shown)
						}
					}
				}
			}
		})
	}
}

// wrappedRand is a *Rand behind another type: runs given it take the
// chooser's general path (an interface call of Choose at every draw).
type wrappedRand struct{ r *Rand }

func (w wrappedRand) Choose(n uint64) uint64 { return w.r.Choose(n) }

// TestInlinedDraws checks that the draws the interpreter and the slicer
// inline for a *Rand (scheduler choices and platform draws over a
// power-of-two range) are Rand.Choose's: runs with the *Rand and with the
// same generator behind another type end in the same state.
func TestInlinedDraws(t *testing.T) {
	testutil.NeedClang(t)
	for _, f := range []string{"smc/gossip_2.c", "smc/robot.c", "mt/platform_calls.c", "smc/petersonsBug.c", "mt/counter_race.c"} {
		m := NewMachine(testutil.Program(t, filepath.Join("../testdata", f)))
		for i := uint64(0); i < 8; i++ {
			a, b := m.NewState(), m.NewState()
			m.Run(a, 20000, NewRand(3, i))
			m.Run(b, 20000, wrappedRand{NewRand(3, i)})
			if a.Steps != b.Steps || a.Status != b.Status || a.Hash() != b.Hash() || string(a.Out) != string(b.Out) {
				t.Fatalf("%s, seed %d: with the *Rand the run ended %s after %d steps, through an interface %s after %d",
					f, i, a.Status, a.Steps, b.Status, b.Steps)
			}
		}
	}
}

// TestUniformDraws: drawCall's wyvern_uniform path for a *Rand, and
// uniformCall's for a fused call (opUniform), give the same results as the
// general path (the same Rand behind an interface), for ranges of a power
// of two and not, negative bounds, 32- and 64-bit arguments, the full
// 64-bit range and results narrower than 64 bits.
func TestUniformDraws(t *testing.T) {
	m := &Machine{}
	for _, c := range []struct {
		lo, hi int64
		size   uint8
		bits   uint8
	}{
		{0, 1, 4, 32}, {0, 3, 4, 32}, {1, 3, 4, 32}, {-5, 2, 4, 32}, {-7, -7, 4, 32},
		{-3, 9, 8, 64}, {0, 1 << 40, 8, 64}, {-1 << 62, 1 << 62, 8, 64},
		{-1 << 63, 1<<63 - 1, 8, 64}, {-1 << 31, 1<<31 - 1, 4, 32}, {2, 200, 4, 8},
	} {
		cs := &ir.CallSite{Args: []int32{0, 1}, ArgSlots: []int32{1, 1}, ArgSizes: []uint8{c.size, c.size}, Ret: 2, RetSlots: 1, RetBits: c.bits}
		fn := &ir.Func{NRegs: 3, Calls: []ir.CallSite{*cs}}
		in := ir.Inst{Op: ir.OpCallB, Dst: 2, B: int32(ir.BUniform)}
		if !fuseUniform(fn, &in) || in.Op != opUniform {
			t.Fatalf("wyvern_uniform(%d, %d) not fused", c.lo, c.hi)
		}
		a, b, u := NewRand(9, uint64(c.hi)), NewRand(9, uint64(c.hi)), NewRand(9, uint64(c.hi))
		for i := 0; i < 64; i++ {
			ra := []uint64{uint64(c.lo), uint64(c.hi), 0}
			if c.size == 4 {
				ra[0], ra[1] = uint64(uint32(c.lo)), uint64(uint32(c.hi))
			}
			rb, ru := slices.Clone(ra), slices.Clone(ra)
			if !m.drawCall(nil, nil, ir.BUniform, cs, ra, a) || !m.drawCall(nil, nil, ir.BUniform, cs, rb, wrappedRand{b}) ||
				!m.uniformCall(nil, nil, &in, cs, ru, u) {
				t.Fatalf("wyvern_uniform(%d, %d) failed", c.lo, c.hi)
			}
			if ra[2] != rb[2] || ru[2] != rb[2] {
				t.Fatalf("wyvern_uniform(%d, %d), draw %d: %#x with the *Rand, %#x fused, %#x through an interface", c.lo, c.hi, i, ra[2], ru[2], rb[2])
			}
		}
	}
}
