package symbolic

import (
	"errors"
	"strings"
	"testing"

	"github.com/wyvernmc/wyvern/ir"
	"github.com/wyvernmc/wyvern/vm"
)

// TestBMCColumn checks the encoder against the platform table's BMC column
// (vm/platform_bmc.go): a call of a function the column refuses is refused
// with the column's reason, and every function it declares encoded has a
// case in the encoder — the single-threaded switch for most, the threaded
// encoding for pthread functions (a program calling one is threaded).
func TestBMCColumn(t *testing.T) {
	p := &ir.Program{Funcs: []*ir.Func{{Name: "main"}}}
	fn := p.Funcs[0]
	for b := ir.Builtin(1); b < ir.NumBuiltins; b++ {
		d := vm.BMC(b)
		e := &encoder{p: p, q: NewQuery(), sites: map[[2]int]int{}, calls: map[string][]int32{}, maxTerms: DefaultMaxTerms}
		regs := make([]val, 4)
		for i := range regs {
			regs[i] = cst(0, 64)
		}
		s := &pstate{g: "g", regs: regs, mem: "m", kind: "k", size: "z", next: cst(3, 32), flen: cst(0, 32), cnt: map[int]val{}}
		cs := &ir.CallSite{Callee: -1, Args: []int32{0, 1, 2}, ArgSizes: []uint8{8, 8, 8}, Ret: 3, RetBits: 32}
		if d.Support == vm.BMCEncoded && pthreadBuiltin(b) {
			continue // encoded by threadBuiltin; see below
		}
		_, err := e.builtin(fn, 0, s, b, cs)
		switch {
		case d.Support == vm.BMCRefused:
			if err == nil || !strings.Contains(err.Error(), d.How) || !strings.Contains(err.Error(), "not supported by the BMC encoder") {
				t.Errorf("%s: refused by the column (%s), but the encoder says %v", b, d.How, err)
			}
		case errors.Is(err, errNoEncoding):
			t.Errorf("%s: %v", b, err)
		}
	}
	// pthread functions: each one the column encodes makes the program
	// threaded, where threadBuiltin's switch has its case (its default is
	// errNoEncoding, which the threaded tests would meet).
	for b := ir.Builtin(1); b < ir.NumBuiltins; b++ {
		if pthreadBuiltin(b) && vm.BMC(b).Support == vm.BMCEncoded && !strings.Contains(vm.BMC(b).How, "threaded encoding") {
			t.Errorf("%s: a pthread function encoded, but the column does not say by the threaded encoding: %s", b, vm.BMC(b).How)
		}
	}
}
