package explicit

import (
	"fmt"
	"math/bits"
	"slices"

	"github.com/wyvernmc/wyvern/vm"
)

// partList is the encoding of a state in parts (vm.Machine.AppendKeyParts):
// part i is words[ends[i-1]:ends[i]] (from 0 for the first).
type partList struct {
	words []uint64
	ends  []int32
}

func (p *partList) n() int { return len(p.ends) }

func (p *partList) part(i int) []uint64 {
	start := p.start(i)
	return p.words[start:p.ends[i]:p.ends[i]]
}

// start is where part i begins.
func (p *partList) start(i int) int32 {
	if i > 0 {
		return p.ends[i-1]
	}
	return 0
}

func (p *partList) reset() { p.words, p.ends = p.words[:0], p.ends[:0] }

// add appends w as the next part.
func (p *partList) add(w []uint64) {
	p.words = append(p.words, w...)
	p.end()
}

// end ends the part whose words were appended to p.words last.
func (p *partList) end() { p.ends = append(p.ends, int32(len(p.words))) }

// threads is the number of processes of the encoding (its header's third
// word: appendStatus's two, then the process count).
func (p *partList) threads() int { return int(p.words[2]) }

// blockID is the block of part i, a block part (appendBlock's first word:
// id<<8 | kind).
func (p *partList) blockID(i int) uint32 {
	w := p.part(i)
	if len(w) == 0 {
		return 0
	}
	return uint32(w[0] >> 8)
}

// deriveParts makes c the encoding of st, a successor of the state whose
// encoding is p, from p and d, the parts that may differ
// (vm.Machine.KeyDelta): it encodes only those, as treeDB.derive does for
// a tree, and copies p's others a run of them at a time.
func deriveParts(m *vm.Machine, st *vm.State, p, c *partList, d *vm.KeyDelta) {
	c.reset()
	nt := p.threads()
	// p's parts from run on, up to the one looked at, are c's too:
	// copyTo copies those before part k.
	run := 0
	copyTo := func(k int) {
		if k > run {
			from := p.start(run)
			off := int32(len(c.words)) - from
			c.words = append(c.words, p.words[from:p.ends[k-1]]...)
			for _, e := range p.ends[run:k] {
				c.ends = append(c.ends, e+off)
			}
		}
		run = k + 1
	}
	if d.Header {
		copyTo(0)
		c.words = m.AppendHeaderPart(c.words, st)
		c.end()
	}
	for _, tid := range d.Threads {
		copyTo(1 + int(tid))
		c.words = m.AppendThreadPart(c.words, st, int(tid))
		c.end()
	}
	if d.Count {
		copyTo(nt + 1)
		c.words = m.AppendCountPart(c.words, st)
		c.end()
	}
	// the blocks: p's, with those d lists made again (in id order both)
	j := nt + 2
	for _, id := range d.Blocks {
		for ; j < p.n() && p.blockID(j) < id; j++ {
		}
		copyTo(j)
		if j < p.n() && p.blockID(j) == id {
			j++
		} else {
			run = j // (no part of p's left out)
		}
		var ok bool
		if c.words, ok = m.AppendBlockPart(c.words, st, id); ok {
			c.end()
		}
	}
	copyTo(p.n())
}

// encodeSuccessor makes c the encoding of st, a successor of parent (whose
// encoding is p) made by process tid (solo: the generator's, for
// vm.Machine.KeyDelta), from p where KeyDelta allows (deriveParts, d its
// buffer), else whole; with verify it checks it against one made whole.
func encodeSuccessor(m *vm.Machine, parent *vm.State, p *partList, st *vm.State, tid int32, solo bool, d *vm.KeyDelta, c *partList, verify bool) error {
	if m.KeyDelta(parent, st, tid, solo, d) {
		deriveParts(m, st, p, c, d)
	} else {
		c.words, c.ends = m.AppendKeyParts(c.words[:0], c.ends[:0], st)
	}
	if verify {
		key, ends := m.AppendKeyParts(nil, nil, st)
		if !slices.Equal(key, c.words) || !slices.Equal(ends, c.ends) {
			return fmt.Errorf("explicit: internal error: the encoding of a successor (process %d) made from its parent's differs from the one made whole", tid)
		}
	}
	return nil
}

// partQueue is the breadth-first queue of a search with hash compaction and
// one worker (searcher.packed): it keeps each queued state as its parts
// hash and the parts of its encoding, not as a state graph (fib_8: ~2 KB
// a queued graph, most of the search's memory), and the state is decoded
// again when it is expanded (vm.Machine.DecodeKeyFrom). Each entry is
// coded against the entry before it: a breadth-first queue holds siblings
// and cousins side by side, which differ in few parts, and an entry keeps
// only the parts that differ from the previous entry's, each as the words
// that differ when it has as many. Entries are taken in the order they
// were put, so the entry taken before is the one put before, and the
// parts an entry leaves out are those of the state decoded last: exactly
// the parts DecodeKeyFrom need not decode.
//
// An entry, in words: the parts hash (two words), then the number of parts
// n, and either, when its parts end where the previous entry's do (the
// same layout: most entries), with sameLayout set, ⌈w/64⌉ words of bits
// (bit j: word j of the encoding's w differs from the previous entry's)
// and the words that differ; or ⌈n/64⌉ words of bits (bit i: part i is
// stored), then each stored part: a word with its length k, and either its
// k words or, with partDiff set in the length word, ⌈k/64⌉ words of bits
// (bit j: word j differs from the previous entry's part) and the words
// that differ.
//
// The entries lie in segments of queueSegWords words (an entry does not
// cross one), written at the end of the last and read from the start of
// the first; a segment read to its end is kept for reuse. Neither putting
// nor taking moves the queue's words, and a search of steady width
// allocates nothing for its queue.
type partQueue struct {
	segs  [][]uint64 // segs[0] is read from rd on; the last is written at its end
	rd    int
	spare [][]uint64 // segments read to their end (at most queueSpareSegs)
	n     int        // words held
	e     []uint64   // put's entry, before it is copied into a segment
	in    partList   // the parts of the entry put last
	out   partList   // the parts of the entry taken last
	tmp   partList   // (take's buffer, swapped with out)
	// changed: bit i, part i of the entry taken last was stored (it
	// differs from the entry's before it)
	changed []uint64
}

const (
	queueSegWords  = 1 << 15 // 256 KiB
	queueSpareSegs = 4
	partDiff       = 1 << 63 // a stored part's length word: only its words that differ follow
	sameLayout     = 1 << 63 // an entry's part count: the parts end where the previous entry's do
)

// words is the number of words the queue holds.
func (q *partQueue) words() int { return q.n }

// put queues the state with parts hash h and encoding p and returns the
// words its entry takes. It takes p's buffers (leaving p those of the
// entry put before).
func (q *partQueue) put(h vm.Hash128, p *partList) int {
	n := p.n()
	e := append(q.e[:0], h[0], h[1], uint64(n))
	if slices.Equal(p.ends, q.in.ends) {
		e[2] |= sameLayout
		e = appendDiff(e, p.words, q.in.words)
		return q.store(e, p)
	}
	mask := len(e)
	for range (n + 63) / 64 {
		e = append(e, 0)
	}
	for i := range n {
		w := p.part(i)
		if i >= q.in.n() {
			e = appendPart(e, w)
			e[mask+i/64] |= 1 << (i % 64)
			continue
		}
		was := q.in.part(i)
		if slices.Equal(w, was) {
			continue
		}
		e[mask+i/64] |= 1 << (i % 64)
		if len(w) != len(was) || len(w) == 0 {
			e = appendPart(e, w)
			continue
		}
		e = appendDiff(append(e, partDiff|uint64(len(w))), w, was)
	}
	return q.store(e, p)
}

// appendDiff appends to e the words of w that differ from was's (as many):
// ⌈len(w)/64⌉ words of bits, bit j set when word j differs, then those
// words.
func appendDiff(e, w, was []uint64) []uint64 {
	bm := len(e)
	for range (len(w) + 63) / 64 {
		e = append(e, 0)
	}
	for j, x := range w {
		if x != was[j] {
			e[bm+j/64] |= 1 << (j % 64)
			e = append(e, x)
		}
	}
	return e
}

// store copies entry e, the entry of p, into the last segment (a new one
// if it has no room) and makes p the entry put last; it returns the words
// e takes.
func (q *partQueue) store(e []uint64, p *partList) int {
	q.e = e
	q.in, *p = *p, q.in
	if q.n == 0 && len(q.segs) > 0 {
		// empty: write the segment left (advance keeps one) from its start
		q.segs, q.rd = append(q.segs[:0], q.segs[len(q.segs)-1][:0]), 0
	}
	if len(q.segs) == 0 || len(q.segs[len(q.segs)-1])+len(e) > cap(q.segs[len(q.segs)-1]) {
		var seg []uint64
		if k := len(q.spare); k > 0 && len(e) <= queueSegWords {
			seg, q.spare = q.spare[k-1][:0], q.spare[:k-1]
		} else {
			seg = make([]uint64, 0, max(queueSegWords, len(e)))
		}
		q.segs = append(q.segs, seg)
	}
	last := &q.segs[len(q.segs)-1]
	*last = append(*last, e...)
	q.n += len(e)
	return len(e)
}

// appendPart appends part w, whole, to entry e.
func appendPart(e, w []uint64) []uint64 {
	return append(append(e, uint64(len(w))), w...)
}

// take returns the parts hash and the encoding of the entry at the head,
// and the words its entry took; q.changed tells which of its parts differ
// from the entry's taken before it. The encoding is valid until the next
// call.
func (q *partQueue) take() (vm.Hash128, *partList, int, error) {
	bad := func(format string, args ...any) (vm.Hash128, *partList, int, error) {
		return vm.Hash128{}, nil, 0, fmt.Errorf("explicit: internal error: a packed queue's entry "+format, args...)
	}
	if q.n == 0 {
		return bad("taken from an empty queue")
	}
	for len(q.segs) > 1 && q.rd >= len(q.segs[0]) {
		q.dropFirst() // (advance drops a segment read to its end)
	}
	if len(q.segs) == 0 || q.rd >= len(q.segs[0]) {
		return bad("of %d words not in its segments", q.n)
	}
	w := q.segs[0][q.rd:]
	if len(w) < 3 {
		return bad("of %d words", len(w))
	}
	h := vm.Hash128{w[0], w[1]}
	n := int(uint32(w[2]))
	if w[2]&sameLayout != 0 {
		return q.takeSame(h, n, w)
	}
	nm := (n + 63) / 64
	if len(w) < 3+nm {
		return bad("of %d parts in %d words", n, len(w))
	}
	q.changed = append(q.changed[:0], w[3:3+nm]...)
	at := 3 + nm
	q.tmp.reset()
	for i := range n {
		if q.changed[i/64]>>(i%64)&1 == 0 {
			if i >= q.out.n() {
				return bad("leaves out part %d of %d, the entry before it has %d", i, n, q.out.n())
			}
			q.tmp.add(q.out.part(i))
			continue
		}
		if at >= len(w) {
			return bad("ends at part %d of %d", i, n)
		}
		k, diff := int(w[at]&^partDiff), w[at]&partDiff != 0
		at++
		if !diff {
			if at+k > len(w) {
				return bad("ends inside part %d", i)
			}
			q.tmp.add(w[at : at+k])
			at += k
			continue
		}
		was := []uint64(nil)
		if i < q.out.n() {
			was = q.out.part(i)
		}
		km := (k + 63) / 64
		if len(was) != k || at+km > len(w) {
			return bad("changes %d words of part %d, the entry before it has %d", k, i, len(was))
		}
		bm := w[at : at+km]
		at += km
		q.tmp.add(was)
		dst := q.tmp.part(i)
		for j := range dst {
			if bm[j/64]>>(j%64)&1 != 0 {
				if at >= len(w) {
					return bad("ends inside part %d", i)
				}
				dst[j] = w[at]
				at++
			}
		}
	}
	q.out, q.tmp = q.tmp, q.out
	q.advance(at)
	return h, &q.out, at, nil
}

// takeSame is take for an entry w of the same layout as the one before
// (sameLayout; n parts): the words that differ are written into q.out.
func (q *partQueue) takeSame(h vm.Hash128, n int, w []uint64) (vm.Hash128, *partList, int, error) {
	out := q.out.words
	nb := (len(out) + 63) / 64
	if n != q.out.n() || len(w) < 3+nb {
		return vm.Hash128{}, nil, 0, fmt.Errorf("explicit: internal error: a packed queue's entry of the same layout as the one before has %d parts in %d words, that one %d parts of %d words", n, len(w), q.out.n(), len(out))
	}
	bm := w[3 : 3+nb]
	at := 3 + nb
	for b, x := range bm {
		for x != 0 {
			j := 64*b + bits.TrailingZeros64(x)
			x &= x - 1
			if j >= len(out) || at >= len(w) {
				return vm.Hash128{}, nil, 0, fmt.Errorf("explicit: internal error: a packed queue's entry changes word %d of %d", j, len(out))
			}
			out[j] = w[at]
			at++
		}
	}
	// which parts changed
	q.changed = q.changed[:0]
	for range (n + 63) / 64 {
		q.changed = append(q.changed, 0)
	}
	start := 0
	for i, end := range q.out.ends {
		if anyBit(bm, start, int(end)) {
			q.changed[i/64] |= 1 << (i % 64)
		}
		start = int(end)
	}
	q.advance(at)
	return h, &q.out, at, nil
}

// anyBit reports whether any of bits [from, to) of bm is set.
func anyBit(bm []uint64, from, to int) bool {
	for j := from; j < to; {
		x := bm[j/64] >> (j % 64)
		if k := to - j; k < 64-j%64 {
			x &= 1<<k - 1
		}
		if x != 0 {
			return true
		}
		j += 64 - j%64
	}
	return false
}

// advance moves the head past the entry taken, of k words.
func (q *partQueue) advance(k int) {
	q.rd += k
	q.n -= k
	if q.rd == len(q.segs[0]) && (len(q.segs) > 1 || q.rd == cap(q.segs[0])) {
		// read to its end, and no more is written there
		q.dropFirst()
	}
}

// dropFirst drops the first segment, read to its end, keeping it for reuse.
func (q *partQueue) dropFirst() {
	if len(q.spare) < queueSpareSegs && cap(q.segs[0]) == queueSegWords {
		q.spare = append(q.spare, q.segs[0][:0])
	}
	q.segs[0] = nil
	q.segs = q.segs[1:]
	q.rd = 0
}

// stored reports whether part i of the entry taken last was stored.
func (q *partQueue) stored(i int) bool { return bitSet(q.changed, i) }

// bitSet reports whether bit i of b is set.
func bitSet(b []uint64, i int) bool { return b[i/64]>>(i%64)&1 != 0 }

// partDecoder rebuilds the states of a packed compact queue from their
// encodings, each from a copy of the state it rebuilt before (ref) in the
// parts they share (vm.Machine.DecodeKeyFrom), else whole: the sequential
// search's (searcher.unpackParts) and each parallel worker's
// (pworker.unpack).
type partDecoder struct {
	ref       *vm.State
	refBlocks []uint32 // the block ids of ref's block parts
	leafWords [][]uint64
}

// decode rebuilds the state of encoding p, with auxiliary words aux, into
// a state of g's (the returned one), caching its decoded processes' part
// hashes in ph. Bit i of changed is clear when part i is ref's (taken as
// such: the caller knows; consulted only when there is a ref). fromRef
// says whether it was rebuilt from ref.
func (d *partDecoder) decode(m *vm.Machine, g *gen, ph *vm.PartsHasher, p *partList, changed []uint64, aux []uint32) (st *vm.State, fromRef bool, err error) {
	st = g.take()
	g.scr.GiveSpares(st) // (take gave st's away: decoding needs them)
	st.AllocateInBulk()
	d.leafWords = d.leafWords[:0]
	for i := range p.n() {
		if d.ref != nil && !bitSet(changed, i) {
			// ref's: nil for DecodeKeyFrom
			d.leafWords = append(d.leafWords, nil)
		} else {
			d.leafWords = append(d.leafWords, p.part(i))
		}
	}
	if d.ref != nil {
		if fromRef, err = m.DecodeKeyFrom(st, d.ref, d.leafWords, d.refBlocks, aux); err != nil {
			return nil, false, fmt.Errorf("explicit: internal error: rebuilding a queued state from the one before: %w", err)
		}
		if !fromRef {
			for i := range d.leafWords {
				d.leafWords[i] = p.part(i)
			}
		}
	}
	if !fromRef {
		if err := m.DecodeKeyInto(st, d.leafWords, aux); err != nil {
			return nil, false, fmt.Errorf("explicit: internal error: rebuilding a queued state: %w", err)
		}
	}
	for i := range p.threads() {
		if d.leafWords[1+i] != nil { // (decoded: a new record)
			ph.CacheThread(st, i, d.leafWords[1+i])
		}
	}
	keepRef(m, &d.ref, st, g)
	d.refBlocks = d.refBlocks[:0]
	for j := p.threads() + 2; j < p.n(); j++ {
		d.refBlocks = append(d.refBlocks, p.blockID(j))
	}
	return st, fromRef, nil
}
