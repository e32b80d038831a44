package explicit

import (
	"sync"
	"testing"

	"github.com/wyvernmc/wyvern/vm"
)

// TestStoreSeen: the compact table's concurrent probe finds every state
// added before it (across the table's growths) and never one that was not
// added, while the owner goes on adding (run under -race by make test).
func TestStoreSeen(t *testing.T) {
	s := newStore(true, true)
	s.share()
	mix := func(x uint64) uint64 { // splitmix64's finaliser
		x ^= x >> 30
		x *= 0xbf58476d1ce4e5b9
		x ^= x >> 27
		x *= 0x94d049bb133111eb
		return x ^ x>>31
	}
	// distinct fingerprints; i%5 == 0 shares h[0] with i+1, differing
	// only in h[1]'s top byte, and state 3 has h[0] == 0 (stored as 1)
	h := func(i uint64) vm.Hash128 {
		lo := mix(i &^ 1)
		if i == 3 {
			lo = 0
		}
		if i%5 != 0 && i%5 != 1 {
			lo = mix(i)
		}
		return vm.Hash128{lo, uint64(byte(i)) << 56}
	}
	const n = 200_000
	published := make(chan uint64, n)
	var wg sync.WaitGroup
	for r := 0; r < 2; r++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for added := range published {
				// every state added before the signal is found
				for _, i := range []uint64{added, added / 2, added / 3} {
					if !s.seen(h(i)) {
						t.Errorf("state %d added, not seen", i)
						return
					}
				}
				// a state never added is not
				if s.seen(h(n + added)) {
					t.Errorf("state %d seen, never added", n+added)
					return
				}
			}
		}()
	}
	for i := uint64(0); i < n; i++ {
		if _, added := s.add(h(i), nil, nil, noRec, 0, nil); !added {
			t.Errorf("state %d not added", i)
			break
		}
		if i%97 == 0 {
			published <- i
		}
	}
	close(published)
	wg.Wait()
	if s.slots <= minSlots {
		t.Fatalf("the table never grew (%d slots)", s.slots)
	}
}
