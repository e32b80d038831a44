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
//     stack blocks' ids, which the stack reuses and clears);
//   - object memory and the threaded encodings: byte k (block << 32 |
//     offset) of a fresh heap block is the free constant undefName(k), one
//     per key, shared by the paths that allocate the block (each path
//     allocates it at most once). Object memory reads a key no layer holds
//     from the root (rootMaps), which gives that constant: only the keys a
//     path state already holds (what another path stored there, merged in
//     while the block was not live here: mergeByte) are set explicitly.
//
// calloc's blocks are cleared as before (defined zeros), globals and stack
// blocks too (undefined stack bytes are not encoded yet).
//
// A violation's model is replayed in the vm (witness), whose loads of
// undefined bytes draw their values: the replay answers each draw with
// the model's bytes at the addresses read (mem0's, or the undefName
// constants'), of the undefined ones (vm.UndefBytes), or at the addresses
// a copy moved them from (copyOrigins: memcpy, memmove and realloc keep
// copied undefined bytes undefined, the encodings copy the free bytes).
// Where it cannot (a threaded encoding, whose block ids are not the vm's)
// it draws 0; a replay that misses the violation after a draw, or in a
// program that allocates undefined bytes (the vm reads those of blocks
// over a page as zeros, vm/undef.go), is no verdict but an unknown
// (undefReplayError): never a violation the vm does not reach.

// Encoding.undef: where the model holds the initial bytes of heap blocks.
const (
	undefNone = iota // no heap block of undefined bytes
	undefFlat        // the flat array's mem0, at the vm's addresses
	undefObj         // the undefName constants, by key (object memory)
)

// undefName is the name of the free byte a fresh heap block holds at key
// k (block << 32 | offset) in object memory and threaded encodings.
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
// replay to answer the vm's draws of undefined bytes, and where they are.
func (e *encoder) undefWanted() ([]string, int) {
	switch {
	case e.threaded:
		return nil, undefNone // (static block ids: the replay cannot map them)
	case e.obj:
		if len(e.undefK) == 0 {
			return nil, undefNone
		}
		keys := make([]uint64, 0, len(e.undefK))
		for k := range e.undefK {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		names := make([]string, len(keys))
		for i, k := range keys {
			names[i] = undefName(k)
		}
		return names, undefObj
	case e.undefHeap:
		return []string{"mem0"}, undefFlat
	}
	return nil, undefNone
}

// undefine makes the first n bytes of the fresh heap block id undefined
// (threaded encodings: id is a constant; the flat array: nothing to do, its
// bytes are mem0's).
func (e *encoder) undefine(s *pstate, id val, n uint64) {
	e.undefHeap = true
	if !e.threaded {
		return
	}
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

// undefBytes returns the model's initial bytes of the heap for the replay:
// at(addr) is the byte at vm address addr (nil: the model has none).
func undefBytes(enc *Encoding, model Model) func(addr uint64) uint64 {
	if enc.Threads != nil {
		return nil
	}
	switch enc.undef {
	case undefFlat:
		mem, ok := model["mem0"]
		if !ok || mem.Array == nil {
			return nil
		}
		return func(addr uint64) uint64 { return mem.Array.At(addr) & 0xff }
	case undefObj:
		return func(addr uint64) uint64 {
			k := uint64(ir.PtrBlock(addr))<<32 | uint64(ir.PtrOff(addr))
			// a constant the model does not hold was never read: any
			// value is the encoding's
			b, _ := model.Uint64(undefName(k))
			return b & 0xff
		}
	}
	return nil
}

// undefDraw is the draw that answers the vm's draw c of undefined bytes in
// t's next step (a load: Machine.UndefLoad) with the model's bytes (at) of
// their origins (o), and whether it is the model's (else 0).
func undefDraw(m *vm.Machine, st *vm.State, t *vm.Thread, c vm.Choice, at func(uint64) uint64, o *copyOrigins) (uint64, bool) {
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
	for i := 0; i < int(w); i++ {
		if undef>>i&1 != 0 {
			v |= at(o.origin(addr+uint64(i))) << (8 * j)
			j++
		}
	}
	if j == 0 || c.Width() != 8*j {
		return 0, false
	}
	return c.DrawFor(v)
}

// copyOrigins follows, in a single-threaded replay, the undefined bytes
// the vm's copies move: memcpy, memmove and realloc leave a copied
// undefined byte undefined (vm/undef.go), where the encodings copy the
// source's free byte, so the model's value of such a byte is that of its
// origin, the byte of a fresh block it came from.
type copyOrigins struct {
	from map[uint64]uint64 // a byte a copy made undefined -> its origin
	// a realloc's copy, finished once its result is known (before the
	// next step): the origins of the old block's bytes (0: defined) and
	// the result's register
	pend []uint64
	ret  int
}

// origin is the byte whose initial value undefined byte a holds.
func (o *copyOrigins) origin(a uint64) uint64 {
	if s, ok := o.from[a]; ok {
		return s
	}
	return a
}

// undefOrigins are the origins of the n bytes at s that are undefined in
// st (0 for a defined one; nil: none, or too many to follow).
func (o *copyOrigins) undefOrigins(st *vm.State, s, n uint64) []uint64 {
	if n == 0 || n > maxBlockBytes {
		return nil
	}
	var out []uint64
	for i := uint64(0); i < n; i += 8 {
		w := min(8, n-i)
		u := vm.UndefBytes(st, s+i, uint8(w))
		for j := uint64(0); j < w && u != 0; j++ {
			if u>>j&1 != 0 {
				if out == nil {
					out = make([]uint64, n)
				}
				out[i+j] = o.origin(s + i + j)
			}
		}
	}
	return out
}

// before notes the copy of undefined bytes that thread t's next step
// makes (and finishes the last step's realloc).
func (o *copyOrigins) before(st *vm.State, t *vm.Thread) {
	if o.pend != nil && o.ret < len(t.Regs) {
		if q := t.Regs[o.ret]; q != 0 {
			for i, a := range o.pend {
				if a != 0 {
					o.from[q+uint64(i)] = a
				}
			}
		}
		o.pend = nil
	}
	fr := &t.Frames[len(t.Frames)-1]
	if int(fr.PC) >= len(fr.Fn.Code) {
		return
	}
	in := fr.Fn.Code[fr.PC]
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
			if a != 0 {
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
	return fmt.Sprintf("the run draws undefined (uninitialised heap) bytes at %d loads (%d of them not answered with the model's bytes), and its replay does not reach the violation: %v", u.draws, u.guessed, u.err)
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
