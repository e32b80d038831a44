package query

import (
	"strings"
	"testing"

	"github.com/wyvernmc/wyvern/internal/testutil"
	"github.com/wyvernmc/wyvern/vm"
)

// TestCPaths: elements, fields and fields through pointers of C globals
// read what the program holds, by the debug information's types (signed
// and unsigned, nested arrays, typedefs, index expressions), 0 through a
// null pointer or out of bounds; what does not fit is an error that says
// why.
func TestCPaths(t *testing.T) {
	m := vm.NewMachine(testutil.Program(t, "../testdata/queries/cpath.c"))
	start := m.NewState()
	end := m.NewState()
	m.Observe(end, 1000, vm.NewRand(1, 0), func(*vm.State, *vm.Thread) bool { return false })
	cases := []struct {
		expr       string
		start, end int64
	}{
		{"q.head", 1, 2},
		{"q.tail", 3, 3},
		{"q.buf[2]", 250, 250}, // unsigned char
		{"q.buf[q.head]", 20, 250},
		{"q.buf[9]", 0, 0}, // out of bounds
		{"grid[1][2]", -6, -6},
		{"grid[0][1] + grid[1][0]", 6, 6},
		{"p->val", 5, 7},
		{"p->next->val", 7, 0}, // end: p->next is NULL
		{"n1.next->val", 7, 7},
		{"p->next->next->val", 0, 0},
	}
	for _, c := range cases {
		q, err := Parse("Estimate[<=10,1]{max " + c.expr + "}")
		if err != nil {
			t.Fatalf("%s: %v", c.expr, err)
		}
		cq, err := Compile(q, m)
		if err != nil {
			t.Fatalf("%s: %v", c.expr, err)
		}
		if got := cq.Expr(start); got != c.start {
			t.Errorf("%s at the start: %d, want %d", c.expr, got, c.start)
		}
		if got := cq.Expr(end); got != c.end {
			t.Errorf("%s at the end: %d, want %d", c.expr, got, c.end)
		}
	}
	for _, c := range []struct{ prop, want string }{
		{"q.nope == 1", `a struct queue has no field "nope" (fields: head, tail, buf)`},
		{"p.val == 1", "not a struct (a pointer: write ->)"},
		{"q == 1", "global q is not a scalar"},
		{"grid[0] == 1", "is an array of 3 int: a query compares integers"},
		{"q.head[0] == 1", "not an array or a pointer"},
		{"n1->val == 1", "not a pointer to a struct"},
		{"d.x == 1", "d is a double, not a struct"},
		{"main::x.y == 1", "local variables"},
		{"nosuch[1] == 1", `no global variable "nosuch"`},
	} {
		q, err := Parse("E<> " + c.prop)
		if err != nil {
			t.Fatalf("%s: %v", c.prop, err)
		}
		if _, err := Compile(q, m); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.prop, err, c.want)
		}
	}
}
