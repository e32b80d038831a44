package vm

import (
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/wyvernmc/wyvern/internal/testutil"
	"github.com/wyvernmc/wyvern/ir"
)

// TestFusedSteps checks that superinstructions keep the step semantics: a
// run whose step budgets end at every possible place (inside fused pairs
// included) goes through exactly the states of a run taking one step per
// exec call (as the multi-threaded scheduler does), with the same errors at
// the same instructions, on the benchmark programs (at -O0 and -O1), the
// error programs and the multi-threaded ones.
func TestFusedSteps(t *testing.T) {
	testutil.NeedClang(t)
	var files []string
	for _, dir := range []string{"../testdata/bench", "../testdata/errors", "../testdata/mt"} {
		fs, _ := filepath.Glob(filepath.Join(dir, "*.c"))
		files = append(files, fs...)
	}
	if len(files) == 0 {
		t.Fatal("no programs")
	}
	steps := []uint64{1, 2, 3, 5, 1, 7, 2, 11}
	for _, f := range files {
		for _, opt := range []int{0, 1} {
			if opt == 1 && filepath.Base(filepath.Dir(f)) != "bench" {
				continue
			}
			name := fmt.Sprintf("%s/O%d", filepath.Base(f), opt)
			t.Run(name, func(t *testing.T) {
				p, err := ir.Load(f, ir.Options{OptLevel: opt})
				if err != nil {
					t.Fatal(err)
				}
				m := NewMachine(p)
				if m.code == nil {
					t.Fatal("no fused code: a function's Index is not its position")
				}
				a, b := m.NewState(), m.NewState()
				ra, rb := NewRand(7, 1), NewRand(7, 1)
				limit := uint64(20000)
				if testing.Short() {
					limit = 3000
				}
				for i := 0; a.Steps < limit; i++ {
					m.Run(a, a.Steps+steps[i%len(steps)], ra)
					for b.Steps < a.Steps && (b.Status == Running || b.Status == StepBound) {
						m.Run(b, b.Steps+1, rb)
					}
					if a.Status != StepBound && b.Status == StepBound {
						m.Run(b, b.Steps+1, rb) // a found the run's end before a step: deadlock
					}
					if d := diffStates(a, b); d != "" || (i%64 == 0 || a.Status != StepBound) && !slices.Equal(m.AppendKey(nil, a), m.AppendKey(nil, b)) {
						t.Fatalf("after %d steps: %s", a.Steps, d)
					}
					if a.Status != StepBound {
						break
					}
				}
			})
		}
	}
}

func diffStates(a, b *State) string {
	if a.Steps != b.Steps || a.Status != b.Status {
		return fmt.Sprintf("steps %d/%d status %v/%v", a.Steps, b.Steps, a.Status, b.Status)
	}
	if (a.Err == nil) != (b.Err == nil) || a.Err != nil && *a.Err != *b.Err {
		return fmt.Sprintf("errors %v / %v", a.Err, b.Err)
	}
	if string(a.Out) != string(b.Out) {
		return "outputs differ"
	}
	if len(a.Threads) != len(b.Threads) {
		return "thread counts differ"
	}
	for i, ta := range a.Threads {
		tb := b.Threads[i]
		if len(ta.Frames) != len(tb.Frames) || !slices.Equal(ta.Regs, tb.Regs) {
			return fmt.Sprintf("thread %d: frames or registers differ", i)
		}
		for j := range ta.Frames {
			if ta.Frames[j].PC != tb.Frames[j].PC {
				return fmt.Sprintf("thread %d frame %d: pc %d/%d", i, j, ta.Frames[j].PC, tb.Frames[j].PC)
			}
		}
	}
	if ha, hb := a.Mem.n, b.Mem.n; ha != hb {
		return "block counts differ"
	}
	return ""
}

// TestAccessCacheErrors checks that the access cache never hides a memory
// error: accesses to a block the cache held, after its frame returned or it
// was freed, and past its end (small and paged blocks, read-only pages),
// fail as without the cache, in one long exec call.
func TestAccessCacheErrors(t *testing.T) {
	const head = `
declare i8* @malloc(i64)
declare void @free(i8*)
@c = constant [8 x i32] zeroinitializer
@big = global [3000 x i32] zeroinitializer

define i32* @local() {
  %p = alloca i32
  store i32 1, i32* %p
  %v = load i32, i32* %p
  store i32 %v, i32* %p
  ret i32* %p
}
`
	cases := []struct {
		name, body string
		want       ErrKind
	}{
		{"use after return", `
  %p = call i32* @local()
  %v = load i32, i32* %p
  ret i32 %v`, ErrUseAfterReturn},
		{"use after free", `
  %m = call i8* @malloc(i64 8)
  %q = bitcast i8* %m to i32*
  store i32 1, i32* %q
  %v = load i32, i32* %q
  call void @free(i8* %m)
  %w = load i32, i32* %q
  ret i32 %w`, ErrUseAfterFree},
		{"past a small block", `
  %a = alloca [4 x i32]
  %p = getelementptr [4 x i32], [4 x i32]* %a, i64 0, i64 3
  store i32 1, i32* %p
  %v = load i32, i32* %p
  %q = getelementptr [4 x i32], [4 x i32]* %a, i64 0, i64 4
  store i32 %v, i32* %q
  ret i32 0`, ErrOutOfBounds},
		{"past a paged block", `
  %p = getelementptr [3000 x i32], [3000 x i32]* @big, i64 0, i64 2999
  store i32 1, i32* %p
  %v = load i32, i32* %p
  %q = getelementptr [3000 x i32], [3000 x i32]* @big, i64 0, i64 3000
  %w = load i32, i32* %q
  ret i32 %w`, ErrOutOfBounds},
		{"store to a constant after loads", `
  %p = getelementptr [8 x i32], [8 x i32]* @c, i64 0, i64 1
  %v = load i32, i32* %p
  %w = load i32, i32* %p
  store i32 %w, i32* %p
  ret i32 0`, ErrWriteConst},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := mustLL(t, head+"define i32 @main() {\nentry:"+c.body+"\n}\n")
			st := m.NewState()
			m.Run(st, 1000, NewRand(1, 0))
			if st.Status != Failed || st.Err.Kind != c.want {
				t.Fatalf("got %s, want error %v", st.Describe(), c.want)
			}
		})
	}
}

// TestAccessCacheCopyOnWrite checks that a load after a copy-on-write store
// reads the new bytes, not the shared ones the cache held (small and paged
// globals, from a state whose memory is all shared with the image).
func TestAccessCacheCopyOnWrite(t *testing.T) {
	m := mustLL(t, `
@s = global i32 3
@big = global [3000 x i32] zeroinitializer
define i32 @main() {
entry:
  %p = getelementptr [3000 x i32], [3000 x i32]* @big, i64 0, i64 5
  %a = load i32, i32* %p
  %b = load i32, i32* @s
  store i32 7, i32* %p
  store i32 4, i32* @s
  %c = load i32, i32* %p
  %d = load i32, i32* @s
  %e = mul i32 %c, 10
  %f = add i32 %e, %d
  ret i32 %f
}
`)
	st := m.NewState()
	m.Run(st, 1000, NewRand(1, 0))
	if st.Status != Exited || st.ExitCode != 74 {
		t.Fatalf("got %s, want exit 74", st.Describe())
	}
	st2 := m.NewState()
	m.Run(st2, 1000, NewRand(1, 0)) // the image is unchanged
	if st2.Status != Exited || st2.ExitCode != 74 {
		t.Fatalf("second run: %s", st2.Describe())
	}
}

// TestAccessCacheAcrossCalls: states stepped one exec call at a time (as
// the multi-threaded scheduler and explicit search step them) and cloned,
// copied or reset in between stay independent: no window cached writable
// in one is written through in another.
func TestAccessCacheAcrossCalls(t *testing.T) {
	m := mustLL(t, `
@g = global i32 0
@big = global [3000 x i32] zeroinitializer
define i32 @main() {
entry:
  %p = getelementptr [3000 x i32], [3000 x i32]* @big, i64 0, i64 7
  br label %loop
loop:
  %v = load i32, i32* @g
  %w = add i32 %v, 1
  store i32 %w, i32* @g
  store i32 %w, i32* %p
  br label %loop
}
`)
	read := func(st *State) (uint64, uint64) {
		x, _ := st.Mem.Load(ir.MakePtr(m.Prog.Globals[0].Block, 0), 4)
		y, _ := st.Mem.Load(ir.MakePtr(m.Prog.Globals[1].Block, 28), 4)
		return x, y
	}
	st := m.NewState()
	// one step at a time, as the multi-threaded scheduler runs: the cache
	// fills in one call and is used by the next
	for st.Steps < 50 {
		m.exec(st, st.Threads[0], 1, NewRand(1, 0), nil)
		st.Steps++
	}
	x0, y0 := read(st)
	if x0 == 0 || y0 == 0 {
		t.Fatalf("no stores ran: g = %d, big[7] = %d", x0, y0)
	}
	c := st.Clone()
	var cp State
	m.CopyInto(&cp, st)
	for i := 0; i < 20; i++ {
		m.exec(st, st.Threads[0], 1, NewRand(1, 0), nil)
	}
	if x, y := read(c); x != x0 || y != y0 {
		t.Fatalf("the clone changed with the original: g %d -> %d, big[7] %d -> %d", x0, x, y0, y)
	}
	if x, y := read(&cp); x != x0 || y != y0 {
		t.Fatalf("the copy changed with the original: g %d -> %d, big[7] %d -> %d", x0, x, y0, y)
	}
	x1, y1 := read(st)
	if x1 <= x0 || y1 <= y0 {
		t.Fatalf("the original did not go on: g %d -> %d", x0, x1)
	}
	for i := 0; i < 20; i++ {
		m.exec(c, c.Threads[0], 1, NewRand(1, 0), nil)
		m.exec(&cp, cp.Threads[0], 1, NewRand(1, 0), nil)
	}
	if x, y := read(st); x != x1 || y != y1 {
		t.Fatalf("the original changed with the clone: g %d -> %d", x1, x)
	}
	m.Reset(st)
	if x, y := read(st); x != 0 || y != 0 {
		t.Fatalf("after Reset g = %d, big[7] = %d", x, y)
	}
	m.exec(st, st.Threads[0], 5, NewRand(1, 0), nil)
	if x, _ := read(c); x <= x0 {
		t.Fatalf("the clone did not go on")
	}
	if x, _ := m.init.Load(ir.MakePtr(m.Prog.Globals[0].Block, 0), 4); x != 0 {
		t.Fatalf("the initial image changed: g = %d", x)
	}
}

// TestAuxCodes checks that the aux codes of fused load-op pairs are no
// opcode that loadOpFusable accepts: they share Aux with those opcodes (and
// their numbers, to keep exec's switch on Aux dense), so a fusable opcode
// among them would run as the wrong arithmetic.
func TestAuxCodes(t *testing.T) {
	for _, aux := range []ir.Op{auxAddNSW32, auxSubNSW32, auxAdd, auxSub, auxMul} {
		for _, flags := range []uint8{0, ir.FlagNSW, ir.FlagNUW, ir.FlagExact, ir.FlagLax} {
			if loadOpFusable(&ir.Inst{Op: aux, Flags: flags, W: 32}) {
				t.Errorf("aux code %d (%s) is a fusable opcode", aux, aux)
			}
		}
	}
	if auxAddNSW32 == auxSubNSW32 {
		t.Error("the aux codes of add and sub are the same")
	}
}

// TestCheckPCs checks that checkPCs refuses code in which exec could reach a
// pc outside the function (it reads instructions without bounds checks) and
// accepts well-formed code.
func TestCheckPCs(t *testing.T) {
	ret := ir.Inst{Op: ir.OpRet, A: -1}
	cases := []struct {
		name string
		fn   ir.Func
		ok   bool
	}{
		{"good", ir.Func{Code: []ir.Inst{{Op: ir.OpNop}, {Op: ir.OpJmp, Imm: 0}, ret}}, true},
		{"jmp out", ir.Func{Code: []ir.Inst{{Op: ir.OpJmp, Imm: 2}, ret}}, false},
		{"br out", ir.Func{Code: []ir.Inst{{Op: ir.OpBr, B: 1, C: -1}, ret}}, false},
		{"edge out", ir.Func{Code: []ir.Inst{{Op: ir.OpJmpE, Imm: 0}, ret}, Edges: []ir.Edge{{PC: 5}}}, false},
		{"no edge", ir.Func{Code: []ir.Inst{{Op: ir.OpBrE, B: 0, C: 1}, ret}, Edges: []ir.Edge{{PC: 1}}}, false},
		{"falls off", ir.Func{Code: []ir.Inst{ret, {Op: ir.OpAdd}}}, false},
		{"switch", ir.Func{Code: []ir.Inst{{Op: ir.OpSwitch, Imm: 0}, ret}, Edges: []ir.Edge{{PC: 1}},
			Switches: []ir.Switch{{Vals: []uint64{1}, Targets: []int32{1}, Default: 0}}}, false},
	}
	for _, c := range cases {
		func() {
			defer func() {
				if r := recover(); (r == nil) != c.ok {
					t.Errorf("%s: checkPCs panicked %v, want ok %v", c.name, r, c.ok)
				}
			}()
			checkPCs(&c.fn)
		}()
	}
}
