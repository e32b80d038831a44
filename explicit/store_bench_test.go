package explicit

import (
	"testing"

	"github.com/wyvernmc/wyvern/vm"
)

// BenchmarkStoreCompact replays a synthetic visited-set workload shaped
// like fib_8's compact search: 3 368 242 new states among 7 985 425
// transitions, each a look-up of a random 128-bit hash, the hits uniform
// over the states added so far (no locality: every probe a cache miss).
func BenchmarkStoreCompact(b *testing.B) {
	const states, trans = 3368242, 7985425
	mix := func(x uint64) uint64 { // splitmix64
		x += 0x9e3779b97f4a7c15
		x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
		x = (x ^ x>>27) * 0x94d049bb133111eb
		return x ^ x>>31
	}
	hash := func(j uint64) vm.Hash128 { return vm.Hash128{mix(2 * j), mix(2*j + 1)} }
	for i := 0; i < b.N; i++ {
		s := newStore(true, true)
		added, rnd := uint64(0), uint64(1)
		for t := uint64(0); t < trans; t++ {
			rnd = mix(rnd)
			j := added
			// a new state with probability states/trans
			if added > 0 && rnd%trans >= states {
				j = (rnd >> 32) % added
			}
			_, ok := s.add(hash(j), nil, nil, uint32(t*states/trans), int32(rnd&3), nil)
			if ok != (j == added) {
				b.Fatalf("transition %d: added %v", t, ok)
			}
			if ok {
				added++
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(trans)/float64(i+1), "ns/transition")
		b.ReportMetric(float64(s.bytes())/float64(added), "bytes/state")
	}
}
