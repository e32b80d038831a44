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

// TestCPath: the C path of an offset into a typed value, for accesses of a
// given size and for pthread objects.
func TestCPath(t *testing.T) {
	i32 := &ir.CType{Kind: ir.CScalar, Size: 4, Signed: true}
	i64 := &ir.CType{Kind: ir.CScalar, Size: 8, Signed: true}
	mutex := &ir.CType{Kind: ir.CStruct, Name: "pthread_mutex_t", Size: 40, Fields: []ir.CField{
		{Name: "__data", Type: &ir.CType{Kind: ir.CStruct, Size: 40, Fields: []ir.CField{{Name: "__lock", Type: i32}}}},
		{Name: "__size", Type: &ir.CType{Kind: ir.CArray, Size: 40, Count: 40, Elem: &ir.CType{Kind: ir.CScalar, Size: 1}}}}}
	account := &ir.CType{Kind: ir.CStruct, Name: "account", Size: 48, Fields: []ir.CField{{Name: "m", Type: mutex}, {Name: "balance", Offset: 40, Type: i64}}}
	acc := &ir.CType{Kind: ir.CArray, Size: 96, Count: 2, Elem: account}
	point := &ir.CType{Kind: ir.CStruct, Size: 8, Fields: []ir.CField{{Name: "x", Type: i32}, {Name: "y", Offset: 4, Type: i32}}}
	for _, tc := range []struct {
		t         *ir.CType
		off, size uint32
		path      string
		leaf      *ir.CType
		rest      uint32
	}{
		{acc, 88, 8, "[1].balance", i64, 0},
		{acc, 48, 0, "[1]", nil, 0},
		{acc, 48, syncObject, "[1].m", nil, 0},
		{acc, 48, 4, "[1].m", nil, 0}, // a pthread object is named whole
		{acc, 100, 4, "", nil, 100},
		{point, 0, 4, ".x", i32, 0},
		{point, 0, 8, "", nil, 0},
		{point, 6, 1, ".y", i32, 2},
	} {
		path, leaf, rest := cpath(tc.t, tc.off, tc.size)
		if path != tc.path || leaf != tc.leaf || rest != tc.rest {
			t.Errorf("cpath(%s, %d, %d) = %q, %v, %d; want %q, %v, %d", tc.t.Name, tc.off, tc.size, path, leaf, rest, tc.path, tc.leaf, tc.rest)
		}
	}
}
