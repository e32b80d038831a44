package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
)

// docSchema is docs/json.md read as a schema: the fields of every result
// kind ("result: KIND" tables, after the common ones) and of every named
// object ("object: NAME" tables), each field with its type.
type docSchema struct {
	results map[string][]docField
	objects map[string][]docField
}

type docField struct{ name, typ string }

var (
	schemaOnce sync.Once
	schemaDoc  *docSchema
	schemaErr  error
)

var (
	sectionRe = regexp.MustCompile("^### (result|object): ([a-z-]+)$")
	rowRe     = regexp.MustCompile("^\\| `([a-z_0-9-]+)` \\| ([^|]+) \\|")
)

// loadSchema parses docs/json.md once.
func loadSchema() (*docSchema, error) {
	schemaOnce.Do(func() {
		f, err := os.Open("../../docs/json.md")
		if err != nil {
			schemaErr = err
			return
		}
		defer f.Close()
		s := &docSchema{results: map[string][]docField{}, objects: map[string][]docField{}}
		var table map[string][]docField // the current section's (nil: not a schema section)
		var name string
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			line := sc.Text()
			if m := sectionRe.FindStringSubmatch(line); m != nil {
				table, name = s.objects, m[2]
				if m[1] == "result" {
					table = s.results
				}
				table[name] = nil
				continue
			}
			if strings.HasPrefix(line, "#") {
				table = nil
				continue
			}
			if m := rowRe.FindStringSubmatch(line); m != nil && table != nil {
				table[name] = append(table[name], docField{m[1], strings.TrimSpace(m[2])})
			}
		}
		schemaDoc, schemaErr = s, sc.Err()
	})
	return schemaDoc, schemaErr
}

// checkResultJSON validates one result (a JSON object) against
// docs/json.md: its fields are exactly the common ones and its kind's, in
// that order, and every value, recursively, has its documented type.
func checkResultJSON(b []byte) error {
	s, err := loadSchema()
	if err != nil {
		return fmt.Errorf("docs/json.md: %w", err)
	}
	var v map[string]any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return fmt.Errorf("not a JSON object: %w", err)
	}
	kind, _ := v["kind"].(string)
	own, ok := s.results[kind]
	if !ok || kind == "common" {
		return fmt.Errorf("kind %q has no table in docs/json.md", kind)
	}
	common := s.results["common"]
	if len(common) != 12 {
		return fmt.Errorf("docs/json.md: %d common fields, want 12", len(common))
	}
	fields := slices.Concat(common[:9], own, common[9:])
	if err := checkObject(s, v, fields, kind); err != nil {
		return err
	}
	// The order of the fields is the documented one.
	var order []string
	dec = json.NewDecoder(bytes.NewReader(b))
	dec.Token()
	for dec.More() {
		t, _ := dec.Token()
		order = append(order, t.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return err
		}
	}
	for i, f := range fields {
		if i >= len(order) || order[i] != f.name {
			return fmt.Errorf("%s: fields in the order %v, documented %v", kind, order, names(fields))
		}
	}
	if strings.Contains(string(b), `\u003c`) || strings.Contains(string(b), `\u0026`) {
		return fmt.Errorf("%s: < or & escaped", kind)
	}
	return nil
}

func names(fs []docField) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.name)
	}
	return out
}

func checkObject(s *docSchema, v map[string]any, fields []docField, path string) error {
	want := map[string]bool{}
	for _, f := range fields {
		want[f.name] = true
		x, ok := v[f.name]
		if !ok {
			return fmt.Errorf("%s.%s: missing", path, f.name)
		}
		if err := checkType(s, x, f.typ, path+"."+f.name); err != nil {
			return err
		}
	}
	var extra []string
	for k := range v {
		if !want[k] {
			extra = append(extra, k)
		}
	}
	if len(extra) > 0 {
		sort.Strings(extra)
		return fmt.Errorf("%s: fields %v are not documented", path, extra)
	}
	return nil
}

// checkType checks x against a documented type: string, integer, number,
// boolean, null, any, "array of T", "map of T", "T or U", or an object's
// name.
func checkType(s *docSchema, x any, typ, path string) error {
	alts := strings.Split(typ, " or ")
	var errs []string
	for _, t := range alts {
		err := checkOne(s, x, strings.TrimSpace(t), path)
		if err == nil {
			return nil
		}
		errs = append(errs, err.Error())
	}
	return fmt.Errorf("%s", strings.Join(errs, "; "))
}

func checkOne(s *docSchema, x any, t, path string) error {
	switch {
	case t == "any":
		return nil
	case t == "null":
		if x == nil {
			return nil
		}
	case t == "string":
		if _, ok := x.(string); ok {
			return nil
		}
	case t == "boolean":
		if _, ok := x.(bool); ok {
			return nil
		}
	case t == "integer":
		if n, ok := x.(json.Number); ok && !strings.ContainsAny(n.String(), ".eE") {
			return nil
		}
	case t == "number":
		if _, ok := x.(json.Number); ok {
			return nil
		}
	case strings.HasPrefix(t, "array of "):
		a, ok := x.([]any)
		if !ok {
			break
		}
		for i, e := range a {
			if err := checkType(s, e, strings.TrimPrefix(t, "array of "), fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
		return nil
	case strings.HasPrefix(t, "map of "):
		m, ok := x.(map[string]any)
		if !ok {
			break
		}
		for k, e := range m {
			if err := checkType(s, e, strings.TrimPrefix(t, "map of "), path+"."+k); err != nil {
				return err
			}
		}
		return nil
	default:
		fields, ok := s.objects[t]
		if !ok {
			return fmt.Errorf("%s: docs/json.md has no object %q", path, t)
		}
		m, ok := x.(map[string]any)
		if !ok {
			break
		}
		return checkObject(s, m, fields, path)
	}
	return fmt.Errorf("%s: %v is not %s", path, x, t)
}

// TestJSONSchemaDoc: the schema checker rejects what the document does not
// allow (a missing field, an undocumented one, a wrong type, a field out of
// order, an escaped <), so that the checks of real results can fail.
func TestJSONSchemaDoc(t *testing.T) {
	s, err := loadSchema()
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"common", "probability", "hypothesis", "estimate", "enum-states-smc", "splitting", "explicit", "exact", "bmc"} {
		if len(s.results[k]) == 0 {
			t.Errorf("docs/json.md: no fields for result %s", k)
		}
	}
	good := `{"wyvern_version":"v","kind":"enum-states-smc","query":"EnumStatesSMC <=3 2","program":"p.c","program_sha256":"ab","seed":1,` +
		`"options":{"bound":3},"defaults":[],"exit_status":0,"runs":2,"states":5,"steps":6,` +
		`"ends":{"exited":2},"warnings":[],"experiment":"e","stats":{"seconds":0.1,"runs_per_s":1,"steps_per_s":2,"workers":["w"],"duplicate_results":0,"exploration":[]}}`
	if err := checkResultJSON([]byte(good)); err != nil {
		t.Fatalf("valid result rejected: %v", err)
	}
	for _, c := range []struct{ name, old, new, want string }{
		{"missing", `"states":5,`, ``, "states: missing"},
		{"extra", `"states":5,`, `"states":5,"estimate":0,`, "not documented"},
		{"type", `"states":5,`, `"states":"5",`, "is not integer"},
		{"integer", `"states":5,`, `"states":5.5,`, "is not integer"},
		{"nested", `"workers":["w"]`, `"workers":[1]`, "is not string"},
		{"order", `"runs":2,"states":5,`, `"states":5,"runs":2,`, "order"},
		{"escaped", `"p.c"`, `"p\u003c.c"`, "escaped"},
		{"kind", `"enum-states-smc"`, `"nonsense"`, "no table"},
	} {
		bad := strings.Replace(good, c.old, c.new, 1)
		if err := checkResultJSON([]byte(bad)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error with %q", c.name, err, c.want)
		}
	}
}
