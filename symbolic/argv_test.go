package symbolic

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wyvernmc/wyvern/internal/testutil"
	"github.com/wyvernmc/wyvern/ir"
	"github.com/wyvernmc/wyvern/jobs"
	"github.com/wyvernmc/wyvern/query"
)

const argvPrelude = `extern void reach_error(void);
extern void *malloc(unsigned long);
extern int pthread_create(unsigned long *, void *, void *(*)(void *), void *);
extern int pthread_join(unsigned long, void **);
`

// TestMainArgv: main(argc, argv) gets what the vm passes a run without
// arguments (argc 1, argv = {file name, NULL} in blocks after the
// globals), in every memory form of the encoder (flat array, object
// memory, threaded rounds and partial order) and in both data models:
// reading argv, writing its strings, reading past its end
// (OutOfBounds), and the id of the first allocation after it. A
// satisfied verdict is a witness the vm replays (Check); a not-satisfied
// one a proof that must agree with the vm's single run.
func TestMainArgv(t *testing.T) {
	testutil.NeedClang(t)
	threads := `int g;
void *thr(void *a) { g = g + 1; return 0; }
int main(int argc, char **argv) {
  unsigned long t1, t2;
  char **c = argv;
  pthread_create(&t1, 0, thr, 0);
  pthread_create(&t2, 0, thr, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  if (%s) reach_error();
  return 0;
}`
	for _, tc := range []struct {
		name, src, q string
		dm           ir.DataModel
		want         string
	}{
		// the file is named a.c: argv[0] is "a.c"
		{"read", `int main(int argc, char **argv) { if (argc == 1 && argv[1] == 0 && argv[0][0] == 'a' && argv[0][3] == 0) reach_error(); return 0; }`,
			"E<> [0.reach_error]", ir.LP64, VerdictSatisfied},
		{"read32", `int main(int argc, char **argv) { if (argc == 1 && argv[1] == 0 && argv[0][1] == '.' && sizeof argv[0] == 4) reach_error(); return 0; }`,
			"E<> [0.reach_error]", ir.ILP32, VerdictSatisfied},
		{"safe", `int main(int argc, char **argv) { if (argc != 1 || argv[argc] != 0 || argv[0][0] != 'a' || argv[0][2] != 'c') reach_error(); return 0; }`,
			"E<> Error", ir.LP64, VerdictNotSatisfied},
		{"safe32", `int main(int argc, char **argv) { if (argv[argc] != 0 || argv[0][2] != 'c') reach_error(); return 0; }`,
			"E<> Error", ir.ILP32, VerdictNotSatisfied},
		{"write", `int main(int argc, char **argv) { argv[0][0] = 'x'; argv[1] = argv[0]; if (argv[1][0] != 'x') reach_error(); return 0; }`,
			"E<> Error", ir.LP64, VerdictNotSatisfied},
		{"past-end", `int main(int argc, char **argv) { return argv[2] != 0; }`,
			"E<> Error(OutOfBounds)", ir.LP64, VerdictSatisfied},
		{"string-end", `int main(int argc, char **argv) { return argv[0][4]; }`,
			"E<> Error(OutOfBounds)", ir.ILP32, VerdictSatisfied},
		// the first allocation's block follows argv's array and main's
		// four stack blocks (retval, argc, argv, q at -O0)
		{"alloc-id", `int main(int argc, char **argv) { char *q = malloc(1); if ((unsigned long)q >> 32 == ((unsigned long)argv >> 32) + 5) reach_error(); return 0; }`,
			"E<> [0.reach_error]", ir.LP64, VerdictSatisfied},
		{"threads-safe", threads, "E<> Error", ir.LP64, VerdictNotSatisfied},
		{"threads-found", threads, "E<> [0.reach_error]", ir.LP64, VerdictSatisfied},
		// under ILP32 a pointer store is a StoreAgg (Ptr32): the thread's
		// own arg.addr stays private, so the partial-order check proves it
		{"threads-safe32", threads, "E<> Error", ir.ILP32, VerdictNotSatisfied},
		// reading argv in a threaded program: the round-robin rounds
		// follow it (the partial-order encoding cannot tell the block of a
		// pointer loaded from memory another thread could write)
		{"threads-read", `int g;
void *thr(void *a) { g = 1; return 0; }
int main(int argc, char **argv) {
  unsigned long t;
  pthread_create(&t, 0, thr, 0);
  if (g == 1 && argv[0][0] == 'a') reach_error();
  return 0;
}`, "E<> [0.reach_error]", ir.LP64, VerdictSatisfied},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := tc.src
			if tc.name == "threads-safe" || tc.name == "threads-safe32" {
				src = fmtOne(src, "argc != 1 || c != argv || g > 2")
			} else if tc.name == "threads-found" {
				src = fmtOne(src, "argc == 1 && c == argv && g == 1")
			}
			dir := t.TempDir()
			path := filepath.Join(dir, "a.c")
			if err := os.WriteFile(path, []byte(argvPrelude+src), 0o644); err != nil {
				t.Fatal(err)
			}
			p, err := ir.Load(path, ir.Options{DataModel: tc.dm})
			if err != nil {
				t.Fatal(err)
			}
			q, err := query.Parse(tc.q)
			if err != nil {
				t.Fatal(err)
			}
			o := jobs.BMCOptions{Unwind: 2, Contexts: 2}
			r, err := Check(context.Background(), p, q, o, nil)
			if err != nil {
				t.Fatal(err)
			}
			if r.Verdict != tc.want {
				t.Fatalf("%s: %s (%s), want %s", tc.q, r.Verdict, r.Reason, tc.want)
			}
			if Threaded(p) {
				return
			}
			// the flat memory array agrees
			enc, err := Encode(p, EncodeOptions{Unwind: 2, FlatMemory: true})
			if err != nil {
				t.Fatal(err)
			}
			if enc.ObjectMemory {
				t.Fatal("FlatMemory: object memory used")
			}
			target, err := query.BMCTarget(q)
			if err != nil {
				t.Fatal(err)
			}
			viol, _, _, _ := bmcCheck(t, p, EncodeOptions{Unwind: 2, FlatMemory: true, Errors: target.Errors, Calls: target.Calls})
			if want := map[string]Status{VerdictSatisfied: Sat, VerdictNotSatisfied: Unsat}[tc.want]; viol != want {
				t.Errorf("flat memory: violation %s, want %s", viol, want)
			}
		})
	}
}

func fmtOne(s, arg string) string {
	for i := 0; i+1 < len(s); i++ {
		if s[i] == '%' && s[i+1] == 's' {
			return s[:i] + arg + s[i+2:]
		}
	}
	return s
}

// TestThreadLocalRefused: a thread-local global of a threaded program is
// refused (each thread has its own copy in the vm: encoded as one shared
// block it made this violation unreachable, a wrong proof); in a program
// without threads it is main's copy, an ordinary global.
func TestThreadLocalRefused(t *testing.T) {
	testutil.NeedClang(t)
	for _, tc := range []struct {
		name, src string
		refused   bool
	}{
		{"threaded", `__thread int x;
void *thr(void *a) { if (x != 5) reach_error(); return 0; }
int main(void) { unsigned long t; x = 5; pthread_create(&t, 0, thr, 0); pthread_join(t, 0); return 0; }`, true},
		{"single", `__thread int x;
int main(void) { x = 5; if (x != 5) reach_error(); return 0; }`, false},
	} {
		path := filepath.Join(t.TempDir(), "tls.c")
		if err := os.WriteFile(path, []byte(argvPrelude+tc.src), 0o644); err != nil {
			t.Fatal(err)
		}
		p, err := ir.Load(path, ir.Options{})
		if err != nil {
			t.Fatal(err)
		}
		_, err = Encode(p, EncodeOptions{Unwind: 1})
		if got := err != nil && strings.Contains(err.Error(), "thread-local variable x"); got != tc.refused || !tc.refused && err != nil {
			t.Errorf("%s: %v; want refused %v", tc.name, err, tc.refused)
		}
	}
}

// TestILP32PointerArgPO: under ILP32 a pointer is stored in memory as its
// 32-bit form by an aggregate store (Ptr32). Threaded encodings stored
// that form as a bare term, so a helper's pointer parameter loaded back
// from its stack slot had no known block and the partial-order check
// refused the program (stack-2, queue_ok); now it keeps its value, and the
// check proves the safe property and finds the lost update.
func TestILP32PointerArgPO(t *testing.T) {
	testutil.NeedClang(t)
	src := argvPrelude + `int arr[4];
int top;
void push(int *st, int x) { st[top] = x; top = top + 1; }
void *thr(void *a) { push(arr, 5); return 0; }
int main(void) {
  unsigned long t;
  pthread_create(&t, 0, thr, 0);
  push(arr, 7);
  pthread_join(t, 0);
  if (%s) reach_error();
  return 0;
}`
	for _, tc := range []struct {
		cond, want string
	}{
		{"top == 0 || top > 2 || arr[2] != 0", VerdictNotSatisfied},
		{"top == 1", VerdictSatisfied},
	} {
		path := filepath.Join(t.TempDir(), "a.c")
		if err := os.WriteFile(path, []byte(fmtOne(src, tc.cond)), 0o644); err != nil {
			t.Fatal(err)
		}
		p, err := ir.Load(path, ir.Options{DataModel: ir.ILP32})
		if err != nil {
			t.Fatal(err)
		}
		q, err := query.Parse("E<> [0.reach_error] || Error(OutOfBounds)")
		if err != nil {
			t.Fatal(err)
		}
		r, err := Check(context.Background(), p, q, jobs.BMCOptions{Unwind: 1, Contexts: 1, Complete: true}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if r.Verdict != tc.want {
			t.Errorf("%s: %s (%s), want %s", tc.cond, r.Verdict, r.Reason, tc.want)
		}
	}
}
