package vm_test

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/wyvernmc/wyvern/internal/testutil"
	"github.com/wyvernmc/wyvern/ir"
	"github.com/wyvernmc/wyvern/vm"
)

// Directories of the C programs exercised here, relative to the package.
const (
	mtDir     = "../testdata/mt"
	errorsDir = "../testdata/errors"
)

// stepBound is the step bound of every run; each program finishes in far
// fewer steps, so reaching it is a failure.
const stepBound = 2_000_000

// needClang skips the test when clang-14 is not installed, except in CI
// (CI=true) where a missing compiler is a failure.
func needClang(t *testing.T) { t.Helper(); testutil.NeedClang(t) }

var (
	progMu    sync.Mutex
	progCache = map[string]*ir.Program{}
)

// loadProg compiles a C program at -O0 once per test binary.
func loadProg(t *testing.T, path string) *ir.Program {
	t.Helper()
	progMu.Lock()
	p, ok := progCache[path]
	progMu.Unlock()
	if ok {
		return p
	}
	p, err := ir.Load(path, ir.Options{OptLevel: 0})
	if err != nil {
		t.Fatalf("load %s: %v", path, err)
	}
	progMu.Lock()
	progCache[path] = p
	progMu.Unlock()
	return p
}

// runTrace runs one trace of m under the scheduler keyed by (seed, index).
func runTrace(m *vm.Machine, seed, index uint64) *vm.State {
	st := m.NewState()
	m.Run(st, stepBound, vm.NewRand(seed, index))
	return st
}

// replay says how to reproduce a trace with the command-line tool.
func replay(path string, seed, index uint64) string {
	return fmt.Sprintf("wyvern run %s --seed %d --index %d", filepath.Base(path), seed, index)
}

// expectExit fails unless st exited normally with the given status and, if
// out is not nil, printed exactly out.
func expectExit(t *testing.T, path string, seed uint64, st *vm.State, code int32, out *string) {
	t.Helper()
	if st.Status != vm.Exited {
		t.Fatalf("%s: %s (%s)", replay(path, seed, 0), st.Describe(), "want a normal exit")
	}
	if st.ExitCode != code {
		t.Fatalf("%s: exit status %d, want %d", replay(path, seed, 0), st.ExitCode, code)
	}
	if out != nil && string(st.Out) != *out {
		t.Fatalf("%s: output %q, want %q", replay(path, seed, 0), st.Out, *out)
	}
}

func strp(s string) *string { return &s }

// TestMTPrograms runs the multi-threaded programs whose property must hold
// under every schedule: each seed must give a normal exit with the expected
// status (and output), never an error state, a deadlock or the step bound.
func TestMTPrograms(t *testing.T) {
	needClang(t)
	cases := []struct {
		file  string
		seeds uint64
		exit  int32
		out   *string
	}{
		{file: "counter_mutex.c", seeds: 300, exit: 60},
		{file: "join_values.c", seeds: 100, exit: 0, out: strp("returned 42, exited 100\n")},
		{file: "prodcons.c", seeds: 300, exit: 110},
		{file: "atomic.c", seeds: 300, exit: 120, out: strp("a=60 b=60\n")},
		{file: "rwlock.c", seeds: 300, exit: 20},
		{file: "once.c", seeds: 300, exit: 1},
		{file: "peterson.c", seeds: 500, exit: 60},
	}
	for _, tc := range cases {
		t.Run(strings.TrimSuffix(tc.file, ".c"), func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(mtDir, tc.file)
			m := vm.NewMachine(loadProg(t, path))
			steps := map[uint64]bool{}
			for seed := uint64(1); seed <= tc.seeds; seed++ {
				st := runTrace(m, seed, 0)
				expectExit(t, path, seed, st, tc.exit, tc.out)
				steps[st.Steps] = true
			}
			t.Logf("%d seeds, %d distinct trace lengths", tc.seeds, len(steps))
		})
	}
}

// TestMTAtomicSections checks, step by step, that no other process steps
// while a process is inside a __VERIFIER_atomic_* function or a
// __VERIFIER_atomic_begin/end section (atomic.c never blocks inside one).
func TestMTAtomicSections(t *testing.T) {
	needClang(t)
	path := filepath.Join(mtDir, "atomic.c")
	m := vm.NewMachine(loadProg(t, path))
	for seed := uint64(1); seed <= 100; seed++ {
		st := m.NewState()
		var prev *vm.Thread
		interleaved := 0
		m.Observe(st, stepBound, vm.NewRand(seed, 0), func(st *vm.State, th *vm.Thread) bool {
			if th == nil {
				return false // the final state
			}
			if prev != nil && prev != th && !prev.Done && prev.Atomic > 0 {
				interleaved++
			}
			prev = th
			return false
		})
		expectExit(t, path, seed, st, 120, strp("a=60 b=60\n"))
		if interleaved != 0 {
			t.Fatalf("%s: %d steps of another process inside an atomic section", replay(path, seed, 0), interleaved)
		}
	}
}

// TestObserveEveryStateOnce: Observe shows every state of a run exactly
// once — steps+1 states for a run that ends, the bound's state included —
// with the stepping process before each step and nil at the end, stops
// where the visitor says (status still Running), and draws exactly as Run.
func TestObserveEveryStateOnce(t *testing.T) {
	needClang(t)
	path := filepath.Join(mtDir, "counter_race.c")
	m := vm.NewMachine(loadProg(t, path))
	for seed := uint64(1); seed <= 20; seed++ {
		for _, bound := range []uint64{stepBound, 25} {
			st := m.NewState()
			visits, finals := uint64(0), 0
			stopped := m.Observe(st, bound, vm.NewRand(seed, 0), func(s *vm.State, th *vm.Thread) bool {
				if s.Steps != visits {
					t.Fatalf("seed %d: visit %d sees the state after %d steps", seed, visits, s.Steps)
				}
				visits++
				if th == nil {
					finals++
				}
				return false
			})
			ref := m.NewState()
			m.Run(ref, bound, vm.NewRand(seed, 0))
			if stopped || st.Status == vm.Running || visits != st.Steps+1 || finals != 1 {
				t.Fatalf("seed %d bound %d: stopped %v, status %s, %d visits for %d steps, %d final visits", seed, bound, stopped, st.Status, visits, st.Steps, finals)
			}
			if ref.Steps != st.Steps || ref.Status != st.Status || string(ref.Out) != string(st.Out) {
				t.Fatalf("seed %d bound %d: Observe ran %d steps (%s), Run %d (%s)", seed, bound, st.Steps, st.Status, ref.Steps, ref.Status)
			}
		}
		st := m.NewState()
		n := 0
		if !m.Observe(st, stepBound, vm.NewRand(seed, 0), func(*vm.State, *vm.Thread) bool { n++; return n == 5 }) || st.Steps != 4 || st.Status != vm.Running {
			t.Fatalf("seed %d: a visitor stopping at the fifth state leaves %d steps, status %s", seed, st.Steps, st.Status)
		}
	}
}

// TestMTCounterRace checks that the unprotected counter loses an update
// under some schedule and keeps every update under another.
func TestMTCounterRace(t *testing.T) {
	needClang(t)
	path := filepath.Join(mtDir, "counter_race.c")
	m := vm.NewMachine(loadProg(t, path))
	const want = 10 // 2 threads x 5 increments
	hist := map[int32]int{}
	lostSeed, rightSeed := uint64(0), uint64(0)
	for seed := uint64(1); seed <= 500; seed++ {
		st := runTrace(m, seed, 0)
		if st.Status != vm.Exited {
			t.Fatalf("%s: %s, want a normal exit", replay(path, seed, 0), st.Describe())
		}
		c := st.ExitCode
		// With two threads doing n increments each, the final count lies in [2, 2n].
		if c < 2 || c > want {
			t.Fatalf("%s: count %d outside [2, %d]", replay(path, seed, 0), c, want)
		}
		hist[c]++
		if c < want && lostSeed == 0 {
			lostSeed = seed
		}
		if c == want && rightSeed == 0 {
			rightSeed = seed
		}
	}
	t.Logf("final counts over 500 seeds: %v", hist)
	if lostSeed == 0 {
		t.Errorf("no seed lost an update of the unprotected counter (all %d)", want)
	}
	if rightSeed == 0 {
		t.Errorf("no seed kept every update of the unprotected counter")
	}
}

// TestMTDeadlock checks that taking two mutexes in opposite orders deadlocks
// under some schedule and completes under another, and that nothing else
// happens.
func TestMTDeadlock(t *testing.T) {
	needClang(t)
	path := filepath.Join(mtDir, "deadlock.c")
	m := vm.NewMachine(loadProg(t, path))
	deadlocks, exits := 0, 0
	for seed := uint64(1); seed <= 300; seed++ {
		st := runTrace(m, seed, 0)
		switch st.Status {
		case vm.Deadlock:
			deadlocks++
			if len(st.Threads) != 3 {
				t.Fatalf("%s: deadlock with %d processes, want 3", replay(path, seed, 0), len(st.Threads))
			}
			for _, th := range st.Threads {
				if th.Done {
					t.Fatalf("%s: deadlock but process %d has finished", replay(path, seed, 0), th.ID)
				}
			}
		case vm.Exited:
			exits++
			if st.ExitCode != 2 {
				t.Fatalf("%s: exit status %d, want 2", replay(path, seed, 0), st.ExitCode)
			}
		default:
			t.Fatalf("%s: %s, want a deadlock or a normal exit", replay(path, seed, 0), st.Describe())
		}
	}
	t.Logf("300 seeds: %d deadlocks, %d exits", deadlocks, exits)
	if deadlocks == 0 {
		t.Error("no seed deadlocked")
	}
	if exits == 0 {
		t.Error("no seed completed")
	}
}

// TestMTPetersonBroken checks that the mutual-exclusion check of peterson.c
// is able to fail: the broken variant reaches reach_error() under some seed.
func TestMTPetersonBroken(t *testing.T) {
	needClang(t)
	path := filepath.Join(mtDir, "peterson_broken.c")
	m := vm.NewMachine(loadProg(t, path))
	violations, exits := 0, 0
	for seed := uint64(1); seed <= 500; seed++ {
		st := runTrace(m, seed, 0)
		switch st.Status {
		case vm.Failed:
			if st.Err.Kind != vm.ErrReachError || st.Err.Func != "proc" || st.Err.Thread == 0 {
				t.Fatalf("%s: %v, want ReachError in proc of a created thread", replay(path, seed, 0), st.Err)
			}
			violations++
		case vm.Exited:
			exits++
			if st.ExitCode != 60 {
				t.Fatalf("%s: exit status %d, want 60", replay(path, seed, 0), st.ExitCode)
			}
		default:
			t.Fatalf("%s: %s", replay(path, seed, 0), st.Describe())
		}
	}
	t.Logf("500 seeds: %d mutual-exclusion violations, %d exits", violations, exits)
	if violations == 0 {
		t.Error("broken Peterson never violated mutual exclusion: the check in peterson.c may be vacuous")
	}
	if exits == 0 {
		t.Error("broken Peterson never completed")
	}
}

// TestProgramsDeterminism checks that a trace is a function of (seed,
// index): running the same pair twice, on fresh states, gives the same step
// count, status, exit status, output and error.
func TestProgramsDeterminism(t *testing.T) {
	needClang(t)
	files, err := filepath.Glob(filepath.Join(mtDir, "*.c"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no programs in %s (%v)", mtDir, err)
	}
	for _, path := range files {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".c"), func(t *testing.T) {
			t.Parallel()
			m := vm.NewMachine(loadProg(t, path))
			for _, seed := range []uint64{1, 2, 7, 1234567} {
				for _, index := range []uint64{0, 1, 99} {
					a := runTrace(m, seed, index)
					b := runTrace(m, seed, index)
					where := fmt.Sprintf("%s twice", replay(path, seed, index))
					if a.Steps != b.Steps || a.Status != b.Status || a.ExitCode != b.ExitCode {
						t.Fatalf("%s: (%d steps, %s, exit %d) then (%d steps, %s, exit %d)", where,
							a.Steps, a.Status, a.ExitCode, b.Steps, b.Status, b.ExitCode)
					}
					if !bytes.Equal(a.Out, b.Out) {
						t.Fatalf("%s: output %q then %q", where, a.Out, b.Out)
					}
					if (a.Err == nil) != (b.Err == nil) || a.Err != nil && *a.Err != *b.Err {
						t.Fatalf("%s: error %v then %v", where, a.Err, b.Err)
					}
				}
			}
		})
	}
}

var errMarker = regexp.MustCompile(`//\s*ERROR:\s*([A-Za-z]+)\s*$`)

// errorCase is one program of testdata/errors with its marker.
type errorCase struct {
	path string
	kind string // ErrKind name from the marker
	line int32  // line of the marker
}

func readErrorCases(t *testing.T) []errorCase {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(errorsDir, "*.c"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no programs in %s (%v)", errorsDir, err)
	}
	var cases []errorCase
	for _, path := range files {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		var found []errorCase
		sc := bufio.NewScanner(f)
		for line := int32(1); sc.Scan(); line++ {
			if mm := errMarker.FindStringSubmatch(sc.Text()); mm != nil {
				found = append(found, errorCase{path: path, kind: mm[1], line: line})
			}
		}
		f.Close()
		if err := sc.Err(); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if len(found) != 1 {
			t.Fatalf("%s: %d `// ERROR: Kind` markers, want exactly 1", path, len(found))
		}
		if _, ok := vm.ErrKindByName(found[0].kind); !ok {
			t.Fatalf("%s:%d: marker names unknown error kind %q", path, found[0].line, found[0].kind)
		}
		cases = append(cases, found[0])
	}
	return cases
}

// errorSkips lists programs whose error the VM is known to report
// differently from the marker, with the reason. Empty: every kind is
// reported as marked.
var errorSkips = map[string]string{}

// errorThread is the process expected to fail, where it is not main (0).
var errorThread = map[string]int32{
	"unlock_other_thread.c": 1,
}

// TestErrorsPrograms runs every program of testdata/errors once (-O0, seed
// 1) and checks that it ends in an error state of the marked kind, on the
// marked line of that file.
func TestErrorsPrograms(t *testing.T) {
	needClang(t)
	for _, tc := range readErrorCases(t) {
		base := filepath.Base(tc.path)
		t.Run(strings.TrimSuffix(base, ".c"), func(t *testing.T) {
			t.Parallel()
			if why, ok := errorSkips[base]; ok {
				t.Skip(why)
			}
			m := vm.NewMachine(loadProg(t, tc.path))
			if k, _ := vm.ErrKindByName(tc.kind); vm.LeakChecksFor(k) != 0 {
				m.Leaks = vm.LeakChecksFor(k) // (off by default)
			}
			st := runTrace(m, 1, 0)
			if st.Status != vm.Failed || st.Err == nil {
				t.Fatalf("%s: %s, want error %s at line %d", replay(tc.path, 1, 0), st.Describe(), tc.kind, tc.line)
			}
			e := st.Err
			if got := e.Kind.String(); got != tc.kind {
				t.Errorf("kind %s, want %s (%v)", got, tc.kind, e)
			}
			if e.Loc.Line != tc.line {
				t.Errorf("line %d, want %d (%v)", e.Loc.Line, tc.line, e)
			}
			if got := filepath.Base(e.Loc.File); got != base {
				t.Errorf("file %q, want %q (%v)", e.Loc.File, base, e)
			}
			if e.Thread != errorThread[base] {
				t.Errorf("process %d, want %d (%v)", e.Thread, errorThread[base], e)
			}
			if !strings.Contains(e.Error(), "("+tc.kind+")") {
				t.Errorf("error message %q does not name the kind %s", e.Error(), tc.kind)
			}
		})
	}
}

// TestErrorsCoverAllKinds checks that testdata/errors has a program for
// every error kind the VM can report.
func TestErrorsCoverAllKinds(t *testing.T) {
	needClang(t)
	have := map[string]bool{}
	for _, tc := range readErrorCases(t) {
		have[tc.kind] = true
	}
	var missing []string
	for k := vm.ErrKind(1); k.String() != "Error?"; k++ {
		if !have[k.String()] {
			missing = append(missing, k.String())
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("no program in %s for error kind(s) %s", errorsDir, strings.Join(missing, ", "))
	}
}
