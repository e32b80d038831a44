package simulator

import (
	"testing"

	"github.com/wyvernmc/wyvern/internal/testutil"
	"github.com/wyvernmc/wyvern/query"
	"github.com/wyvernmc/wyvern/vm"
)

// TestDataRacePlatformCalls: simulation sees the races through platform
// calls (memset, memcpy, strlen, printf's %s, sprintf's destination:
// vm/race.go) — some of 400 traces of each racy program satisfy
// <> DataRace — and none of its race-free twin's.
func TestDataRacePlatformCalls(t *testing.T) {
	testutil.NeedClang(t)
	const traces = 400
	for _, tc := range []struct {
		file string
		racy bool
	}{
		{"race_memset.c", true},
		{"race_memset_mutex.c", false},
		{"race_memset_disjoint.c", false},
		{"race_memcpy_src.c", true},
		{"race_memcpy_src_ok.c", false},
		{"race_strlen.c", true},
		{"race_strlen_ok.c", false},
		{"race_printf.c", true},
		{"race_printf_mutex.c", false},
		{"race_sprintf.c", true},
	} {
		m := vm.NewMachine(testutil.Program(t, "../explicit/testdata/"+tc.file))
		q, err := query.Parse("Pr[<=200](<> DataRace)")
		if err != nil {
			t.Fatal(err)
		}
		c, err := query.Compile(q, m)
		if err != nil {
			t.Fatal(err)
		}
		tr := NewTracer(c)
		sat := 0
		for i := range uint64(traces) {
			if out, _ := tr.Trace(1, i); out.Sat {
				sat++
			}
		}
		if (sat > 0) != tc.racy {
			t.Errorf("%s: %d of %d traces reach a data race, want racy=%v", tc.file, sat, traces, tc.racy)
		}
	}
}
