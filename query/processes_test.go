package query

import (
	"slices"
	"testing"

	"github.com/wyvernmc/wyvern/ir"
	"github.com/wyvernmc/wyvern/vm"
)

// TestCompiledProcesses: a compiled query lists the process numbers it
// names literally, not those bound by Exists.
func TestCompiledProcesses(t *testing.T) {
	prog, err := ir.ParseLL("eval.ll", []byte(evalLL))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		query string
		want  []int32
	}{
		{"E<> g == 7", nil},
		{"E<> [0.f] && [3.f]", []int32{0, 3}},
		{"Pr[<=10](<> @2.main.%x;si32 == 7)", []int32{2}},
		{"E<> Exists (p) ([p.f])", nil},
		{"E<> Exists (p) ([p.f] && [1.main])", []int32{1}},
	}
	for _, c := range cases {
		q, err := Parse(c.query)
		if err != nil {
			t.Fatal(err)
		}
		cq, err := Compile(q, vm.NewMachine(prog))
		if err != nil {
			t.Fatalf("%s: %v", c.query, err)
		}
		if !slices.Equal(cq.Processes, c.want) {
			t.Errorf("%s: processes %v, want %v", c.query, cq.Processes, c.want)
		}
	}
}
