package ir

import (
	"strings"
	"testing"
)

// TestThreadLocalRejected: a thread-local global (one copy per thread) is
// a load-time error naming it, not silently one shared variable.
func TestThreadLocalRejected(t *testing.T) {
	for _, src := range []string{
		"@x = thread_local global i32 5\ndefine i32 @main() {\nentry:\n  %v = load i32, i32* @x\n  ret i32 %v\n}\n",
		"@y = internal thread_local(initialexec) global i64 0\ndefine i32 @main() {\nentry:\n  ret i32 0\n}\n",
	} {
		_, err := ParseLL("tls.ll", []byte(src))
		if err == nil || !strings.Contains(err.Error(), "thread-local variable") {
			t.Errorf("%q: error %v, want a thread-local rejection", src, err)
		}
	}
	if _, err := ParseLL("g.ll", []byte("@x = global i32 5\ndefine i32 @main() {\nentry:\n  ret i32 0\n}\n")); err != nil {
		t.Errorf("an ordinary global: %v", err)
	}
}
