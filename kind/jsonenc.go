package kind

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"unicode/utf8"
)

// encodeAll encodes v as encoding/json would, except that every field is
// present: `omitempty` is ignored, a nil slice is [] and a nil map {} (a
// nil pointer stays null), non-finite floats are null, and <, > and & are
// written as they are. Results are encoded with it so that each result
// kind has one fixed set of fields (docs/json.md), whatever their values.
func encodeAll(v any) ([]byte, error) {
	var b bytes.Buffer
	if err := encodeValue(&b, reflect.ValueOf(v)); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

var marshalerType = reflect.TypeFor[json.Marshaler]()

func encodeValue(b *bytes.Buffer, v reflect.Value) error {
	if !v.IsValid() {
		b.WriteString("null")
		return nil
	}
	if v.Type().Implements(marshalerType) && (v.Kind() != reflect.Pointer || !v.IsNil()) {
		m, err := v.Interface().(json.Marshaler).MarshalJSON()
		if err != nil {
			return fmt.Errorf("encode %s: %w", v.Type(), err)
		}
		var c bytes.Buffer
		if err := json.Compact(&c, m); err != nil {
			return fmt.Errorf("encode %s: %w", v.Type(), err)
		}
		b.Write(unescapeHTML(c.Bytes()))
		return nil
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			b.WriteString("null")
			return nil
		}
		return encodeValue(b, v.Elem())
	case reflect.Struct:
		return encodeStruct(b, v)
	case reflect.Map:
		return encodeMap(b, v)
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 { // []byte: base64, as encoding/json
			return encodeLeaf(b, v.Interface())
		}
		fallthrough
	case reflect.Array:
		b.WriteByte('[')
		for i := range v.Len() {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := encodeValue(b, v.Index(i)); err != nil {
				return err
			}
		}
		b.WriteByte(']')
		return nil
	case reflect.Float32, reflect.Float64:
		if f := v.Float(); math.IsInf(f, 0) || math.IsNaN(f) {
			b.WriteString("null")
			return nil
		}
	}
	return encodeLeaf(b, v.Interface())
}

// encodeLeaf encodes a value without fields of its own with encoding/json,
// HTML characters unescaped.
func encodeLeaf(b *bytes.Buffer, x any) error {
	var e bytes.Buffer
	enc := json.NewEncoder(&e)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(x); err != nil {
		return fmt.Errorf("encode %T: %w", x, err)
	}
	b.Write(bytes.TrimSuffix(e.Bytes(), []byte{'\n'}))
	return nil
}

// jsonField is a struct field as encoding/json names it.
type jsonField struct {
	name  string
	index []int
}

// jsonFields lists the encoded fields of struct type t in order, embedded
// structs' fields promoted (without encoding/json's conflict rules, which
// no result type needs).
func jsonFields(t reflect.Type) []jsonField {
	var out []jsonField
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" {
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				for _, sub := range jsonFields(ft) {
					out = append(out, jsonField{sub.name, append([]int{i}, sub.index...)})
				}
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out = append(out, jsonField{name, []int{i}})
	}
	return out
}

func encodeStruct(b *bytes.Buffer, v reflect.Value) error {
	b.WriteByte('{')
	for i, f := range jsonFields(v.Type()) {
		if i > 0 {
			b.WriteByte(',')
		}
		if err := encodeLeaf(b, f.name); err != nil {
			return err
		}
		b.WriteByte(':')
		fv, err := v.FieldByIndexErr(f.index)
		if err != nil { // through a nil embedded pointer
			fv = reflect.Value{}
		}
		if err := encodeValue(b, fv); err != nil {
			return err
		}
	}
	b.WriteByte('}')
	return nil
}

func encodeMap(b *bytes.Buffer, v reflect.Value) error {
	type entry struct {
		key string
		val reflect.Value
	}
	entries := make([]entry, 0, v.Len())
	for it := v.MapRange(); it.Next(); {
		k := it.Key()
		var key string
		switch k.Kind() {
		case reflect.String:
			key = k.String()
		default:
			key = fmt.Sprint(k.Interface())
		}
		entries = append(entries, entry{key, it.Value()})
	}
	slices.SortFunc(entries, func(a, b entry) int { return strings.Compare(a.key, b.key) })
	b.WriteByte('{')
	for i, e := range entries {
		if i > 0 {
			b.WriteByte(',')
		}
		if err := encodeLeaf(b, e.key); err != nil {
			return err
		}
		b.WriteByte(':')
		if err := encodeValue(b, e.val); err != nil {
			return err
		}
	}
	b.WriteByte('}')
	return nil
}

// unescapeHTML turns the \u003c, \u003e and \u0026 escapes of compact JSON
// back into <, > and &, leaving every other escape (\\u003c included) as
// it is.
func unescapeHTML(s []byte) []byte {
	if !bytes.Contains(s, []byte(`\u00`)) {
		return s
	}
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			out = append(out, c)
			continue
		}
		if s[i+1] == 'u' && i+6 <= len(s) {
			switch string(s[i+2 : i+6]) {
			case "003c", "003C":
				out = append(out, '<')
				i += 5
				continue
			case "003e", "003E":
				out = append(out, '>')
				i += 5
				continue
			case "0026":
				out = append(out, '&')
				i += 5
				continue
			}
		}
		out = append(out, c, s[i+1]) // any other escape, kept whole
		i++
	}
	if !utf8.Valid(out) {
		return s
	}
	return out
}
