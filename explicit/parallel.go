package explicit

import (
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/wyvernmc/wyvern/vm"
)

// Parallel breadth-first search (Options.Workers > 1). The search runs in
// rounds. A round takes the first parRound states of the queue (leaving
// them there) and expands them in parallel: the searching goroutine and
// Workers-1 helpers claim blocks of parBlock consecutive states, each with
// its own generator, and write every successor's fingerprint, process,
// choices (and, with full storage, encoding) into the block's buffer; a
// successor already in the visited set (which nothing changes during the
// expansion) is recorded without its state. Then the searching goroutine
// alone merges the buffers in queue order, doing per state and successor
// exactly what the sequential search does when it takes that state from
// the queue and generates that successor (limit checks, progress, visited
// set, classification, queue, early stop). Since the queue is FIFO, the
// states a round appends come after the ones it expands, so every count,
// record number, depth, witness and cut-off is the sequential search's.
// What a round expanded past the state where the search stops is dropped.
//
// The successors' generation depends on the state expanded alone (the
// reductions run processes' invisible steps, never consult the visited
// set), so it may run anywhere; the depth-first order, whose next state is
// the last successor generated, stays sequential.

const (
	parRound = 2048 // states expanded per round
	parBlock = 32   // states a goroutine claims at once
)

// psucc is a generated successor waiting to be merged.
type psucc struct {
	st       *vm.State // nil: it was in the visited set before the round
	h        vm.Hash128
	tid      int32
	ch0, ch1 uint32 // its choices: pblock.choices[ch0:ch1]
	k0, k1   uint32 // its encoding (full storage): pblock.keys[k0:k1]
}

// pblock is the buffer of one block of a round's states.
type pblock struct {
	lo, hi  int // the round's states it expands
	succs   []psucc
	ends    []int // ends[i]: end in succs of the successors of state lo+i
	keys    []uint64
	choices []uint64
	err     error // the expansion of the last state in ends failed so
	w       *pworker
}

// pworker is one goroutine's generator and buffers.
type pworker struct {
	sr      *searcher
	g       *gen
	parts   *vm.PartsHasher
	key     []uint64
	en      []int32
	blk     *pblock
	curSt   *vm.State
	curHash vm.Hash128
}

// par runs the rounds of a parallel search.
type par struct {
	sr      *searcher
	ws      []*pworker // ws[0]: the searching goroutine's
	items   []item     // the round's states
	blocks  []pblock
	nblocks int
	next    atomic.Int64 // next block to claim
	wg      sync.WaitGroup
	start   []chan struct{} // one per helper
}

func newPar(sr *searcher) *par {
	p := &par{sr: sr, blocks: make([]pblock, (parRound+parBlock-1)/parBlock)}
	for i := 0; i < sr.workers; i++ {
		w := &pworker{sr: sr, g: sr.g, parts: sr.parts}
		if i > 0 {
			w.g = &gen{m: sr.m, red: sr.g.red, vis: sr.g.vis, maxBranch: sr.g.maxBranch, scr: sr.m.NewState()}
			w.parts = sr.parts.Fork()
			ch := make(chan struct{})
			p.start = append(p.start, ch)
			go func() {
				for range ch {
					p.work(w)
					p.wg.Done()
				}
			}()
		}
		p.ws = append(p.ws, w)
	}
	return p
}

// stop ends the helpers.
func (p *par) stop() {
	for _, ch := range p.start {
		close(ch)
	}
}

// round expands p.items in parallel.
func (p *par) round() {
	n := len(p.items)
	p.nblocks = (n + parBlock - 1) / parBlock
	for b := 0; b < p.nblocks; b++ {
		p.blocks[b].lo, p.blocks[b].hi = b*parBlock, min((b+1)*parBlock, n)
	}
	p.next.Store(0)
	p.wg.Add(len(p.start))
	for _, ch := range p.start {
		ch <- struct{}{}
	}
	p.work(p.ws[0])
	p.wg.Wait()
}

// work claims and expands blocks until none is left.
func (p *par) work(w *pworker) {
	for {
		b := int(p.next.Add(1)) - 1
		if b >= p.nblocks {
			return
		}
		w.expand(&p.blocks[b], p.items)
	}
}

// expand generates the successors of the block's states.
func (w *pworker) expand(blk *pblock, items []item) {
	blk.succs, blk.ends, blk.keys, blk.choices = blk.succs[:0], blk.ends[:0], blk.keys[:0], blk.choices[:0]
	blk.err, blk.w, w.blk = nil, w, blk
	for i := blk.lo; i < blk.hi; i++ {
		it := &items[i]
		w.en = w.sr.m.EnabledThreads(it.st, w.en)
		w.curSt, w.curHash = it.st, it.h
		err := w.g.expand(it.st, w.en, true, w.successor)
		blk.ends = append(blk.ends, len(blk.succs))
		if err != nil {
			blk.err = err
			return
		}
		w.g.recycle(it.st)
	}
}

// successor records one successor of the state being expanded.
func (w *pworker) successor(st *vm.State, tid int32, choices []uint64, _ float64) error {
	sr, blk := w.sr, w.blk
	var h vm.Hash128
	key := sr.key // compaction: only its length is used (stateBytes)
	switch {
	case !sr.s.compact:
		w.key = sr.m.AppendKey(w.key[:0], st)
		h, key = vm.Hash128{sr.hash.sum64(w.key)}, w.key
	case !w.g.solo:
		h = w.parts.Sum(st)
	default:
		h = w.parts.Successor(w.curSt, w.curHash, st, tid)
		if sr.verify {
			if want := w.parts.Sum(st); h != want {
				return fmt.Errorf("explicit: internal error: the updated parts hash of a successor (process %d) is %x, from scratch %x", tid, h, want)
			}
		}
	}
	if sr.s.seen(h, key) {
		blk.succs = append(blk.succs, psucc{tid: tid})
		return nil
	}
	ps := psucc{st: w.g.take(), h: h, tid: tid, ch0: uint32(len(blk.choices))}
	blk.choices = append(blk.choices, choices...)
	ps.ch1 = uint32(len(blk.choices))
	if !sr.s.compact {
		ps.k0 = uint32(len(blk.keys))
		blk.keys = append(blk.keys, key...)
		ps.k1 = uint32(len(blk.keys))
	}
	blk.succs = append(blk.succs, ps)
	return nil
}

// runParallel is run's loop for Options.Workers > 1 (breadth-first).
func (sr *searcher) runParallel() error {
	p := newPar(sr)
	defer p.stop()
	for n := 0; ; {
		k := min(len(sr.queue)-sr.head, parRound)
		if k == 0 {
			return nil
		}
		p.items = append(p.items[:0], sr.queue[sr.head:sr.head+k]...)
		p.round()
		clear(p.items) // the queue's copies are cleared as they are taken
		for b := 0; b < p.nblocks; b++ {
			blk := &p.blocks[b]
			from := 0
			for _, end := range blk.ends {
				it, _ := sr.pop()
				if n&255 == 0 {
					if err := sr.check(); err != nil {
						return err
					}
				}
				n++
				sr.cur, sr.curDepth = it.idx, it.depth
				for i := from; i < end; i++ {
					ps := &blk.succs[i]
					sr.res.Transitions++
					if ps.st == nil {
						continue
					}
					key := sr.key
					if !sr.s.compact {
						key = blk.keys[ps.k0:ps.k1]
					}
					kept, err := sr.admit(ps.st, ps.h, key, ps.tid, blk.choices[ps.ch0:ps.ch1], false)
					if !kept {
						blk.w.g.recycle(ps.st)
					}
					ps.st = nil
					if err != nil {
						return err
					}
				}
				from = end
			}
			if blk.err != nil {
				return blk.err
			}
		}
		p.balance()
	}
}

// balance evens out the generators' spare states: a goroutine that
// expanded more states than it kept successors would hoard them while
// another allocated new ones.
func (p *par) balance() {
	lo, hi := p.ws[0].g, p.ws[0].g
	for _, w := range p.ws[1:] {
		if len(w.g.spare) < len(lo.spare) {
			lo = w.g
		}
		if len(w.g.spare) > len(hi.spare) {
			hi = w.g
		}
	}
	if d := (len(hi.spare) - len(lo.spare)) / 2; d > parRound {
		k := len(hi.spare) - d
		lo.spare = append(lo.spare, hi.spare[k:]...)
		clear(hi.spare[k:])
		hi.spare = hi.spare[:k]
	}
}
