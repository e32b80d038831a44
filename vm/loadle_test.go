package vm

import (
	"encoding/binary"
	"testing"
)

// TestLoadStoreLE: loadLE and storeLE read and write exactly w bytes for
// every access width 1 to 8 (odd ones are integers of odd widths, i24 to
// i56, accessed at their store sizes), little-endian, leaving the bytes
// around them alone.
func TestLoadStoreLE(t *testing.T) {
	const v = 0x8877665544332211
	for w := uint8(1); w <= 8; w++ {
		buf := make([]byte, 10)
		for i := range buf {
			buf[i] = 0xEE
		}
		storeLE(buf[1:1+w], w, v)
		if buf[0] != 0xEE || buf[1+w] != 0xEE {
			t.Errorf("w=%d: storeLE wrote outside its %d bytes: % x", w, w, buf)
		}
		want := uint64(v) & (^uint64(0) >> (64 - 8*uint(w)))
		var full [8]byte
		copy(full[:], buf[1:1+w])
		if got := binary.LittleEndian.Uint64(full[:]); got != want {
			t.Errorf("w=%d: stored % x, want the low %d bytes of %#x", w, buf[1:1+w], w, uint64(v))
		}
		if got := loadLE(buf[1:1+w], w); got != want {
			t.Errorf("w=%d: loadLE = %#x, want %#x", w, got, want)
		}
	}
}
