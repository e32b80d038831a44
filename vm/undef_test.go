package vm_test

import (
	"slices"
	"testing"

	"github.com/wyvernmc/wyvern/vm"
)

// runDraws runs a single-threaded program with the draws given (then 0)
// and returns its output and the ranges of every draw; each step's draw is
// checked against Machine.NextDraw's announcement, and a load's against
// UndefLoad's.
func runDraws(t *testing.T, m *vm.Machine, draws ...uint64) (out string, widths []int) {
	t.Helper()
	st := m.NewState()
	ch := &recording{draws: draws}
	for steps := 0; st.Status == vm.Running; steps++ {
		if steps > 100000 {
			t.Fatalf("no end after %d steps", steps)
		}
		c, announced := m.NextDraw(st, st.Threads[0], vm.PosixBehaviours)
		_, _, undef := m.UndefLoad(st, st.Threads[0])
		before := len(ch.ranges)
		if !m.StepOnly(st, 0, ch) {
			t.Fatalf("process 0 not enabled: %s", st.Describe())
		}
		drew := len(ch.ranges) > before
		if drew != announced {
			t.Fatalf("step %d: drew %v, NextDraw announced %v", steps, drew, announced)
		}
		if drew && ch.ranges[before] != c.Range() {
			t.Fatalf("step %d: drew in range %d, NextDraw announced %d", steps, ch.ranges[before], c.Range())
		}
		if drew {
			ch.widths = append(ch.widths, c.Width())
		}
		if undef && !drew {
			t.Fatalf("step %d: UndefLoad announced a load that did not draw", steps)
		}
	}
	if st.Status != vm.Exited {
		t.Fatalf("%s", st.Describe())
	}
	return string(st.Out), ch.widths
}

// recording answers draws from a list, then 0, and records their ranges.
type recording struct {
	draws  []uint64
	ranges []uint64
	widths []int // the announced draws' widths in bits
}

func (c *recording) Choose(n uint64) uint64 {
	c.ranges = append(c.ranges, n)
	if i := len(c.ranges) - 1; i < len(c.draws) {
		return c.draws[i]
	}
	return 0
}

// TestUndefHeap: bytes of a malloc'd block read before they are written
// are drawn, 8 bits a byte, only those of a load that are undefined, in
// address order (vm/undef.go); later reads agree; writes define; realloc
// keeps undefined bytes so and adds undefined ones; memcpy carries them;
// calloc's bytes are zero.
func TestUndefHeap(t *testing.T) {
	const src = `#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(void) {
  unsigned char *p = malloc(4);
  p[1] = 7;
  unsigned v = *(unsigned *)p;       /* draws p[0], p[2], p[3]: 24 bits */
  unsigned w = *(unsigned *)p;       /* agrees */
  printf("%x %x|", v, w);
  unsigned char *q = calloc(1, 4);
  printf("%d|", q[2]);               /* zero: no draw */
  unsigned char *r = malloc(2);
  r[0] = 1;
  unsigned char *s = realloc(r, 4);  /* s[0] defined, s[1..3] not */
  printf("%d %d|", s[0], s[3]);      /* draws s[3] */
  unsigned char *d = malloc(3);
  d[0] = d[1] = d[2] = 5;
  memcpy(d, s, 3);                   /* d[1], d[2] undefined again */
  printf("%d %d|", d[0], d[2]);      /* draws d[2] */
  printf("%d", d[2] == d[2]);
  free(p); free(q); free(s); free(d);
  return 0;
}
`
	prog, err := loadSrc(t, "undef", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !prog.MallocsUndefined() {
		t.Fatal("MallocsUndefined: false for a program that calls malloc")
	}
	m := vm.NewMachine(prog)
	out, widths := runDraws(t, m, 0xabcdef, 0x42, 0x99)
	if want := "abcd07ef abcd07ef|0|1 66|1 153|1"; out != want {
		t.Errorf("output %q, want %q", out, want)
	}
	if want := []int{24, 8, 8}; !slices.Equal(widths, want) {
		t.Errorf("draw widths %v, want %v", widths, want)
	}
}

// TestNoUndefWithoutMalloc: a program that allocates only with calloc
// reads zeros and draws nothing.
func TestNoUndefWithoutMalloc(t *testing.T) {
	const src = `#include <stdio.h>
#include <stdlib.h>
int main(void) {
  int *p = calloc(2, sizeof(int));
  printf("%d", p[1]);
  free(p);
  return 0;
}
`
	prog, err := loadSrc(t, "calloc", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	if prog.MallocsUndefined() {
		t.Fatal("MallocsUndefined: true for a program without malloc and realloc")
	}
	out, widths := runDraws(t, vm.NewMachine(prog))
	if out != "0" || len(widths) != 0 {
		t.Errorf("output %q, draws %v; want 0 and none", out, widths)
	}
}

// TestUndefHeapILP32: in ILP32 a pointer is loaded as an aggregate of one
// 4-byte leaf (OpLoadAgg); a pointer read from a malloc'd block before it
// is written is drawn, 32 bits, and a struct loaded whole draws its
// undefined leaves' bytes.
func TestUndefHeapILP32(t *testing.T) {
	const src = `#include <stdio.h>
#include <stdlib.h>
struct two { char c; int i; };
int main(void) {
  int **pp = malloc(sizeof(int *));
  printf("%d|", *pp != 0);             /* draws 32 bits */
  struct two *s = malloc(sizeof *s), v;
  s->c = 3;
  v = *s;                              /* draws s->i: 32 bits */
  printf("%d %x", v.c, v.i);
  free(pp); free(s);
  return 0;
}
`
	prog, err := loadILP32(t, "undef32", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	out, widths := runDraws(t, vm.NewMachine(prog), 0, 0x12345678)
	if want := "0|3 12345678"; out != want {
		t.Errorf("output %q, want %q", out, want)
	}
	if want := []int{32, 32}; !slices.Equal(widths, want) {
		t.Errorf("draw widths %v, want %v", widths, want)
	}
}

// TestUndefBitfieldStore: a store to a bit-field of a malloc'd struct
// reads its storage unit (ir.FlagRMW) without drawing, and defines it.
func TestUndefBitfieldStore(t *testing.T) {
	const src = `#include <stdio.h>
#include <stdlib.h>
struct bf { unsigned a : 4; unsigned b : 4; };
int main(void) {
  struct bf *p = malloc(sizeof *p);
  p->a = 3;
  printf("%d", p->a);
  int *q = malloc(sizeof(int));
  *q += 1;                              /* a read-modify-write that draws */
  free(p); free(q);
  return 0;
}
`
	prog, err := loadSrc(t, "undef_bf", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	out, widths := runDraws(t, vm.NewMachine(prog))
	if out != "3" || !slices.Equal(widths, []int{32}) {
		t.Errorf("output %q, draws %v; want 3 and one of 32 bits (the int's)", out, widths)
	}
}

// TestUndefStack: the bytes of a local array or struct, and of a local
// whose address is passed on (ir.AuxUndef), are undefined at each
// execution of its alloca; a scalar used only by loads and stores is not.
func TestUndefStack(t *testing.T) {
	const src = `#include <stdio.h>
static void set(int *p) { *p = 4; }
static int first(void) { unsigned char a[2]; a[1] = 1; return a[0]; }  /* draws a[0] */
int main(void) {
  int x;
  set(&x);                              /* escapes: written by set */
  struct { char c; short s; } v;
  v.c = 2;
  printf("%d %d|", x, v.c);
  printf("%d|", v.s);                   /* draws v.s: 16 bits */
  printf("%d %d", first(), first());    /* each call's a[0]: 8 bits each */
  return 0;
}
`
	prog, err := loadSrc(t, "undef_stack", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !prog.UndefinedMemory() || prog.MallocsUndefined() {
		t.Fatal("UndefinedMemory false, or MallocsUndefined true, for a program with local aggregates and no malloc")
	}
	out, widths := runDraws(t, vm.NewMachine(prog), 0x1234, 7, 9)
	if want := "4 2|4660|7 9"; out != want {
		t.Errorf("output %q, want %q", out, want)
	}
	if want := []int{16, 8, 8}; !slices.Equal(widths, want) {
		t.Errorf("draw widths %v, want %v", widths, want)
	}
}

// TestUndefReads: the other ways of reading undefined bytes draw them too
// (the review of the change found each reading 0): an atomic
// read-modify-write, a struct passed by value (its copy keeps them
// undefined), a plain x = (x & M) | v of the program's own (not a
// bit-field store), and a union's bytes past its first member's fields
// (no padding).
func TestUndefReads(t *testing.T) {
	for _, c := range []struct {
		name, body string
		widths     []int
	}{
		{"atomic", `unsigned char *p = malloc(1); printf("%d", __atomic_fetch_add(p, 1, __ATOMIC_SEQ_CST)); free(p);`, []int{8}},
		{"byval", `struct big s; s.a = 1; printf("%d", take(s));`, []int{8}},
		{"own read-modify-write", `unsigned x; unsigned *gp = &x; x = (x & 0xF0u) | 1u; printf("%u", *gp);`, []int{32}},
		{"union", `union { struct { char c; int i; } s; char buf[8]; } u; u.buf[0] = 0; printf("%d", u.buf[1]);`, []int{8}},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := `#include <stdio.h>
#include <stdlib.h>
struct big { long a, b; char c; };
int take(struct big s) { return s.c; }
int main(void) { ` + c.body + ` return 0; }
`
			prog, err := loadSrc(t, "reads", src, 0)
			if err != nil {
				t.Fatal(err)
			}
			if _, widths := runDraws(t, vm.NewMachine(prog)); !slices.Equal(widths, c.widths) {
				t.Errorf("draw widths %v, want %v", widths, c.widths)
			}
		})
	}
}
