package explicit

import (
	"fmt"
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
// pool (full storage). What was expanded past the state where the search stops is
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
//
// With compaction the queue is packed as the sequential search's
// (partQueue, searcher.packed), and no state graph passes between
// goroutines. The merger takes a block's states from the queue when it
// hands the block out (handOut: each state's encoding, which of its parts
// differ from the state's before it, its auxiliary words); they count as
// queued until merged (searcher.parAhead, qBytes). The worker decodes them
// (pworker.unpack) from the state it decoded before, as the sequential
// search does, and passes on, for each successor, its parts hash, its
// encoding made from its parent's (pworker.successorParts) and all the
// merger's visit reads of it (classifyWhole: enabled processes, race,
// status and the query's proposition, evaluated with the worker's own
// compiled query), so the generator builds the next successor in the same
// state: a worker's states stay in its cache. fib_8 with 2 workers: peak
// RSS ~470 → ~170 MiB, in about the time and CPU of graphs (BENCHMARKS.md).
// Full storage keeps graphs: its queue's states are rebuilt from the tree
// the merger adds to.

const (
	parBlock  = 16 // states per block
	parWindow = 16 // blocks handed out ahead of the merger
)

// psucc is a generated successor waiting to be merged.
type psucc struct {
	seen     bool      // seen before (the worker found it visited)
	st       *vm.State // nil when seen, or when the queue is packed (pre.whole)
	h        vm.Hash128
	tid      int32
	ch0, ch1 uint32 // its choices: pblock.choices[ch0:ch1]
	k0, k1   uint32 // its encoding (full storage; packed: a running one's): pblock.keys[k0:k1]
	e0, e1   uint32 // where its parts end: pblock.kends[e0:e1]
	a0, a1   uint32 // packed: its auxiliary words, pblock.saux[a0:a1]
	pre      preVisit
}

// pitem is a queued state of a packed queue handed out in a block
// (compaction: searcher.packed): its encoding, pblock.pwords[w0:w1] in
// parts ending at pblock.pends[e0:e1] (from w0), which of its parts differ
// from those of the block's state before it (bits, pblock.pchanged[c0:c1],
// as partQueue.stored), its auxiliary words pblock.paux[a0:a1], and the
// words its entry took in the queue (searcher.qBytes).
type pitem struct {
	w0, w1, e0, e1, c0, c1, a0, a1 uint32
	words                          int
}

// pblock is a block of queued states and the buffer of their successors.
type pblock struct {
	items   []item
	succs   []psucc
	ends    []int // ends[i]: end in succs of the successors of items[i]
	keys    []uint64
	kends   []int32 // the ends of each key's parts (vm.Machine.AppendKeyParts), from its start
	choices []uint64
	saux    []uint32 // packed: the successors' auxiliary words
	// packed: the items' encodings (pitem); items[i].st is nil until the
	// worker decodes it
	pitems   []pitem
	pwords   []uint64
	pends    []int32
	pchanged []uint64
	paux     []uint32
	err      error         // the expansion of items[len(ends)-1] failed so
	claimed  atomic.Bool   // a goroutine expands it
	done     chan struct{} // a token when a worker has expanded it
}

// putKey puts encoding key, in parts ending at ends, in the block for
// successor ps.
func (blk *pblock) putKey(ps *psucc, key []uint64, ends []int32) {
	ps.k0 = uint32(len(blk.keys))
	blk.keys = append(blk.keys, key...)
	ps.k1 = uint32(len(blk.keys))
	ps.e0 = uint32(len(blk.kends))
	blk.kends = append(blk.kends, ends...)
	ps.e1 = uint32(len(blk.kends))
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
	// packed: the decoder of the states this goroutine expands (it keeps
	// a copy of the one decoded last), the encoding of the last state of
	// the block decoded last (refParts: the next block's first state is
	// compared with it, in changed), the encoding of the state being
	// expanded (cur) and of a successor (succ), made from cur
	dec       partDecoder
	refParts  partList
	changed   []uint64
	cur, succ partList
	delta     vm.KeyDelta
	auxBuf    []uint32
	fromRef   int64 // states decoded from ref (Result.fromRef)
	// c: the query, compiled for this goroutine (packed: classifyWhole);
	// its propositions keep state between calls
	c *query.Compiled
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

func newPar(sr *searcher) (*par, error) {
	p := &par{sr: sr, work: make(chan *pblock, 2*parWindow), keyWords: len(sr.key), keySeed: vm.NewHashSeed()}
	// W expanding goroutines besides the merger: with W-1 of them (the
	// merger counted as one) two workers were one generator feeding one
	// merger, slower than the sequential search (fib_8 compact on 16 idle
	// cores: 282 k states/s against 357 k).
	for i := 0; i <= sr.workers; i++ {
		w := &pworker{p: p, g: sr.g, parts: sr.parts, c: sr.c}
		if i > 0 && sr.packed {
			c, err := query.Compile(sr.c.Q, sr.m)
			if err != nil {
				p.stop()
				return nil, fmt.Errorf("explicit: compile the query for a worker: %w", err)
			}
			w.c = c
		}
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
	return p, nil
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
	blk.succs, blk.ends, blk.keys, blk.kends, blk.choices, blk.saux = blk.succs[:0], blk.ends[:0], blk.keys[:0], blk.kends[:0], blk.choices[:0], blk.saux[:0]
	blk.err, w.blk = nil, blk
	m := w.p.sr.m
	packed := w.p.sr.packed
	for i := range blk.items {
		it := &blk.items[i]
		if packed {
			if err := w.unpack(blk, i); err != nil {
				blk.ends = append(blk.ends, len(blk.succs))
				blk.err = err
				w.dec.ref = nil // (see below)
				return
			}
		} else {
			// the states after this one, one stage of vm.PrefetchState
			// each (as the sequential search's prefetch): they were
			// made by another goroutine, or long ago
			for k, q := 0, blk.items[i+1:]; k < min(len(q), vm.PrefetchStages); k++ {
				vm.PrefetchState(q[k].st, vm.PrefetchStages-1-k)
			}
		}
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
			// The merger stops at this block, but this goroutine may
			// expand later ones first (dropped): their first states
			// are decoded whole, refParts being of an earlier block.
			w.dec.ref = nil
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
			blk.succs = append(blk.succs, psucc{h: ps.h, seen: true})
			w.seen++
			return nil
		}
		blk.putKey(&ps, w.key, w.ends)
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
			blk.succs = append(blk.succs, psucc{h: ps.h, seen: true})
			w.seen++
			return nil
		}
	}
	blk.choices = append(blk.choices, choices...)
	ps.ch1 = uint32(len(blk.choices))
	if sr.packed {
		// The merger gets all it reads of the state, and no state: the
		// generator builds the next successor in st again.
		if st.Status == vm.Running {
			if err := w.successorParts(st, tid, &ps); err != nil {
				return err
			}
		}
		ps.pre = w.classifyWhole(st)
		blk.succs = append(blk.succs, ps)
		return nil
	}
	if !sr.s.compact {
		ps.pre = w.classify(st, len(w.key))
	} // (with compaction, once probed: probeBlock)
	ps.st = w.g.take()
	blk.succs = append(blk.succs, ps)
	return nil
}

// unpack decodes item i of blk, a block of a packed queue, into a state of
// w's generator (it becomes the item's st), as the sequential search's
// unpackParts does: from the state w decoded last (ref) in the parts they
// share. The block's states before i were decoded by w, so for i > 0 the
// parts that differ are those the queue stored; for the first, w's last
// state was of another block, and the parts are compared.
func (w *pworker) unpack(blk *pblock, i int) error {
	sr := w.p.sr
	pi := &blk.pitems[i]
	it := &blk.items[i]
	w.cur = partList{words: blk.pwords[pi.w0:pi.w1:pi.w1], ends: blk.pends[pi.e0:pi.e1:pi.e1]}
	p := &w.cur
	changed := blk.pchanged[pi.c0:pi.c1]
	if i == 0 && w.dec.ref != nil {
		changed = w.changed[:0]
		for j := range p.n() {
			if j%64 == 0 {
				changed = append(changed, 0)
			}
			if j >= w.refParts.n() || !slices.Equal(p.part(j), w.refParts.part(j)) {
				changed[j/64] |= 1 << (j % 64)
			}
		}
		w.changed = changed
	}
	st, fromRef, err := w.dec.decode(sr.m, w.g, w.parts, p, changed, blk.paux[pi.a0:pi.a1])
	if err != nil {
		return err
	}
	if fromRef {
		w.fromRef++
	}
	if i == len(blk.items)-1 {
		w.refParts.words = append(w.refParts.words[:0], p.words...)
		w.refParts.ends = append(w.refParts.ends[:0], p.ends...)
	}
	if sr.verify {
		if err := verifyDecoded(sr.m, w.parts, st, p, it.h); err != nil {
			return err
		}
	}
	it.st = st
	return nil
}

// successorParts puts the encoding of st, a running successor made by
// process tid of the state being expanded (w.cur), and its auxiliary
// words in the block for ps (packed queue), made as the sequential
// search's successorParts makes them.
func (w *pworker) successorParts(st *vm.State, tid int32, ps *psucc) error {
	sr, blk, c := w.p.sr, w.blk, &w.succ
	if err := encodeSuccessor(sr.m, w.curSt, &w.cur, st, tid, w.g.solo, &w.delta, c, sr.verify); err != nil {
		return err
	}
	blk.putKey(ps, c.words, c.ends)
	w.auxBuf = sr.m.AppendKeyAux(w.auxBuf[:0], st)
	ps.a0 = uint32(len(blk.saux))
	blk.saux = append(blk.saux, w.auxBuf...)
	ps.a1 = uint32(len(blk.saux))
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
		if ps := &blk.succs[i]; !ps.seen {
			s.prefetchSeen(ps.h)
		}
	}
	for i := range blk.succs {
		ps := &blk.succs[i]
		if ps.seen {
			continue
		}
		if s.seen(ps.h) {
			if ps.st != nil {
				w.g.recycle(ps.st)
				ps.st = nil
			}
			ps.seen = true
			w.seen++
			continue
		}
		if !ps.pre.known {
			ps.pre = w.classify(ps.st, w.p.keyWords)
		}
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
		if ps := &blk.succs[i]; ps.h == h && !ps.seen && slices.Equal(blk.keys[ps.k0:ps.k1], key) {
			return true
		}
	}
	return false
}

// classify finds what the merger's visit and push read of successor st
// (keyWords: the length of the encoding push counts for it) while st is
// in this goroutine's cache: its enabled processes and, with EnumStates,
// whether it races. With full storage the rest of visit (the query's
// proposition, whose compiled form keeps state between calls) stays with
// the merger; with a packed queue classifyWhole adds it.
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

// classifyWhole is classify for a packed queue's successor st, with all
// the merger's visit reads of it: its status and the query's proposition
// (with this goroutine's compiled query), so that the merger needs no
// state (preVisit.whole).
func (w *pworker) classifyWhole(st *vm.State) preVisit {
	pv := w.classify(st, w.p.keyWords)
	pv.whole, pv.status = true, st.Status
	if k := w.p.sr.c.Q.Kind; k == query.Reach || k == query.Invariant {
		pv.prop = w.c.Prop(st)
	}
	return pv
}

// runParallel is run's loop for Options.Workers > 1 (breadth-first).
func (sr *searcher) runParallel() error {
	if sr.s.compact {
		sr.s.share()
	}
	p, err := newPar(sr)
	if err != nil {
		return err
	}
	defer func() {
		p.stop()
		for _, w := range p.ws {
			sr.res.fromRef += w.fromRef
		}
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
		for len(inflight) < parWindow && (sr.packed && sr.phead < len(sr.pq) || !sr.packed && sr.head+ahead < len(sr.queue)) {
			blk := p.block()
			if sr.packed {
				if err := sr.handOut(blk); err != nil {
					return err
				}
			} else {
				from := sr.head + ahead
				k := min(parBlock, len(sr.queue)-from)
				blk.items = append(blk.items[:0], sr.queue[from:from+k]...)
				ahead += k
			}
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
				if ps := &blk.succs[i]; !ps.seen {
					sr.s.prefetchSlot(ps.h)
				}
			}
		}
		from := 0
		for j, end := range blk.ends {
			var it item
			if sr.packed {
				it = blk.items[j]
				sr.parAhead--
				sr.qBytes -= packedItemBytes + 8*int64(blk.pitems[j].words)
			} else {
				it, _ = sr.pop()
				ahead--
			}
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
				if ps.seen {
					continue // seen before (the worker's probe)
				}
				key, ends := sr.key, sr.ends // compaction: only the key's length is used (stateBytes)
				if !sr.s.compact {
					key, ends = blk.keys[ps.k0:ps.k1], blk.kends[ps.e0:ps.e1]
				}
				if sr.packed && ps.pre.status == vm.Running {
					// (push puts them in the queue if the state is new)
					sr.succParts.words = append(sr.succParts.words[:0], blk.keys[ps.k0:ps.k1]...)
					sr.succParts.ends = append(sr.succParts.ends[:0], blk.kends[ps.e0:ps.e1]...)
					sr.auxBuf = append(sr.auxBuf[:0], blk.saux[ps.a0:ps.a1]...)
					sr.parParts = true
				}
				sr.pre = ps.pre
				kept, err := sr.admit(ps.st, ps.h, key, ends, ps.tid, blk.choices[ps.ch0:ps.ch1], false)
				sr.pre, sr.parParts = preVisit{}, false
				if !kept && ps.st != nil {
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

// handOut fills blk with the next states of the packed queue (compaction),
// taken from it (its items and its entries): their encodings, which of
// their parts differ from the state's before (partQueue.stored), and
// their auxiliary words, for the worker that decodes them (unpack). They
// count as queued until they are merged (parAhead; qBytes keeps their
// words until then).
func (sr *searcher) handOut(blk *pblock) error {
	blk.items, blk.pitems = blk.items[:0], blk.pitems[:0]
	blk.pwords, blk.pends, blk.pchanged, blk.paux = blk.pwords[:0], blk.pends[:0], blk.pchanged[:0], blk.paux[:0]
	for range parBlock {
		it, ok := sr.popPacked()
		if !ok {
			break
		}
		h, p, words, err := sr.cq.take()
		if err != nil {
			return err
		}
		it.h = h
		pi := pitem{w0: uint32(len(blk.pwords)), e0: uint32(len(blk.pends)), c0: uint32(len(blk.pchanged)), a0: uint32(len(blk.paux)), words: words}
		blk.pwords = append(blk.pwords, p.words...)
		blk.pends = append(blk.pends, p.ends...)
		blk.pchanged = append(blk.pchanged, sr.cq.changed...)
		blk.paux = append(blk.paux, sr.auxes.list(it.aux)...)
		pi.w1, pi.e1, pi.c1, pi.a1 = uint32(len(blk.pwords)), uint32(len(blk.pends)), uint32(len(blk.pchanged)), uint32(len(blk.paux))
		blk.items = append(blk.items, it)
		blk.pitems = append(blk.pitems, pi)
		sr.parAhead++
	}
	return nil
}
