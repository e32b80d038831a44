package ir

import (
	"slices"
	"strings"
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
		{"alloca in a loop", `
  br label %head
head:
  %x = alloca i32
  %v = load i32, i32* %x
  store i32 1, i32* %x
  %d = icmp slt i32 %v, 3
  br i1 %d, label %head, label %out
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
// drawn by a call of a __VERIFIER_nondet_ function of its width and sign
// (the debug information's type; signed without one), stored right after
// its alloca; a variable written first is left alone; a function of the
// program that has the name but another signature keeps it; and the
// functions declared for it take blocks before the first dynamic one.
func TestUninitInputs(t *testing.T) {
	src := `declare i64 @__VERIFIER_nondet_uninit_i16()
declare void @llvm.dbg.declare(metadata, metadata, metadata)
define i32 @main() !dbg !5 {
  %0 = add i32 1, 2
  %x = alloca i16
  %y = alloca i32
  %u = alloca i32
  call void @llvm.dbg.declare(metadata i32* %u, metadata !10, metadata !DIExpression()), !dbg !12
  store i32 5, i32* %y
  %v = load i16, i16* %x
  %w = load i32, i32* %y
  %z = load i32, i32* %u
  %q = call i64 @__VERIFIER_nondet_uninit_i16()
  ret i32 %w
}
!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "clang", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "u.c", directory: "/tmp")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "main", scope: !1, file: !1, line: 1, type: !6, unit: !0, spFlags: DISPFlagDefinition)
!6 = !DISubroutineType(types: !7)
!7 = !{!8}
!8 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!9 = !DIBasicType(name: "unsigned int", size: 32, encoding: DW_ATE_unsigned)
!10 = !DILocalVariable(name: "u", scope: !5, file: !1, line: 2, type: !9)
!12 = !DILocation(line: 2, column: 12, scope: !5)
`
	p, err := ParseLL("u.ll", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{UninitPrefix + "i16_", UninitPrefix + "u32"} {
		fi, ok := p.FuncIdx[name]
		if !ok || p.Funcs[fi].Builtin != BNondet {
			t.Errorf("no nondet function %s declared", name)
		}
	}
	if _, ok := p.FuncIdx[UninitPrefix+"i32"]; ok {
		t.Errorf("a nondet function for the 32-bit variable written first")
	}
	// the inserted calls have names of their own: %0 keeps its slot
	regs := p.Funcs[p.Entry].RegSlots
	if c, ok := regs["wyvern.uninit.0"]; !ok || c == regs["0"] {
		t.Errorf("registers %v: the first input's call has no slot of its own", regs)
	}
	if want := p.FirstFuncBlock + uint32(len(p.Funcs)); p.FirstDynBlock != want {
		t.Errorf("first dynamic block %d, want %d: after the %d functions' blocks", p.FirstDynBlock, want, len(p.Funcs))
	}
	var calls, stores int
	f := p.Funcs[p.Entry]
	for pc, in := range f.Code {
		if in.Op == OpCallB && in.B == int32(BNondet) {
			calls++
			// the unsigned variable's input is drawn at its declaration
			if cs := f.Calls[in.Imm]; strings.HasPrefix(p.Funcs[cs.Callee].Name, UninitPrefix+"u") {
				if loc := p.Locs[f.Locs[pc]]; loc.Line != 2 || loc.Col != 12 {
					t.Errorf("the input of u is drawn at %+v, want line 2, column 12", loc)
				}
			}
		}
		if in.Op == OpStore {
			stores++
		}
	}
	if calls != 3 || stores != 3 {
		t.Errorf("%d nondet calls and %d stores, want 3 (two inputs, the program's own call) and 3", calls, stores)
	}
}
