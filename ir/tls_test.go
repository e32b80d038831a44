package ir

import "testing"

// TestThreadLocalGlobals: thread-local globals (__thread, _Thread_local,
// any TLS model) are marked, ordinary ones are not.
func TestThreadLocalGlobals(t *testing.T) {
	src := "@x = thread_local global i32 5\n@y = internal thread_local(initialexec) global i64 0\n@z = global i32 1\n" +
		"define i32 @main() {\nentry:\n  %v = load i32, i32* @x\n  ret i32 %v\n}\n"
	p, err := ParseLL("tls.ll", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]bool{"x": true, "y": true, "z": false} {
		if g := p.Globals[p.GlobalIdx[name]]; g.ThreadLocal != want {
			t.Errorf("@%s: ThreadLocal %v, want %v", name, g.ThreadLocal, want)
		}
	}
}
