package srctrace

import (
	"fmt"
	"math"
	"strings"

	"github.com/wyvernmc/wyvern/ir"
	"github.com/wyvernmc/wyvern/vm"
)

// Values in C terms: the debug information's type of a global (ir.CType)
// names the bytes at an offset into it (acc[2].balance) and says how to
// print the value stored there (signed or unsigned, floating point, a
// pointer).

// cpath returns the C access path of byte offset off into a value of type
// t ("" at its start, ".f" for a member, "[i]" for an element), the scalar
// or pointer type found there (nil when the path ends inside a member the
// debug information does not describe, or between members), and the
// bytes left past the path's start. With size, the bytes accessed there,
// the path goes down to the member or element of that size (pt.x for 4
// bytes at pt's start); without (0), it stops at the first value that
// starts at off.
//
// With size syncObject it goes down to the mutex, condition variable or
// other pthread object at off (acc[1].m rather than acc[1]).
func cpath(t *ir.CType, off, size uint32) (path string, leaf *ir.CType, rest uint32) {
	var b strings.Builder
	for t != nil {
		if off == 0 && (size == 0 || size != syncObject && t.Size <= size) && t.Kind != ir.CScalar && t.Kind != ir.CPointer {
			return b.String(), nil, 0
		}
		switch t.Kind {
		case ir.CStruct:
			if off == 0 && strings.HasPrefix(t.Name, "pthread_") {
				// a mutex, condition variable...: named as a whole,
				// not by glibc's members
				return b.String(), nil, 0
			}
			var f *ir.CField
			for i := range t.Fields {
				g := &t.Fields[i]
				if g.Type != nil && off >= g.Offset && off < g.Offset+max(g.Type.Size, 1) {
					f = g
					break
				}
			}
			if f == nil {
				return b.String(), nil, off
			}
			b.WriteString("." + f.Name)
			off -= f.Offset
			t = f.Type
		case ir.CArray:
			if t.Elem == nil || t.Elem.Size == 0 {
				return b.String(), nil, off
			}
			i := off / t.Elem.Size
			if t.Count > 0 && i >= t.Count {
				return b.String(), nil, off
			}
			fmt.Fprintf(&b, "[%d]", i)
			off -= i * t.Elem.Size
			t = t.Elem
		default:
			return b.String(), t, off
		}
	}
	return b.String(), nil, off
}

// syncObject is cpath's size for a pthread object's name.
const syncObject = ^uint32(0)

// syncName names the pthread object (mutex, condition variable...) at p.
func (r *Recorder) syncName(st *vm.State, p uint64) string { return r.name(st, p, syncObject) }

// globalAt returns the global whose block p points into, nil for other
// memory.
func (r *Recorder) globalAt(p uint64) *ir.Global {
	block := ir.PtrBlock(p)
	if block == 0 || int(block) > len(r.m.Prog.Globals) {
		return nil
	}
	return r.m.Prog.Globals[block-1]
}

// typedValue formats value v of size bytes loaded from or stored to p: by
// the C type of the scalar at p when p is into a global whose debug
// information describes it, else as format does.
func (r *Recorder) typedValue(st *vm.State, p, v uint64, size uint8) string {
	if g := r.globalAt(p); g != nil && g.CType != nil {
		if _, leaf, rest := cpath(g.CType, ir.PtrOff(p), uint32(size)); leaf != nil && rest == 0 && leaf.Size == uint32(size) {
			return r.leafValue(st, leaf, v)
		}
	}
	return r.format(st, v, size)
}

// leafValue formats value v of scalar or pointer type t.
func (r *Recorder) leafValue(st *vm.State, t *ir.CType, v uint64) string {
	switch {
	case t.Kind == ir.CPointer && v == 0:
		return "NULL"
	case t.Kind == ir.CPointer && t.Size == 8:
		return r.format(st, v, 8)
	case t.Kind == ir.CPointer:
		return fmt.Sprintf("%#x", v)
	case t.Float && t.Size == 4:
		return fmt.Sprint(math.Float32frombits(uint32(v)))
	case t.Float && t.Size == 8:
		return fmt.Sprint(math.Float64frombits(v))
	case t.Float:
		return fmt.Sprintf("%#x", v) // long double: not decoded
	case !t.Signed:
		return fmt.Sprint(v & ir.Mask(8*uint8(min(t.Size, 8))))
	}
	return r.format(st, v, uint8(min(t.Size, 8)))
}

// Bounds of the globals' summary: the changed scalars shown per global,
// and the scalars compared per global (a larger array is compared up to
// there, and the summary says so).
const (
	maxShownLeaves    = 16
	maxComparedLeaves = 1 << 20
)

// changedTyped lists the scalars and pointers of global g (of type t) that
// differ between the initial state and st, by their C paths, at most
// maxShownLeaves and then a line saying how many more (or that the rest
// was not compared). Mutexes and condition variables the run used (shown
// above the globals) are left out.
func (r *Recorder) changedTyped(st *vm.State, g *ir.Global, name string) []string {
	var out []string
	more, compared, cut := 0, 0, false
	var walk func(t *ir.CType, off uint32, path string)
	walk = func(t *ir.CType, off uint32, path string) {
		if t == nil || cut {
			return
		}
		p := ir.MakePtr(g.Block, off)
		if r.seen[p] && strings.HasPrefix(t.Name, "pthread_") {
			return
		}
		switch t.Kind {
		case ir.CStruct:
			for i, f := range t.Fields {
				if i > 0 && isUnion(t) {
					break // a union's bytes once, as its first member
				}
				walk(f.Type, off+f.Offset, path+"."+f.Name)
			}
		case ir.CArray:
			if t.Elem == nil || t.Elem.Size == 0 {
				return
			}
			for i := uint32(0); (t.Count == 0 || i < t.Count) && off+(i+1)*t.Elem.Size <= g.Size; i++ {
				walk(t.Elem, off+i*t.Elem.Size, fmt.Sprintf("%s[%d]", path, i))
				if cut {
					return
				}
			}
		default:
			if t.Size == 0 || t.Size > 8 || off+t.Size > g.Size {
				return
			}
			if compared++; compared > maxComparedLeaves {
				cut = true
				return
			}
			nv, e1 := st.Mem.Load(p, t.Size)
			ov, e2 := r.init.Mem.Load(p, t.Size)
			if e1 != vm.ErrNone || e2 != vm.ErrNone || nv == ov {
				return
			}
			if len(out) == maxShownLeaves {
				more++
				return
			}
			out = append(out, fmt.Sprintf("%s%s = %s (was %s)", name, path, r.leafValue(st, t, nv), r.leafValue(r.init, t, ov)))
		}
	}
	walk(g.CType, 0, "")
	if more > 0 {
		out = append(out, fmt.Sprintf("... and %d more changed in %s", more, name))
	}
	if cut {
		out = append(out, fmt.Sprintf("... %s not compared past its first %d values", name, maxComparedLeaves))
	}
	return out
}

// isUnion reports whether t is a union: members that all start at 0.
func isUnion(t *ir.CType) bool {
	if len(t.Fields) < 2 {
		return false
	}
	for _, f := range t.Fields {
		if f.Offset != 0 {
			return false
		}
	}
	return true
}
