package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/wyvernmc/wyvern/svcomp"
)

// TestILP32Corpus runs verify on the data-model-sensitive tasks of
// svcomp/testdata/ilp32 (data_model: ILP32: wrap-around of long and
// size_t, sizeof, struct layout, pointer arithmetic and differences,
// pointer/integer casts, printf's %ld, %zu and %p; issue #35's five among
// them): no verdict may be wrong, an UNKNOWN only where something is
// refused by name (the ILP32 data model), and every FALSE's witness
// replays. The tasks whose answer differs under LP64 are verified with
// --data-model LP64 too, where the other verdict is expected: the corpus
// fails if the data model is not followed. Each task is verified by BMC
// alone too, which must be right or refuse by name.
func TestILP32Corpus(t *testing.T) {
	requireClang(t)
	tasks, err := filepath.Glob("../../svcomp/testdata/ilp32/*.yml")
	if err != nil || len(tasks) < 15 {
		t.Fatalf("%d tasks (%v), want at least 15", len(tasks), err)
	}
	// the verdict under LP64 of the tasks whose verdict differs
	lp64 := map[string]string{
		"long_wrap": "TRUE", "long_mul_wrap": "TRUE", "sizeof_long": "FALSE(unreach-call)",
		"sizeof_ptr": "FALSE(unreach-call)", "struct_layout": "FALSE(unreach-call)",
		"size_t_wrap": "TRUE", "long_shift": "TRUE", "printf_zu": "TRUE", "printf_p": "FALSE(unreach-call)",
		"longlong_align": "FALSE(unreach-call)", "ptr_struct_fields": "FALSE(unreach-call)",
	}
	verify := func(t *testing.T, args ...string) (string, string) {
		t.Helper()
		w := filepath.Join(t.TempDir(), "witness.yml")
		var out, errb bytes.Buffer
		dispatch(append(append([]string{"verify"}, args...), "--time-limit", "30s", "--workers", "2", "--witness", w), &out, &errb)
		first, _, _ := strings.Cut(out.String(), "\n")
		if strings.HasPrefix(first, "FALSE") {
			prog := args[0]
			if strings.HasSuffix(prog, ".yml") {
				prog = strings.TrimSuffix(prog, ".yml") + ".c"
			}
			var rout, rerr bytes.Buffer
			if rc := dispatch([]string{"replay", prog, "--witness", w}, &rout, &rerr); rc != 0 ||
				!strings.Contains(rout.String(), "witness reproduces "+first) {
				t.Errorf("%s: replay --witness: exit %d\n%s%s", prog, rc, rout.String(), rerr.String())
			}
		}
		return first, out.String() + errb.String()
	}
	right := 0
	var bmcRight atomic.Int32
	for _, task := range tasks {
		name := strings.TrimSuffix(filepath.Base(task), ".yml")
		t.Run(name, func(t *testing.T) {
			tk, err := svcomp.ReadTask(task)
			if err != nil {
				t.Fatal(err)
			}
			if tk.DataModel != "ILP32" || len(tk.Properties) != 1 {
				t.Fatalf("data model %q, %d properties: want ILP32, one", tk.DataModel, len(tk.Properties))
			}
			tp := tk.Properties[0]
			want := "TRUE"
			if tp.Expected == "false" {
				sub := tp.Subproperty
				if sub == "" {
					sub = strings.TrimSuffix(filepath.Base(tp.File), ".prp")
				}
				want = "FALSE(" + sub + ")"
			}
			got, out := verify(t, task)
			switch {
			case got == want:
				right++
			case got == "UNKNOWN" && strings.Contains(out, "ILP32"):
				t.Logf("UNKNOWN, refused by name:\n%s", out)
			default:
				t.Fatalf("verdict %q, want %q\n%s", got, want, out)
			}
			// BMC alone (it encodes ILP32 pointers' 32-bit forms): right,
			// or UNKNOWN where it refuses something by name or its bounds
			// leave the answer open (threads: context bounding)
			switch got, out := verify(t, task, "--engines", "bmc"); {
			case got == want:
				bmcRight.Add(1)
			case got == "UNKNOWN" && (strings.Contains(out, "bmc        refused") || strings.Contains(out, "bmc        no-verdict")):
				t.Logf("BMC: no verdict:\n%s", out)
			default:
				t.Errorf("BMC alone: verdict %q, want %q\n%s", got, want, out)
			}
			if other, ok := lp64[name]; ok {
				if got, out := verify(t, strings.TrimSuffix(task, ".yml")+".c", "--prop", tp.File, "--data-model", "LP64"); got != other {
					t.Errorf("under LP64: verdict %q, want %q\n%s", got, other, out)
				}
			}
		})
	}
	t.Logf("%d of %d ILP32 tasks right, none wrong; BMC alone right on %d", right, len(tasks), bmcRight.Load())
	if bmcRight.Load() < 15 {
		t.Errorf("BMC alone decided %d tasks, want at least 15", bmcRight.Load())
	}
}

// TestDifferentialILP32 is TestDifferential under the 32-bit data model:
// every program of testdata/diff compiled natively with clang-14 -m32 and
// run with `wyvern run --data-model ILP32` at -O0 and -O1 must print the
// same and exit the same, unless Wyvern refuses it by name (a platform
// function, main's arguments... not supported under ILP32 yet: a load
// error naming ILP32). It needs the 32-bit C library and libgcc
// (gcc-multilib) to link natively; without them it is skipped.
func TestDifferentialILP32(t *testing.T) {
	clang := requireClang(t)
	dir := t.TempDir()
	probe := filepath.Join(dir, "probe.c")
	if err := os.WriteFile(probe, []byte("#include <stdio.h>\nint main(void) { return printf(\"%zu\\n\", sizeof(long)) != 2; }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(clang, "-m32", "-o", filepath.Join(dir, "probe"), probe).CombinedOutput(); err != nil {
		t.Skipf("no native -m32 toolchain (libc6-dev-i386, gcc-multilib): %v\n%s", err, out)
	}
	if err := exec.Command(filepath.Join(dir, "probe")).Run(); err != nil {
		t.Skipf("-m32 binaries do not run here: %v", err)
	}
	files, err := filepath.Glob("../../testdata/diff/*.c")
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(files)
	var compared, refused atomic.Int32
	t.Run("programs", func(t *testing.T) {
		for _, f := range files {
			h := readDiffHeader(t, f)
			for _, opt := range h.opts {
				t.Run(fmt.Sprintf("%s/O%s", filepath.Base(f), opt), func(t *testing.T) {
					t.Parallel()
					exe := filepath.Join(dir, filepath.Base(f)+".m32.O"+opt)
					// SSE arithmetic: IEEE doubles and floats, as the vm
					// (and LLVM's IR) computes them, not x87's 80-bit ones
					out, err := exec.Command(clang, "-m32", "-msse2", "-mfpmath=sse", "-w", "-O"+opt, "-pthread", "-o", exe, f, "-lm").CombinedOutput()
					if err != nil && bytes.Contains(out, []byte("file not found")) {
						t.Skipf("native -m32 compile: a header is missing (%s)", firstLine(out))
					}
					if err != nil {
						t.Fatalf("native compile: %v\n%s", err, out)
					}
					nout, nrc := runNative(t, exe, h.args)
					for _, seed := range h.seeds {
						args := []string{"run", "--data-model", "ILP32", "-O", opt, "--seed", seed, f}
						for _, a := range h.args {
							args = append(args, "--arg", a)
						}
						var wout, werr bytes.Buffer
						wrc := dispatch(args, &wout, &werr)
						if wrc == exitUsage && strings.Contains(werr.String(), "ILP32") {
							refused.Add(1)
							t.Logf("refused by name: %s", strings.TrimSpace(werr.String()))
							return
						}
						if wrc != nrc {
							t.Errorf("seed %s: exit status: native %d, wyvern %d (%s)", seed, nrc, wrc, bytes.TrimSpace(werr.Bytes()))
						}
						if !bytes.Equal(nout.Bytes(), wout.Bytes()) {
							t.Errorf("seed %s: stdout differs:\n%s", seed, firstDiff(nout.Bytes(), wout.Bytes()))
						}
					}
					compared.Add(1)
				})
			}
		}
	})
	t.Logf("ILP32: %d program runs compared with native -m32, %d refused by name", compared.Load(), refused.Load())
	if compared.Load() < 20 {
		t.Errorf("only %d program runs compared under ILP32, want at least 20", compared.Load())
	}
}

func firstLine(b []byte) string {
	l, _, _ := strings.Cut(string(b), "\n")
	return l
}
