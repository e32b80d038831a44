package ir

import (
	"strings"
	"testing"
)

// TestDataLayout: the data model comes from the module's datalayout:
// x86-64's and a module without one are LP64, i386's (clang -m32) is
// ILP32; other 32-bit layouts and other pointer widths are refused at load
// time, naming the cause.
func TestDataLayout(t *testing.T) {
	const body = "\ndefine i32 @main() {\n  ret i32 0\n}\n"
	for _, tc := range []struct {
		layout string
		model  DataModel
		err    string
	}{
		{"", LP64, ""},
		{`target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"`, LP64, ""},
		{`target datalayout = "e-m:e-p:64:64-i64:64"`, LP64, ""},
		{`target datalayout = "e-m:e-p:32:32-p270:32:32-p271:32:32-p272:64:64-f64:32:64-f80:32-n8:16:32-S128"`, ILP32, ""},
		{`target datalayout = "e-m:e-p:32:32-Fi8-i64:64-v128:64:128-a:0:32-n32-S64"`, 0, "other than i386"},
		{`target datalayout = "e-p:16:16"`, 0, "16-bit pointers"},
	} {
		p, err := ParseLL("t.ll", []byte(tc.layout+body))
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%q: %v", tc.layout, err)
		case tc.err == "" && p.DataModel != tc.model:
			t.Errorf("%q: data model %s, want %s", tc.layout, p.DataModel, tc.model)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%q: error %v, want one containing %q", tc.layout, err, tc.err)
		}
	}
}

// TestPtr32 checks the 32-bit pointer form: round trips, null, the
// representable range and its order.
func TestPtr32(t *testing.T) {
	if x, ok := Ptr32(0); !ok || x != 0 {
		t.Fatalf("Ptr32(null) = %#x, %v", x, ok)
	}
	prev := uint32(0)
	for _, b := range []uint32{0, 1, 2, 100, Ptr32MaxBlock} {
		for _, off := range []int32{-Ptr32Bias, -1, 0, 1, 4096, 1<<Ptr32BlockShift - Ptr32Bias - 1} {
			if b == 0 && off < 0 {
				continue
			}
			p := MakePtr(b, uint32(off))
			x, ok := Ptr32(p)
			if !ok {
				t.Fatalf("block %d offset %d: no 32-bit form", b, off)
			}
			if b != 0 && x == 0 {
				t.Fatalf("block %d offset %d: 32-bit form 0", b, off)
			}
			if x < prev {
				t.Fatalf("block %d offset %d: %#x orders before %#x", b, off, x, prev)
			}
			prev = x
			if q := FromPtr32(x); q != p {
				t.Fatalf("block %d offset %d: %#x round-trips to %#x, want %#x", b, off, x, q, p)
			}
		}
	}
	if x, _ := Ptr32(MakePtr(3, 0)); x%Ptr32Bias != 0 {
		t.Errorf("a block's first byte %#x is not 64 KiB-aligned", x)
	}
	for _, p := range []uint64{MakePtr(Ptr32MaxBlock+1, 0), MakePtr(1, 1<<Ptr32BlockShift-Ptr32Bias), MakePtr(1, uint32(0xffffffff-Ptr32Bias)), MakePtr(0, 1<<Ptr32BlockShift)} {
		if x, ok := Ptr32(p); ok {
			t.Errorf("pointer %#x (block %d, offset %d): 32-bit form %#x, want none", p, PtrBlock(p), int32(PtrOff(p)), x)
		}
	}
}
