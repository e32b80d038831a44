package symbolic

import (
	"errors"
	"fmt"
	"slices"

	"github.com/wyvernmc/wyvern/ir"
	"github.com/wyvernmc/wyvern/vm"
)

// Undefined heap bytes (docs/design/uninit-memory.md). The bytes of a block
// from malloc, and those realloc adds past the old size, are undefined: a
// load reads any value (the vm draws it, once, and keeps it). The
// encodings leave them free, so that a proof covers every value:
//
//   - the flat array: a fresh heap block is not cleared, its bytes are
//     those of the free initial array mem0 at its addresses (a path
//     allocates a heap id once: heap ids are never reused, unlike dead
//     stack blocks' ids, which the stack reuses: see below);
//   - object memory and the threaded encodings: byte k (block << 32 |
//     offset) of a fresh heap block is the free constant undefName(k), one
//     per key, shared by the paths that allocate the block (each path
//     allocates it at most once). Object memory reads a key no layer holds
//     from the root (rootMaps), which gives that constant: only the keys a
//     path state already holds (what another path stored there, merged in
//     while the block was not live here: mergeByte) are set explicitly.
//
// calloc's blocks are cleared as before (defined zeros), globals too.
//
// Undefined stack bytes: an alloca marked ir.AuxUndef (an array, a struct,
// a variable whose address is passed on) has undefined bytes at each of
// its executions, where the vm's block is new (a dead stack block's id is
// reused: its old bytes are not the new block's). The other allocas are
// cleared as before. Each execution gets bytes of its own, as many terms
// as clearing the block took (a constant size up to maxBlockBytes; a
// variable size or a larger block is refused, as before):
//
//   - single-threaded encodings (the flat array, object memory): the
//     alloca at (function, pc) is a stack site (stackSite) with a free
//     array sb<i> (64-bit index, bytes); its k-th execution on a path
//     (counted per path as an input's executions are, in pstate.cnt under
//     the key stackCounter(i)) stores byte j of the block as
//     select(sb<i>, k<<16 | j) (a block has at most maxBlockBytes = 2^16
//     bytes). k-induction havocs the counter as it does an input's;
//   - threaded encodings: each execution of an alloca in the unrolled
//     program has a block id of its own (staticID), so its bytes are the
//     undefName constants of its keys, as a fresh heap block's.
//
// A violation's model is replayed in the vm (witness), whose loads of
// undefined bytes draw their values: the replay answers each draw with
// the model's bytes at the addresses read (mem0's, or the undefName
// constants'; a stack block's: the sb<i> bytes of the execution of its
// site that allocated it, copyOrigins.stack), of the undefined ones
// (vm.UndefBytes), or at the places a copy moved them from (copyOrigins:
// memcpy, memmove and realloc keep copied undefined bytes undefined, the
// encodings copy the free bytes). Where it cannot (a threaded encoding,
// whose block ids are not the vm's) it draws 0; a replay that misses the
// violation after a draw is no verdict but an unknown (undefReplayError):
// never a violation the vm does not reach. So is one that misses it
// without a draw where the vm may have read undefined bytes silently
// (Encoding.undefMem): the vm reads those of a block over a page as zeros,
// its platform readers (strlen, strcmp, printf's %s, …) read them as
// zeros, a copy into a global defines them, a bit-field store's load reads
// them as zeros (vm/undef.go), where the encodings leave them free. A
// program that allocates an undefined heap block is taken to have done
// so; one with undefined stack blocks only where the encoding met one of
// those (encoder.undefSilent): an alloca of more than a page, a call of a
// reader or of memcpy or memmove, a bit-field store (threaded programs'
// pthread_t locals are AuxUndef allocas: a replay that misses for another
// reason, such as a spurious wakeup, keeps its own answer).

// Encoding.undef: where the model holds the initial bytes of heap blocks.
const (
	undefNone = iota // no heap block of undefined bytes
	undefFlat        // the flat array's mem0, at the vm's addresses
	undefObj         // the undefName constants, by key (object memory)
)

// vmPageSize is the size above which the vm does not track a block's
// undefined bytes (vm/undef.go: it reads them as zeros).
const vmPageSize = 4096

// undefName is the name of the free byte a fresh heap block holds at key
// k (block << 32 | offset) in object memory and threaded encodings (and a
// threaded encoding's undefined stack block).
func undefName(k uint64) string { return fmt.Sprintf("hb_%x", k) }

// undefByte is the free byte of key k (declared once).
func (e *encoder) undefByte(k uint64) val {
	if v, ok := e.undefK[k]; ok {
		return v
	}
	if e.undefK == nil {
		e.undefK = map[uint64]val{}
	}
	v := val{t: e.q.Declare(undefName(k), BitVec(8)), w: 8}
	e.undefK[k] = v
	return v
}

// undefWanted are the names the model of a violation must hold for the
// replay to answer the vm's draws of undefined bytes (the heap's and the
// stack sites'), and where the heap's are.
func (e *encoder) undefWanted() ([]string, int) {
	if e.threaded {
		return nil, undefNone // (static block ids: the replay cannot map them)
	}
	var names []string
	for _, st := range e.stackSites {
		names = append(names, st.Name)
	}
	switch {
	case e.obj:
		if len(e.undefK) == 0 {
			return names, undefNone
		}
		keys := make([]uint64, 0, len(e.undefK))
		for k := range e.undefK {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			names = append(names, undefName(k))
		}
		return names, undefObj
	case e.undefHeap:
		return append(names, "mem0"), undefFlat
	}
	return names, undefNone
}

// stackSite is an alloca marked ir.AuxUndef that a single-threaded
// encoding met: byte j of its k-th execution on a path is
// select(Name, k<<16 | j).
type stackSite struct {
	Name string
	Func string // the function holding the alloca
	PC   int32  // the alloca's pc in that function
}

// stackCounter is the key of stack site i's execution counter in
// pstate.cnt (negative: the inputs' keys are their indices).
func stackCounter(i int) int { return -1 - i }

// stackBytes are the n undefined bytes of this execution of the alloca at
// pc of fn (a single-threaded encoding; n <= maxBlockBytes), which it
// counts (also when n is 0).
func (e *encoder) stackBytes(fn *ir.Func, pc int32, s *pstate, n uint64) []val {
	e.undefStack = true
	key := [2]int{fn.Index, int(pc)}
	i, ok := e.ssites[key]
	if !ok {
		if e.ssites == nil {
			e.ssites = map[[2]int]int{}
		}
		i = len(e.stackSites)
		e.ssites[key] = i
		name := fmt.Sprintf("sb%d", i)
		e.q.Declare(name, Memory())
		e.stackSites = append(e.stackSites, stackSite{Name: name, Func: fn.Name, PC: pc})
	}
	arr := Term(e.stackSites[i].Name)
	k := e.countPath(s, stackCounter(i))
	var base Term // k << 16, 64 bits (symbolic k)
	if !k.isConst() {
		base = e.defBV(Concat(ZeroExt(16, e.bv(k, 32)), BV(0, 16)), 64)
	}
	out := make([]val, n)
	for j := range out {
		idx := BV(k.c<<16|uint64(j), 64)
		switch {
		case base != "" && j == 0:
			idx = base
		case base != "":
			idx = BVOr(base, BV(uint64(j), 64))
		}
		out[j] = val{t: Select(arr, idx), w: 8}
	}
	return out
}

// undefineStack makes the n bytes of the fresh stack block id undefined
// (threaded encodings: id is a constant, this execution's own).
func (e *encoder) undefineStack(s *pstate, id val, n uint64) {
	e.undefStack = true
	e.undefKeys(s, id, n)
}

// undefine makes the first n bytes of the fresh heap block id undefined
// (threaded encodings: id is a constant; the flat array: nothing to do, its
// bytes are mem0's).
func (e *encoder) undefine(s *pstate, id val, n uint64) {
	e.undefHeap = true
	if !e.threaded {
		return
	}
	e.undefKeys(s, id, n)
}

// undefKeys sets the first n bytes of block id (a constant) to the
// undefName constants of their keys (threaded encodings).
func (e *encoder) undefKeys(s *pstate, id val, n uint64) {
	if e.po != nil && !e.private(id.c) && e.poBegin(s) {
		defer e.poEnd(s)
	}
	for i := uint64(0); i < n; i++ {
		k := id.c<<32 | i
		e.tSetByte(s, k, e.undefByte(k))
	}
}

// heldAbove reports whether a layer of m above its root holds key k.
func heldAbove(m *lmap, k uint64) bool {
	for l := m; l != nil && l.base == nil; l = l.parent {
		if _, ok := l.own[k]; ok {
			return true
		}
	}
	return false
}

// byteOrigin is where the model holds the value of an undefined byte: the
// byte at vm address a of a fresh heap block (site 0), or byte a of the
// k-th execution of stack site site-1 (site < 0: an alloca the encoding
// has no site for). The zero byteOrigin stands for a defined byte.
type byteOrigin struct {
	site int
	k, a uint64
}

// undefBytes returns the model's initial bytes of heap and stack blocks
// for the replay: at(o) is the byte at o, and whether the model has it
// (nil: the model has none).
func undefBytes(enc *Encoding, model Model) func(o byteOrigin) (uint64, bool) {
	if enc.Threads != nil {
		return nil
	}
	var heap func(addr uint64) uint64
	switch enc.undef {
	case undefFlat:
		if mem, ok := model["mem0"]; ok && mem.Array != nil {
			heap = func(addr uint64) uint64 { return mem.Array.At(addr) & 0xff }
		}
	case undefObj:
		heap = func(addr uint64) uint64 {
			k := uint64(ir.PtrBlock(addr))<<32 | uint64(ir.PtrOff(addr))
			// a constant the model does not hold was never read: any
			// value is the encoding's
			b, _ := model.Uint64(undefName(k))
			return b & 0xff
		}
	}
	if heap == nil && len(enc.stackSites) == 0 {
		return nil
	}
	return func(o byteOrigin) (uint64, bool) {
		switch {
		case o.site == 0:
			if heap == nil {
				return 0, false
			}
			return heap(o.a), true
		case o.site < 0 || o.site > len(enc.stackSites):
			return 0, false
		}
		// an array the model does not hold was never read: any value
		// is the encoding's
		v := model[enc.stackSites[o.site-1].Name]
		return v.Array.At(o.k<<16|o.a) & 0xff, true
	}
}

// undefDraw is the draw that answers the vm's draw c of undefined bytes in
// t's next step (a load: Machine.UndefLoad) with the model's bytes (at) of
// their origins (o), and whether it is the model's (else 0 where the model
// has no byte).
func undefDraw(m *vm.Machine, st *vm.State, t *vm.Thread, c vm.Choice, at func(byteOrigin) (uint64, bool), o *copyOrigins) (uint64, bool) {
	if at == nil || c.Kind != vm.Bits {
		return 0, false
	}
	addr, w, ok := m.UndefLoad(st, t)
	if !ok {
		return 0, false
	}
	// byte j of the draw is the j-th undefined byte, by address
	undef := vm.UndefBytes(st, addr, w)
	var v uint64
	j := 0
	exact := true
	for i := 0; i < int(w); i++ {
		if undef>>i&1 != 0 {
			b, ok := at(o.origin(addr + uint64(i)))
			exact = exact && ok
			v |= b << (8 * j)
			j++
		}
	}
	if j == 0 || c.Width() != 8*j {
		return 0, false
	}
	d, ok := c.DrawFor(v)
	return d, ok && exact
}

// copyOrigins follows, in a single-threaded replay, the undefined bytes
// the vm's copies move and the stack blocks of undefined bytes it
// allocates: memcpy, memmove and realloc leave a copied undefined byte
// undefined (vm/undef.go), where the encodings copy the source's free
// byte, so the model's value of such a byte is that of its origin, the
// byte of a fresh block it came from; a stack block's bytes are those of
// the execution of its stack site that allocated it (the vm reuses a dead
// stack block's id: the origin of a byte is taken when it is read or
// copied, while its block is live).
type copyOrigins struct {
	from map[uint64]byteOrigin // a byte a copy made undefined -> its origin
	// a realloc's copy, finished once its result is known (before the
	// next step): the origins of the old block's bytes (zero: defined)
	// and the result's register
	pend []byteOrigin
	ret  int
	// stack: the encoding's stack sites by (function, pc), the
	// executions of each so far, the vm's stack blocks by the execution
	// that allocated them, and an alloca's, finished before the next
	// step (its result's register; areg < 0: none)
	sites map[stackKey]int
	count map[stackKey]uint64
	stack map[uint32]byteOrigin
	ablk  byteOrigin
	areg  int
}

type stackKey struct {
	fn string
	pc int32
}

func newCopyOrigins(enc *Encoding) *copyOrigins {
	o := &copyOrigins{from: map[uint64]byteOrigin{}, sites: map[stackKey]int{}, count: map[stackKey]uint64{},
		stack: map[uint32]byteOrigin{}, areg: -1}
	for i, s := range enc.stackSites {
		o.sites[stackKey{s.Func, s.PC}] = i + 1
	}
	return o
}

// origin is the place whose initial value undefined byte a holds.
func (o *copyOrigins) origin(a uint64) byteOrigin {
	if s, ok := o.from[a]; ok {
		return s
	}
	if s, ok := o.stack[ir.PtrBlock(a)]; ok {
		s.a = uint64(ir.PtrOff(a))
		return s
	}
	return byteOrigin{a: a}
}

// undefOrigins are the origins of the n bytes at s that are undefined in
// st (zero for a defined one; nil: none, or too many to follow).
func (o *copyOrigins) undefOrigins(st *vm.State, s, n uint64) []byteOrigin {
	if n == 0 || n > maxBlockBytes {
		return nil
	}
	var out []byteOrigin
	for i := uint64(0); i < n; i += 8 {
		w := min(8, n-i)
		u := vm.UndefBytes(st, s+i, uint8(w))
		for j := uint64(0); j < w && u != 0; j++ {
			if u>>j&1 != 0 {
				if out == nil {
					out = make([]byteOrigin, n)
				}
				out[i+j] = o.origin(s + i + j)
			}
		}
	}
	return out
}

// before notes the copy of undefined bytes or the alloca of undefined
// bytes that thread t's next step makes (and finishes the last step's
// realloc or alloca).
func (o *copyOrigins) before(st *vm.State, t *vm.Thread) {
	if o.pend != nil && o.ret < len(t.Regs) {
		if q := t.Regs[o.ret]; q != 0 {
			for i, a := range o.pend {
				if a != (byteOrigin{}) {
					o.from[q+uint64(i)] = a
				}
			}
		}
		o.pend = nil
	}
	if o.areg >= 0 {
		if o.areg < len(t.Regs) {
			if q := t.Regs[o.areg]; q != 0 {
				// a new block: a dead one's bytes copies made undefined
				// are not its own
				b := ir.PtrBlock(q)
				for a := range o.from {
					if ir.PtrBlock(a) == b {
						delete(o.from, a)
					}
				}
				o.stack[b] = o.ablk
			}
		}
		o.areg = -1
	}
	fr := &t.Frames[len(t.Frames)-1]
	if int(fr.PC) >= len(fr.Fn.Code) {
		return
	}
	in := &fr.Fn.Code[fr.PC]
	if in.Op == ir.OpAlloca && in.Aux == ir.AuxUndef && in.Dst >= 0 {
		key := stackKey{fr.Fn.Name, fr.PC}
		site, ok := o.sites[key]
		if !ok {
			site = -1
		}
		o.ablk = byteOrigin{site: site, k: o.count[key]}
		o.count[key]++
		o.areg = int(fr.Base + in.Dst)
		return
	}
	if in.Op != ir.OpCallB {
		return
	}
	cs := &fr.Fn.Calls[in.Imm]
	r := t.Regs[fr.Base:]
	arg := func(i int) uint64 {
		if i >= len(cs.Args) || cs.Args[i] < 0 || int(cs.Args[i]) >= len(r) {
			return 0
		}
		return r[cs.Args[i]]
	}
	switch ir.Builtin(in.B) {
	case ir.BMemcpy, ir.BMemmove:
		d, s, n := arg(0), arg(1), arg(2)
		for i, a := range o.undefOrigins(st, s, n) { // (read before the copy writes)
			if a != (byteOrigin{}) {
				o.from[d+uint64(i)] = a
			}
		}
	case ir.BRealloc:
		p, n := arg(0), arg(1)
		if p == 0 || cs.Ret < 0 || int(fr.Base+cs.Ret) >= len(t.Regs) {
			return
		}
		if old, live := st.Mem.BlockSize(p); live {
			o.pend, o.ret = o.undefOrigins(st, p, min(uint64(old), n)), int(fr.Base+cs.Ret)
		}
	}
}

// undefReplayError: the replay of a violation's model drew undefined bytes
// and did not reach the violation. The model's values for those bytes may
// not be what the vm's run drew (undefDraw), so this is no internal error
// but no verdict either: the callers answer unknown.
type undefReplayError struct {
	draws, guessed int
	err            error
}

func (u *undefReplayError) Error() string {
	return fmt.Sprintf("the run draws undefined (uninitialised heap or stack) bytes at %d loads (%d of them not answered with the model's bytes), and its replay does not reach the violation: %v", u.draws, u.guessed, u.err)
}

func (u *undefReplayError) Unwrap() error { return u.err }

// undefNoReplay is the reason a violation whose model does not replay is
// no verdict (ok: the replay read undefined bytes, undefReplayError).
func undefNoReplay(err error) (string, bool) {
	var u *undefReplayError
	if errors.As(err, &u) {
		return "a violation's model does not replay: " + u.Error(), true
	}
	return "", false
}
