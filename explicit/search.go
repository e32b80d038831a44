package explicit

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strings"
	"time"
	"unsafe"

	"github.com/wyvernmc/wyvern/query"
	"github.com/wyvernmc/wyvern/trace"
	"github.com/wyvernmc/wyvern/vm"
)

// errStop ends a search from inside the successor callback.
var errStop = errors.New("stop")

// item is a state waiting to be expanded.
type item struct {
	st    *vm.State
	idx   uint32
	depth uint32     // transitions from the initial state (its record's parent chain)
	h     vm.Hash128 // parts hash (compaction)
	quads uint32     // stateBytes/4 (a multiple of 4; at most MaxUint32)
	// en: the processes EnabledThreads lists, bit tid each, when visit
	// found them (enMask); 0 when not known (a running state has one).
	en uint32
	// memo: where its tree's memo is in searcher.memos (full storage,
	// one worker), 0 when none
	memo uint64
	// root and aux: with st nil (a packed queue, see searcher.packed),
	// the state's root in the tree and the number of its auxiliary words
	// (vm.Machine.AppendKeyAux) in searcher.auxes
	root uint64
	aux  uint32
}

// packedItem is a state waiting in a packed queue: item without the
// state's graph, its hash and its memo; the state is rebuilt from its root
// (full storage: treeDB.unfold, vm.Machine.DecodeKeyInto) or from its
// entry in the queue of encodings (compaction: partQueue; root is then
// not used).
type packedItem struct {
	root           uint64
	idx, depth, en uint32
	aux            uint32
}

// packedItemBytes is the size of a packedItem.
const packedItemBytes = int64(unsafe.Sizeof(packedItem{}))

// enMask returns the processes en as the bits of item.en, 0 if one does not
// fit.
func enMask(en []int32) uint32 {
	var x uint32
	for _, tid := range en {
		if uint32(tid) >= 32 {
			return 0
		}
		x |= 1 << tid
	}
	return x
}

// appendMask appends the processes of mask x (item.en) to en, in
// increasing order, as EnabledThreads lists them.
func appendMask(en []int32, x uint32) []int32 {
	for ; x != 0; x &= x - 1 {
		en = append(en, int32(bits.TrailingZeros32(x)))
	}
	return en
}

// stateBytes estimates the memory a queued state holds: its processes and
// the memory blocks it does not share with the initial image (bounded by
// its encoding's size). It is a multiple of 4 (item.quads). It counts
// the lengths of the processes' buffers and a fixed room to spare
// (recordRoomBytes), not their capacities: records are recycled with
// room to spare, and the room a record happens to have must not move
// where a memory limit stops a search.
func stateBytes(st *vm.State, keyWords int) int64 {
	n := int64(256 + 8*keyWords)
	for _, t := range st.Threads {
		n += 128 + recordRoomBytes + 56*int64(len(t.Frames)) + 8*int64(len(t.Regs)) + 4*int64(len(t.Allocas))
	}
	return n
}

// recordRoomBytes is the room to spare a process record's buffers get
// when vm's copyThread carves them (2 frames, 8 registers, 4 stack
// blocks), at stateBytes's rates.
const recordRoomBytes = 56*2 + 8*8 + 4*4

// localObserver reports whether a compiled query's proposition observes
// the processes' private state (registers @i.f.%r, local variables f::x,
// the next arithmetic instruction through DivZero or OverFlows), which the
// reductions may hide: they only preserve propositions over shared memory,
// calls about to happen, DataRace, Deadlock and Error. Among DivZero and
// OverFlows it names the first in the query text. Error(DivZero) counts as
// DivZero, as it did when this was a scan of the query text for the word.
func localObserver(r query.Reads) string {
	if r.Has(query.ReadRegisters) {
		return "registers (@i.f.%r)"
	}
	if r.Has(query.ReadLocals) {
		return "local variables (f::x)"
	}
	for _, u := range r.Uses {
		switch {
		case u.Read == query.ReadDivZero || u.Read == query.ReadError && u.Name == "DivZero":
			return "DivZero"
		case u.Read == query.ReadOverflows:
			return "OverFlows"
		}
	}
	return ""
}

// classBlind are the reads that could tell apart values of one input
// class (classes.go): the search enumerates input classes only for
// queries that read none of them.
const classBlind = query.ReadRegisters | query.ReadLocals | query.ReadGlobals | query.ReadDivZero | query.ReadOverflows

// searcher holds one search's state.
type searcher struct {
	ctx   context.Context
	c     *query.Compiled
	m     *vm.Machine
	opts  Options
	g     *gen
	s     *store
	res   *Result
	start time.Time

	queue     []item
	head      int // BFS: first live element of queue
	qBytes    int64
	qPeak     int64 // the most qBytes has been
	maxBytes  int64
	key       []uint64
	ends      []int32  // full storage: where key's parts end (vm.Machine.AppendKeyParts)
	en        []int32  // processes of the state being expanded
	visEn     []int32  // processes of the state visit classified
	visMask   uint32   // visEn as item.en (0: not known)
	pre       preVisit // the merger's successor, as its worker classified it (parallel.go)
	acc       []vm.Access
	parts     *vm.PartsHasher // compaction
	curSt     *vm.State       // state being expanded
	curHash   vm.Hash128      // its parts hash (compaction)
	verify    bool            // check every updated parts hash against one made from scratch
	mem       *memGuard
	workers   int       // goroutines expanding states (parallel.go when > 1)
	nextCheck time.Time // next progress report

	found         uint32 // record of the state that decides the query
	firstDeadlock uint32
	firstError    uint32
	stopReason    string
	cur           uint32 // record being expanded
	curDepth      uint32 // its depth

	// Full storage, one worker: the memo of the tree of the state being
	// expanded (pm), of its successor (cm), the parts the successor may
	// have changed (delta), a part's words (part), and the memos of the
	// states queued.
	memo   bool
	pm, cm treeMemo
	delta  vm.KeyDelta
	part   []uint64
	memos  memoArena

	// packed: the breadth-first queue (pq, from phead on) keeps no state
	// graphs, only each state's auxiliary words and, with full storage,
	// its root in the tree, with compaction its encoding in cq; a state
	// is rebuilt from them (treeDB.unfold, vm.Machine.DecodeKeyFrom and
	// DecodeKeyInto) when it is expanded (one worker, breadth-first:
	// packQueue).
	packed    bool
	pq        []packedItem
	phead     int
	auxes     auxLists
	auxBuf    []uint32
	leafWords [][]uint64
	leafBuf   []uint64 // the words leafWords slices
	// ref is a copy of the state unpack rebuilt last (full storage;
	// with compaction dec keeps its own), refLeaves its leaves and
	// refBlocks the block ids of its block parts.
	ref       *vm.State
	refLeaves []uint32
	refBlocks []uint32
	// With compaction the packed queue is cq (partQueue): curParts is the
	// encoding of the state being expanded (cq's, valid until the next
	// take), succParts that of the state push puts next. parParts: a
	// parallel search's worker made succParts and auxBuf (parallel.go),
	// and parAhead is the number of states handed out to the workers,
	// taken from the queue and not merged yet (still queued for
	// queued and qBytes, as in the sequential search).
	cq        partQueue
	dec       partDecoder
	curParts  *partList
	succParts partList
	parParts  bool
	parAhead  int

	por       *por    // partial-order reduction (por.go), nil when off
	lastAdded bool    // successor added its state to the visited set
	one, rest []int32 // expandPOR's buffers
}

// Search answers an explicit-state query (E<> P, A[] P, EnumStates). A
// limit or cancellation ends it with the verdict Incomplete; cancellation
// also returns ctx's error. Errors are reserved for what makes the answer
// impossible: a query of another kind, a choice too wide to enumerate.
func Search(ctx context.Context, c *query.Compiled, opts Options) (*Result, error) {
	q := c.Q
	switch q.Kind {
	case query.Reach, query.Invariant:
		if c.Prop == nil {
			return nil, fmt.Errorf("explicit: query %q has no compiled proposition", q.Text)
		}
	case query.EnumStates:
	default:
		return nil, fmt.Errorf("explicit: %s queries are not explicit-state queries (E<> P, A[] P, EnumStates); for Pr[<=N](<> P) use the exact computation", q.Kind)
	}
	res := &Result{Query: q.Text, Kind: q.Kind.String(), Order: opts.Order.String(), Compact: opts.Compact}
	red := opts.Reduction
	if red != None && q.Kind != query.EnumStates {
		if what := localObserver(c.Reads); what != "" {
			res.Notes = append(res.Notes, fmt.Sprintf("reduction %s not applied: the proposition observes %s, which reduced transitions may hide", red, what))
			red = None
		}
	}
	res.Reduction = red.String()
	workers := max(opts.Workers, 1)
	if workers > 1 && opts.Order == DFS {
		res.Notes = append(res.Notes, fmt.Sprintf("%d workers not used: the depth-first search is sequential", workers))
		workers = 1
	}
	sr := &searcher{ctx: ctx, c: c, m: c.M, opts: opts, g: newGen(c.M, red, opts.maxBranching(), opts.behaviours(c.Q)),
		s: newStore(opts.Compact, opts.Order == BFS), res: res, start: time.Now(), maxBytes: opts.maxBytes(),
		parts: vm.NewPartsHasher(), verify: verifyPartsHash,
		found: noRec, firstDeadlock: noRec, firstError: noRec, mem: newMemGuard(opts.maxBytes()), workers: workers}
	if red != None && c.M.Leaks == 0 && clearDeadRegs {
		// (the reductions are off where the proposition reads registers;
		// the leak checks read them all)
		sr.g.dead = newDeadRegs(c.M.Prog)
	}
	if red != None && c.Reads.Has(query.ReadDataRace) {
		sr.g.vis.constLoadsVisible(c.M.Prog)
	}
	if opts.POR {
		switch why := porWhyNot(c, c.M, workers); {
		case red == None:
			res.Notes = append(res.Notes, "partial-order reduction not applied: it works on top of --reduction local or global")
		case why != "":
			res.Notes = append(res.Notes, "partial-order reduction not applied: "+why)
		default:
			sr.por = newPOR(c, c.M)
			res.POR = true
			prop, reach := c.Prop, q.Kind == query.Reach
			sr.g.lone = func(st *vm.State) bool { return prop(st) == reach }
		}
	}
	if q.Kind != query.EnumStates && localObserver(c.Reads) == "" {
		// (EnumStates counts states, which the bound changes; a query
		// reading registers or locals could see the stand-in value)
		sr.g.sc.bounds = assumeBounds(c.M.Prog)
	}
	if q.Kind != query.EnumStates && c.Reads.Set&classBlind == 0 {
		// (a query reading values could see the representative)
		sr.g.sc.classes = inputClasses(c.M.Prog, opts.maxBranching())
	}
	err := sr.run()
	sr.mem.stop()
	res.ElapsedSec = time.Since(sr.start).Seconds()
	if res.ElapsedSec > 0 {
		res.StatesPerSec = float64(res.States) / res.ElapsedSec
	}
	res.HashCollisions = sr.s.collisions
	res.Bytes = sr.s.bytes()
	res.QueuePeakBytes = sr.qPeak
	if sr.por != nil {
		res.PORReduced = sr.por.reduced
	}
	if res.States > 0 {
		res.BytesPerState = float64(res.Bytes) / float64(res.States)
	}
	if opts.Compact {
		n := float64(res.States)
		res.OmissionProbability = n * (n - 1) / math.Exp2(73) // store.go: 72-bit fingerprints
	}
	if err != nil && !errors.Is(err, errStop) {
		if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
			res.Verdict, res.Reason = Incomplete, "cancelled: "+ctx.Err().Error()
			return res, fmt.Errorf("explicit: search cancelled: %w", err)
		}
		return nil, err
	}
	if err := sr.finish(); err != nil {
		return nil, err
	}
	return res, nil
}

func (sr *searcher) run() error {
	m := sr.m
	s0 := m.NewState()
	s0.AllocateInBulk() // (its successors inherit it: their buffers are recycled)
	m.Settle(s0, nil)
	if sr.g.dead != nil {
		sr.g.dead.clear(s0, nil)
	}
	// With compaction the encoding of the initial state is only made for
	// stateBytes's estimate of the states queued.
	sr.key, sr.ends = m.AppendKeyParts(sr.key[:0], sr.ends[:0], s0)
	var h vm.Hash128
	if sr.s.compact {
		h = sr.parts.Sum(s0)
	}
	idx, _ := sr.s.add(h, sr.key, sr.ends, noRec, -1, nil)
	sr.res.States = 1
	if sr.memo = !sr.s.compact && sr.workers <= 1; sr.memo {
		sr.s.tree.memoOf(sr.key, sr.ends, &sr.cm, true)
	}
	// (a parallel search keeps its queue packed with compaction only: the
	// workers would read full storage's tree while the merger adds to it)
	sr.packed = packQueue && sr.opts.Order != DFS && (sr.workers <= 1 || sr.s.compact)
	if sr.packed && sr.s.compact {
		sr.succParts.words = append(sr.succParts.words[:0], sr.key...)
		sr.succParts.ends = append(sr.succParts.ends[:0], sr.ends...)
	}
	if sr.visit(s0, idx) {
		sr.s.keep(idx)
		return errStop
	}
	sr.keepMarked(idx)
	if s0.Status == vm.Running {
		sr.push(s0, idx, 0, h, len(sr.key), sr.visMask)
	}
	sr.nextCheck = time.Now().Add(sr.opts.progressEvery())
	if sr.workers > 1 {
		return sr.runParallel()
	}
	for n := 0; ; n++ {
		it, ok := sr.pop()
		if !ok {
			return nil
		}
		if n&255 == 0 {
			if err := sr.check(); err != nil {
				return err
			}
		}
		if sr.opts.Order != DFS && !sr.packed {
			sr.prefetch()
		}
		switch {
		case sr.packed && sr.s.compact:
			if err := sr.unpackParts(&it); err != nil {
				return err
			}
		case sr.packed:
			if err := sr.unpack(&it); err != nil {
				return err
			}
		case sr.memo && it.memo != 0:
			sr.memos.take(it.memo, &sr.pm, sr.opts.Order != DFS)
		case sr.memo:
			sr.key, sr.ends = m.AppendKeyParts(sr.key[:0], sr.ends[:0], it.st)
			sr.s.tree.memoOf(sr.key, sr.ends, &sr.pm, true)
		}
		if it.en != 0 {
			sr.en = appendMask(sr.en[:0], it.en)
			if sr.verify {
				if err := verifyEnabled(m, it.st, sr.en); err != nil {
					return err
				}
			}
		} else {
			sr.en = m.EnabledThreads(it.st, sr.en)
		}
		sr.cur, sr.curDepth, sr.curSt, sr.curHash = it.idx, it.depth, it.st, it.h
		var err error
		if sr.por != nil && len(sr.en) > 1 {
			err = sr.expandPOR(it.st)
		} else {
			err = sr.g.expand(it.st, sr.en, true, sr.successor)
		}
		if err != nil {
			return err
		}
		sr.g.recycle(it.st)
	}
}

// packQueue lets a breadth-first search with one worker keep its queue
// packed (searcher.packed); tests turn it off to compare.
var packQueue = true

// unpack rebuilds the state of it, an item of a packed queue, and its
// memo (sr.pm) from its root, into a state of the generator's (recycled
// after its expansion, as a queued state is), and makes it it.st. A state
// taken from the queue mostly differs from the one taken before it in a
// few parts (a breadth-first queue holds siblings and cousins side by
// side): it is then made from that one (sr.ref, vm.Machine.DecodeKeyFrom),
// decoding only its other parts.
func (sr *searcher) unpack(it *item) error {
	t := sr.s.tree
	t.unfold(it.root, &sr.pm)
	st := sr.g.take()
	sr.g.scr.GiveSpares(st) // (take gave st's away: decoding needs them)
	st.AllocateInBulk()
	aux := sr.auxes.list(it.aux)
	done := false
	if sr.ref != nil && len(sr.pm.leaves) == len(sr.refLeaves) {
		var err error
		if done, err = sr.m.DecodeKeyFrom(st, sr.ref, sr.leafParts(sr.refLeaves), sr.refBlocks, aux); err != nil {
			return fmt.Errorf("explicit: internal error: rebuilding a queued state from the one before: %w", err)
		}
		if done {
			sr.res.fromRef++
		}
	}
	if !done {
		if err := sr.m.DecodeKeyInto(st, sr.leafParts(nil), aux); err != nil {
			return fmt.Errorf("explicit: internal error: rebuilding a queued state: %w", err)
		}
	}
	keepRef(sr.m, &sr.ref, st, sr.g)
	sr.refLeaves = append(sr.refLeaves[:0], sr.pm.leaves...)
	sr.refBlocks = append(sr.refBlocks[:0], sr.pm.blocks...)
	if sr.verify {
		sr.key, sr.ends = sr.m.AppendKeyParts(sr.key[:0], sr.ends[:0], st)
		var m treeMemo
		if !t.memoOf(sr.key, sr.ends, &m, false) || !slices.Equal(m.leaves, sr.pm.leaves) {
			return errors.New("explicit: internal error: a queued state rebuilt from its leaves has other leaves")
		}
	}
	it.st = st
	return nil
}

// keepRef makes *ref a copy of st, a state just rebuilt from a packed
// queue, to rebuild the next one from.
func keepRef(m *vm.Machine, ref **vm.State, st *vm.State, g *gen) {
	if *ref == nil {
		*ref = new(vm.State)
	}
	m.CopyInto(*ref, st)
	// What the state before was the last to hold, and what decoding did
	// not reuse, goes to the generator, which makes st's successors.
	(*ref).GiveSpares(g.scr)
	st.GiveSpares(g.scr)
}

// unpackParts is unpack with compaction: it rebuilds the state of it from
// the packed queue's entry (partQueue), from the state taken before in
// the parts the entry shares with it.
func (sr *searcher) unpackParts(it *item) error {
	h, p, words, err := sr.cq.take()
	if err != nil {
		return err
	}
	sr.qBytes -= 8 * int64(words)
	st, fromRef, err := sr.dec.decode(sr.m, sr.g, sr.parts, p, sr.cq.changed, sr.auxes.list(it.aux))
	if err != nil {
		return err
	}
	if fromRef {
		sr.res.fromRef++
	}
	if sr.verify {
		if err := verifyDecoded(sr.m, sr.parts, st, p, h); err != nil {
			return err
		}
	}
	it.st, it.h, sr.curParts = st, h, p
	return nil
}

// verifyDecoded checks st, rebuilt from encoding p queued with parts hash
// h, against its encoding and its hash made whole.
func verifyDecoded(m *vm.Machine, ph *vm.PartsHasher, st *vm.State, p *partList, h vm.Hash128) error {
	key, ends := m.AppendKeyParts(nil, nil, st)
	if !slices.Equal(key, p.words) || !slices.Equal(ends, p.ends) {
		return errors.New("explicit: internal error: a queued state rebuilt from its parts has another encoding")
	}
	if got := ph.Uncached().Sum(st); got != h {
		return fmt.Errorf("explicit: internal error: a queued state rebuilt from its parts has parts hash %x, queued with %x", got, h)
	}
	return nil
}

// leafParts returns the parts of the state unfolded into sr.pm, the words
// of its leaves, for vm.Machine.DecodeKeyInto, or, given the leaves of
// sr.ref, for vm.Machine.DecodeKeyFrom: nil where its leaf is ref's.
func (sr *searcher) leafParts(ref []uint32) [][]uint64 {
	t := sr.s.tree
	same := func(i int) bool { return ref != nil && ref[i] == sr.pm.leaves[i] }
	sr.leafBuf = sr.leafBuf[:0]
	for i, id := range sr.pm.leaves {
		if !same(i) {
			sr.leafBuf = t.appendLeaf(sr.leafBuf, id)
		}
	}
	sr.leafWords = sr.leafWords[:0]
	off := 0
	for i, id := range sr.pm.leaves {
		if same(i) {
			sr.leafWords = append(sr.leafWords, nil)
			continue
		}
		n := t.leafLen(id)
		sr.leafWords = append(sr.leafWords, sr.leafBuf[off:off+n:off+n])
		off += n
	}
	return sr.leafWords
}

// check is what the search does every 256 states it takes from the queue,
// before it expands the one it took: it ends the search when the context is done or the
// time limit is reached, and reports progress.
func (sr *searcher) check() error {
	if err := sr.ctx.Err(); err != nil {
		return err
	}
	now := time.Now()
	if sr.opts.MaxTime > 0 && now.Sub(sr.start) >= sr.opts.MaxTime {
		sr.stopReason = fmt.Sprintf("time limit of %s reached", sr.opts.MaxTime)
		return errStop
	}
	if sr.opts.Progress != nil && now.After(sr.nextCheck) {
		sr.opts.Progress(sr.progress(now))
		sr.nextCheck = now.Add(sr.opts.progressEvery())
	}
	return nil
}

func (sr *searcher) progress(now time.Time) Progress {
	el := now.Sub(sr.start).Seconds()
	p := Progress{States: sr.res.States, Transitions: sr.res.Transitions, Queue: sr.queued(),
		Depth: sr.res.MaxDepth, Bytes: sr.s.bytes() + sr.qBytes + sr.auxes.bytes(), ElapsedSec: el}
	if el > 0 {
		p.StatesPerSec = float64(p.States) / el
	}
	return p
}

// successor handles one successor of the state being expanded.
func (sr *searcher) successor(st *vm.State, tid int32, choices []uint64, _ float64) error {
	sr.res.Transitions++
	if sr.memo {
		return sr.successorTree(st, tid, choices)
	}
	var h vm.Hash128
	if sr.s.compact && !sr.verify {
		h = sr.parts.SuccessorStep(sr.curSt, sr.curHash, st, tid, sr.g.solo) // fingerprint, written out
	} else {
		var err error
		if h, err = sr.fingerprint(st, tid); err != nil {
			return err
		}
	}
	// admit, with the look-up written out: most successors are states
	// seen before.
	idx, added := sr.s.add(h, sr.key, sr.ends, sr.cur, tid, choices)
	sr.lastAdded = added
	if !added {
		return nil
	}
	if sr.packed && st.Status == vm.Running { // (push queues only running states)
		if err := sr.successorParts(st, tid); err != nil {
			return err
		}
	}
	_, err := sr.added(st, idx, h, len(sr.key), true)
	return err
}

// successorTree is successor with full storage and one worker: the
// successor's tree is made from its parent's (treeMemo), encoding only the
// parts it may have changed.
func (sr *searcher) successorTree(st *vm.State, tid int32, choices []uint64) error {
	t := sr.s.tree
	if sr.m.KeyDelta(sr.curSt, st, tid, sr.g.solo, &sr.delta) {
		sr.part = t.derive(sr.m, st, &sr.pm, &sr.cm, &sr.delta, sr.part)
	} else {
		sr.key, sr.ends = sr.m.AppendKeyParts(sr.key[:0], sr.ends[:0], st)
		t.memoOf(sr.key, sr.ends, &sr.cm, true)
	}
	if sr.verify {
		sr.key, sr.ends = sr.m.AppendKeyParts(sr.key[:0], sr.ends[:0], st)
		if want := t.root(sr.key, sr.ends, false); want != sr.cm.root || len(sr.key) != sr.cm.words {
			return fmt.Errorf("explicit: internal error: the tree of a successor (process %d) made from its parent's has root %x and %d words, from its encoding %x and %d", tid, sr.cm.root, sr.cm.words, want, len(sr.key))
		}
	}
	idx, added := sr.s.addRoot(sr.cm.root, sr.cur, tid, choices)
	sr.lastAdded = added
	if !added {
		return nil
	}
	_, err := sr.added(st, idx, vm.Hash128{}, sr.cm.words, true)
	return err
}

// admit adds successor st of the state being expanded (record sr.cur),
// reached by process tid with the given choices, with fingerprint h and
// encoding key (full storage; with compaction the initial state's, for
// stateBytes) in parts ending at ends, to the visited set if it is new: it classifies it, queues
// it if it runs on, and checks the limits. With take st is the
// generator's successor, taken for the queue; without, the caller owns
// st. kept says whether the queue kept st.
func (sr *searcher) admit(st *vm.State, h vm.Hash128, key []uint64, ends []int32, tid int32, choices []uint64, take bool) (kept bool, err error) {
	idx, added := sr.s.add(h, key, ends, sr.cur, tid, choices)
	if !added {
		return false, nil
	}
	return sr.added(st, idx, h, len(key), take)
}

// added is admit for a state the visited set has just added as record idx;
// keyWords is the length of the encoding key admit was given.
func (sr *searcher) added(st *vm.State, idx uint32, h vm.Hash128, keyWords int, take bool) (kept bool, err error) {
	sr.res.States++
	depth := sr.curDepth + 1
	if int(depth) > sr.res.MaxDepth {
		sr.res.MaxDepth = int(depth)
	}
	if sr.visit(st, idx) {
		sr.s.keep(idx)
		return false, errStop
	}
	sr.keepMarked(idx)
	if sr.statusOf(st) == vm.Running {
		if take && !sr.packed {
			st = sr.g.take() // st itself: no copy
		}
		sr.push(st, idx, depth, h, keyWords, sr.visMask)
		kept = !sr.packed // (a packed queue keeps its encoding)
	}
	if sr.opts.MaxStates > 0 && sr.res.States >= sr.opts.MaxStates {
		sr.stopReason = fmt.Sprintf("state limit of %d reached", sr.opts.MaxStates)
		return kept, errStop
	}
	if b := sr.s.bytes() + sr.qBytes + sr.auxes.bytes(); b > sr.maxBytes {
		sr.stopReason = fmt.Sprintf("memory limit of %d bytes reached (estimated %d bytes: visited set and queue)", sr.maxBytes, b)
		return kept, errStop
	}
	if why := sr.mem.over(); why != "" {
		sr.stopReason = why
		return kept, errStop
	}
	return kept, nil
}

// visit classifies a new state and reports whether it decides the query.
// It sets sr.visMask to the state's enabled processes (item.en) when it
// lists them (EnumStates: with DataRace) or a parallel search's worker
// did (sr.pre), to 0 when not.
func (sr *searcher) visit(st *vm.State, idx uint32) bool {
	res := sr.res
	sr.visMask = 0
	switch sr.statusOf(st) {
	case vm.Exited:
		res.Exited++
	case vm.Deadlock:
		res.Deadlocks++
		if sr.firstDeadlock == noRec {
			sr.firstDeadlock = idx
		}
	case vm.Failed:
		res.Errors++
		if sr.firstError == noRec {
			sr.firstError = idx
		}
	case vm.AssumeFailed:
		res.AssumeFailed++
	}
	switch sr.c.Q.Kind {
	case query.Reach:
		if sr.propOf(st) {
			sr.found = idx
			return true
		}
	case query.Invariant:
		if !sr.propOf(st) {
			sr.found = idx
			return true
		}
	case query.EnumStates:
		race := sr.pre.race
		if !sr.pre.known {
			sr.visEn, sr.acc, race = sr.m.EnabledRace(st, sr.visEn, sr.acc)
			sr.visMask = enMask(sr.visEn)
		}
		if race {
			res.RaceStates++
		}
	}
	if sr.pre.known {
		sr.visMask = sr.pre.en // (its worker listed them, whatever the query)
	}
	return false
}

// statusOf is st's status, or, when a parallel search's worker passed on
// no state (preVisit.whole), the one it found.
func (sr *searcher) statusOf(st *vm.State) vm.Status {
	if sr.pre.whole {
		return sr.pre.status
	}
	return st.Status
}

// propOf is the query's proposition in st, or the worker's (statusOf).
func (sr *searcher) propOf(st *vm.State) bool {
	if sr.pre.whole {
		return sr.pre.prop
	}
	return sr.c.Prop(st)
}

// preVisit is what a parallel search's worker found of a successor it
// passes on to the merger (parallel.go), so that the merger, whose work
// bounds the speed-up, does not read the state's processes (made by
// another goroutine, so in another core's cache) to find it again.
type preVisit struct {
	known bool
	// en: the state's enabled processes as item.en (enMask; 0: more
	// than 32 processes, listed again at its expansion); race: with
	// EnumStates, what EnabledRace says of it.
	en    uint32
	race  bool
	quads uint32 // stateBytes/4, as push computes it
	// whole: the worker also found the state's status and the query's
	// proposition (prop) in it, and the merger has no state (a packed
	// queue, pworker.classifyWhole)
	whole  bool
	status vm.Status
	prop   bool
}

// keepMarked has full storage keep the root of record idx when visit
// made it the first deadlock or error (witness checks against it).
func (sr *searcher) keepMarked(idx uint32) {
	if sr.firstDeadlock == idx || sr.firstError == idx {
		sr.s.keep(idx)
	}
}

// verifyPartsHash makes every search check each parts hash it updates
// against one made from scratch, and the enabled processes it listed for a
// state when it reached it against those at its expansion (the package's
// tests set it).
var verifyPartsHash bool

// fingerprint identifies successor st of the state being expanded (reached
// by a transition of process tid) for the visited set. With compaction it
// is the 128-bit parts hash of its encoding, updated from the parent's
// (vm.PartsHasher.Successor: the generator makes successors as CopyInto
// copies of the parent changed through StepOnly), and the encoding is not
// made. With full storage it is zero, and the encoding is made in sr.key
// in parts (sr.ends), which the store interns (treeDB).
func (sr *searcher) fingerprint(st *vm.State, tid int32) (vm.Hash128, error) {
	if !sr.s.compact {
		sr.key, sr.ends = sr.m.AppendKeyParts(sr.key[:0], sr.ends[:0], st)
		return vm.Hash128{}, nil
	}
	h := sr.parts.SuccessorStep(sr.curSt, sr.curHash, st, tid, sr.g.solo)
	if sr.verify {
		return h, verifySuccessor(sr.parts, sr.curSt, sr.curHash, st, tid, h)
	}
	return h, nil
}

// verifyEnabled checks the enabled processes en that visit listed for st
// (item.en) against EnabledThreads at its expansion.
func verifyEnabled(m *vm.Machine, st *vm.State, en []int32) error {
	if want := m.EnabledThreads(st, nil); !slices.Equal(en, want) {
		return fmt.Errorf("explicit: internal error: the enabled processes %v listed when the state was reached are %v when it is expanded", en, want)
	}
	return nil
}

// verifySuccessor checks the parts hash h that ph made (updated, or from
// scratch) for successor st
// (process tid moved) of parent, whose parts hash is hp, against hashes
// made from scratch without the processes' cached part hashes: st's, and
// the parent's, which must not have changed (the successor shares the
// processes it did not change with the parent: a write into a shared one
// would show there).
func verifySuccessor(ph *vm.PartsHasher, parent *vm.State, hp vm.Hash128, st *vm.State, tid int32, h vm.Hash128) error {
	scratch := ph.Uncached()
	if want := scratch.Sum(st); h != want {
		return fmt.Errorf("explicit: internal error: the updated parts hash of a successor (process %d) is %x, from scratch %x", tid, h, want)
	}
	if got := scratch.Sum(parent); got != hp {
		return fmt.Errorf("explicit: internal error: making a successor (process %d) changed its parent's parts hash from %x to %x", tid, hp, got)
	}
	return nil
}

func (sr *searcher) push(st *vm.State, idx, depth uint32, h vm.Hash128, keyWords int, en uint32) {
	if sr.packed {
		// (the auxiliary lists are few and kept once: auxLists.bytes)
		if !sr.parParts {
			sr.auxBuf = sr.m.AppendKeyAux(sr.auxBuf[:0], st)
		}
		sr.pq = append(sr.pq, packedItem{root: sr.cm.root, idx: idx, depth: depth, en: en, aux: sr.auxes.id(sr.auxBuf)})
		sr.qBytes += packedItemBytes
		if sr.s.compact {
			sr.qBytes += 8 * int64(sr.cq.put(h, &sr.succParts))
		}
	} else {
		var memo uint64
		if sr.memo {
			memo = sr.memos.put(&sr.cm)
		}
		q := sr.pre.quads
		if !sr.pre.known {
			q = uint32(min(stateBytes(st, keyWords)/4, math.MaxUint32))
		}
		sr.qBytes += 4 * int64(q)
		sr.queue = append(sr.queue, item{st: st, idx: idx, depth: depth, h: h, quads: q, en: en, memo: memo})
	}
	sr.qPeak = max(sr.qPeak, sr.qBytes)
	if n := sr.queued(); n > sr.res.MaxQueue {
		sr.res.MaxQueue = n
	}
}

// successorParts makes sr.succParts the encoding of st, a successor made
// by process tid that the visited set has just added (compaction, packed
// queue: push puts it there), from that of the state expanded
// (curParts): only the parts that may differ are made (vm.Machine.KeyDelta).
func (sr *searcher) successorParts(st *vm.State, tid int32) error {
	return encodeSuccessor(sr.m, sr.curSt, sr.curParts, st, tid, sr.g.solo, &sr.delta, &sr.succParts, sr.verify)
}

// prefetch starts loading the states the breadth-first search expands
// next, one stage of vm.PrefetchState each: the state it expands next gets
// the last stage (its processes' frames and registers), the one after the
// stage before, and so on.
func (sr *searcher) prefetch() {
	q := sr.queue[sr.head:]
	for k := range min(len(q), vm.PrefetchStages) {
		vm.PrefetchState(q[k].st, vm.PrefetchStages-1-k)
	}
}

// queued is the number of states in the queue.
func (sr *searcher) queued() int {
	if sr.packed {
		return len(sr.pq) - sr.phead + sr.parAhead
	}
	return len(sr.queue) - sr.head
}

func (sr *searcher) pop() (item, bool) {
	if sr.packed {
		it, ok := sr.popPacked()
		if ok {
			sr.qBytes -= packedItemBytes
		}
		return it, ok
	}
	if sr.head >= len(sr.queue) {
		return item{}, false
	}
	var it item
	if sr.opts.Order == DFS {
		n := len(sr.queue) - 1
		it = sr.queue[n]
		sr.queue[n] = item{}
		sr.queue = sr.queue[:n]
	} else {
		it = sr.queue[sr.head]
		sr.queue[sr.head] = item{}
		sr.head++
		if sr.head >= 1024 && sr.head*2 >= len(sr.queue) {
			n := copy(sr.queue, sr.queue[sr.head:])
			clear(sr.queue[n:])
			sr.queue = sr.queue[:n]
			sr.head = 0
		}
	}
	sr.qBytes -= 4 * int64(it.quads)
	return it, true
}

// popPacked takes the head of a packed queue's items (pq), leaving the
// accounting (qBytes) to the caller.
func (sr *searcher) popPacked() (item, bool) {
	if sr.phead >= len(sr.pq) {
		return item{}, false
	}
	p := sr.pq[sr.phead]
	sr.phead++
	if sr.phead >= 1024 && sr.phead*2 >= len(sr.pq) {
		n := copy(sr.pq, sr.pq[sr.phead:])
		sr.pq = sr.pq[:n]
		sr.phead = 0
	}
	return item{root: p.root, idx: p.idx, depth: p.depth, en: p.en, aux: p.aux}, true
}

// finish sets the verdict and builds the traces.
func (sr *searcher) finish() error {
	res := sr.res
	var err error
	if sr.firstDeadlock != noRec {
		if res.FirstDeadlock, err = sr.witness(sr.firstDeadlock); err != nil {
			return err
		}
	}
	if sr.firstError != noRec {
		if res.FirstError, err = sr.witness(sr.firstError); err != nil {
			return err
		}
	}
	kind := sr.c.Q.Kind
	switch {
	case sr.found != noRec:
		w, err := sr.witness(sr.found)
		if err != nil {
			return err
		}
		res.Trace = w.Trace
		res.TraceTransitions = len(sr.s.path(sr.found))
		if kind == query.Reach {
			res.Verdict = Satisfied
			res.Reason = fmt.Sprintf("a state satisfying the proposition is reachable in %d steps (%s)", len(w.Trace.Steps), w.Description)
		} else {
			res.Verdict = NotSatisfied
			res.Reason = fmt.Sprintf("a state violating the invariant is reachable in %d steps (%s)", len(w.Trace.Steps), w.Description)
		}
	case sr.stopReason != "":
		res.Verdict, res.Reason = Incomplete, sr.stopReason
		res.Notes = append(res.Notes, sr.limitHints()...)
	case (kind == query.Reach || kind == query.Invariant) && sr.c.Reads.Has(query.ReadDataRace) && raceBlind(sr.m.Prog) != "":
		res.Verdict = Incomplete
		res.Reason = fmt.Sprintf("no data race found in %d states, but the program calls %s, whose memory accesses DataRace does not see", res.States, raceBlind(sr.m.Prog))
	case kind == query.Reach:
		res.Verdict, res.Reason = NotSatisfied, fmt.Sprintf("no reachable state satisfies the proposition (%d states)", res.States)
	case kind == query.Invariant:
		res.Verdict, res.Reason = Satisfied, fmt.Sprintf("every reachable state satisfies the invariant (%d states)", res.States)
	default:
		res.Verdict, res.Reason = Complete, fmt.Sprintf("%d reachable states", res.States)
	}
	if kind == query.Invariant && res.Errors > 0 && res.FirstError != nil {
		res.Notes = append(res.Notes, fmt.Sprintf("the search reached %d error states, e.g. %s", res.Errors, res.FirstError.Description))
	}
	if kind == query.Invariant && res.Deadlocks > 0 {
		res.Notes = append(res.Notes, fmt.Sprintf("the search reached %d deadlock states", res.Deadlocks))
	}
	return nil
}

// limitHints suggest, for a search a limit stopped, what would let it
// finish: the strongest reduction the query allows, hash compaction.
func (sr *searcher) limitHints() []string {
	var out []string
	q := sr.c.Q
	if red := sr.g.red; red != Global && (q.Kind == query.EnumStates || localObserver(sr.c.Reads) == "") {
		out = append(out, fmt.Sprintf("the search ran under reduction %s; this query allows --reduction global (LODIN's: the invisible steps of all processes merged), which keeps its answer and often visits far fewer states", red))
	}
	if !sr.opts.Compact {
		out = append(out, "--compact stores a 72-bit fingerprint a state instead of the state (a few bytes a state; the result states the probability of a missed state)")
	}
	return out
}

// witness rebuilds the trace to record idx by replaying the transitions of
// its path under the search's reduction, and checks that it ends in the
// recorded state.
func (sr *searcher) witness(idx uint32) (*Witness, error) {
	path := sr.s.path(idx)
	m := sr.m
	st := m.NewState()
	m.Settle(st, nil)
	if sr.g.dead != nil {
		sr.g.dead.clear(st, nil)
	}
	var steps []trace.Step
	for i, e := range path {
		var err error
		if steps, err = sr.g.replayStep(st, e.Thread, e.Choices, true, steps); err != nil {
			return nil, fmt.Errorf("explicit: internal error: rebuilding the trace, transition %d: %w", i+1, err)
		}
	}
	if !sr.s.compact {
		sr.key, sr.ends = m.AppendKeyParts(sr.key[:0], sr.ends[:0], st)
		if !sr.s.isRecord(idx, sr.key, sr.ends) {
			return nil, errors.New("explicit: internal error: the rebuilt trace does not reach the recorded state")
		}
	}
	return &Witness{Description: describeState(m, st), Trace: &trace.Trace{Steps: steps, End: trace.End(st)}}, nil
}

// describeState says what a state is: how the run ended, or where each
// process is.
func describeState(m *vm.Machine, st *vm.State) string {
	if st.Status != vm.Running {
		return st.Describe()
	}
	var parts []string
	for _, t := range st.Threads {
		if t.Done || len(t.Frames) == 0 {
			continue
		}
		fr := &t.Frames[len(t.Frames)-1]
		parts = append(parts, fmt.Sprintf("p%d in %s at %s", t.ID, fr.Fn.Name, m.Loc(t)))
	}
	return strings.Join(parts, ", ")
}
