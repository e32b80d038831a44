package explicit

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/wyvernmc/wyvern/vm"
)

// TestPartQueue: a partQueue gives back every encoding put in it, in order,
// word for word, with its hash, whatever changes from one to the next (a
// few words, a part's length, the number of parts, everything; parts of
// more words than a segment), with puts and takes interleaved; stored
// reports exactly the parts that differ from the encoding taken before;
// the words counted come back to 0; and an empty queue's take is an
// error.
func TestPartQueue(t *testing.T) {
	type kind struct {
		name string
		next func(r *rand.Rand, p [][]uint64) [][]uint64
	}
	clone := func(p [][]uint64) [][]uint64 {
		q := make([][]uint64, len(p))
		for i := range p {
			q[i] = slices.Clone(p[i])
		}
		return q
	}
	randomPart := func(r *rand.Rand, n int) []uint64 {
		w := make([]uint64, n)
		for i := range w {
			w[i] = r.Uint64N(4) // few values: words often equal by chance
		}
		return w
	}
	kinds := []kind{
		{"words", func(r *rand.Rand, p [][]uint64) [][]uint64 {
			q := clone(p)
			for range r.IntN(4) {
				i := r.IntN(len(q))
				if len(q[i]) > 0 {
					q[i][r.IntN(len(q[i]))] = r.Uint64()
				}
			}
			return q
		}},
		{"lengths", func(r *rand.Rand, p [][]uint64) [][]uint64 {
			q := clone(p)
			i := r.IntN(len(q))
			q[i] = randomPart(r, r.IntN(5))
			return q
		}},
		{"parts", func(r *rand.Rand, p [][]uint64) [][]uint64 {
			q := clone(p)
			if r.IntN(2) == 0 && len(q) > 1 {
				return q[:len(q)-1]
			}
			return append(q, randomPart(r, 1+r.IntN(3)))
		}},
		{"whole", func(r *rand.Rand, p [][]uint64) [][]uint64 {
			q := make([][]uint64, 1+r.IntN(70)) // (over 64 parts: two words of bits)
			for i := range q {
				q[i] = randomPart(r, r.IntN(140))
			}
			return q
		}},
		{"huge", func(r *rand.Rand, p [][]uint64) [][]uint64 {
			q := clone(p)
			q[0] = randomPart(r, queueSegWords+r.IntN(100))
			return q
		}},
	}
	r := rand.New(rand.NewPCG(1, 2))
	var q partQueue
	var queued [][][]uint64
	var hashes []vm.Hash128
	var prevTaken [][]uint64
	cur := [][]uint64{{3, 0, 2}, {1, 2, 3}, {4}, {5, 6}}
	var p partList
	for step := range 20000 {
		if r.IntN(3) != 0 || len(queued) == 0 {
			k := kinds[r.IntN(len(kinds))]
			if k.name == "huge" && r.IntN(50) != 0 || k.name == "whole" && r.IntN(5) != 0 {
				k = kinds[0]
			}
			cur = k.next(r, cur)
			p.reset()
			for _, w := range cur {
				p.add(w)
			}
			h := vm.Hash128{r.Uint64(), r.Uint64()}
			q.put(h, &p)
			queued, hashes = append(queued, clone(cur)), append(hashes, h)
			continue
		}
		h, got, _, err := q.take()
		if err != nil {
			t.Fatalf("step %d: %v", step, err)
		}
		want := queued[0]
		if h != hashes[0] {
			t.Fatalf("step %d: hash %x, want %x", step, h, hashes[0])
		}
		if got.n() != len(want) {
			t.Fatalf("step %d: %d parts, want %d", step, got.n(), len(want))
		}
		for i, w := range want {
			if !slices.Equal(got.part(i), w) {
				t.Fatalf("step %d: part %d is %v, want %v", step, i, got.part(i), w)
			}
			differs := i >= len(prevTaken) || !slices.Equal(w, prevTaken[i])
			if q.stored(i) != differs {
				t.Fatalf("step %d: part %d stored %v, differs from the one taken before %v", step, i, q.stored(i), differs)
			}
		}
		prevTaken = want
		queued, hashes = queued[1:], hashes[1:]
	}
	for len(queued) > 0 {
		_, got, _, err := q.take()
		if err != nil {
			t.Fatal(err)
		}
		if got.n() != len(queued[0]) {
			t.Fatalf("draining: %d parts, want %d", got.n(), len(queued[0]))
		}
		queued = queued[1:]
	}
	if q.words() != 0 {
		t.Errorf("empty queue holds %d words", q.words())
	}
	if _, _, _, err := q.take(); err == nil {
		t.Error("take from an empty queue: no error")
	}
}

// TestPartQueueSteady: a queue that stays about as long as it is allocates
// nothing once its segments exist (they are reused), and an entry that
// changes a few words of an encoding of the same layout takes a few words.
func TestPartQueueSteady(t *testing.T) {
	var q partQueue
	var p partList
	parts := [][]uint64{make([]uint64, 3), make([]uint64, 30), make([]uint64, 20), {7}, {1, 2, 3}, {4, 5, 6}}
	put := func(i int) int {
		p.reset()
		for k, w := range parts {
			if k == 1 {
				w[0] = uint64(i) // a pc
				w[5] = uint64(i * 3)
			}
			p.add(w)
		}
		return q.put(vm.Hash128{uint64(i), 1}, &p)
	}
	for i := range 100_000 {
		put(i)
	}
	// 3 words (hash, count), 1 of bits (60 words), the 2 words changed
	if n := put(100_000); n != 6 {
		t.Errorf("an entry changing 2 words takes %d words, want 6", n)
	}
	i := 100_001
	allocs := testing.AllocsPerRun(10, func() {
		for range 10_000 {
			put(i)
			i++
			if _, _, _, err := q.take(); err != nil {
				t.Fatal(err)
			}
		}
	})
	if allocs != 0 {
		t.Errorf("%.1f allocations a round of 10 000 puts and takes, want 0", allocs)
	}
}

// TestPartQueueDrains: a queue that empties after every entry, or every few,
// gives back every entry in order across many segments' ends: once a queue
// that had emptied and then opened a new segment (the entry did not fit in
// the rest of the one it was reading) reported itself empty.
func TestPartQueueDrains(t *testing.T) {
	for _, burst := range []int{1, 3} {
		var q partQueue
		var p partList
		next := 0 // the next entry taken
		for step := range 100_000 {
			p.reset()
			p.add([]uint64{0, 0, 1})
			w := make([]uint64, 10+step%7) // (other layouts now and then)
			for i := range w {
				w[i] = uint64(step*7 + i) // every word differs
			}
			p.add(w)
			q.put(vm.Hash128{uint64(step), 0}, &p)
			if step%burst != burst-1 {
				continue
			}
			for ; next <= step; next++ {
				h, got, _, err := q.take()
				if err != nil {
					t.Fatalf("burst %d, entry %d: %v", burst, next, err)
				}
				if h[0] != uint64(next) || got.n() != 2 || got.part(1)[0] != uint64(next*7) {
					t.Fatalf("burst %d: entry %d has hash %d, first word %d", burst, next, h[0], got.part(1)[0])
				}
			}
			if q.words() != 0 {
				t.Fatalf("burst %d: drained queue holds %d words", burst, q.words())
			}
		}
	}
}
