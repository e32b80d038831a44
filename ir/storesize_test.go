package ir

import (
	"slices"
	"testing"
)

// TestAccessWidths: a load or store accesses its type's store size, not its
// allocation size: an i24 3 bytes, an i48 6 (clang's accesses of bit-field
// runs), so that the byte after the run, another field's or past the end
// of a packed struct, is neither read nor written; aggregate leaves
// likewise, and a load of an odd width keeps exactly its bits.
func TestAccessWidths(t *testing.T) {
	for _, tc := range []struct {
		ty   string
		w    uint8
		mask uint64
	}{
		{"i1", 1, 1},
		{"i8", 1, 0},
		{"i16", 2, 0},
		{"i17", 3, 1<<17 - 1},
		{"i24", 3, 0},
		{"i32", 4, 0},
		{"i40", 5, 0},
		{"i48", 6, 0},
		{"i56", 7, 0},
		{"i63", 8, 1<<63 - 1},
		{"i64", 8, 0},
		{"double", 8, 0},
	} {
		src := "@g = global [16 x i8] zeroinitializer\n" +
			"define i32 @main() {\n" +
			"  %p = bitcast [16 x i8]* @g to " + tc.ty + "*\n" +
			"  %v = load " + tc.ty + ", " + tc.ty + "* %p\n" +
			"  store " + tc.ty + " %v, " + tc.ty + "* %p\n" +
			"  ret i32 0\n}\n"
		p, err := ParseLL("w.ll", []byte(src))
		if err != nil {
			t.Fatalf("%s: %v", tc.ty, err)
		}
		var load, store *Inst
		for i, in := range p.Funcs[p.Entry].Code {
			switch in.Op {
			case OpLoad:
				load = &p.Funcs[p.Entry].Code[i]
			case OpStore:
				store = &p.Funcs[p.Entry].Code[i]
			}
		}
		if load == nil || store == nil {
			t.Fatalf("%s: no load or store compiled", tc.ty)
		}
		if load.W != tc.w || store.W != tc.w {
			t.Errorf("%s: load of %d bytes, store of %d, want %d", tc.ty, load.W, store.W, tc.w)
		}
		if load.Imm != tc.mask {
			t.Errorf("%s: load mask %#x, want %#x", tc.ty, load.Imm, tc.mask)
		}
	}

	// a packed struct's leaves: the i24 at offset 1 is 3 bytes, the i8
	// after the unpacked struct's i24 is at its allocation size, 4
	src := "@g = global [16 x i8] zeroinitializer\n" +
		"define i32 @main() {\n" +
		"  %p = bitcast [16 x i8]* @g to <{ i8, i24 }>*\n" +
		"  %v = load <{ i8, i24 }>, <{ i8, i24 }>* %p\n" +
		"  %q = bitcast [16 x i8]* @g to { i24, i8 }*\n" +
		"  %u = load { i24, i8 }, { i24, i8 }* %q\n" +
		"  ret i32 0\n}\n"
	p, err := ParseLL("agg.ll", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Funcs[p.Entry].Aggs) != 2 {
		t.Fatalf("%d aggregate accesses, want 2", len(p.Funcs[p.Entry].Aggs))
	}
	for i, want := range []AggAccess{{Offs: []uint32{0, 1}, Sizes: []uint8{1, 3}}, {Offs: []uint32{0, 4}, Sizes: []uint8{3, 1}}} {
		got := p.Funcs[p.Entry].Aggs[i]
		if !slices.Equal(got.Offs, want.Offs) || !slices.Equal(got.Sizes, want.Sizes) {
			t.Errorf("aggregate %d: offsets %v sizes %v, want %v %v", i, got.Offs, got.Sizes, want.Offs, want.Sizes)
		}
	}
}
