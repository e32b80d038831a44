package symbolic

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/wyvernmc/wyvern/internal/testutil"
	"github.com/wyvernmc/wyvern/ir"
	"github.com/wyvernmc/wyvern/vm"
)

// TestEncodeCallInd: a call through a constant function pointer (clang's
// call of a function declared without a prototype goes through a bitcast
// of it) is a call of that function; a pointer that is not a constant is
// refused by name.
func TestEncodeCallInd(t *testing.T) {
	const noproto = `extern unsigned int __VERIFIER_nondet_uint(void);
extern void reach_error();
void check();
int main(void) {
  unsigned int x = __VERIFIER_nondet_uint();
  check(x);
  return 0;
}
void check(unsigned int x) {
  if (x == %s) reach_error();
}
`
	const chosen = `extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
static int one(int x) { return x + 1; }
static int two(int x) { return x + 2; }
int main(void) {
  int (*f)(int) = __VERIFIER_nondet_int() ? one : two;
  if (f(1) == 3) reach_error();
  return 0;
}
`
	for _, tc := range []struct {
		name  string
		src   string
		ilp32 bool
		want  Status // of the violation; Unknown: refused
		input uint64 // the first input of a Sat model
	}{
		{"noproto_ilp32_bug", strings.Replace(noproto, "%s", "0x12345678u", 1), true, Sat, 0x12345678},
		{"noproto_lp64_bug", strings.Replace(noproto, "%s", "0x9abcdefu", 1), false, Sat, 0x9abcdef},
		{"noproto_ilp32_safe", strings.Replace(noproto, "%s", "x + 1u", 1), true, Unsat, 0},
		// the input function itself declared without a prototype: an input through a constant pointer
		{"noproto_input_ilp32", strings.Replace(strings.Replace(noproto, "%s", "0x7654321u", 1), "__VERIFIER_nondet_uint(void)", "__VERIFIER_nondet_uint()", 1), true, Sat, 0x7654321},
		{"chosen_pointer", chosen, false, Unknown, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var p *ir.Program
			if tc.ilp32 {
				p = ilp32Program(t, tc.name, tc.src)
			} else {
				path := filepath.Join(t.TempDir(), tc.name+".c")
				writeFile(t, path, tc.src)
				p = testutil.Program(t, path)
			}
			opts := EncodeOptions{Unwind: 1, Errors: []vm.ErrKind{}, Calls: []string{"reach_error"}}
			if tc.want == Unknown {
				_, err := Encode(p, opts)
				if err == nil || !strings.Contains(err.Error(), "call through a function pointer that is not a constant") {
					t.Fatalf("err = %v, want a refusal of the non-constant function pointer", err)
				}
				return
			}
			v, m, u, enc := bmcCheck(t, p, opts)
			if v != tc.want || u != Unsat {
				t.Fatalf("violation %s, unwound %s; want %s, unsat", v, u, tc.want)
			}
			if v == Sat {
				if got := input(t, enc, m, 0); got != tc.input {
					t.Fatalf("input %#x, want %#x", got, tc.input)
				}
			}
		})
	}
}
