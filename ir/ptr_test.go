package ir

import "testing"

// TestIntegerAddresses checks ptrtoint/inttoptr: round trips both ways,
// null is 0, integers below 2^32 are null-block pointers, and the low 32
// bits of a pointer to any byte of a block (up to its largest size, 2^31
// bytes, one past the end included) are never 0.
func TestIntegerAddresses(t *testing.T) {
	blocks := []uint32{1, 2, 3, 100, 1<<18 - 1, 1 << 18, 1<<18 + 1, 1 << 20, 1<<32 - 1}
	offs := []uint32{0, 1, 7, 4095, 4096, 1 << 20, 1<<31 - 1, 1 << 31}
	for _, b := range blocks {
		for _, o := range offs {
			p := MakePtr(b, o)
			x := PtrToInt(p)
			if uint32(x) == 0 {
				t.Errorf("block %d offset %d: low 32 bits of %#x are 0", b, o, x)
			}
			if IntToPtr(x) != p {
				t.Errorf("block %d offset %d: inttoptr(ptrtoint(p)) = %#x, want %#x", b, o, IntToPtr(x), p)
			}
			if o == 0 && x%4096 != 0 {
				t.Errorf("block %d: address %#x of offset 0 is not 4096-aligned", b, x)
			}
		}
	}
	for _, x := range []uint64{0, 1, 0xdeadbeef, 1<<32 - 1, 1 << 32, 0x123456789abcdef0, 1<<64 - 1} {
		if PtrToInt(IntToPtr(x)) != x {
			t.Errorf("ptrtoint(inttoptr(%#x)) = %#x", x, PtrToInt(IntToPtr(x)))
		}
		if x < 1<<32 && IntToPtr(x) != x {
			t.Errorf("inttoptr(%#x) = %#x, want a null-block pointer", x, IntToPtr(x))
		}
	}
	if PtrToInt(0) != 0 {
		t.Errorf("ptrtoint(null) = %#x", PtrToInt(0))
	}
	// order: by block, then offset, as pointer comparisons
	if !(PtrToInt(MakePtr(1, 1<<31)) < PtrToInt(MakePtr(2, 0))) {
		t.Error("integer addresses of consecutive blocks do not follow block order")
	}
}
