package vm

import (
	"strings"
	"testing"
)

// The programs of TestLeakChecks: each a small module whose verdict under
// the leak checks is known.
const leakDecls = `
declare i8* @malloc(i64)
declare void @free(i8*)
declare void @exit(i32)
declare void @abort()
@g = global i8* null
@gi = global i64 0
`

func TestLeakChecks(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		checks     LeakChecks
		want       ErrKind // ErrNone: the run exits normally
		detail     string  // in the error's detail
		bound      uint64  // step bound (default 10000)
	}{
		{name: "lost at main's return", checks: CheckMemTrack, want: ErrMemLeak, detail: "when main returned", body: `
define i32 @main() {
  %p = call i8* @malloc(i64 8)
  ret i32 0
}`},
		{name: "checks off: no error", checks: 0, want: ErrNone, body: `
define i32 @main() {
  %p = call i8* @malloc(i64 8)
  ret i32 0
}`},
		{name: "freed", checks: CheckMemTrack | CheckMemCleanup, want: ErrNone, body: `
define i32 @main() {
  %p = call i8* @malloc(i64 8)
  call void @free(i8* %p)
  ret i32 0
}`},
		{name: "held by a global: tracked", checks: CheckMemTrack, want: ErrNone, body: `
define i32 @main() {
  %p = call i8* @malloc(i64 8)
  store i8* %p, i8** @g
  ret i32 0
}`},
		{name: "held by a global: not cleaned up", checks: CheckMemTrack | CheckMemCleanup, want: ErrMemCleanup, detail: "1 heap block(s), 8 bytes, not freed when main returned", body: `
define i32 @main() {
  %p = call i8* @malloc(i64 8)
  store i8* %p, i8** @g
  ret i32 0
}`},
		{name: "held as an integer (ptrtoint)", checks: CheckMemTrack, want: ErrNone, body: `
define i32 @main() {
  %p = call i8* @malloc(i64 8)
  %i = ptrtoint i8* %p to i64
  store i64 %i, i64* @gi
  ret i32 0
}`},
		{name: "held by an interior pointer", checks: CheckMemTrack, want: ErrNone, body: `
define i32 @main() {
  %p = call i8* @malloc(i64 8)
  %q = getelementptr i8, i8* %p, i64 5
  store i8* %q, i8** @g
  ret i32 0
}`},
		{name: "held by a heap block held by a global", checks: CheckMemTrack, want: ErrNone, body: `
define i32 @main() {
  %p = call i8* @malloc(i64 8)
  %q = call i8* @malloc(i64 8)
  %pp = bitcast i8* %p to i8**
  store i8* %q, i8** %pp
  store i8* %p, i8** @g
  ret i32 0
}`},
		{name: "unlinked: the inner block lost when the outer is freed", checks: CheckMemTrack, want: ErrMemLeak, detail: "heap block", body: `
define void @f() {
  %p = call i8* @malloc(i64 8)
  %q = call i8* @malloc(i64 8)
  %pp = bitcast i8* %p to i8**
  store i8* %q, i8** %pp
  call void @free(i8* %p)
  ret void
}
define i32 @main() {
  call void @f()
  br label %spin
spin:
  br label %spin
}`, bound: 100},
		{name: "overwritten in a loop, found while running", checks: CheckMemTrack, want: ErrMemLeak, body: `
define i32 @main() {
  br label %loop
loop:
  %p = call i8* @malloc(i64 4)
  store i8* %p, i8** @g
  br label %loop
}`, bound: 1000},
		{name: "exit with the block on main's stack: tracked", checks: CheckMemTrack, want: ErrNone, body: `
define i32 @main() {
  %s = alloca i8*
  %p = call i8* @malloc(i64 8)
  store i8* %p, i8** %s
  store i8* null, i8** @g
  call void @exit(i32 0)
  unreachable
}`},
		{name: "exit in unoptimised code: a register main no longer reads holds nothing", checks: CheckMemTrack, want: ErrMemLeak, detail: "at exit", body: `
define i32 @main() #0 {
  %s = alloca i8*
  %p = call i8* @malloc(i64 8)
  store i8* %p, i8** %s
  store i8* null, i8** %s
  call void @exit(i32 0)
  unreachable
}
attributes #0 = { noinline optnone }`},
		{name: "exit in unoptimised code with the block on main's stack: tracked", checks: CheckMemTrack, want: ErrNone, body: `
define i32 @main() #0 {
  %s = alloca i8*
  %p = call i8* @malloc(i64 8)
  store i8* %p, i8** %s
  call void @exit(i32 0)
  unreachable
}
attributes #0 = { noinline optnone }`},
		{name: "unoptimised code looping after the leak: the dead register holds nothing", checks: CheckMemTrack, want: ErrMemLeak, body: `
define i32 @main() #0 {
entry:
  %s = alloca i8*
  %p = call i8* @malloc(i64 8)
  store i8* %p, i8** %s
  store i8* null, i8** %s
  br label %spin
spin:
  br label %spin
}
attributes #0 = { noinline optnone }`, bound: 100},
		{name: "unoptimised code looping with the block in a phi: tracked", checks: CheckMemTrack, want: ErrNone, body: `
define i32 @main() #0 {
entry:
  %p = call i8* @malloc(i64 8)
  br label %spin
spin:
  %q = phi i8* [ %p, %entry ], [ %q, %spin ]
  br label %spin
}
attributes #0 = { noinline optnone }`, bound: 100},
		{name: "unoptimised code looping with the block in a parameter: tracked", checks: CheckMemTrack, want: ErrNone, body: `
define void @f(i8* %x) #0 {
entry:
  br label %spin
spin:
  br label %spin
}
define i32 @main() #0 {
  %p = call i8* @malloc(i64 8)
  call void @f(i8* %p)
  ret i32 0
}
attributes #0 = { noinline optnone }`, bound: 100},
		{name: "exit with the block on main's stack: not cleaned up", checks: CheckMemCleanup, want: ErrMemCleanup, detail: "at exit", body: `
define i32 @main() {
  %s = alloca i8*
  %p = call i8* @malloc(i64 8)
  store i8* %p, i8** %s
  call void @exit(i32 0)
  unreachable
}`},
		{name: "abort with a block allocated", checks: CheckMemCleanup, want: ErrMemCleanup, detail: "Abort", body: `
define i32 @main() {
  %p = call i8* @malloc(i64 8)
  store i8* %p, i8** @g
  call void @abort()
  unreachable
}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := mustLL(t, leakDecls+tc.body)
			m.Leaks = tc.checks
			bound := tc.bound
			if bound == 0 {
				bound = 10000
			}
			st := m.NewState()
			m.Run(st, bound, NewRand(1, 0))
			if tc.want == ErrNone {
				if st.Status != Exited && (tc.bound == 0 || st.Status != StepBound) {
					t.Fatalf("%s, want an exit", st.Describe())
				}
				return
			}
			if st.Status != Failed || st.Err.Kind != tc.want {
				t.Fatalf("%s, want error %s", st.Describe(), tc.want)
			}
			if !strings.Contains(st.Err.Detail, tc.detail) {
				t.Errorf("detail %q, want it to contain %q", st.Err.Detail, tc.detail)
			}
			// The step-by-step path (explicit search's) finds it too.
			st2 := m.NewState()
			for st2.Status == Running && st2.Steps < bound {
				m.StepOnly(st2, 0, NewRand(1, 0))
				m.Settle(st2, nil)
			}
			if st2.Status != Failed || st2.Err.Kind != tc.want {
				t.Errorf("step by step: %s, want error %s", st2.Describe(), tc.want)
			}
		})
	}
}
