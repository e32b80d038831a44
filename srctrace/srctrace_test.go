package srctrace

import (
	"bytes"
	"strings"
	"testing"

	"github.com/wyvernmc/wyvern/ir"
	"github.com/wyvernmc/wyvern/vm"
)

const prog = `
@counter = global i32 0
@ptr = global i32* null
define i32 @main() {
entry:
  %x = load i32, i32* @counter
  %y = add i32 %x, -7
  store i32 %y, i32* @counter
  store i32* @counter, i32** @ptr
  ret i32 0
}
`

// TestRecorder: a run's steps record what they load and store, named and
// formatted (signed values, pointers as &name), and the view ends with the
// final state and the globals that changed.
func TestRecorder(t *testing.T) {
	p, err := ir.ParseLL("p.ll", []byte(prog))
	if err != nil {
		t.Fatal(err)
	}
	m := vm.NewMachine(p)
	r := NewRecorder(m)
	st := m.NewState()
	m.Observe(st, 100, vm.NewRand(1, 0), func(st *vm.State, th *vm.Thread) bool {
		r.Step(st, th)
		return false
	})
	var got []string
	for _, s := range r.Steps {
		for _, v := range s.Values {
			got = append(got, v.Access+" "+v.Var+" = "+v.Value)
		}
	}
	want := []string{"load @counter = 0", "store @counter = -7", "store @ptr = &@counter"}
	if strings.Join(got, "; ") != strings.Join(want, "; ") {
		t.Errorf("values %q, want %q", got, want)
	}
	if r.Steps[0].Step != 1 || r.Steps[0].Process != 0 || r.Steps[0].Function != "main" || !strings.Contains(r.Steps[0].Instruction, "load i32") {
		t.Errorf("first step %+v", r.Steps[0])
	}
	var b bytes.Buffer
	if err := r.Write(&b, st); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"--- process 0 (main) ---", "Final state after 5 steps: program exited with status 0", "p0  finished",
		"@counter = -7 (was 0)", "@ptr = &@counter (was 0)"} {
		if !strings.Contains(b.String(), w) {
			t.Errorf("no %q in\n%s", w, b.String())
		}
	}
}
