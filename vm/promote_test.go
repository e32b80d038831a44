package vm

import (
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/wyvernmc/wyvern/internal/testutil"
	"github.com/wyvernmc/wyvern/ir"
)

// TestPromotedSteps checks that promoted allocas (fuse.go: promotable) keep
// the semantics: a run of the promoted code whose step budgets end at every
// possible place (short budgets, and long ones in which the slots serve
// many loads) goes, state by state, through exactly the states of a run of
// the unpromoted code taking one step per exec call (registers, pcs,
// outputs, errors, and the state keys, which hold all of memory), on the
// benchmark programs (at -O0 and -O1), the error programs and the
// multi-threaded ones. It also checks that the -O0 benchmarks have promoted
// loads, so that the comparison is not vacuous.
func TestPromotedSteps(t *testing.T) {
	testutil.NeedClang(t)
	var files []string
	for _, dir := range []string{"../testdata/bench", "../testdata/errors", "../testdata/mt"} {
		fs, _ := filepath.Glob(filepath.Join(dir, "*.c"))
		files = append(files, fs...)
	}
	if len(files) == 0 {
		t.Fatal("no programs")
	}
	steps := []uint64{1, 2, 3, 5, 1, 7, 2, 11, 4, 150, 1, 1000, 3}
	for _, f := range files {
		for _, opt := range []int{0, 1} {
			bench := filepath.Base(filepath.Dir(f)) == "bench"
			if opt == 1 && !bench {
				continue
			}
			name := fmt.Sprintf("%s/O%d", filepath.Base(f), opt)
			t.Run(name, func(t *testing.T) {
				p, err := ir.Load(f, ir.Options{OptLevel: opt})
				if err != nil {
					t.Fatal(err)
				}
				mp := NewMachine(p)
				mu := NewMachine(p)
				mu.code = fuseProgram(p, false, mu.reuse)
				if mp.code == nil || mu.code == nil {
					t.Fatal("no fused code: a function's Index is not its position")
				}
				if bench && opt == 0 && countOps(mp.code, opLoadS, opLoadSOp) == 0 {
					t.Fatal("no promoted loads")
				}
				a, b := mp.NewState(), mu.NewState()
				ra, rb := NewRand(7, 1), NewRand(7, 1)
				limit := uint64(20000)
				if testing.Short() {
					limit = 5000
				}
				for i := 0; a.Steps < limit; i++ {
					mp.Run(a, a.Steps+steps[i%len(steps)], ra)
					catchUp(t, mp, mu, a, b, rb, i)
					if a.Status != StepBound {
						break
					}
				}
			})
		}
	}
}

func countOps(code [][]ir.Inst, ops ...ir.Op) int {
	n := 0
	for _, c := range code {
		for _, in := range c {
			if slices.Contains(ops, in.Op) {
				n++
			}
		}
	}
	return n
}

// TestPromotable checks the escape analysis on small functions: only the
// scalar allocas used as the address of loads and stores of their own size
// are promoted.
func TestPromotable(t *testing.T) {
	m := mustLL(t, `
define void @use(i32* %p) {
  ret void
}
@g = global i32* null
define i32 @main() {
entry:
  %ok = alloca i32
  %ok8 = alloca i64
  %passed = alloca i32
  %stored = alloca i32
  %gepped = alloca i32
  %narrow = alloca i32
  %arr = alloca [4 x i32]
  %cmp = alloca i32
  %ptr = alloca i32*
  store i32 1, i32* %ok
  store i64 1, i64* %ok8
  store i32 1, i32* %passed
  call void @use(i32* %passed)
  store i32* %stored, i32** @g
  %q = getelementptr i32, i32* %gepped, i64 0
  store i32 2, i32* %q
  %c = bitcast i32* %narrow to i8*
  store i8 1, i8* %c
  %e = icmp eq i32* %cmp, null
  store i32* %ok, i32** %ptr
  %v = load i32, i32* %ok
  %w = load i64, i64* %ok8
  %x = load i32*, i32** %ptr
  ret i32 %v
}
`)
	fn := m.Prog.Funcs[m.Prog.FuncIdx["main"]]
	got := promotable(fn)
	want := map[string]bool{"ok8": true, "ptr": true}
	for name, slot := range fn.RegSlots {
		_, promoted := got[slot]
		if promoted != want[name] {
			t.Errorf("%%%s: promoted %v, want %v", name, promoted, want[name])
		}
	}
	if len(got) != len(want) {
		t.Errorf("promoted %d allocas, want %d", len(got), len(want))
	}
}

// TestPromotedForged: a store through a pointer forged to a promoted alloca
// by integer arithmetic (past 2^32, into the next block: undefined behaviour
// in C, but the interpreter runs it) is seen by the alloca's later loads, as
// without promotion, whether or not the forged pointer's block was in the
// access cache before.
func TestPromotedForged(t *testing.T) {
	const src = `
define i32 @main() {
entry:
  %y = alloca i32
  %x = alloca i32
  store i32 1, i32* %x
  %a = load i32, i32* %x
  %yi = ptrtoint i32* %y to i64
  %fi = add i64 %yi, 4294971392
  %f = inttoptr i64 %fi to i32*
  store i32 7, i32* %f
  %b = load i32, i32* %x
  %g = load i32, i32* %f
  store i32 2, i32* %x
  store i32 9, i32* %f
  %c = load i32, i32* %x
  %h = load i32, i32* %x
  %s1 = mul i32 %b, 100
  %s2 = mul i32 %c, 10
  %s3 = add i32 %s1, %s2
  %s4 = add i32 %s3, %a
  %s5 = add i32 %s4, %g
  %s6 = sub i32 %s5, %h
  ret i32 %s6
}
`
	p, err := ir.ParseLL("forged.ll", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	mp, mu := NewMachine(p), NewMachine(p)
	mu.code = fuseProgram(p, false, mu.reuse)
	if countOps(mp.code, opLoadS, opLoadSOp) == 0 {
		t.Fatal("x is not promoted")
	}
	const want = 7*100 + 9*10 + 1 + 7 - 9
	for _, m := range []*Machine{mu, mp} {
		st := m.NewState()
		m.Run(st, 1000, NewRand(1, 0))
		if st.Status != Exited || st.ExitCode != want {
			t.Fatalf("promoted %v: got %s (exit %d), want exit %d", m == mp, st.Describe(), st.ExitCode, want)
		}
	}
}

// catchUp runs b, on the unfused reference machine mu, one step at a time
// to a's step count (a ran on mp in longer calls) and checks that the two
// states agree: field by field every time, by canonical key every fourth
// call i and at the end of the run.
func catchUp(t *testing.T, mp, mu *Machine, a, b *State, rb Chooser, i int) {
	t.Helper()
	for b.Steps < a.Steps && (b.Status == Running || b.Status == StepBound) {
		mu.Run(b, b.Steps+1, rb)
	}
	if a.Status != StepBound && b.Status == StepBound {
		mu.Run(b, b.Steps+1, rb) // a found the run's end before a step: deadlock
	}
	if d := diffStates(a, b); d != "" {
		t.Fatalf("after %d steps: %s", a.Steps, d)
	}
	if (i%4 == 0 || a.Status != StepBound) && !slices.Equal(mp.AppendKey(nil, a), mu.AppendKey(nil, b)) {
		t.Fatalf("after %d steps: state keys differ", a.Steps)
	}
}
