package vm

import (
	"errors"
	"slices"
	"testing"

	"github.com/wyvernmc/wyvern/internal/testutil"
)

// splitParts returns key's parts as AppendKeyParts's ends delimit them.
func splitParts(key []uint64, ends []int32) [][]uint64 {
	var parts [][]uint64
	start := int32(0)
	for _, e := range ends {
		parts = append(parts, key[start:e])
		start = e
	}
	return parts
}

// TestDecodeKey: along random runs of programs with condition-variable
// waiters, reused stack ids, heap and large blocks and thread-local
// globals, every running state rebuilt from its encoding's parts and its
// auxiliary words (DecodeKeyInto) has the original's encoding and
// auxiliary words, and each of its successors (every enabled process
// stepped with the same choices) has the encoding of the original's
// successor: the rebuilt state behaves as the original.
func TestDecodeKey(t *testing.T) {
	progs := append([]string{"../testdata/smc/petersons.c", "../testdata/smc/fib_4.c",
		"../testdata/diff/72_thread_local.c", "../testdata/mt/platform_calls.c"}, identityPrograms...)
	for _, path := range progs {
		t.Run(path, func(t *testing.T) {
			m := NewMachine(testutil.Program(t, path))
			dec := new(State)
			var key []uint64
			var ends []int32
			var aux []uint32
			var en []int32
			decoded := 0
			for seed := uint64(1); seed <= 3; seed++ {
				st := m.NewState()
				rnd := NewRand(seed, 0)
				for step := 0; step < 300 && st.Status == Running; step++ {
					key, ends = m.AppendKeyParts(key[:0], ends[:0], st)
					aux = m.AppendKeyAux(aux[:0], st)
					if err := m.DecodeKeyInto(dec, splitParts(key, ends), aux); err != nil {
						t.Fatalf("seed %d step %d: %v", seed, step, err)
					}
					decoded++
					if en = checkDecoded(t, m, st, dec, key, aux, seed, step); len(en) == 0 {
						break
					}
					tid := en[rnd.Uint64()%uint64(len(en))]
					m.StepOnly(st, tid, rnd)
					m.SettleEnd(st, tid)
				}
			}
			t.Logf("%d states decoded", decoded)
			if decoded < 50 {
				t.Errorf("only %d states decoded", decoded)
			}
		})
	}
}

// checkDecoded fails t unless dec, rebuilt from st's encoding key and
// auxiliary words aux, has st's encoding, auxiliary words and enabled
// processes, and each of its successors the encoding of st's; it returns
// the enabled processes.
func checkDecoded(t *testing.T, m *Machine, st, dec *State, key []uint64, aux []uint32, seed uint64, step int) []int32 {
	t.Helper()
	if k2 := m.AppendKey(nil, dec); !slices.Equal(k2, key) {
		t.Fatalf("seed %d step %d: the decoded state's encoding differs:\n got %v\nwant %v", seed, step, k2, key)
	}
	if aux2 := m.AppendKeyAux(nil, dec); !slices.Equal(aux2, aux) {
		t.Fatalf("seed %d step %d: the decoded state's auxiliary words %v, want %v", seed, step, aux2, aux)
	}
	en := m.EnabledThreads(st, nil)
	if got := m.EnabledThreads(dec, nil); !slices.Equal(got, en) {
		t.Fatalf("seed %d step %d: decoded state enables %v, the original %v", seed, step, got, en)
	}
	a, b := new(State), new(State)
	for _, tid := range en {
		m.CopyInto(a, st)
		m.CopyInto(b, dec)
		m.StepEnabled(a, tid, NewRand(seed, uint64(step)))
		m.StepEnabled(b, tid, NewRand(seed, uint64(step)))
		m.SettleEnd(a, tid)
		m.SettleEnd(b, tid)
		if ka, kb := m.AppendKey(nil, a), m.AppendKey(nil, b); !slices.Equal(ka, kb) {
			t.Fatalf("seed %d step %d process %d: the successors' encodings differ:\n decoded %v\noriginal %v", seed, step, tid, kb, ka)
		}
	}
	return en
}

// TestDecodeKeyFrom: along the runs of TestDecodeKey, each running state
// rebuilt from the state rebuilt before it and the parts where their
// encodings differ (DecodeKeyFrom; the auxiliary lists may differ too: a
// process whose part is unchanged has the same result slots, or
// DecodeKeyFrom's error fails the test) is the state DecodeKeyInto rebuilds —
// the same encoding, auxiliary words, enabled processes and successors'
// encodings — and DecodeKeyFrom declines (false) only a change it does not
// decode in place: then the whole state is decoded, as the search does.
func TestDecodeKeyFrom(t *testing.T) {
	progs := append([]string{"../testdata/smc/petersons.c", "../testdata/smc/fib_4.c",
		"../testdata/diff/72_thread_local.c", "../testdata/mt/platform_calls.c"}, identityPrograms...)
	for _, path := range progs {
		t.Run(path, func(t *testing.T) {
			m := NewMachine(testutil.Program(t, path))
			var ref *State
			var refKey []uint64
			var refEnds []int32
			dec := new(State)
			from, whole := 0, 0
			for seed := uint64(1); seed <= 3; seed++ {
				st := m.NewState()
				rnd := NewRand(seed, 0)
				for step := 0; step < 300 && st.Status == Running; step++ {
					key, ends := m.AppendKeyParts(nil, nil, st)
					aux := m.AppendKeyAux(nil, st)
					parts := splitParts(key, ends)
					done := false
					if ref != nil {
						old := splitParts(refKey, refEnds)
						if len(old) == len(parts) {
							diff := make([][]uint64, len(parts))
							for i := range parts {
								if !slices.Equal(parts[i], old[i]) {
									diff[i] = parts[i]
								}
							}
							ok, err := m.DecodeKeyFrom(dec, ref, diff, blockIDs(t, old, len(ref.Threads)), aux)
							if err != nil {
								t.Fatalf("seed %d step %d: %v", seed, step, err)
							}
							done = ok
						}
					}
					if done {
						from++
					} else {
						whole++
						if err := m.DecodeKeyInto(dec, parts, aux); err != nil {
							t.Fatalf("seed %d step %d: %v", seed, step, err)
						}
					}
					en := checkDecoded(t, m, st, dec, key, aux, seed, step)
					if ref == nil {
						ref = new(State)
					}
					m.CopyInto(ref, dec)
					refKey, refEnds = key, ends
					if len(en) == 0 {
						break
					}
					tid := en[rnd.Uint64()%uint64(len(en))]
					m.StepOnly(st, tid, rnd)
					m.SettleEnd(st, tid)
				}
			}
			t.Logf("%d states rebuilt from the one before, %d whole", from, whole)
			if m.tls == nil && 4*from < from+whole {
				t.Errorf("only %d states rebuilt from the one before (%d whole): want a quarter at least", from, whole)
			}
		})
	}
}

// TestDecodeKeyRejects: parts that are no running state's encoding are
// refused with ErrKeyDecode.
func TestDecodeKeyRejects(t *testing.T) {
	m := NewMachine(testutil.Program(t, "../testdata/smc/fib_4.c"))
	st := m.NewState()
	key, ends := m.AppendKeyParts(nil, nil, st)
	aux := m.AppendKeyAux(nil, st)
	good := splitParts(key, ends)
	clone := func() [][]uint64 {
		out := make([][]uint64, len(good))
		for i, p := range good {
			out[i] = slices.Clone(p)
		}
		return out
	}
	cases := []struct {
		name  string
		parts func() [][]uint64
		aux   []uint32
	}{
		{"ended run", func() [][]uint64 { p := clone(); p[0][0] = uint64(Exited) << 32; return p }, aux},
		{"too few parts", func() [][]uint64 { return clone()[:1] }, aux},
		{"process count past the parts", func() [][]uint64 { p := clone(); p[0][2] = 9; return p }, aux},
		{"block count below the image's", func() [][]uint64 { p := clone(); p[2][0] = 0; return p }, aux},
		{"missing auxiliary words", clone, nil},
		{"auxiliary words left over", clone, append(slices.Clone(aux), 7)},
		{"pc outside its function", func() [][]uint64 { p := clone(); p[1][4] |= 1<<31 - 1; return p }, aux},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := m.DecodeKeyInto(new(State), tc.parts(), tc.aux)
			if err == nil || !errors.Is(err, ErrKeyDecode) {
				t.Fatalf("DecodeKeyInto: %v, want ErrKeyDecode", err)
			}
		})
	}
	if err := m.DecodeKeyInto(new(State), good, aux); err != nil {
		t.Fatalf("the initial state: %v", err)
	}
}

// TestDecodeKeyFromDeclines: DecodeKeyFrom leaves the state as it was and
// reports false for a change it does not decode in place (the header or
// the block count, a block part of another block), and refuses with
// ErrKeyDecode a changed part that is no part and auxiliary words that
// give a process whose part is ref's other result slots.
func TestDecodeKeyFromDeclines(t *testing.T) {
	m := NewMachine(testutil.Program(t, "../testdata/smc/fib_4.c"))
	st := m.NewState()
	for i := 0; i < 40; i++ { // past main's first allocas
		m.StepOnly(st, 0, NewRand(1, 0))
	}
	key, ends := m.AppendKeyParts(nil, nil, st)
	aux := m.AppendKeyAux(nil, st)
	parts := splitParts(key, ends)
	ref := new(State)
	if err := m.DecodeKeyInto(ref, parts, aux); err != nil {
		t.Fatal(err)
	}
	nt := len(st.Threads)
	if len(parts) < nt+4 {
		t.Fatalf("%d parts: want two blocks at least", len(parts))
	}
	refBlocks := blockIDs(t, parts, nt)
	only := func(i int, p []uint64) [][]uint64 {
		diff := make([][]uint64, len(parts))
		diff[i] = p
		return diff
	}
	other := slices.Clone(parts[nt+2])
	other[0] = parts[nt+3][0] // another block's id and kind
	for _, tc := range []struct {
		name string
		i    int
		p    []uint64
	}{
		{"header", 0, slices.Clone(parts[0])},
		{"block count", nt + 1, slices.Clone(parts[nt+1])},
		{"another block", nt + 2, other},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dec := m.NewState()
			before := m.AppendKey(nil, dec)
			ok, err := m.DecodeKeyFrom(dec, ref, only(tc.i, tc.p), refBlocks, aux)
			if ok || err != nil {
				t.Fatalf("DecodeKeyFrom: %v, %v; want false, nil", ok, err)
			}
			if after := m.AppendKey(nil, dec); !slices.Equal(after, before) {
				t.Fatal("a declined DecodeKeyFrom changed the state")
			}
		})
	}
	// aux with other result slots for a frame of a process whose part is
	// ref's: an error, not a state with ref's
	other2 := slices.Clone(aux)
	other2[len(other2)-1]++
	if _, err := m.DecodeKeyFrom(m.NewState(), ref, make([][]uint64, len(parts)), refBlocks, other2); !errors.Is(err, ErrKeyDecode) {
		t.Fatalf("other result slots for an unchanged process: %v, want ErrKeyDecode", err)
	}
	bad := slices.Clone(parts[nt+2])
	bad = append(bad, 1) // a word more than its bytes
	if _, err := m.DecodeKeyFrom(m.NewState(), ref, only(nt+2, bad), refBlocks, aux); !errors.Is(err, ErrKeyDecode) {
		t.Fatalf("a block part with a word too many: %v, want ErrKeyDecode", err)
	}
}

// blockIDs returns the block ids of the block parts of an encoding's parts
// (those after nt processes and the block count).
func blockIDs(t *testing.T, parts [][]uint64, nt int) []uint32 {
	t.Helper()
	var ids []uint32
	for _, p := range parts[nt+2:] {
		id, err := blockPartID(p)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	return ids
}
