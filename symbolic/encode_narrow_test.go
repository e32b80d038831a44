package symbolic

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/wyvernmc/wyvern/internal/testutil"
	"github.com/wyvernmc/wyvern/ir"
	"github.com/wyvernmc/wyvern/jobs"
	"github.com/wyvernmc/wyvern/query"
)

// TestNarrowing checks the narrowed operations (encode_narrow.go) at the
// edges of their bounds: each program's violation is reachable exactly at
// the largest values the bounds admit (the witness replays in the vm), or
// excluded just past them. A bound one bit too small would make a
// satisfied line not-satisfied; one too loose changes nothing but size.
func TestNarrowing(t *testing.T) {
	testutil.NeedClang(t)
	const head = `extern unsigned char __VERIFIER_nondet_uchar(void);
extern unsigned __VERIFIER_nondet_uint(void);
extern void reach_error(void);
int main(void) {
  unsigned char a = __VERIFIER_nondet_uchar(), b = __VERIFIER_nondet_uchar();
  unsigned u = __VERIFIER_nondet_uint();
`
	cases := []struct {
		name, body string
		sat        bool
	}{
		{"mul_max", "unsigned r = (unsigned)a * b; if (r == 65025u) reach_error();", true},
		{"mul_above_max", "unsigned r = (unsigned)a * b; if (r > 65025u) reach_error();", false},
		{"add_nsw_max", "int s = a + b; if (s == 510) reach_error();", true},
		{"add_above_max", "int s = a + b; if (s > 510) reach_error();", false},
		{"urem_below_divisor", "if (b != 0) { unsigned r = a % b; if (r >= b) reach_error(); }", false},
		{"urem_max", "if (b != 0) { unsigned r = a % b; if (r == 254u) reach_error(); }", true},
		{"udiv_max", "if (b != 0) { unsigned q = a / b; if (q == 255u) reach_error(); }", true},
		{"udiv_above", "if (b != 0) { unsigned q = a / b; if (q > 255u) reach_error(); }", false},
		{"shl_const", "unsigned y = (unsigned)a << 24; if (y == 0xff000000u) reach_error();", true},
		{"lshr_const", "unsigned y = (unsigned)a >> 3; if (y == 31u) reach_error();", true},
		{"lshr_above", "unsigned y = (unsigned)a >> 3; if (y > 31u) reach_error();", false},
		{"and_mask", "unsigned x = u & 0xF0u; if (x == 0xF0u) reach_error();", true},
		{"and_mask_above", "unsigned x = u & 0xF0u; if (x > 0xF0u) reach_error();", false},
		{"or_max", "unsigned x = (unsigned)a | b; if (x == 255u) reach_error();", true},
		{"xor_above", "unsigned x = (unsigned)a ^ b; if (x > 255u) reach_error();", false},
		{"trunc_wide", "unsigned char t = (unsigned char)u; if (t == 200 && u == 456u) reach_error();", true},
		{"sext_negative", "int x = (signed char)a; if (x == -1) reach_error();", true},
		{"sext_nonneg", "int x = (signed char)(a & 0x7f); if (x < 0) reach_error();", false},
		{"signed_cmp", "int s = a - 200; if (s < -199) reach_error();", true},
		{"signed_cmp_narrow", "int v = a; if (v < 0 || v > 255) reach_error();", false},
		{"merge_narrow", "unsigned x = a; if (u & 1) x = b % 7u; if (x == 255u) reach_error();", true},
		{"merge_narrow_above", "unsigned x = a; if (u & 1) x = b % 7u; if (x > 255u) reach_error();", false},
		// the facts asserted with a remainder (encoder.urem) at their edges
		{"urem_equals_dividend", "if (b != 0) { unsigned r = a % b; if (a < b && r == a) reach_error(); }", true},
		{"urem_by_zero_free", "unsigned r = (unsigned)a % (b | 1u); if (r == (unsigned)a && a == 254) reach_error();", true},
		{"urem_wide_max", "if (u != 0) { unsigned r = 0xffffffffu % u; if (r == 0x7fffffffu) reach_error(); }", true},
		{"urem_wide_above", "if (u != 0) { unsigned r = 0xfffffff0u % u; if (r >= u || r > 0xfffffff0u) reach_error(); }", false},
		{"mul_wraps_wide", "unsigned r = (unsigned)a * u; if (r == 0xfffffffeu) reach_error();", true},
	}
	dir := t.TempDir()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(dir, c.name+".c")
			if err := os.WriteFile(path, []byte(head+"  "+c.body+"\n  return 0;\n}\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			p := testutil.Program(t, path)
			q, err := query.Parse("E<> Error")
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			r, err := Check(ctx, p, q, jobs.BMCOptions{Unwind: 1, Solver: "z3", SolverTimeoutS: 20}, nil)
			if err != nil {
				t.Fatalf("%s: %v", c.body, err)
			}
			want := VerdictNotSatisfied
			if c.sat {
				want = VerdictSatisfied
			}
			if r.Verdict != want {
				t.Fatalf("%s: %s (%s), want %s (reproduce: go test ./symbolic -run 'TestNarrowing/%s')", c.body, r.Verdict, r.Reason, want, c.name)
			}
		})
	}
}

// TestNarrowingGCD: Euclid on two unsigned chars (testdata/bmc/safe_gcd.c)
// divides on 8 bits, not on the 32 of C's promotions.
func TestNarrowingGCD(t *testing.T) {
	p := testutil.Program(t, filepath.Join("..", "testdata", "bmc", "safe_gcd.c"))
	enc, err := Encode(p, EncodeOptions{Unwind: 12})
	if err != nil {
		t.Fatal(err)
	}
	widths := map[string]int{}
	for _, d := range enc.Query.Decls() {
		widths[d.Name] = d.Sort.Width
	}
	def := regexp.MustCompile(`^\(= (v[0-9]+) \(bvurem `)
	n := 0
	for _, a := range enc.Query.Asserts() {
		m := def.FindStringSubmatch(string(a))
		if m == nil {
			continue
		}
		n++
		if widths[m[1]] != 8 {
			t.Errorf("a %d-bit urem: %s", widths[m[1]], a)
		}
	}
	if n < 12 {
		t.Fatalf("%d urems in the formula, want at least 12: %s", n, fmt.Sprint(enc.Terms))
	}
}

// TestNarrowingAgrees (differential, z3, 8 s a question, unwind 1 and 3;
// WYVERN_BMC_NARROW_DIFF lists testdata directories): with and without
// narrowing, the encodings agree on whether a violation is reachable and
// whether the bound cuts an execution wherever z3 answered both, threaded
// programs included (their default context bound).
func TestNarrowingAgrees(t *testing.T) {
	dirs := os.Getenv("WYVERN_BMC_NARROW_DIFF")
	if dirs == "" {
		t.Skip("set WYVERN_BMC_NARROW_DIFF=bmc,bmc-heap,errors to compare narrowed encodings with plain ones")
	}
	defer func() { narrowing = true }()
	agreed := 0
	for _, d := range strings.Split(dirs, ",") {
		files, _ := filepath.Glob(filepath.Join("..", "testdata", d, "*.c"))
		for _, f := range files {
			p, err := ir.Load(f, ir.Options{})
			if err != nil {
				continue
			}
			for _, k := range []int{1, 3} {
				narrowing = true
				en, err1 := Encode(p, EncodeOptions{Unwind: k})
				narrowing = false
				ep, err2 := Encode(p, EncodeOptions{Unwind: k})
				narrowing = true
				if err1 != nil || err2 != nil {
					if (err1 == nil) != (err2 == nil) {
						t.Errorf("%s k%d: one encoding refuses: narrowed %v, plain %v", f, k, err1, err2)
					}
					continue
				}
				vn, vp := askZ3(t, en, en.Violation), askZ3(t, ep, ep.Violation)
				un, up := askZ3(t, en, en.Unwound), askZ3(t, ep, ep.Unwound)
				agree := func(a, b Status) bool { return a == b || a == Unknown || b == Unknown }
				if !agree(vn, vp) || !agree(un, up) {
					t.Errorf("%s k%d: narrowed viol %s unw %s (%d terms) / plain viol %s unw %s (%d)", f, k, vn, un, en.Terms, vp, up, ep.Terms)
					continue
				}
				if vn != Unknown && vp != Unknown {
					agreed++
				}
				t.Logf("%s k%d: narrowed viol %s unw %s (%d) / plain viol %s unw %s (%d)", f, k, vn, un, en.Terms, vp, up, ep.Terms)
			}
		}
	}
	t.Logf("%d program-and-bound pairs decided by both", agreed)
}
