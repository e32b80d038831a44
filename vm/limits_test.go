package vm

import (
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// mallocLoopLL mallocs 1 MiB N times (N = 0: forever), freeing each block
// when FREE is 1, writing one byte into each.
const mallocLoopLL = `
declare i8* @malloc(i64)
declare void @free(i8*)
@n = global i32 NN
@doFree = global i32 FREE
define i32 @main() {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %next, %cont ]
  %p = call i8* @malloc(i64 1048576)
  store i8 1, i8* %p
  %f = load i32, i32* @doFree
  %dofree = icmp ne i32 %f, 0
  br i1 %dofree, label %release, label %cont
release:
  call void @free(i8* %p)
  br label %cont
cont:
  %next = add i32 %i, 1
  %lim = load i32, i32* @n
  %forever = icmp eq i32 %lim, 0
  %more = icmp slt i32 %next, %lim
  %go = or i1 %forever, %more
  br i1 %go, label %loop, label %done
done:
  ret i32 0
}
`

func mallocLoop(t testing.TB, n, free string) *Machine {
	return mustLL(t, strings.NewReplacer("NN", n, "FREE", free).Replace(mallocLoopLL))
}

// heapMiB is the Go heap in use after a collection.
func heapMiB() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapInuse >> 20
}

// TestMemoryLimit: while(1) malloc(1 MiB) ends in the error ResourceLimit
// at the per-run limit, naming it, instead of exhausting the host's memory;
// freed blocks do not count; a limit of 0 is none.
func TestMemoryLimit(t *testing.T) {
	m := mallocLoop(t, "0", "0")
	m.MaxMemory = 64 << 20
	st := m.NewState()
	m.Run(st, 1e8, nil)
	if st.Status != Failed || st.Err.Kind != ErrResourceLimit || !strings.Contains(st.Err.Detail, "per-run limit of 67108864 bytes") {
		t.Fatalf("malloc forever under a 64 MiB limit: %v %v", st.Status, st.Err)
	}
	if st.Mem.Live() > 64<<20 {
		t.Errorf("%d bytes live, above the limit", st.Mem.Live())
	}
	// The default limit holds too, within Go's memory.
	d := mallocLoop(t, "0", "0")
	st = d.NewState()
	d.Run(st, 1e8, nil)
	if st.Status != Failed || st.Err.Kind != ErrResourceLimit {
		t.Fatalf("malloc forever under the default limit: %v %v", st.Status, st.Err)
	}
	if h := heapMiB(); h > DefaultMaxMemory>>20+64 {
		t.Errorf("Go heap %d MiB under a %d MiB limit", h, DefaultMaxMemory>>20)
	}
	// Freed blocks are not live: 1000 x (malloc 1 MiB, free) under 64 MiB.
	f := mallocLoop(t, "1000", "1")
	f.MaxMemory = 64 << 20
	st = f.NewState()
	f.Run(st, 1e8, nil)
	if st.Status != Exited || st.Mem.Live() != 0 {
		t.Errorf("malloc/free 1000 times: %v %v, %d bytes live", st.Status, st.Err, st.Mem.Live())
	}
	// Snapshots keep the count.
	g := mallocLoop(t, "10", "0")
	st = g.NewState()
	g.Run(st, 40, nil)
	snap := g.Snapshot(st)
	rs, err := g.Restore(snap)
	if err != nil {
		t.Fatal(err)
	}
	if rs.Mem.Live() != st.Mem.Live() || st.Mem.Live() == 0 {
		t.Errorf("restored live bytes %d, snapshot of %d", rs.Mem.Live(), st.Mem.Live())
	}
}

// TestMemoryLimitInCopies: a state CopyInto copies into a zero State (as
// explicit search's generator builds successors in fresh states) keeps the
// per-run memory limit: the copy's run ends in ResourceLimit at the
// limit, as the original's does.
func TestMemoryLimitInCopies(t *testing.T) {
	m := mallocLoop(t, "0", "0")
	m.MaxMemory = 8 << 20
	st := m.NewState()
	for range 20 { // a few blocks allocated
		m.StepOnly(st, 0, nil)
	}
	c := new(State)
	m.CopyInto(c, st)
	if c.Mem.limit != st.Mem.limit || c.Mem.limit == 0 {
		t.Fatalf("copy's memory limit %d, the original's %d", c.Mem.limit, st.Mem.limit)
	}
	for i := 0; i < 1e5 && c.Status == Running; i++ {
		m.StepOnly(c, 0, nil)
	}
	if c.Status != Failed || c.Err.Kind != ErrResourceLimit {
		t.Fatalf("malloc forever in a copy under an 8 MiB limit: %v %v", c.Status, c.Err)
	}
}

// TestStackLimit: alloca in a loop ends in ResourceLimit; recursion past
// MaxDepth in StackOverflow naming the depth.
func TestStackLimit(t *testing.T) {
	m := mustLL(t, `
define i32 @main() {
entry:
  br label %loop
loop:
  %p = alloca [65536 x i8]
  br label %loop
}`)
	m.MaxMemory = 8 << 20
	st := m.NewState()
	m.Run(st, 1e7, nil)
	if st.Status != Failed || st.Err.Kind != ErrResourceLimit || !strings.Contains(st.Err.Detail, "memory") {
		t.Errorf("alloca forever: %v %v", st.Status, st.Err)
	}
	r := mustLL(t, `
define i32 @f(i32 %x) {
  %y = add i32 %x, 1
  %r = call i32 @f(i32 %y)
  ret i32 %r
}
define i32 @main() {
  %r = call i32 @f(i32 0)
  ret i32 %r
}`)
	r.MaxDepth = 100
	st = r.NewState()
	r.Run(st, 1e7, nil)
	if st.Status != Failed || st.Err.Kind != ErrStackOverflow || !strings.Contains(st.Err.Detail, "call depth 100") {
		t.Errorf("infinite recursion: %v %v", st.Status, st.Err)
	}
}

// TestProcessLimit: pthread_create in a loop ends in ResourceLimit at
// MaxProcs.
func TestProcessLimit(t *testing.T) {
	m := mustLL(t, `
declare i32 @pthread_create(i64*, i8*, i8* (i8*)*, i8*)
define i8* @worker(i8* %a) {
  br label %spin
spin:
  br label %spin
}
define i32 @main() {
entry:
  %tid = alloca i64
  br label %loop
loop:
  %r = call i32 @pthread_create(i64* %tid, i8* null, i8* (i8*)* @worker, i8* null)
  br label %loop
}`)
	m.MaxProcs = 10
	st := m.NewState()
	var rnd Rand
	rnd.Reset(1, 0)
	m.Run(st, 1e7, &rnd)
	if st.Status != Failed || st.Err.Kind != ErrResourceLimit || !strings.Contains(st.Err.Detail, "processes: more than the per-run limit of 10") {
		t.Errorf("pthread_create forever: %v %v", st.Status, st.Err)
	}
	if len(st.Threads) > 11 {
		t.Errorf("%d processes", len(st.Threads))
	}
}

// TestResetFreesRunMemory: runs that each malloc 100 x 1 MiB on one reused
// state (as a worker runs traces) do not accumulate memory: a recycled
// block table used to keep the large blocks' pages of every earlier run
// (73 MiB more Go heap per run).
func TestResetFreesRunMemory(t *testing.T) {
	m := mallocLoop(t, "100", "0")
	st := m.NewState()
	var first uint64
	for i := 0; i < 15; i++ {
		m.Reset(st)
		m.Run(st, 1e6, nil)
		if st.Status != Exited {
			t.Fatalf("run %d: %v %v", i, st.Status, st.Err)
		}
		h := heapMiB()
		if i == 0 {
			first = h
		} else if h > first+32 {
			t.Fatalf("run %d: Go heap %d MiB after %d MiB after the first run: runs leak", i, h, first)
		}
	}
}

// programSizeLL is a program whose main body is BODY, with printf, puts,
// sprintf, memset and malloc declared and a 64-byte buffer @buf.
const programSizeLL = `
declare i32 @printf(i8*, ...)
declare i32 @sprintf(i8*, i8*, ...)
declare i32 @puts(i8*)
declare i8* @malloc(i64)
declare i8* @memset(i8*, i32, i64)
@buf = global [64 x i8] zeroinitializer
@fmt = constant [FMTLEN x i8] c"FMT\00"
@line = constant [4096 x i8] c"LINE\00"
GLOBALS
define i32 @main() {
entry:
  %f = getelementptr [FMTLEN x i8], [FMTLEN x i8]* @fmt, i64 0, i64 0
  %b = getelementptr [64 x i8], [64 x i8]* @buf, i64 0, i64 0
  %l = getelementptr [4096 x i8], [4096 x i8]* @line, i64 0, i64 0
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
BODY
  %next = add i32 %i, 1
  br label %loop
}
`

// TestProgramSizes: every size a program passes to the platform (field
// widths and precisions, output, buffer lengths, globals) is bounded by
// the per-run memory limit: the run ends in ResourceLimit naming what was
// asked (or the memory error of the access), and the host allocates no
// more than the limit (printf("%1099511627776d") used to make Go allocate
// 1 TiB and die).
func TestProgramSizes(t *testing.T) {
	for _, tc := range []struct {
		name, fmt, body, globals string
		limit                    uint64 // 0: the default
		kind                     ErrKind
		detail                   string
	}{
		{name: "printf width 2^40", fmt: `%1099511627776d\0A`,
			body: `  call i32 (i8*, ...) @printf(i8* %f, i32 1)`,
			kind: ErrResourceLimit, detail: "printf: field width 1099511627776 would pass the per-run memory limit"},
		{name: "printf width 10^8 in a loop", fmt: `%100000000d\0A`,
			body: `  call i32 (i8*, ...) @printf(i8* %f, i32 %i)`,
			kind: ErrResourceLimit, detail: "printf: field width 100000000 would pass the per-run memory limit"},
		{name: "printf width past int64", fmt: `%99999999999999999999999d`,
			body: `  call i32 (i8*, ...) @printf(i8* %f, i32 1)`,
			kind: ErrResourceLimit, detail: "printf: field width 576460752303423488"},
		{name: "printf star width", fmt: `%*d`,
			body: `  call i32 (i8*, ...) @printf(i8* %f, i32 2147483647, i32 1)`,
			kind: ErrResourceLimit, detail: "printf: field width 2147483647"},
		{name: "printf float precision 2^40", fmt: `%.1099511627776f`,
			body: `  call i32 (i8*, ...) @printf(i8* %f, double 1.0)`,
			kind: ErrResourceLimit, detail: "printf: precision 1099511627776"},
		{name: "sprintf width 2^40", fmt: `%1099511627776d`,
			body: `  call i32 (i8*, i8*, ...) @sprintf(i8* %b, i8* %f, i32 1)`,
			kind: ErrResourceLimit, detail: "sprintf: field width 1099511627776"},
		{name: "printf output past the limit", fmt: `%s%s%s%s%s%s%s%s`, limit: 1 << 20,
			body: `  call i32 (i8*, ...) @printf(i8* %f, i8* %l, i8* %l, i8* %l, i8* %l, i8* %l, i8* %l, i8* %l, i8* %l)`,
			kind: ErrResourceLimit, detail: "printf: output:"},
		{name: "puts forever", fmt: `x`, limit: 1 << 20,
			body: `  call i32 @puts(i8* %l)`,
			kind: ErrResourceLimit, detail: "puts: output: 4096 more bytes"},
		{name: "memset of 2 GiB into 64 bytes", fmt: `x`,
			body: `  call i8* @memset(i8* %b, i32 1, i64 2147483648)`,
			kind: ErrOutOfBounds, detail: "memset of 2147483648 bytes"},
		{name: "malloc past the limit", fmt: `x`, limit: 1 << 20,
			body: `  %p = call i8* @malloc(i64 2097152)
  store i8 1, i8* %p`,
			kind: ErrResourceLimit, detail: "memory: 2097152 more bytes"},
		{name: "globals past the limit", fmt: `x`, limit: 1 << 20,
			globals: `@huge = global [2097152 x i8] zeroinitializer`,
			body:    `  call i32 @puts(i8* %l)`,
			kind:    ErrResourceLimit, detail: "memory: 2101314 bytes of globals pass the per-run limit of 1048576 bytes"},
		{name: "globals count against malloc", fmt: `x`, limit: 3 << 20,
			globals: `@huge = global [2097152 x i8] zeroinitializer`,
			body: `  %p = call i8* @malloc(i64 1048576)
  store i8 1, i8* %p`,
			kind: ErrResourceLimit, detail: "with 0 live and 2101314 of globals would pass the per-run limit of 3145728 bytes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fmtLen := len(strings.ReplaceAll(tc.fmt, `\0A`, "\n")) + 1
			src := strings.NewReplacer("FMTLEN", strconv.Itoa(fmtLen), "FMT", tc.fmt, "BODY", tc.body,
				"GLOBALS", tc.globals, "LINE", strings.Repeat("a", 4095)).Replace(programSizeLL)
			m := mustLL(t, src)
			if tc.limit > 0 {
				m.MaxMemory = tc.limit
			}
			st := m.NewState()
			m.Run(st, 1e6, nil)
			if st.Status != Failed || st.Err.Kind != tc.kind || !strings.Contains(st.Err.Detail, tc.detail) {
				t.Fatalf("got %v %v, want %v with %q", st.Status, st.Err, tc.kind, tc.detail)
			}
			if h := heapMiB(); h > m.MaxMemory>>20+64 {
				t.Errorf("Go heap %d MiB under a %d MiB limit", h, m.MaxMemory>>20)
			}
		})
	}
}
