package vm

import (
	"slices"
	"testing"

	"github.com/wyvernmc/wyvern/internal/testutil"
)

// TestEnabledRace: on every state of random runs of programs with atomic
// sections, races (through platform calls too), locks, condition variables
// and joins, EnabledRace lists the processes EnabledThreads lists and finds
// a race exactly when DataRace does (it looks at each next instruction once
// instead of asking Enabled and NextAccess).
func TestEnabledRace(t *testing.T) {
	progs := append([]string{"../testdata/mt/atomic.c", "../testdata/mt/counter_race.c", "../testdata/mt/counter_mutex.c",
		"../testdata/mt/deadlock.c", "../testdata/smc/fib_4.c", "../testdata/smc/petersons.c",
		"../explicit/testdata/race_memcpy_src.c", "../explicit/testdata/race_printf.c", "../explicit/testdata/race_strcat.c"}, identityPrograms...)
	for _, path := range progs {
		m := NewMachine(testutil.Program(t, path))
		var en []int32
		var acc []Access
		states, races, atomics := 0, 0, 0
		for seed := uint64(1); seed <= 5; seed++ {
			st := m.NewState()
			rnd := NewRand(seed, 0)
			for step := 0; step < 500; step++ {
				var race bool
				en, acc, race = m.EnabledRace(st, en, acc)
				want := m.EnabledThreads(st, nil)
				if !slices.Equal(en, want) {
					t.Fatalf("%s: seed %d step %d: EnabledRace lists %v, EnabledThreads %v", path, seed, step, en, want)
				}
				if w := m.DataRace(st); race != w {
					t.Fatalf("%s: seed %d step %d: EnabledRace finds a race %v, DataRace %v", path, seed, step, race, w)
				}
				states++
				if race {
					races++
				}
				for _, th := range st.Threads {
					if th.Atomic > 0 && m.Enabled(st, th) {
						atomics++
						break
					}
				}
				if len(en) == 0 || st.Status != Running {
					break
				}
				m.StepOnly(st, en[rnd.Uint64()%uint64(len(en))], rnd)
				m.SettleEnd(st, 0)
			}
		}
		t.Logf("%s: %d states, %d with a race, %d with a process in an atomic section", path, states, races, atomics)
	}
}
