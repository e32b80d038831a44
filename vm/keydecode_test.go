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
			dec, a, b := new(State), new(State), new(State)
			var key, k2 []uint64
			var ends []int32
			var aux, aux2 []uint32
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
					if k2 = m.AppendKey(k2[:0], dec); !slices.Equal(k2, key) {
						t.Fatalf("seed %d step %d: the decoded state's encoding differs:\n got %v\nwant %v", seed, step, k2, key)
					}
					if aux2 = m.AppendKeyAux(aux2[:0], dec); !slices.Equal(aux2, aux) {
						t.Fatalf("seed %d step %d: the decoded state's auxiliary words %v, want %v", seed, step, aux2, aux)
					}
					if en = m.EnabledThreads(st, en); len(en) == 0 {
						break
					}
					if got := m.EnabledThreads(dec, nil); !slices.Equal(got, en) {
						t.Fatalf("seed %d step %d: decoded state enables %v, the original %v", seed, step, got, en)
					}
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
