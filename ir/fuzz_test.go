package ir

import (
	"strings"
	"testing"
)

// FuzzParseLL feeds arbitrary text to the loader: it must return a program or
// an error, never panic. The seed corpus is in testdata/fuzz/FuzzParseLL.
func FuzzParseLL(f *testing.F) {
	f.Add([]byte("define i32 @main() {\nentry:\n  ret i32 0\n}\n"))
	f.Add([]byte("@g = global [4 x i32] [i32 1, i32 2, i32 3, i32 4]\ndefine i32 @main() {\nentry:\n  %p = getelementptr [4 x i32], [4 x i32]* @g, i64 0, i64 2\n  %v = load i32, i32* %p\n  ret i32 %v\n}\n"))
	f.Add([]byte("declare i32 @printf(i8*, ...)\n@s = constant [3 x i8] c\"%d\\00\"\ndefine i32 @main() {\nentry:\n  %r = call i32 (i8*, ...) @printf(i8* getelementptr ([3 x i8], [3 x i8]* @s, i64 0, i64 0), i32 7)\n  ret i32 0\n}\n"))
	f.Add([]byte("define i32 @main() {\nentry:\n  br label %l\nl:\n  %i = phi i32 [0, %entry], [%n, %l]\n  %n = add nsw i32 %i, 1\n  %c = icmp slt i32 %n, 10\n  br i1 %c, label %l, label %e\ne:\n  ret i32 %n\n}\n"))
	f.Add([]byte("define i32 @main() {\nentry:\n  %x = alloca bfloat\n  ret i32 0\n}\n"))
	f.Add([]byte("define i32 @main() {\nentry:\n  switch i32 1, label %a [ i32 0, label %b ]\na:\n  ret i32 1\nb:\n  ret i32 2\n}\n"))
	f.Add([]byte("%s = type { %s, i32 }\ndefine i32 @main() {\nentry:\n  ret i32 0\n}\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		p, err := ParseLL("fuzz.ll", src)
		if err == nil && p == nil {
			t.Fatal("nil program without error")
		}
		if err != nil && strings.TrimSpace(err.Error()) == "" {
			t.Fatal("empty error message")
		}
	})
}

func TestPrepassStripsReturnAlign(t *testing.T) {
	cases := []struct{ in, want string }{
		{"define dso_local noundef nonnull align 8 dereferenceable(16) %class.A* @f(i8* align 8 %x) {",
			"define dso_local noundef nonnull dereferenceable(16) %class.A* @f(i8* align 8 %x) {"},
		{"  %c = call noundef nonnull align 8 %class.A* @f(i8* align 8 %x)",
			"  %c = call noundef nonnull %class.A* @f(i8* align 8 %x)"},
		{"  call void @llvm.memcpy.p0i8.p0i8.i64(i8* align 8 %a, i8* align 8 %b, i64 8, i1 false)",
			"  call void @llvm.memcpy.p0i8.p0i8.i64(i8* align 8 %a, i8* align 8 %b, i64 8, i1 false)"},
		{"  %x = alloca i32, align 4", "  %x = alloca i32, align 4"},
	}
	for _, c := range cases {
		if got := string(Prepass([]byte(c.in))); got != c.want {
			t.Errorf("Prepass(%q)\n got %q\nwant %q", c.in, got, c.want)
		}
	}
}

// TestRecursiveTypes: a type that contains itself by value is refused at
// load time with the cycle named (it used to overflow the Go stack, a fatal
// error that killed the loader and every worker given the program); a type
// that refers to itself through a pointer is fine.
func TestRecursiveTypes(t *testing.T) {
	const main = "define i32 @main() {\nentry:\n  ret i32 0\n}\n"
	for _, c := range []struct{ src, want string }{
		{"%s = type { %s, i32 }\n" + main, "type s contains itself by value (s -> s)"},
		{"%a = type { [2 x %b] }\n%b = type { i8*, %a }\n" + main, "type a contains itself by value (a -> b -> a)"},
		{"%v = type { <2 x i32>, [3 x %v] }\n" + main, "type v contains itself by value"},
	} {
		_, err := ParseLL("rec.ll", []byte(c.src))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.src, err, c.want)
		}
	}
	if _, err := ParseLL("list.ll", []byte("%n = type { %n*, i32 }\n@g = global %n zeroinitializer\n"+main)); err != nil {
		t.Errorf("a list node type: %v", err)
	}
}
