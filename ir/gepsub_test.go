package ir

import (
	"strings"
	"testing"
)

// TestHoistGEPSub: a getelementptr whose index is a constant sub
// expression (the container_of idiom at -O0), which llir rejects, loads
// after Prepass hoists the index into a sub instruction of the same value.
func TestHoistGEPSub(t *testing.T) {
	const ll = `%struct.s = type { i32, i32 }

define i8* @f(i8* %p) {
  %q = getelementptr inbounds i8, i8* %p, i64 sub (i64 0, i64 ptrtoint (i32* getelementptr inbounds (%struct.s, %struct.s* null, i32 0, i32 1) to i64)), !dbg !1
  ret i8* %q
}

define i32 @main() {
  ret i32 0
}

!1 = !{}
`
	got := string(Prepass([]byte(ll)))
	for _, want := range []string{
		"  %wyvern.gepidx.0 = sub i64 0, ptrtoint (i32* getelementptr inbounds (%struct.s, %struct.s* null, i32 0, i32 1) to i64)\n",
		"  %q = getelementptr inbounds i8, i8* %p, i64 %wyvern.gepidx.0, !dbg !1\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("Prepass output lacks %q:\n%s", want, got)
		}
	}
	if _, err := ParseLL("gepsub.ll", []byte(strings.Replace(ll, ", !dbg !1", "", 1))); err != nil {
		t.Fatal(err)
	}
	// Lines without the pattern are left alone.
	plain := "  %x = getelementptr inbounds i8, i8* %p, i64 4\n"
	if got := string(Prepass([]byte(plain))); got != plain {
		t.Errorf("Prepass changed %q into %q", plain, got)
	}
}

// TestHoistGEPSub32: the same idiom compiled for i386 (clang -m32) has an
// i32 index, `i32 sub (i32 0, i32 ptrtoint (... to i32))`: hoisted the
// same way (SV-COMP's ldv-races container_of tasks failed to load under
// ILP32 without it).
func TestHoistGEPSub32(t *testing.T) {
	const ll = `%struct.s = type { i32, i32 }

define i8* @f(i8* %p) {
  %q = getelementptr inbounds i8, i8* %p, i32 sub (i32 0, i32 ptrtoint (i32* getelementptr inbounds (%struct.s, %struct.s* null, i32 0, i32 1) to i32))
  ret i8* %q
}

define i32 @main() {
  ret i32 0
}
`
	got := string(Prepass([]byte(ll)))
	for _, want := range []string{
		"  %wyvern.gepidx.0 = sub i32 0, ptrtoint (i32* getelementptr inbounds (%struct.s, %struct.s* null, i32 0, i32 1) to i32)\n",
		"  %q = getelementptr inbounds i8, i8* %p, i32 %wyvern.gepidx.0\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("Prepass output lacks %q:\n%s", want, got)
		}
	}
	if _, err := ParseLL("gepsub32.ll", []byte(ll)); err != nil {
		t.Fatal(err)
	}
}
