package symbolic

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/wyvernmc/wyvern/internal/testutil"
	"github.com/wyvernmc/wyvern/ir"
	"github.com/wyvernmc/wyvern/vm"
)

// TestEncodeWrapOverflow: the same programs with overflow as an error
// state and with ir.Program.WrapOverflow. With the error, the run ends at
// the overflow (the failed assertion after it is unreachable); with
// wrap-around, no Overflow is encoded and the wrapped value decides the
// branch: overflow_then_error reaches its assertion, overflow_then_safe
// does not.
func TestEncodeWrapOverflow(t *testing.T) {
	testutil.NeedClang(t)
	for _, tc := range []struct {
		prog string
		wrap bool
		kind vm.ErrKind
		want Status
	}{
		{"overflow_then_error.c", false, vm.ErrOverflow, Sat},
		{"overflow_then_error.c", false, vm.ErrAssertFail, Unsat},
		{"overflow_then_error.c", true, vm.ErrOverflow, Unsat},
		{"overflow_then_error.c", true, vm.ErrAssertFail, Sat},
		{"overflow_then_safe.c", false, vm.ErrOverflow, Sat},
		{"overflow_then_safe.c", true, vm.ErrOverflow, Unsat},
		{"overflow_then_safe.c", true, vm.ErrAssertFail, Unsat},
	} {
		t.Run(fmt.Sprintf("%s/wrap=%v/%s", tc.prog, tc.wrap, tc.kind), func(t *testing.T) {
			// (loaded afresh: WrapOverflow changes the program)
			p, err := ir.Load(filepath.Join("..", "svcomp", "testdata", tc.prog), ir.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if tc.wrap {
				p.WrapOverflow()
			}
			v, _, u, _ := bmcCheck(t, p, EncodeOptions{Unwind: 1, Errors: errs(tc.kind)})
			if v != tc.want || u != Unsat {
				t.Fatalf("violation %s, unwound %s; want %s, unsat", v, u, tc.want)
			}
		})
	}
}
