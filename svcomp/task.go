// Package svcomp reads SV-COMP verification tasks (task definitions in
// format 2.0 and property files), maps their properties to Wyvern queries,
// runs the portfolio of engines that answers them through a coordinator
// (simulation, explicit-state search, bounded model checking) and writes
// and replays violation witnesses in SV-COMP's witness format 2.0.
package svcomp

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"gopkg.in/yaml.v3"
)

// Task is a verification task: the program's files, its properties with
// their expected verdicts (when the task says), and its options.
type Task struct {
	Path       string   // the task file ("" for a task made from a program and a property file)
	InputFiles []string // paths, resolved against the task file's directory
	Properties []TaskProperty
	Language   string // C
	DataModel  string // ILP32 or LP64
}

// TaskProperty is one property of a task.
type TaskProperty struct {
	File string // the property file, resolved
	// Expected is the expected verdict ("" when the task gives none):
	// "true" or "false".
	Expected string
	// Subproperty is the expected violated subproperty of a false verdict
	// (valid-memsafety: valid-free, valid-deref, valid-memtrack).
	Subproperty string
}

// taskFile is the YAML of a task definition (format 2.0).
type taskFile struct {
	FormatVersion string `yaml:"format_version"`
	InputFiles    any    `yaml:"input_files"` // a string or a list of strings
	Properties    []struct {
		PropertyFile    string `yaml:"property_file"`
		ExpectedVerdict *bool  `yaml:"expected_verdict"`
		Subproperty     string `yaml:"subproperty"`
	} `yaml:"properties"`
	Options struct {
		Language  string `yaml:"language"`
		DataModel string `yaml:"data_model"`
	} `yaml:"options"`
}

// ReadTask reads a task definition file.
func ReadTask(path string) (*Task, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("task %s: %w", path, err)
	}
	t, err := ParseTask(b, filepath.Dir(path))
	if err != nil {
		return nil, fmt.Errorf("task %s: %w", path, err)
	}
	t.Path = path
	return t, nil
}

// ParseTask parses a task definition; relative file names are resolved
// against dir.
func ParseTask(b []byte, dir string) (*Task, error) {
	var f taskFile
	dec := yaml.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("not a task definition: %w", err)
	}
	switch f.FormatVersion {
	case "1.0", "1.1", "2.0", "2.1": // 1.x has the same fields for C tasks
	case "":
		return nil, fmt.Errorf("no format_version (want 2.0)")
	default:
		return nil, fmt.Errorf("format_version %q: this reader knows 2.0", f.FormatVersion)
	}
	t := &Task{Language: f.Options.Language, DataModel: f.Options.DataModel}
	switch x := f.InputFiles.(type) {
	case string:
		t.InputFiles = []string{x}
	case []any:
		for _, e := range x {
			s, ok := e.(string)
			if !ok {
				return nil, fmt.Errorf("input_files: %v is not a file name", e)
			}
			t.InputFiles = append(t.InputFiles, s)
		}
	case nil:
		return nil, fmt.Errorf("no input_files")
	default:
		return nil, fmt.Errorf("input_files: want a file name or a list of them, not %T", x)
	}
	if len(t.InputFiles) == 0 {
		return nil, fmt.Errorf("no input_files")
	}
	for i, in := range t.InputFiles {
		if !filepath.IsAbs(in) {
			t.InputFiles[i] = filepath.Join(dir, in)
		}
	}
	for _, p := range f.Properties {
		if p.PropertyFile == "" {
			return nil, fmt.Errorf("a property without property_file")
		}
		tp := TaskProperty{File: p.PropertyFile, Subproperty: p.Subproperty}
		if !filepath.IsAbs(tp.File) {
			tp.File = filepath.Join(dir, tp.File)
		}
		if p.ExpectedVerdict != nil {
			tp.Expected = fmt.Sprint(*p.ExpectedVerdict)
		}
		t.Properties = append(t.Properties, tp)
	}
	if len(t.Properties) == 0 {
		return nil, fmt.Errorf("no properties")
	}
	if t.Language != "" && t.Language != "C" {
		return nil, fmt.Errorf("options.language %q: Wyvern verifies C", t.Language)
	}
	switch t.DataModel {
	case "", "ILP32", "LP64":
	default:
		return nil, fmt.Errorf("options.data_model %q: want ILP32 or LP64", t.DataModel)
	}
	return t, nil
}

// PropertyKind is an SV-COMP property.
type PropertyKind int

// The properties Wyvern reads.
const (
	UnreachCall PropertyKind = iota + 1
	NoDataRace
	ValidMemsafety
	ValidMemcleanup
	NoOverflow
	Termination
)

var propNames = map[PropertyKind]string{
	UnreachCall: "unreach-call", NoDataRace: "no-data-race", ValidMemsafety: "valid-memsafety",
	ValidMemcleanup: "valid-memcleanup", NoOverflow: "no-overflow", Termination: "termination",
}

func (k PropertyKind) String() string {
	if s, ok := propNames[k]; ok {
		return s
	}
	return fmt.Sprintf("property(%d)", int(k))
}

// Property is a parsed property file.
type Property struct {
	Kind PropertyKind
	// Func is the error function of unreach-call (reach_error, or
	// __VERIFIER_error in older tasks).
	Func string
	// Spec is the property's formula as the file states it (the witness
	// records it), e.g. "G ! call(reach_error())".
	Spec string
}

var (
	checkRe = regexp.MustCompile(`^CHECK\(\s*init\(\s*(\w+)\(\)\s*\)\s*,\s*LTL\((.*)\)\s*\)$`)
	callRe  = regexp.MustCompile(`^G\s*!\s*call\(\s*(\w+)\(\)\s*\)$`)
)

// ReadProperty reads a property file.
func ReadProperty(path string) (*Property, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("property file %s: %w", path, err)
	}
	p, err := ParseProperty(string(b))
	if err != nil {
		return nil, fmt.Errorf("property file %s: %w", path, err)
	}
	return p, nil
}

// ParseProperty parses the text of a property file: CHECK( init(main()),
// LTL(F) ) lines with the formulas of unreach-call (G ! call(f())),
// no-data-race, valid-memsafety (its three lines valid-free, valid-deref,
// valid-memtrack), valid-memcleanup, no-overflow and termination.
func ParseProperty(text string) (*Property, error) {
	var formulas []string
	for i, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "//") {
			continue
		}
		m := checkRe.FindStringSubmatch(line)
		if m == nil {
			return nil, fmt.Errorf("line %d: %q is not CHECK( init(main()), LTL(...) )", i+1, line)
		}
		if m[1] != "main" {
			return nil, fmt.Errorf("line %d: the entry function is %s: Wyvern starts programs at main", i+1, m[1])
		}
		formulas = append(formulas, strings.TrimSpace(m[2]))
	}
	if len(formulas) == 0 {
		return nil, fmt.Errorf("no CHECK line")
	}
	spec := strings.Join(formulas, " && ")
	if len(formulas) == 1 {
		f := formulas[0]
		if m := callRe.FindStringSubmatch(f); m != nil {
			return &Property{Kind: UnreachCall, Func: m[1], Spec: f}, nil
		}
		switch strings.Join(strings.Fields(f), " ") {
		case "G ! data-race":
			return &Property{Kind: NoDataRace, Spec: f}, nil
		case "G valid-memcleanup":
			return &Property{Kind: ValidMemcleanup, Spec: f}, nil
		case "G ! overflow":
			return &Property{Kind: NoOverflow, Spec: f}, nil
		case "F end":
			return &Property{Kind: Termination, Spec: f}, nil
		}
		return nil, fmt.Errorf("unknown property LTL(%s)", f)
	}
	seen := map[string]bool{}
	for _, f := range formulas {
		seen[strings.Join(strings.Fields(f), " ")] = true
	}
	if len(formulas) == 3 && seen["G valid-free"] && seen["G valid-deref"] && seen["G valid-memtrack"] {
		return &Property{Kind: ValidMemsafety, Spec: spec}, nil
	}
	return nil, fmt.Errorf("unknown combination of properties %q", spec)
}
