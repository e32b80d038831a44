package ir

import (
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/metadata"
)

// CKind classifies a C type from debug information.
type CKind uint8

// C type kinds.
const (
	CScalar  CKind = iota // integer, boolean, character, enumeration, floating point
	CPointer              // Elem is the pointee (nil: void or unknown)
	CArray                // Count elements of Elem
	CStruct               // Fields (unions too: all at offset 0)
)

// CType is a C type as the debug information describes it, enough to
// address into a variable: buf[2], q.head, p->next.
type CType struct {
	Kind   CKind
	Name   string // struct or typedef name ("" if none)
	Size   uint32 // bytes
	Signed bool   // scalars: a signed integer (or a signed char)
	Float  bool   // scalars: floating point
	Elem   *CType // CPointer, CArray
	Count  uint32 // CArray: elements (0 when unknown)
	Fields []CField
}

// CField is a member of a struct or union.
type CField struct {
	Name   string
	Offset uint32 // bytes from the start of the struct
	Type   *CType
}

// Field returns the member called name.
func (t *CType) Field(name string) (CField, bool) {
	for _, f := range t.Fields {
		if f.Name == name {
			return f, true
		}
	}
	return CField{}, false
}

// maxCTypeDepth bounds the walk through pointer chains (a linked list's
// node points to its own type).
const maxCTypeDepth = 12

// cTypeOf converts a debug-information type; nil for what it cannot
// describe.
func cTypeOf(f metadata.Field) *CType {
	return cTypeAt(f, 0, map[metadata.Field]*CType{})
}

func cTypeAt(f metadata.Field, depth int, seen map[metadata.Field]*CType) *CType {
	if f == nil || depth > maxCTypeDepth {
		return nil
	}
	if t, ok := seen[f]; ok {
		return t // a recursive type: the one being built
	}
	switch t := f.(type) {
	case *metadata.DIBasicType:
		enc := t.Encoding
		return &CType{Kind: CScalar, Name: t.Name, Size: uint32(t.Size / 8),
			Signed: enc == enum.DwarfAttEncodingSigned || enc == enum.DwarfAttEncodingSignedChar,
			Float:  enc == enum.DwarfAttEncodingFloat}
	case *metadata.DIDerivedType:
		switch t.Tag {
		case enum.DwarfTagPointerType:
			c := &CType{Kind: CPointer, Size: 8}
			seen[f] = c
			c.Elem = cTypeAt(t.BaseType, depth+1, seen)
			return c
		case enum.DwarfTagTypedef, enum.DwarfTagConstType, enum.DwarfTagVolatileType, enum.DwarfTagRestrictType, enum.DwarfTagAtomicType:
			c := cTypeAt(t.BaseType, depth, seen)
			if c != nil && t.Tag == enum.DwarfTagTypedef && c.Name == "" {
				cc := *c
				cc.Name = t.Name
				return &cc
			}
			return c
		}
	case *metadata.DICompositeType:
		switch t.Tag {
		case enum.DwarfTagArrayType:
			elem := cTypeAt(t.BaseType, depth, seen)
			if elem == nil || t.Elements == nil {
				return nil
			}
			// int a[2][3]: subranges 2, 3 from the outside in.
			var counts []uint32
			for _, e := range t.Elements.Fields {
				sr, ok := e.(*metadata.DISubrange)
				if !ok {
					return nil
				}
				n, _ := sr.Count.(metadata.IntLit)
				counts = append(counts, uint32(max(int64(n), 0)))
			}
			c := elem
			for i := len(counts) - 1; i >= 0; i-- {
				c = &CType{Kind: CArray, Size: c.Size * counts[i], Elem: c, Count: counts[i]}
			}
			return c
		case enum.DwarfTagStructureType, enum.DwarfTagUnionType:
			c := &CType{Kind: CStruct, Name: t.Name, Size: uint32(t.Size / 8)}
			seen[f] = c
			if t.Elements != nil {
				for _, e := range t.Elements.Fields {
					m, ok := e.(*metadata.DIDerivedType)
					if !ok || m.Tag != enum.DwarfTagMember {
						continue
					}
					c.Fields = append(c.Fields, CField{Name: m.Name, Offset: uint32(m.Offset / 8), Type: cTypeAt(m.BaseType, depth+1, seen)})
				}
			}
			return c
		case enum.DwarfTagEnumerationType:
			return &CType{Kind: CScalar, Name: t.Name, Size: uint32(t.Size / 8), Signed: true}
		}
	}
	return nil
}
