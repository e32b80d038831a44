package vm

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/wyvernmc/wyvern/internal/testutil"
	"github.com/wyvernmc/wyvern/ir"
)

// fieldPrograms are -O0 programs made of the accesses p->f through a
// pointer kept in a local (fuse.go: fieldLoad, run as opLoadSF): fields of
// 1, 2, 4 and 8 bytes, of structs on the stack, in globals and on the heap,
// followed by a load through the field (*p->f), an integer instruction
// (p->n + 1, p->n < k) and an a[p->i] chain; and accesses that must not run
// whole: through a null pointer, a freed block and past the end of a block
// (the last load misses the cache and fails alone).
var fieldPrograms = []struct {
	name, src string
	status    Status
}{
	{"fields", `#include <stdlib.h>
struct s { char c; short h; int n; long l; int *p; struct s *next; int i; };
struct s g = {3, -4, 5, 6L, 0, 0, 1};
int arr[4] = {10, 20, 30, 40};
static long walk(struct s *p, int k) {
  long t = 0;
  while (p->n < k) {
    t += p->c + p->h + p->l + *p->p + arr[p->i];
    p->n = p->n + 1;
    arr[p->i] = p->n;
    if (p->next != 0)
      t += p->next->n;
  }
  return t;
}
int main(void) {
  int x = 7;
  struct s a = {1, 2, 3, 4L, &x, &g, 2};
  struct s *h = malloc(sizeof *h);
  h->c = -1; h->h = 300; h->n = 0; h->l = -5L; h->p = &arr[1]; h->next = &a; h->i = 3;
  g.p = &x;
  long t = walk(&a, 40) + walk(&g, 30) + walk(h, 25);
  free(h);
  return (int)(t & 127);
}
`, Exited},
	{"field_null", `struct s { int a, b; };
static int get(struct s *p) { return p->b; }
int main(void) {
  struct s v = {1, 2};
  int t = 0;
  for (int i = 0; i < 20; i++) t += get(&v);
  return t + get((struct s *)0);
}
`, Failed},
	{"field_freed", `#include <stdlib.h>
struct s { int a, b; };
int main(void) {
  struct s *p = malloc(sizeof *p);
  p->a = 1; p->b = 2;
  int t = 0;
  for (int i = 0; i < 20; i++) t += p->b;
  free(p);
  for (int i = 0; i < 20; i++) t += p->b;
  return t;
}
`, Failed},
	{"field_past_end", `struct big { int a; int far[8]; int z; };
int main(void) {
  int x[2] = {1, 2};
  struct big *p = (struct big *)x;
  int t = 0;
  for (int i = 0; i < 20; i++) t += p->a;
  return t + p->z;
}
`, Failed},
}

// TestFieldLoads checks the fused p->f accesses (opLoadSF) as TestIdxChains
// checks the a[j] chains, and that every program has some.
func TestFieldLoads(t *testing.T) {
	testutil.NeedClang(t)
	dir := t.TempDir()
	for _, tc := range fieldPrograms {
		t.Run(tc.name, func(t *testing.T) {
			mp, mu := fusedMachines(t, dir, tc.name, tc.src)
			if n := countOps(mp.code, opLoadSF); n == 0 {
				t.Fatal("no p->f access fused")
			}
			checkLongRuns(t, mp, mu, tc.status)
		})
	}
}

// TestFieldLoad checks which instruction sequences fieldLoad takes for
// p->f: a promoted load not fused otherwise, a GEPC of its result, and a
// load (not atomic) of the GEPC's.
func TestFieldLoad(t *testing.T) {
	// registers: 1 p, 2 &p->f, 3 p->f, 4 other
	code := func() []ir.Inst {
		return []ir.Inst{
			{Op: opLoadS, Dst: 1, A: 9, W: 8},
			{Op: ir.OpGEPC, Dst: 2, A: 1, Imm: 8},
			{Op: ir.OpLoad, Dst: 3, A: 2, W: 4},
			{Op: ir.OpRet, A: -1},
		}
	}
	for _, tc := range []struct {
		name string
		edit func(c []ir.Inst)
		want bool
	}{
		{"p->f", func(c []ir.Inst) {}, true},
		{"p->f + k", func(c []ir.Inst) {
			c[2] = ir.Inst{Op: opLoadOp, Dst: 3, A: 2, W: 4, Aux: uint8(ir.OpAdd), Flags: fuseOp}
		}, true},
		{"same registers", func(c []ir.Inst) { c[1].Dst, c[2].A, c[2].Dst = 1, 1, 1 }, true},
		{"not promoted", func(c []ir.Inst) { c[0].Op = ir.OpLoad }, false},
		{"promoted load fused", func(c []ir.Inst) { c[0].Op, c[0].Flags = opLoadSOp, fuseOp }, false},
		{"GEPC of another register", func(c []ir.Inst) { c[1].A = 4 }, false},
		{"GEP1", func(c []ir.Inst) { c[1].Op, c[1].B = ir.OpGEP1, 4 }, false},
		{"load of another register", func(c []ir.Inst) { c[2].A = 4 }, false},
		{"atomic load", func(c []ir.Inst) { c[2].Aux = 1 }, false},
		{"a store", func(c []ir.Inst) { c[2] = ir.Inst{Op: ir.OpStore, A: 2, B: 4, W: 4} }, false},
		{"too short", func(c []ir.Inst) {}, false},
	} {
		c := code()
		tc.edit(c)
		if tc.name == "too short" {
			c = c[:2]
		}
		if got := fieldLoad(c); got != tc.want {
			t.Errorf("%s: fieldLoad = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// uniformPrograms draw with wyvern_uniform over ranges of a power of two
// and not, with negative bounds and of one value, in a loop of one process
// and of two (fuse.go: fuseUniform, Machine.uniformCall).
const uniformProgram = `#include <pthread.h>
#include "wyvern.h"
unsigned long acc[2];
static void *draw(void *arg) {
  int id = *(int *)arg;
  for (int i = 0; i < 60; i++) {
    acc[id] = acc[id] * 7u + (unsigned long)wyvern_uniform(0, 1);
    acc[id] = acc[id] * 7u + (unsigned long)wyvern_uniform(-4, 3);
    acc[id] = acc[id] * 7u + (unsigned long)wyvern_uniform(2, 4);
    acc[id] = acc[id] * 7u + (unsigned long)wyvern_uniform(5, 5);
    acc[id] = acc[id] * 7u + (unsigned long)wyvern_uniform(-1000, 1000);
    acc[id] = acc[id] * 7u + (unsigned long)wyvern_uniform(i - 8, i + 7);
  }
  return 0;
}
int main(void) {
  int ids[2] = {0, 1};
  pthread_t t;
  draw(&ids[0]);
  pthread_create(&t, 0, draw, &ids[1]);
  draw(&ids[0]);
  pthread_join(t, 0);
  return (int)((acc[0] ^ acc[1]) & 127);
}
`

// TestUniformCalls checks that fused wyvern_uniform calls (opUniform)
// drawn with a *Rand (Machine.uniformCall's own draw) give the runs they
// give through another Chooser (drawCall's general path).
func TestUniformCalls(t *testing.T) {
	testutil.NeedClang(t)
	f := filepath.Join(t.TempDir(), "uniform.c")
	if err := os.WriteFile(f, []byte(uniformProgram), 0o644); err != nil {
		t.Fatal(err)
	}
	m := NewMachine(testutil.Program(t, f))
	if n := countOps(m.code, opUniform); n != 6 {
		t.Fatalf("%d wyvern_uniform calls fused, want 6", n)
	}
	for i := uint64(0); i < 8; i++ {
		a, b := m.NewState(), m.NewState()
		m.Run(a, 100000, NewRand(5, i))
		m.Run(b, 100000, wrappedRand{NewRand(5, i)})
		if a.Status != Exited || a.Steps != b.Steps || a.Status != b.Status || a.ExitCode != b.ExitCode || a.Hash() != b.Hash() {
			t.Fatalf("seed %d: with the *Rand the run ended %s (%d) after %d steps, through an interface %s (%d) after %d",
				i, a.Status, a.ExitCode, a.Steps, b.Status, b.ExitCode, b.Steps)
		}
	}
}
