package vm_test

import (
	"errors"
	"path/filepath"
	"slices"
	"testing"

	"github.com/wyvernmc/wyvern/vm"
)

// TestSnapshotRoundTrip cuts runs of threaded, heap-heavy and large-array
// programs at several points, snapshots and restores the state, and checks
// that the restored state has the original's identity (key and hash) and,
// continued under the same choices, ends exactly as the original run
// (status, exit code, output, steps, final hash).
func TestSnapshotRoundTrip(t *testing.T) {
	needClang(t)
	progs := []string{
		"../testdata/mt/prodcons.c", "../testdata/mt/rwlock.c", "../testdata/mt/once.c",
		"../testdata/mt/counter_race.c", "../testdata/mt/deadlock.c",
		"../testdata/smc/stack.c", "../testdata/smc/gossip_2.c", "../testdata/smc/petersonsBug.c",
		"../testdata/diff/28_dynamic_array_realloc.c", "../testdata/diff/29_binary_tree.c",
		"../testdata/diff/41_sieve.c", "../testdata/diff/32_printf_ints.c",
		"../testdata/errors/" + firstErrorProgram(t),
	}
	for _, path := range progs {
		t.Run(filepath.Base(path), func(t *testing.T) {
			m := vm.NewMachine(loadProg(t, path))
			for seed := uint64(1); seed <= 3; seed++ {
				full := runTrace(m, seed, 0)
				for _, frac := range []uint64{0, 1, 2, 3} {
					cut := full.Steps * frac / 3
					rng := vm.NewRand(seed, 0)
					st := m.NewState()
					m.Run(st, cut, rng)
					snap := m.Snapshot(st)
					rs, err := m.Restore(snap)
					if err != nil {
						t.Fatalf("seed %d cut %d: restore: %v", seed, cut, err)
					}
					if !slices.Equal(m.AppendKey(nil, rs), m.AppendKey(nil, st)) {
						t.Fatalf("seed %d cut %d: restored state has another key", seed, cut)
					}
					if rs.Hash() != st.Hash() || rs.Steps != st.Steps || rs.Status != st.Status {
						t.Fatalf("seed %d cut %d: restored state differs (hash %v vs %v, steps %d vs %d)",
							seed, cut, rs.Hash(), st.Hash(), rs.Steps, st.Steps)
					}
					if again := m.Snapshot(rs); string(again) != string(snap) {
						t.Fatalf("seed %d cut %d: snapshot of the restored state differs", seed, cut)
					}
					r2 := *rng
					m.Run(st, stepBound, rng)
					m.Run(rs, stepBound, &r2)
					if rs.Status != full.Status || rs.ExitCode != full.ExitCode || rs.Steps != full.Steps ||
						string(rs.Out) != string(full.Out) || rs.Hash() != full.Hash() || st.Hash() != full.Hash() {
						t.Fatalf("seed %d cut %d: continued run ends %s after %d steps, original %s after %d",
							seed, cut, rs.Describe(), rs.Steps, full.Describe(), full.Steps)
					}
					if (rs.Err == nil) != (full.Err == nil) || rs.Err != nil && *rs.Err != *full.Err {
						t.Fatalf("seed %d cut %d: error %v, original %v", seed, cut, rs.Err, full.Err)
					}
				}
			}
		})
	}
}

func firstErrorProgram(t *testing.T) string {
	cases := readErrorCases(t)
	if len(cases) == 0 {
		t.Fatal("no error programs")
	}
	return filepath.Base(cases[0].path)
}

// TestSnapshotCorrupt feeds truncated and altered snapshots to Restore:
// each is an error (never a panic), and the target state stays usable.
func TestSnapshotCorrupt(t *testing.T) {
	needClang(t)
	m := vm.NewMachine(loadProg(t, "../testdata/mt/prodcons.c"))
	st := m.NewState()
	m.Run(st, 500, vm.NewRand(7, 0))
	snap := m.Snapshot(st)
	into := m.NewState()
	for n := 0; n < len(snap); n++ {
		if err := m.RestoreInto(into, snap[:n]); err == nil {
			t.Fatalf("truncated snapshot (%d of %d bytes) accepted", n, len(snap))
		} else if !errors.Is(err, vm.ErrSnapshot) {
			t.Fatalf("error %v does not wrap ErrSnapshot", err)
		}
	}
	for i := range snap {
		bad := append([]byte(nil), snap...)
		bad[i] ^= 0xff
		_ = m.RestoreInto(into, bad) // may or may not be detected; must not panic
	}
	if err := m.RestoreInto(into, snap); err != nil {
		t.Fatal(err)
	}
	if into.Hash() != st.Hash() {
		t.Fatal("restore into a reused state differs")
	}
}
