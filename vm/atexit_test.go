package vm_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wyvernmc/wyvern/ir"
	"github.com/wyvernmc/wyvern/vm"
)

// loadSrc compiles a C program given as text at optimisation level opt.
func loadSrc(t *testing.T, name, src string, opt int) (*ir.Program, error) {
	t.Helper()
	return loadSrcWith(t, name, src, ir.Options{OptLevel: opt})
}

// loadSrcWith compiles a C program given as text with options o.
func loadSrcWith(t *testing.T, name, src string, o ir.Options) (*ir.Program, error) {
	t.Helper()
	needClang(t)
	p := filepath.Join(t.TempDir(), name+".c")
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return ir.Load(p, o)
}

// TestAtexit runs exit handlers (ir/atexit.go) the ways a program ends:
// exit from a callee or from another thread, the return from main, _Exit
// (no handlers), and a full table (atexit fails, the rest still run). The
// differential program testdata/diff/77_atexit.c checks the order and the
// output against the native binary.
func TestAtexit(t *testing.T) {
	const head = `#include <stdio.h>
#include <stdlib.h>
#include <pthread.h>
int calls;
void h(void) { calls++; printf("h%d ", calls); }
void last(void) { printf("calls=%d\n", calls); }
`
	tests := []struct {
		name, body string
		code       int32
		out        string
	}{
		{"main returns", `int main(void) { atexit(last); atexit(h); return 7; }`, 7, "h1 calls=1\n"},
		{"main returns char", `char main(void) { atexit(h); return -2; }`, -2, "h1 "},
		{"main returns _Bool", `_Bool main(void) { atexit(h); return 1; }`, 1, "h1 "},
		{"main returns unsigned char", `unsigned char main(void) { atexit(h); return 200; }`, 200, "h1 "},
		{"pthread_exit from main", `void *run(void *a) { printf("t "); return 0; }
int main(void) { pthread_t t; atexit(last); atexit(h); pthread_create(&t, 0, run, 0);
  pthread_exit(0); }`, 0, "t h1 calls=1\n"},
		{"exit", `void f(int k) { if (k) exit(k); }
int main(void) { atexit(last); atexit(h); atexit(h); f(3); return 0; }`, 3, "h1 h2 calls=2\n"},
		{"_Exit", `int main(void) { atexit(h); printf("x\n"); _Exit(4); }`, 4, "x\n"},
		{"exit from a thread", `void *run(void *a) { exit(9); }
int main(void) { pthread_t t; atexit(last); atexit(h); pthread_create(&t, 0, run, 0);
  pthread_join(t, 0); return 0; }`, 9, "h1 calls=1\n"},
		{"full table", `int main(void) { atexit(last); int ok = 1, fail = 0;
  for (int i = 0; i < 70; i++) { if (atexit(h)) fail++; else ok++; }
  printf("ok=%d fail=%d\n", ok, fail); return 0; }`, 0,
			""},
	}
	for _, tc := range tests {
		for _, opt := range []int{0, 1} {
			prog, err := loadSrc(t, "atexit", head+tc.body, opt)
			if err != nil {
				t.Fatalf("%s -O%d: %v", tc.name, opt, err)
			}
			if got := prog.Funcs[prog.Entry].Name; got != ir.AtexitStart {
				t.Fatalf("%s -O%d: entry %s, want %s", tc.name, opt, got, ir.AtexitStart)
			}
			m := vm.NewMachine(prog)
			for _, seed := range []uint64{1, 2, 3} {
				st := runTrace(m, seed, 0)
				if st.Status != vm.Exited || st.ExitCode != tc.code {
					t.Fatalf("%s -O%d seed %d: %s, exit code %d; want exit %d", tc.name, opt, seed, st.Describe(), st.ExitCode, tc.code)
				}
				want := tc.out
				if tc.name == "full table" {
					want = fullTableOut()
				}
				if string(st.Out) != want {
					t.Fatalf("%s -O%d seed %d: output %q, want %q", tc.name, opt, seed, st.Out, want)
				}
			}
		}
	}
}

// fullTableOut is "full table"'s output: 63 handlers h then last.
func fullTableOut() string {
	var b strings.Builder
	b.WriteString("ok=" + itoa(ir.AtexitMax) + " fail=" + itoa(71-ir.AtexitMax) + "\n")
	for i := 1; i < ir.AtexitMax; i++ {
		b.WriteString("h" + itoa(i) + " ")
	}
	b.WriteString("calls=" + itoa(ir.AtexitMax-1) + "\n")
	return b.String()
}

func itoa(n int) string {
	if n < 0 {
		return "-" + itoa(-n)
	}
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

// TestAtexitUntouched checks that a program without atexit keeps main as its
// entry, and that one declaring atexit with another signature is refused
// with a message naming it.
func TestAtexitUntouched(t *testing.T) {
	prog, err := loadSrc(t, "plain", "#include <stdlib.h>\nint main(void) { exit(2); }", 0)
	if err != nil {
		t.Fatal(err)
	}
	if got := prog.Funcs[prog.Entry].Name; got != "main" {
		t.Fatalf("entry %s, want main", got)
	}
	_, err = loadSrc(t, "badsig", "int atexit(int);\nint main(void) { return atexit(3); }", 0)
	if err == nil || !strings.Contains(err.Error(), "atexit") {
		t.Fatalf("err %v, want a load error naming atexit", err)
	}
}
