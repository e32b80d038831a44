package kind

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
)

// The fields of a result in JSON (docs/json.md documents each;
// cmd/wyvern's TestJSONSchema checks the output of real runs against that
// document). Every result starts with headKeys and ends with tailKeys;
// between them come the keys its kind registered (RegisterDetail), or for
// a kind registered without keys the fields of its Detail.
var (
	headKeys = []string{"wyvern_version", "kind", "query", "program", "program_sha256", "seed", "options", "defaults", "exit_status"}
	tailKeys = []string{"warnings", "experiment", "stats"}
)

// registeredKeys are the keys registered for results of kind (nil: none).
func registeredKeys(kind string) []string {
	detailMu.RLock()
	defer detailMu.RUnlock()
	return details[kind].keys
}

// ResultKeys lists the JSON fields of a result of kind, in the order they
// are written; detailKeys are the fields of its Detail (used for a kind
// registered without keys of its own).
func ResultKeys(kind string, detailKeys []string) []string {
	mid := registeredKeys(kind)
	if mid == nil {
		mid = detailKeys
	}
	return slices.Concat(headKeys, mid, tailKeys)
}

// keyValue is one encoded field of an object.
type keyValue struct {
	key string
	val json.RawMessage
}

// objectFields encodes v (a struct, or a pointer to one) with encodeAll
// and returns its fields in order.
func objectFields(v any) ([]keyValue, error) {
	b, err := encodeAll(v)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, fmt.Errorf("%T does not encode as an object", v)
	}
	var out []keyValue
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, err
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, err
		}
		out = append(out, keyValue{t.(string), raw})
	}
	return out, nil
}

// writeObject writes the fields named by keys in that order (a key without
// a field as null), then, so that nothing is lost, any other field whose
// value is not zero, sorted.
func writeObject(fields []keyValue, keys []string) []byte {
	byKey := make(map[string]json.RawMessage, len(fields))
	for _, f := range fields {
		byKey[f.key] = f.val
	}
	var b bytes.Buffer
	b.WriteByte('{')
	write := func(k string, v json.RawMessage) {
		if b.Len() > 1 {
			b.WriteByte(',')
		}
		kb, _ := encodeAll(k)
		b.Write(kb)
		b.WriteByte(':')
		if v == nil {
			v = json.RawMessage("null")
		}
		b.Write(v)
	}
	listed := map[string]bool{}
	for _, k := range keys {
		listed[k] = true
		write(k, byKey[k])
	}
	var extra []string
	for k, v := range byKey {
		if !listed[k] && !zeroJSON(v) {
			extra = append(extra, k)
		}
	}
	sort.Strings(extra)
	for _, k := range extra {
		write(k, byKey[k])
	}
	b.WriteByte('}')
	return b.Bytes()
}

// zeroJSON reports whether v is a zero value: 0, "", false, null, [] or {}.
func zeroJSON(v json.RawMessage) bool {
	switch string(bytes.TrimSpace(v)) {
	case "0", `""`, "false", "null", "[]", "{}":
		return true
	}
	return false
}
