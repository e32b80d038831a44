package vm

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/wyvernmc/wyvern/internal/testutil"
	"github.com/wyvernmc/wyvern/ir"
)

// nativeOutput compiles a C program with clang-14 and returns its output.
func nativeOutput(t *testing.T, src string) string {
	t.Helper()
	clang := testutil.NeedClang(t)
	dir := t.TempDir()
	c, exe := filepath.Join(dir, "p.c"), filepath.Join(dir, "p")
	if err := os.WriteFile(c, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(clang, "-O0", "-w", "-o", exe, c, "-lm").CombinedOutput(); err != nil {
		t.Fatalf("native compile: %v\n%s", err, out)
	}
	out, err := exec.Command(exe).Output()
	if err != nil {
		t.Fatalf("native run: %v", err)
	}
	return string(out)
}

// TestCtypeTablesAgainstGlibc compares the tables behind __ctype_b_loc,
// __ctype_toupper_loc and __ctype_tolower_loc with glibc's, entry by entry
// over [-128, 255].
func TestCtypeTablesAgainstGlibc(t *testing.T) {
	out := nativeOutput(t, `#include <stdio.h>
#include <ctype.h>
int main(void) {
  const unsigned short *b = *__ctype_b_loc();
  const int *u = *__ctype_toupper_loc(), *l = *__ctype_tolower_loc();
  for (int c = -128; c < 256; c++) printf("%d %u %d %d\n", c, b[c], u[c], l[c]);
  return 0;
}`)
	b, upper, lower := ctypeTables()
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 384 {
		t.Fatalf("native dump has %d lines, want 384", len(lines))
	}
	for i, ln := range lines {
		var c, wb, wu, wl int
		if _, err := fmt.Sscanf(ln, "%d %d %d %d", &c, &wb, &wu, &wl); err != nil {
			t.Fatalf("line %q: %v", ln, err)
		}
		gb := int(binary.LittleEndian.Uint16(b[2*i:]))
		gu := int(int32(binary.LittleEndian.Uint32(upper[4*i:])))
		gl := int(int32(binary.LittleEndian.Uint32(lower[4*i:])))
		if gb != wb || gu != wu || gl != wl {
			t.Errorf("c=%d: class %#x toupper %d tolower %d; glibc %#x %d %d", c, gb, gu, gl, wb, wu, wl)
		}
	}
}

// mathExact lists the libm functions that must be bit-identical to glibc
// (exact operations); the others must be within maxUlps.
var mathExact = map[string]bool{"sqrt": true, "floor": true, "ceil": true, "trunc": true, "round": true,
	"fabs": true, "fmod": true, "fmin": true, "fmax": true}

const maxUlps = 2

// TestMathAgainstGlibc evaluates every libm function of the platform on a
// fixed set of arguments natively and in the vm's implementation and
// compares the bits: the exact functions must agree everywhere, the others
// within maxUlps; it logs how often each differs from glibc at all.
func TestMathAgainstGlibc(t *testing.T) {
	unary := []string{"sqrt", "floor", "ceil", "trunc", "round", "fabs", "exp", "exp2", "log", "log2", "log10",
		"sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "cbrt"}
	binaryFns := []string{"pow", "fmod", "atan2", "hypot", "fmin", "fmax"}
	var src strings.Builder
	src.WriteString("#include <stdio.h>\n#include <math.h>\nint main(void) {\n  for (int i = 0; i < 400; i++) {\n")
	src.WriteString("    double x = (i - 200) * 0.0731 + (i % 7) * 1e-3, y = (i % 13) * 0.37 - 1.1;\n")
	src.WriteString("    if (i % 50 == 0) x = i / 50 + 0.5;\n    if (i % 50 == 1) x = 1.0 + i * 1e-9;\n")
	src.WriteString("    printf(\"%a %a\", x, y);\n")
	for _, f := range unary {
		arg := "x"
		switch f {
		case "sqrt", "log", "log2", "log10":
			arg = "fabs(x)"
		case "asin", "acos":
			arg = "sin(x)"
		}
		fmt.Fprintf(&src, "    printf(\" %%a\", %s(%s));\n", f, arg)
	}
	for _, f := range binaryFns {
		a := "x, y"
		if f == "pow" {
			a = "fabs(x), y"
		}
		fmt.Fprintf(&src, "    printf(\" %%a\", %s(%s));\n", f, a)
	}
	src.WriteString("    printf(\"\\n\");\n  }\n  return 0;\n}\n")
	out := nativeOutput(t, src.String())

	differ := map[string]int{}
	sc := bufio.NewScanner(bytes.NewReader([]byte(out)))
	rows := 0
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) != 2+len(unary)+len(binaryFns) {
			t.Fatalf("native line %q", sc.Text())
		}
		vals := make([]float64, len(f))
		for i, s := range f {
			v, err := strconv.ParseFloat(s, 64)
			if err != nil {
				t.Fatalf("parse %q: %v", s, err)
			}
			vals[i] = v
		}
		x, y := vals[0], vals[1]
		check := func(name string, got, want float64) {
			if math.Float64bits(got) == math.Float64bits(want) || math.IsNaN(got) && math.IsNaN(want) {
				return
			}
			differ[name]++
			ulps := int64(math.Float64bits(got)) - int64(math.Float64bits(want))
			if mathExact[name] || ulps > maxUlps || ulps < -maxUlps {
				t.Errorf("%s at x=%v y=%v: %v (%x), glibc %v (%x)", name, x, y, got, math.Float64bits(got), want, math.Float64bits(want))
			}
		}
		for i, name := range unary {
			b, ok := ir.LookupBuiltin(name)
			if !ok {
				t.Fatalf("%s is not a builtin", name)
			}
			arg := x
			switch name {
			case "sqrt", "log", "log2", "log10":
				arg = math.Abs(x)
			case "asin", "acos":
				arg = vals[2+indexOf(unary, "sin")]
			}
			check(name, mathUnary[b](arg), vals[2+i])
		}
		for i, name := range binaryFns {
			b, _ := ir.LookupBuiltin(name)
			a := x
			if name == "pow" {
				a = math.Abs(x)
			}
			check(name, mathBinary[b](a, y), vals[2+len(unary)+i])
		}
		rows++
	}
	if rows != 400 {
		t.Fatalf("%d native rows, want 400", rows)
	}
	for _, name := range append(unary, binaryFns...) {
		if differ[name] > 0 {
			t.Logf("%s: differs from glibc in the last bits on %d of %d arguments", name, differ[name], rows)
		}
	}
}

func indexOf(s []string, v string) int {
	for i, x := range s {
		if x == v {
			return i
		}
	}
	return -1
}
