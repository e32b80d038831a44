package explicit

import (
	"math"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/wyvernmc/wyvern/query"
	"github.com/wyvernmc/wyvern/vm"
)

// Parallel breadth-first search (Options.Workers > 1). The searching
// goroutine, the merger, owns the queue, the visited set and the result as
// in the sequential search; Workers goroutines besides it expand states. It cuts the head of the queue into blocks of
// parBlock consecutive states (copied, the states stay queued) and hands
// them to the workers, at most parWindow blocks ahead of the state it is
// at; a worker generates the successors of a block's states with its own
// generator and hasher into the block's buffer (state, fingerprint,
// process, choices and, with full storage, encoding), touching nothing
// else. The merger takes the blocks in queue order and does, per state
// and successor, exactly what the sequential search does when it takes
// that state from the queue and generates that successor (limit checks,
// progress, visited set, classification, queue, early stop), so the
// discovery order and every count, record, depth, witness and cut-off are
// the sequential search's: the queue is FIFO, so the states a block adds
// come after every state handed out. When no worker has claimed the
// block it needs next, the merger expands it itself. Successors the queue does not
// keep (seen before, or ended) go back to the workers through a shared
// pool. What was expanded past the state where the search stops is
// dropped.
//
// The successors' generation depends on the state expanded alone (the
// reductions run processes' invisible steps, never consult the visited
// set), so it may run anywhere; the depth-first order, whose next state is
// the last successor generated, stays sequential.
//
// The window is small so that the merger reads successors while they are
// still in a cache: rounds of 2 048 states expanded before merging made
// the search twice as slow per CPU-second.
//
// With compaction the workers also probe the visited set (store.seen, the
// table as the merger last published it) and pass a successor found there
// on as seen, without keeping its state: the merger, which has merged only
// blocks before this one, added it while merging an earlier state, so the
// sequential search finds it visited too; the merger then only counts the
// transition. Most transitions reach states seen before (fib_8: 7.99 M
// transitions, 3.37 M states); the probe finds about a third of those (the
// rest reach states that blocks close in the queue added, not merged yet).
// A successor with the parts hash of one made before in the same block is
// passed on as seen too (inBlock): the merger reaches it after that one.
// The two find most transitions to visited states (fib_8: 4.4 M of 4.6 M),
// and the merger, whose work bounds the speed-up, no longer probes for
// them, nor do their states go to it and back to the pool. A successor not
// found may still be a seen one (a table being replaced, a slot being
// written, a state of another block in flight): the merger's own look-up
// decides it, as before.

const (
	parBlock  = 16 // states per block
	parWindow = 16 // blocks handed out ahead of the merger
)

// psucc is a generated successor waiting to be merged.
type psucc struct {
	st       *vm.State // nil: seen before (the worker found it visited)
	h        vm.Hash128
	tid      int32
	ch0, ch1 uint32 // its choices: pblock.choices[ch0:ch1]
	k0, k1   uint32 // its encoding (full storage): pblock.keys[k0:k1]
	e0, e1   uint32 // where its parts end: pblock.kends[e0:e1]
	pre      preVisit
}

// pblock is a block of queued states and the buffer of their successors.
type pblock struct {
	items   []item
	succs   []psucc
	ends    []int // ends[i]: end in succs of the successors of items[i]
	keys    []uint64
	kends   []int32 // the ends of each key's parts (vm.Machine.AppendKeyParts), from its start
	choices []uint64
	err     error         // the expansion of items[len(ends)-1] failed so
	claimed atomic.Bool   // a goroutine expands it
	done    chan struct{} // a token when a worker has expanded it
}

// pworker is one goroutine's generator and buffers.
type pworker struct {
	p       *par
	g       *gen
	parts   *vm.PartsHasher
	key     []uint64
	ends    []int32
	en      []int32
	blk     *pblock
	curSt   *vm.State
	curHash vm.Hash128
	seen    int64 // successors found visited by this goroutine's probe
	visEn   []int32
	acc     []vm.Access
}

// parDone, when set (tests), is called at the end of every parallel
// search with the number of successors the workers found visited.
var parDone func(seen int64)

// par is a parallel search's machinery.
type par struct {
	sr      *searcher
	ws      []*pworker // ws[0]: the merger's
	work    chan *pblock
	stopped atomic.Bool
	wg      sync.WaitGroup
	free    []*pblock // blocks not handed out (merger only)
	// pool: successors the queue did not keep, for the workers'
	// generators to build successors in
	mu   sync.Mutex
	pool []*vm.State
	// keyWords: with compaction, the length of the initial state's
	// encoding, which the queue's estimates use for every state
	keyWords int
	// keySeed: the seed of the hashes of encodings (full storage,
	// inBlockKey)
	keySeed uint64
}

func newPar(sr *searcher) *par {
	p := &par{sr: sr, work: make(chan *pblock, 2*parWindow), keyWords: len(sr.key), keySeed: vm.NewHashSeed()}
	// W expanding goroutines besides the merger: with W-1 of them (the
	// merger counted as one) two workers were one generator feeding one
	// merger, slower than the sequential search (fib_8 compact on 16 idle
	// cores: 282 k states/s against 357 k).
	for i := 0; i <= sr.workers; i++ {
		w := &pworker{p: p, g: sr.g, parts: sr.parts}
		if i > 0 {
			w.g = &gen{m: sr.m, red: sr.g.red, vis: sr.g.vis, dead: sr.g.dead, maxBranch: sr.g.maxBranch, scr: sr.m.NewState(), sc: scripted{b: sr.g.sc.b, bounds: sr.g.sc.bounds, classes: sr.g.sc.classes}}
			w.parts = sr.parts.Fork()
			p.wg.Add(1)
			go func() {
				defer p.wg.Done()
				for blk := range p.work {
					// (the merger may have claimed it, and even
					// handed it out again: then this is a stale
					// copy of the pointer, or the new handout)
					if !blk.claimed.CompareAndSwap(false, true) {
						continue
					}
					if !p.stopped.Load() {
						w.expand(blk)
					}
					blk.done <- struct{}{}
				}
			}()
		}
		p.ws = append(p.ws, w)
	}
	return p
}

// stop ends the workers and waits for them.
func (p *par) stop() {
	p.stopped.Store(true)
	close(p.work)
	p.wg.Wait()
}

// block returns an empty block.
func (p *par) block() *pblock {
	if k := len(p.free); k > 0 {
		blk := p.free[k-1]
		p.free = p.free[:k-1]
		return blk
	}
	return &pblock{done: make(chan struct{}, 1)}
}

// wait returns when blk is expanded: it expands it if no worker has
// claimed it yet, else it waits for the worker. (Expanding later blocks
// while it waits would leave the workers idle: the merger would take
// every block that its wake-up takes to reach them.)
func (p *par) wait(blk *pblock) {
	if blk.claimed.CompareAndSwap(false, true) {
		p.ws[0].expand(blk)
		return
	}
	<-blk.done
}

// refill moves spare states from the pool to w's generator when it has
// few.
func (w *pworker) refill() {
	const low, batch = 2 * parBlock, 8 * parBlock
	if len(w.g.spare) >= low {
		return
	}
	p := w.p
	p.mu.Lock()
	k := max(len(p.pool)-batch, 0)
	w.g.spare = append(w.g.spare, p.pool[k:]...)
	clear(p.pool[k:])
	p.pool = p.pool[:k]
	p.mu.Unlock()
}

// expand generates the successors of the block's states.
func (w *pworker) expand(blk *pblock) {
	w.refill()
	blk.succs, blk.ends, blk.keys, blk.kends, blk.choices = blk.succs[:0], blk.ends[:0], blk.keys[:0], blk.kends[:0], blk.choices[:0]
	blk.err, w.blk = nil, blk
	m := w.p.sr.m
	for i := range blk.items {
		// the states after this one, one stage of vm.PrefetchState each
		// (as the sequential search's prefetch): they were made by
		// another goroutine, or long ago
		for k, q := 0, blk.items[i+1:]; k < min(len(q), vm.PrefetchStages); k++ {
			vm.PrefetchState(q[k].st, vm.PrefetchStages-1-k)
		}
		it := &blk.items[i]
		if it.en != 0 {
			w.en = appendMask(w.en[:0], it.en)
		} else {
			w.en = m.EnabledThreads(it.st, w.en)
		}
		w.curSt, w.curHash = it.st, it.h
		err := w.g.expand(it.st, w.en, true, w.successor)
		blk.ends = append(blk.ends, len(blk.succs))
		if err != nil {
			blk.err = err
			return
		}
		w.g.recycle(it.st)
	}
	if w.p.sr.s.compact {
		w.probeBlock(blk)
	}
}

// successor records one successor of the state being expanded.
func (w *pworker) successor(st *vm.State, tid int32, choices []uint64, _ float64) error {
	sr, blk := w.p.sr, w.blk
	ps := psucc{tid: tid, ch0: uint32(len(blk.choices))}
	switch {
	case !sr.s.compact:
		w.key, w.ends = sr.m.AppendKeyParts(w.key[:0], w.ends[:0], st)
		// (h: a hash of the encoding, to find it in the block; the
		// merger's look-up uses the encoding itself)
		ps.h = vm.Hash128{vm.HashWords(w.key, w.p.keySeed), uint64(len(w.key))}
		if w.inBlockKey(ps.h, w.key) {
			blk.succs = append(blk.succs, psucc{h: ps.h})
			w.seen++
			return nil
		}
		ps.k0 = uint32(len(blk.keys))
		blk.keys = append(blk.keys, w.key...)
		ps.k1 = uint32(len(blk.keys))
		ps.e0 = uint32(len(blk.kends))
		blk.kends = append(blk.kends, w.ends...)
		ps.e1 = uint32(len(blk.kends))
	default:
		// updated from the parent's parts hash, as the sequential search
		// does for every transition (vm.PartsHasher.Successor, or
		// SuccessorStep)
		ps.h = w.parts.SuccessorStep(w.curSt, w.curHash, st, tid, w.g.solo)
		if sr.verify {
			if err := verifySuccessor(w.parts, w.curSt, w.curHash, st, tid, ps.h); err != nil {
				return err
			}
		}
		if w.inBlock(ps.h) {
			// the generator builds the next successor in st again
			blk.succs = append(blk.succs, psucc{h: ps.h})
			w.seen++
			return nil
		}
	}
	blk.choices = append(blk.choices, choices...)
	ps.ch1 = uint32(len(blk.choices))
	if !sr.s.compact {
		ps.pre = w.classify(st, len(w.key))
	} // (with compaction, once probed: probeBlock)
	ps.st = w.g.take()
	blk.succs = append(blk.succs, ps)
	return nil
}

// probeBlock looks the successors of the block that inBlock did not find
// up in the compact table, all the look-ups started together (each is a
// cache miss in a large table): one found there is passed on as seen (its
// state goes back to the generator), the others are classified for the
// merger.
func (w *pworker) probeBlock(blk *pblock) {
	s := w.p.sr.s
	for i := range blk.succs {
		if ps := &blk.succs[i]; ps.st != nil {
			s.prefetchSeen(ps.h)
		}
	}
	for i := range blk.succs {
		ps := &blk.succs[i]
		if ps.st == nil {
			continue
		}
		if s.seen(ps.h) {
			w.g.recycle(ps.st)
			ps.st = nil
			w.seen++
			continue
		}
		ps.pre = w.classify(ps.st, w.p.keyWords)
	}
}

// inBlock reports whether a successor made before in the block has parts
// hash h (compaction). The merger merges the block's successors in order,
// so that one is in the visited set when it reaches this one (it added it,
// or found it there): this one is seen before, as the worker's probe
// would say had the merger already merged the first. Within a block most
// transitions to visited states are of this kind (fib_8: 2.8 M of 4.6 M),
// where the probe finds those of blocks merged before.
func (w *pworker) inBlock(h vm.Hash128) bool {
	for i := range w.blk.succs {
		if w.blk.succs[i].h == h {
			return true
		}
	}
	return false
}

// inBlockKey is inBlock with full storage: a successor made before in
// the block has encoding key (hashed to h). States are the same exactly
// when their encodings are (the visited set's identity), so the merger
// reaches this one after that one, as with compaction.
func (w *pworker) inBlockKey(h vm.Hash128, key []uint64) bool {
	blk := w.blk
	for i := range blk.succs {
		if ps := &blk.succs[i]; ps.h == h && ps.st != nil && slices.Equal(blk.keys[ps.k0:ps.k1], key) {
			return true
		}
	}
	return false
}

// classify finds what the merger's visit and push read of successor st
// (keyWords: the length of the encoding push counts for it) while st is
// in this goroutine's cache: its enabled processes and, with EnumStates,
// whether it races. The rest of visit (the query's proposition, whose
// compiled form keeps state between calls) stays with the merger.
func (w *pworker) classify(st *vm.State, keyWords int) preVisit {
	sr := w.p.sr
	pv := preVisit{known: true, quads: uint32(min(stateBytes(st, keyWords)/4, math.MaxUint32))}
	if sr.c.Q.Kind == query.EnumStates {
		w.visEn, w.acc, pv.race = sr.m.EnabledRace(st, w.visEn, w.acc)
	} else {
		w.visEn = sr.m.EnabledThreads(st, w.visEn)
	}
	pv.en = enMask(w.visEn)
	return pv
}

// runParallel is run's loop for Options.Workers > 1 (breadth-first).
func (sr *searcher) runParallel() error {
	if sr.s.compact {
		sr.s.share()
	}
	p := newPar(sr)
	defer func() {
		p.stop()
		if parDone != nil {
			var seen int64
			for _, w := range p.ws {
				seen += w.seen
			}
			parDone(seen)
		}
	}()
	var inflight []*pblock // handed out, in queue order
	ahead := 0             // queued states handed out (from sr.head on)
	var spare []*vm.State  // successors the queue did not keep
	for n := 0; ; {
		for len(inflight) < parWindow && sr.head+ahead < len(sr.queue) {
			blk := p.block()
			from := sr.head + ahead
			k := min(parBlock, len(sr.queue)-from)
			blk.items = append(blk.items[:0], sr.queue[from:from+k]...)
			ahead += k
			inflight = append(inflight, blk)
			blk.claimed.Store(false)
			select {
			case p.work <- blk:
			default: // stale copies fill the channel: the merger expands it
			}
		}
		if len(inflight) == 0 {
			return nil
		}
		blk := inflight[0]
		inflight = inflight[1:]
		p.wait(blk)
		if sr.s.compact {
			// the look-ups of the block's successors, each a cache miss
			// in a large table, started together
			for i := range blk.succs {
				if ps := &blk.succs[i]; ps.st != nil {
					sr.s.prefetchSlot(ps.h)
				}
			}
		}
		from := 0
		for _, end := range blk.ends {
			it, _ := sr.pop()
			ahead--
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
					continue // seen before (the worker's probe)
				}
				key, ends := sr.key, sr.ends // compaction: only the key's length is used (stateBytes)
				if !sr.s.compact {
					key, ends = blk.keys[ps.k0:ps.k1], blk.kends[ps.e0:ps.e1]
				}
				sr.pre = ps.pre
				kept, err := sr.admit(ps.st, ps.h, key, ends, ps.tid, blk.choices[ps.ch0:ps.ch1], false)
				sr.pre = preVisit{}
				if !kept {
					spare = append(spare, ps.st)
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
		clear(blk.items)
		p.free = append(p.free, blk)
		if len(spare) >= parBlock {
			p.mu.Lock()
			p.pool = append(p.pool, spare...)
			p.mu.Unlock()
			clear(spare)
			spare = spare[:0]
		}
	}
}
