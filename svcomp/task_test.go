package svcomp

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestParseTask(t *testing.T) {
	for _, tc := range []struct {
		name, yml string
		want      *Task
		err       string
	}{
		{name: "one file, one property", yml: `format_version: '2.0'
# old file name: 01_inc_true-unreach-call.i
input_files: '01_inc.i'
properties:
  - property_file: ../properties/unreach-call.prp
    expected_verdict: true
options:
  language: C
  data_model: ILP32
`, want: &Task{InputFiles: []string{"d/01_inc.i"}, Language: "C", DataModel: "ILP32",
			Properties: []TaskProperty{{File: "properties/unreach-call.prp", Expected: "true"}}}},
		{name: "list of files, subproperty, no verdict", yml: `format_version: "2.0"
input_files:
  - a.c
  - /abs/b.c
properties:
  - property_file: ../properties/valid-memsafety.prp
    expected_verdict: false
    subproperty: valid-deref
  - property_file: ../properties/termination.prp
options:
  language: C
  data_model: LP64
`, want: &Task{InputFiles: []string{"d/a.c", "/abs/b.c"}, Language: "C", DataModel: "LP64",
			Properties: []TaskProperty{{File: "properties/valid-memsafety.prp", Expected: "false", Subproperty: "valid-deref"},
				{File: "properties/termination.prp"}}}},
		{name: "no version", yml: "input_files: a.c\nproperties:\n  - property_file: p.prp\n", err: "no format_version"},
		{name: "version 3", yml: "format_version: '3.0'\ninput_files: a.c\n", err: `format_version "3.0"`},
		{name: "no input", yml: "format_version: '2.0'\nproperties:\n  - property_file: p.prp\n", err: "no input_files"},
		{name: "input not a name", yml: "format_version: '2.0'\ninput_files: [[a]]\n", err: "is not a file name"},
		{name: "no properties", yml: "format_version: '2.0'\ninput_files: a.c\n", err: "no properties"},
		{name: "property without file", yml: "format_version: '2.0'\ninput_files: a.c\nproperties:\n  - expected_verdict: true\n", err: "without property_file"},
		{name: "java", yml: "format_version: '2.0'\ninput_files: a.java\nproperties:\n  - property_file: p.prp\noptions:\n  language: Java\n", err: "Wyvern verifies C"},
		{name: "data model", yml: "format_version: '2.0'\ninput_files: a.c\nproperties:\n  - property_file: p.prp\noptions:\n  data_model: LLP64\n", err: "want ILP32 or LP64"},
		{name: "not yaml", yml: "format_version: [", err: "not a task definition"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseTask([]byte(tc.yml), "d")
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one containing %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for i := range tc.want.Properties {
				tc.want.Properties[i].File = filepath.Clean(filepath.Join("d", "..", tc.want.Properties[i].File))
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

func TestParseProperty(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		kind       PropertyKind
		fn, spec   string
		err        string
	}{
		{name: "unreach-call", text: "CHECK( init(main()), LTL(G ! call(reach_error())) )\n\n", kind: UnreachCall, fn: "reach_error", spec: "G ! call(reach_error())"},
		{name: "old unreach-call", text: "CHECK( init(main()), LTL(G ! call(__VERIFIER_error())) )\n", kind: UnreachCall, fn: "__VERIFIER_error", spec: "G ! call(__VERIFIER_error())"},
		{name: "data race", text: "CHECK( init(main()), LTL(G ! data-race) )\n", kind: NoDataRace, spec: "G ! data-race"},
		{name: "memsafety", text: "CHECK( init(main()), LTL(G valid-free) )\nCHECK( init(main()), LTL(G valid-deref) )\nCHECK( init(main()), LTL(G valid-memtrack) )\n",
			kind: ValidMemsafety, spec: "G valid-free && G valid-deref && G valid-memtrack"},
		{name: "memcleanup", text: "CHECK( init(main()), LTL(G valid-memcleanup) )", kind: ValidMemcleanup, spec: "G valid-memcleanup"},
		{name: "overflow", text: "CHECK( init(main()), LTL(G ! overflow) )", kind: NoOverflow, spec: "G ! overflow"},
		{name: "termination", text: "CHECK( init(main()), LTL(F end) )", kind: Termination, spec: "F end"},
		{name: "other entry", text: "CHECK( init(start()), LTL(F end) )", err: "Wyvern starts programs at main"},
		{name: "garbage", text: "G ! overflow", err: "is not CHECK"},
		{name: "empty", text: "\n\n", err: "no CHECK line"},
		{name: "unknown", text: "CHECK( init(main()), LTL(G ! nothing) )", err: "unknown property"},
		{name: "two of memsafety", text: "CHECK( init(main()), LTL(G valid-free) )\nCHECK( init(main()), LTL(G valid-deref) )", err: "unknown combination"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := ParseProperty(tc.text)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one containing %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if p.Kind != tc.kind || p.Func != tc.fn || p.Spec != tc.spec {
				t.Errorf("got %v %q %q, want %v %q %q", p.Kind, p.Func, p.Spec, tc.kind, tc.fn, tc.spec)
			}
			// A witness's specification reads back as the same property.
			q, err := SpecProperty(p.Spec)
			if err != nil || !reflect.DeepEqual(p, q) {
				t.Errorf("SpecProperty(%q) = %+v, %v", p.Spec, q, err)
			}
		})
	}
}

func TestParseResult(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want uint64
		ok   bool
	}{
		{`\result == 5`, 5, true},
		{`\result == -1`, ^uint64(0), true},
		{`\result==0x10`, 16, true},
		{`\result == (7U)`, 7, true},
		{`\result == 2863311531`, 2863311531, true},
		{`x == 5`, 0, false},
		{`\result < 5`, 0, false},
	} {
		got, err := parseResult(tc.in)
		if (err == nil) != tc.ok || (tc.ok && got != tc.want) {
			t.Errorf("parseResult(%q) = %d, %v; want %d, ok %v", tc.in, got, err, tc.want, tc.ok)
		}
	}
}
