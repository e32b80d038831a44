package vm

import (
	"slices"
	"testing"

	"github.com/wyvernmc/wyvern/internal/testutil"
)

// stepN runs st for n single steps of thread 0 with StepOnly.
func stepN(m *Machine, st *State, n int) {
	for i := 0; i < n; i++ {
		m.StepOnly(st, 0, nil)
	}
}

// TestCopyIntoAndKey: CopyInto gives an independent copy with the same
// canonical encoding and hash; stepping either side leaves the other as it
// was; the encoding is canonical (equal states reached differently encode
// equally) and tells different states apart.
func TestCopyIntoAndKey(t *testing.T) {
	m := mustLL(t, counterLL)
	a := m.NewState()
	stepN(m, a, 12) // writes @g and @big
	b := new(State)
	m.CopyInto(b, a)
	ka, kb := m.AppendKey(nil, a), m.AppendKey(nil, b)
	if !slices.Equal(ka, kb) || a.Hash() != b.Hash() {
		t.Fatal("copy differs from the original")
	}
	stepN(m, b, 9) // one more loop iteration: @g += 3
	if !slices.Equal(m.AppendKey(nil, a), ka) {
		t.Fatal("stepping the copy changed the original")
	}
	if slices.Equal(m.AppendKey(nil, b), ka) {
		t.Fatal("different states have equal encodings")
	}
	// Reuse b's buffers for another copy of a, then run both to the end.
	m.CopyInto(b, a)
	if !slices.Equal(m.AppendKey(nil, b), ka) {
		t.Fatal("copy into a used state differs from the original")
	}
	m.Run(a, 1000, NewRand(1, 0))
	m.Run(b, 1000, NewRand(1, 0))
	if a.ExitCode != 30 || b.ExitCode != 30 || !slices.Equal(m.AppendKey(nil, a), m.AppendKey(nil, b)) {
		t.Fatalf("exit %d and %d, want 30 and equal final states", a.ExitCode, b.ExitCode)
	}
	// The same state built without copy-on-write sharing (a fresh run)
	// encodes equally: the encoding depends on contents only.
	c := m.NewState()
	m.Run(c, 1000, NewRand(2, 0))
	if !slices.Equal(m.AppendKey(nil, a), m.AppendKey(nil, c)) {
		t.Fatal("equal states reached separately encode differently")
	}
	// A state whose memory equals the initial image again encodes no block.
	s0 := m.NewState()
	if k := m.AppendKey(nil, s0); len(k) > 64 {
		t.Errorf("initial state encodes %d words: image blocks are not left out", len(k))
	}
}

// TestStepOnlySettle: StepOnly leaves a run whose processes cannot go on
// running; Settle ends it as the scheduler does.
func TestStepOnlySettle(t *testing.T) {
	m := mustLL(t, counterLL)
	st := m.NewState()
	if en := m.Settle(st, nil); len(en) != 1 || en[0] != 0 {
		t.Fatalf("enabled %v, want [0]", en)
	}
	if m.SettleEnd(st, 3); st.Status != Running {
		t.Fatalf("SettleEnd ended a run with an enabled process: %s", st.Status)
	}
	if !m.StepOnly(st, 0, nil) || st.Steps != 1 || st.LastThread != 0 {
		t.Fatalf("StepOnly: steps %d, last %d", st.Steps, st.LastThread)
	}
	if m.StepOnly(st, 5, nil) {
		t.Error("StepOnly of a missing thread succeeded")
	}
	m.Run(st, 1000, NewRand(1, 0))
	if m.StepOnly(st, 0, nil) {
		t.Error("StepOnly after the end of the run succeeded")
	}
}

// TestSettleEndFirst: along random runs of the identity programs (and
// Peterson and fib_4), stepping each enabled process of each state with
// StepEnabled makes the successor StepOnly makes, and SettleEnd ends that
// successor's run exactly when Settle does, whichever process it asks
// first (the one that moved, another, or none).
func TestSettleEndFirst(t *testing.T) {
	progs := append([]string{"../testdata/smc/petersons.c", "../testdata/smc/fib_4.c"}, identityPrograms...)
	for _, path := range progs {
		m := NewMachine(testutil.Program(t, path))
		var en []int32
		runs := 0
		for seed := uint64(1); seed <= 3; seed++ {
			st := m.NewState()
			rnd := NewRand(seed, 0)
			for step := 0; step < 400 && st.Status == Running; step++ {
				if en = m.EnabledThreads(st, en); len(en) == 0 {
					break
				}
				for _, tid := range en {
					a, b := new(State), new(State)
					m.CopyInto(a, st)
					m.CopyInto(b, st)
					seedA := rnd.Uint64()
					m.StepOnly(a, tid, NewRand(seedA, 0))
					m.StepEnabled(b, tid, NewRand(seedA, 0))
					if ka, kb := m.AppendKey(nil, a), m.AppendKey(nil, b); !slices.Equal(ka, kb) {
						t.Fatalf("%s: StepEnabled of process %d made another state than StepOnly", path, tid)
					}
					want := new(State)
					m.CopyInto(want, a)
					m.Settle(want, nil)
					for first := int32(-1); first <= int32(len(a.Threads)); first++ {
						c := new(State)
						m.CopyInto(c, a)
						m.SettleEnd(c, first)
						if c.Status != want.Status {
							t.Fatalf("%s: SettleEnd asking process %d first: status %s, Settle: %s", path, first, c.Status, want.Status)
						}
					}
					if want.Status == Running {
						runs++
					}
				}
				m.StepOnly(st, en[rnd.Uint64()%uint64(len(en))], rnd)
				m.SettleEnd(st, -1)
			}
		}
		if runs == 0 {
			t.Errorf("%s: no successor ran on", path)
		}
	}
}
