package ir

import "testing"

// TestIntegerAddresses checks the pointer layout (pointers are integer
// addresses, ptrtoint and inttoptr the identity): PtrBlock and PtrOff
// take MakePtr apart, null is 0, integers below 2^32 are null-block
// pointers, the low 32 bits of a pointer to any byte of a block (up to its
// largest size, 2^31 bytes, one past the end included) are never 0, a
// block's first byte is 4096-aligned, and addresses order by block, then
// offset.
func TestIntegerAddresses(t *testing.T) {
	blocks := []uint32{1, 2, 3, 100, 1<<18 - 1, 1 << 18, 1<<18 + 1, 1 << 20, 1<<32 - 1}
	offs := []uint32{0, 1, 7, 4095, 4096, 1 << 20, 1<<31 - 1, 1 << 31}
	for _, b := range blocks {
		for _, o := range offs {
			p := MakePtr(b, o)
			if uint32(p) == 0 {
				t.Errorf("block %d offset %d: low 32 bits of %#x are 0", b, o, p)
			}
			if PtrBlock(p) != b || PtrOff(p) != o {
				t.Errorf("block %d offset %d: %#x splits into block %d offset %d", b, o, p, PtrBlock(p), PtrOff(p))
			}
			if p&Mask(32) == 0 { // (int)p: ptrtoint to i32
				t.Errorf("block %d offset %d: (int)p is 0", b, o)
			}
			if o == 0 && p%4096 != 0 {
				t.Errorf("block %d: address %#x of offset 0 is not 4096-aligned", b, p)
			}
			if o < 1<<31 && MakePtr(b, o+1)-p != 1 {
				t.Errorf("block %d offset %d: the next byte is not one address further", b, o)
			}
		}
	}
	for _, x := range []uint64{0, 1, 0xdeadbeef, 1<<32 - 1} {
		if PtrBlock(x) != 0 || PtrOff(x) != uint32(x) {
			t.Errorf("integer %#x is not a null-block pointer at its own offset", x)
		}
	}
	if MakePtr(0, 0) != 0 {
		t.Errorf("null is %#x", MakePtr(0, 0))
	}
	// order: by block, then offset, as pointer comparisons
	if !(MakePtr(1, 1<<31) < MakePtr(2, 0)) {
		t.Error("addresses of consecutive blocks do not follow block order")
	}
}
