package ir

import (
	"slices"
	"testing"

	"github.com/llir/llvm/asm"
)

// TestUninitReads: the local integer variables a path may load before it
// stores them (their values are then inputs: uninitInputs), and those it
// may not: stored first on every path, stored in a loop before the first
// load, or with their address passed on (a callee may initialise them), an
// array, a struct.
func TestUninitReads(t *testing.T) {
	const decls = "declare void @use(i32*)\ndeclare i32 @get()\n"
	for _, tc := range []struct {
		name, body string
		want       []string
	}{
		{"read first", `
  %x = alloca i32
  %v = load i32, i32* %x
  ret i32 %v`, []string{"x"}},
		{"stored first", `
  %x = alloca i32
  store i32 1, i32* %x
  %v = load i32, i32* %x
  ret i32 %v`, nil},
		{"stored on one branch", `
  %x = alloca i32
  %c = call i32 @get()
  %b = icmp eq i32 %c, 0
  br i1 %b, label %then, label %join
then:
  store i32 1, i32* %x
  br label %join
join:
  %v = load i32, i32* %x
  ret i32 %v`, []string{"x"}},
		{"stored on both branches", `
  %x = alloca i32
  %y = alloca i8
  %c = call i32 @get()
  %b = icmp eq i32 %c, 0
  br i1 %b, label %then, label %else
then:
  store i32 1, i32* %x
  br label %join
else:
  store i32 2, i32* %x
  %w = load i8, i8* %y
  br label %join
join:
  %v = load i32, i32* %x
  ret i32 %v`, []string{"y"}},
		{"loop reads before its store", `
  %x = alloca i64
  %i = alloca i32
  store i32 0, i32* %i
  br label %head
head:
  %k = load i32, i32* %i
  %d = icmp slt i32 %k, 3
  br i1 %d, label %body, label %out
body:
  %v = load i64, i64* %x
  %v1 = add i64 %v, 1
  store i64 %v1, i64* %x
  %k1 = add i32 %k, 1
  store i32 %k1, i32* %i
  br label %head
out:
  ret i32 0`, []string{"x"}},
		{"address passed on", `
  %x = alloca i32
  call void @use(i32* %x)
  %v = load i32, i32* %x
  ret i32 %v`, nil},
		{"address stored", `
  %x = alloca i32
  %p = alloca i32*
  store i32* %x, i32** %p
  %v = load i32, i32* %x
  ret i32 %v`, nil},
		{"array and struct", `
  %a = alloca [4 x i32]
  %s = alloca { i32, i32 }
  %p = getelementptr [4 x i32], [4 x i32]* %a, i64 0, i64 1
  %v = load i32, i32* %p
  %q = getelementptr { i32, i32 }, { i32, i32 }* %s, i64 0, i32 1
  %w = load i32, i32* %q
  ret i32 %v`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mod, err := asm.ParseString("u.ll", decls+"define i32 @main() {\n"+tc.body+"\n}\n")
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, a := range uninitReads(mod.Funcs[len(mod.Funcs)-1]) {
				got = append(got, a.LocalName)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("read before written: %v, want %v", got, tc.want)
			}
		})
	}
}

// TestUninitInputs: the value of a variable read before it is written is
// drawn by a call of a __VERIFIER_nondet_ function of its width, stored
// right after its alloca; a variable written first is left alone.
func TestUninitInputs(t *testing.T) {
	src := `define i32 @main() {
  %x = alloca i16
  %y = alloca i32
  store i32 5, i32* %y
  %v = load i16, i16* %x
  %w = load i32, i32* %y
  ret i32 %w
}
`
	p, err := ParseLL("u.ll", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	fi, ok := p.FuncIdx[UninitPrefix+"16"]
	if !ok || p.Funcs[fi].Builtin != BNondet {
		t.Fatalf("no nondet function %s16 declared", UninitPrefix)
	}
	if _, ok := p.FuncIdx[UninitPrefix+"32"]; ok {
		t.Errorf("a nondet function for the 32-bit variable written first")
	}
	var calls, stores int
	for _, in := range p.Funcs[p.Entry].Code {
		if in.Op == OpCallB && in.B == int32(BNondet) {
			calls++
		}
		if in.Op == OpStore {
			stores++
		}
	}
	if calls != 1 || stores != 2 {
		t.Errorf("%d nondet calls and %d stores, want 1 and 2", calls, stores)
	}
}
