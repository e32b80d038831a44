package query

import (
	"fmt"
	"strings"

	"github.com/wyvernmc/wyvern/ir"
	"github.com/wyvernmc/wyvern/vm"
)

// cpath compiles an access into a global C variable by its debug type:
// elements of arrays (and of what pointers point to) buf[i], fields
// q.head, fields through pointers p->next, in any number. A path through
// a null, dangling or foreign pointer, or an index out of the array's
// bounds, reads 0.
func (c *Compiled) cpath(e exprVar) (func(*vm.State) int64, error) {
	if e.fn != "" {
		return nil, c.errAt(e.c, "elements and fields of local variables (%s::%s%s) are not supported: name a global", e.fn, e.name, e.path[0].op)
	}
	var g *ir.Global
	for _, x := range c.M.Prog.Globals {
		if x.CName == e.name || x.Name == e.name {
			g = x
			break
		}
	}
	if g == nil {
		return nil, c.errAt(e.c, "no global variable %q in the program (is it compiled with -g?)", e.name)
	}
	t := g.CType
	if t == nil {
		return nil, c.errAt(e.c, "global %s has no type in the debug information (compile with -g)", e.name)
	}
	// steps move an address along the path; ok is false when the path
	// leaves valid memory.
	type step func(st *vm.State, addr uint64) (uint64, bool)
	var steps []step
	deref := func(st *vm.State, addr uint64) (uint64, bool) {
		p, err := c.M.LoadPtr(st, addr)
		return p, err == vm.ErrNone && p>>ir.PtrBlockShift != 0
	}
	name := e.name
	for _, s := range e.path {
		switch s.op {
		case "[":
			idx, err := c.expr(s.index)
			if err != nil {
				return nil, err
			}
			switch {
			case t.Kind == ir.CArray && t.Elem != nil:
				size, n := uint64(t.Elem.Size), int64(t.Count)
				steps = append(steps, func(st *vm.State, addr uint64) (uint64, bool) {
					i := idx(st)
					if i < 0 || n > 0 && i >= n {
						return 0, false
					}
					return addr + uint64(i)*size, true
				})
			case t.Kind == ir.CPointer && t.Elem != nil:
				size := uint64(t.Elem.Size)
				steps = append(steps, func(st *vm.State, addr uint64) (uint64, bool) {
					p, ok := deref(st, addr)
					i := idx(st)
					return p + uint64(i)*size, ok && i >= 0
				})
			default:
				return nil, c.errAt(s.c, "%s is %s, not an array or a pointer: [...] does not apply", name, describeCType(t))
			}
			t, name = t.Elem, name+"[...]"
		case ".", "->":
			if s.op == "->" {
				if t.Kind != ir.CPointer || t.Elem == nil {
					return nil, c.errAt(s.c, "%s is %s, not a pointer to a struct: -> does not apply", name, describeCType(t))
				}
				steps = append(steps, deref)
				t = t.Elem
			}
			if t.Kind != ir.CStruct {
				hint := ""
				if t.Kind == ir.CPointer {
					hint = " (a pointer: write ->)"
				}
				return nil, c.errAt(s.c, "%s is %s, not a struct%s: %s%s does not apply", name, describeCType(t), hint, s.op, s.field)
			}
			f, ok := t.Field(s.field)
			if !ok {
				var names []string
				for _, f := range t.Fields {
					names = append(names, f.Name)
				}
				return nil, c.errAt(s.c, "%s has no field %q (fields: %s)", describeCType(t), s.field, strings.Join(names, ", "))
			}
			if f.Type == nil {
				return nil, c.errAt(s.c, "field %s of %s has a type the debug information does not describe", s.field, describeCType(t))
			}
			off := uint64(f.Offset)
			steps = append(steps, func(_ *vm.State, addr uint64) (uint64, bool) { return addr + off, true })
			t, name = f.Type, name+s.op+s.field
		}
	}
	switch {
	case t.Kind != ir.CScalar && t.Kind != ir.CPointer:
		return nil, c.errAt(e.c, "%s is %s: a query compares integers, name one of its fields or elements", name, describeCType(t))
	case t.Float:
		return nil, c.errAt(e.c, "%s is a floating-point value: queries compare integers", name)
	case t.Size != 1 && t.Size != 2 && t.Size != 4 && t.Size != 8:
		return nil, c.errAt(e.c, "%s is a %d-byte value: queries read 1, 2, 4 or 8 bytes", name, t.Size)
	}
	base, size, signed := ir.MakePtr(g.Block, 0), t.Size, t.Signed
	c.use(ReadGlobals, e.name, e.c)
	return func(st *vm.State) int64 {
		addr, ok := base, true
		for _, s := range steps {
			if addr, ok = s(st, addr); !ok {
				return 0
			}
		}
		v, err := st.Mem.Load(addr, size)
		if err != vm.ErrNone {
			return 0
		}
		return typed(v, uint8(size*8), signed)
	}, nil
}

// describeCType names a C type in errors: "an int", "a struct node", "an
// array of 8 int", "a pointer to struct node".
func describeCType(t *ir.CType) string {
	switch t.Kind {
	case ir.CPointer:
		if t.Elem == nil {
			return "a pointer"
		}
		return "a pointer to " + strings.TrimPrefix(strings.TrimPrefix(describeCType(t.Elem), "a "), "an ")
	case ir.CArray:
		if t.Elem == nil {
			return "an array"
		}
		return fmt.Sprintf("an array of %d %s", t.Count, strings.TrimPrefix(strings.TrimPrefix(describeCType(t.Elem), "a "), "an "))
	case ir.CStruct:
		if t.Name != "" {
			return "a struct " + t.Name
		}
		return "a struct"
	}
	if t.Name != "" {
		return "a " + t.Name
	}
	return fmt.Sprintf("a %d-byte scalar", t.Size)
}
