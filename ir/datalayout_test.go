package ir

import (
	"strings"
	"testing"
)

// TestDataLayout: a module for 32-bit pointers (clang -m32) is refused at
// load time, naming the cause; x86-64's layout and a module without one
// load.
func TestDataLayout(t *testing.T) {
	const body = "\ndefine i32 @main() {\n  ret i32 0\n}\n"
	for _, tc := range []struct {
		layout string
		err    string
	}{
		{"", ""},
		{`target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"`, ""},
		{`target datalayout = "e-m:e-p:64:64-i64:64"`, ""},
		{`target datalayout = "e-m:e-p:32:32-p270:32:32-p271:32:32-p272:64:64-f64:32:64-f80:32-n8:16:32-S128"`, "32-bit pointers"},
	} {
		_, err := ParseLL("t.ll", []byte(tc.layout+body))
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%q: %v", tc.layout, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%q: error %v, want one containing %q", tc.layout, err, tc.err)
		}
	}
}
