package svcomp

import (
	"bytes"
	"strings"
	"testing"

	"github.com/wyvernmc/wyvern/trace"
	"github.com/wyvernmc/wyvern/vm"
)

// witnessFor finds a violation of prop in program file by simulation
// (trace indices 0, 1, ... of seed 1) and returns the machine, goal and
// the violation's steps as the portfolio's simulation records them.
func witnessFor(t *testing.T, file, prop string) (*vm.Machine, *Goal, []trace.Step) {
	t.Helper()
	prog := loadFresh(t, "testdata/"+file) // (Machine may change it)
	p, err := ReadProperty("testdata/properties/" + prop + ".prp")
	if err != nil {
		t.Fatal(err)
	}
	g := GoalOf(p, prog)
	r := &runner{g: g, m: g.Machine(prog)}
	for index := uint64(0); index < 2000; index++ {
		steps, err := r.simTrace(1, index, 10_000, "uniform")
		if err != nil {
			continue // this trace does not reach the focus
		}
		if _, ok, err := r.check(steps); err != nil {
			t.Fatalf("trace %d does not replay: %v", index, err)
		} else if ok {
			return r.m, g, steps
		}
	}
	t.Fatalf("%s: no violation of %s in 2000 traces", file, prop)
	return nil, nil, nil
}

// TestWitnessRoundTrip: the witness of a violation (single-threaded with
// a nondeterministic value; threaded with a schedule) is YAML in format
// 2.0 with a function_return waypoint per value and a target, and reading
// and replaying it gives back the same steps and the same violation; a
// witness whose value is changed does not reproduce it.
func TestWitnessRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		file, prop, sub string
		values          int
		threads         bool
	}{
		{"null_deref.c", "valid-memsafety", "valid-deref", 1, false},
		{"lost_update.c", "unreach-call", "unreach-call", 0, true},
		{"race.c", "no-data-race", "no-data-race", 0, true},
	} {
		t.Run(tc.file, func(t *testing.T) {
			m, g, steps := witnessFor(t, tc.file, tc.prop)
			var buf bytes.Buffer
			meta := WitnessMeta{InputFiles: []string{"testdata/" + tc.file}, Spec: g.Prop.Spec, DataModel: "ILP32", Producer: "test", Engine: "simulation"}
			if err := WriteWitness(&buf, m, steps, g, meta); err != nil {
				t.Fatal(err)
			}
			text := buf.String()
			for _, want := range []string{"entry_type: violation_sequence", `format_version: "2.0"`, "type: target",
				"specification: " + g.Prop.Spec, "data_model: ILP32", "file_name: " + tc.file, scheduleTag} {
				if !strings.Contains(text, want) {
					t.Errorf("witness lacks %q:\n%s", want, text)
				}
			}
			values, schedule, platform, err := ReadWitness(buf.Bytes())
			if err != nil {
				t.Fatal(err)
			}
			if len(values) != tc.values || len(schedule) != len(steps) {
				t.Fatalf("%d values, %d scheduled steps; want %d and %d\n%s", len(values), len(schedule), tc.values, len(steps), text)
			}
			spec, err := WitnessSpec(buf.Bytes())
			if err != nil || spec != g.Prop.Spec {
				t.Fatalf("spec %q, %v", spec, err)
			}
			got, final, err := Replay(m, values, schedule, platform, 1_000_000)
			if err != nil {
				t.Fatal(err)
			}
			if !sameSchedule(got, steps) {
				t.Errorf("replayed steps differ:\n got %v\nwant %v", got, steps)
			}
			if sub, ok, err := g.Classify(m, final); err != nil || !ok || sub != tc.sub {
				t.Errorf("replay ends %s: %q %v, want %s", final.Describe(), sub, ok, tc.sub)
			}
			if !tc.threads {
				// Without the schedule comment a single-threaded witness
				// replays too (the only process steps).
				got, _, err := Replay(m, values, nil, platform, 1_000_000)
				if err != nil || !sameSchedule(got, steps) {
					t.Errorf("replay without schedule: %v", err)
				}
				// The other value takes the other branch: no violation.
				values[0].Value++
				_, final, err := Replay(m, values, schedule, platform, 1_000_000)
				if err == nil {
					if _, ok, _ := g.Classify(m, final); ok {
						t.Errorf("a witness with value %d still ends in the violation", values[0].Value)
					}
				}
			}
		})
	}
}

// sameSchedule: the same processes step and the same steps draw (the
// draws themselves may differ where the call masks them: a 32-bit value
// from a 64-bit draw).
func sameSchedule(a, b []trace.Step) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Thread != b[i].Thread || len(a[i].Choices) != len(b[i].Choices) {
			return false
		}
	}
	return true
}

func TestReadWitnessErrors(t *testing.T) {
	for _, tc := range []struct{ name, text, err string }{
		{"not yaml", "- [", "not a list of entries"},
		{"no sequence", "- entry_type: invariant_set\n", "no violation_sequence"},
		{"version", "- entry_type: violation_sequence\n  metadata:\n    format_version: '1.0'\n", `format_version "1.0"`},
		{"constraint", "- entry_type: violation_sequence\n  metadata:\n    format_version: '2.0'\n  content:\n  - segment:\n    - waypoint:\n        type: function_return\n        action: follow\n        constraint:\n          value: 'x > 2'\n        location:\n          file_name: a.c\n          line: 3\n", "is not \\result == CONSTANT"},
		{"schedule", "# wyvern-schedule: 0*2 x\n- entry_type: violation_sequence\n  metadata:\n    format_version: '2.0'\n", "bad schedule run"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, _, err := ReadWitness([]byte(tc.text))
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("error %v, want one containing %q", err, tc.err)
			}
		})
	}
}
