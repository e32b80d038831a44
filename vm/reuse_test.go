package vm_test

import (
	"slices"
	"testing"

	"github.com/wyvernmc/wyvern/vm"
)

// scripted is a chooser that answers its draws from a prefix, then 0,
// recording the range of each draw past the prefix; it states the
// behaviours beh.
type scripted struct {
	prefix []uint64
	n      int      // draws made
	extra  []uint64 // ranges of the draws past the prefix
	beh    vm.Behaviours
}

func (c *scripted) Choose(n uint64) uint64 {
	c.n++
	if c.n <= len(c.prefix) {
		return c.prefix[c.n-1]
	}
	c.extra = append(c.extra, n)
	return 0
}

func (c *scripted) Behaviours() vm.Behaviours { return c.beh }

// outcomes runs a single-threaded program under every sequence of draws
// (each a coin) and returns the outputs of its runs, sorted; each step's
// draw is checked against Machine.NextDraw's announcement.
func outcomes(t *testing.T, m *vm.Machine, beh vm.Behaviours) []string {
	t.Helper()
	var out []string
	var walk func(prefix []uint64)
	walk = func(prefix []uint64) {
		st := m.NewState()
		ch := &scripted{prefix: prefix, beh: beh}
		for steps := 0; st.Status == vm.Running; steps++ {
			if steps > 10000 {
				t.Fatalf("draws %v: no end after %d steps", prefix, steps)
			}
			_, announced := m.NextDraw(st, st.Threads[0], beh)
			before := ch.n
			if !m.StepOnly(st, 0, ch) {
				t.Fatalf("draws %v: process 0 not enabled: %s", prefix, st.Describe())
			}
			if drew := ch.n > before; drew != announced {
				t.Fatalf("draws %v, step %d: drew %v, NextDraw announced %v", prefix, steps, drew, announced)
			}
		}
		if len(ch.extra) == 0 {
			if st.Status != vm.Exited {
				t.Fatalf("draws %v: %s", prefix, st.Describe())
			}
			out = append(out, string(st.Out))
			return
		}
		for v := range ch.extra[0] {
			walk(append(slices.Clone(prefix), v))
		}
	}
	walk(nil)
	slices.Sort(out)
	return out
}

// TestAddrReuse: comparing a pointer into a freed heap block with one into
// a block allocated after the free is a coin (vm/reuse.go); a block
// allocated before the free never compares equal, nor do other offsets;
// a decided comparison stays decided; and a block's address goes to at
// most one block. Without the behaviour (LODIN's platform) nothing draws.
func TestAddrReuse(t *testing.T) {
	const src = `#include <stdio.h>
#include <stdlib.h>
int main(void) {
  int *a = malloc(4), *b = malloc(4);
  free(a);
  int *c = malloc(4), *d = malloc(8);
  printf("%d%d", a == b, a == c);
  printf("%d", a != c);
  printf("%d", a == d);
  printf("%d", (char *)a + 1 == (char *)c);
  printf("%d", (char *)a + 1 == (char *)c + 1);
  free(b); free(c); free(d);
  return 0;
}
`
	prog, err := loadSrc(t, "reuse", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !prog.ReusesAddresses() {
		t.Fatal("ReusesAddresses: false for a program that frees and compares pointers")
	}
	m := vm.NewMachine(prog)
	// heads at a == c: a's address is c's, so a != d and a+1 == c+1;
	// tails: c never gets it, d may (a second coin)
	want := []string{"001000", "001100", "010001"}
	if got := outcomes(t, m, vm.PosixBehaviours); !slices.Equal(got, want) {
		t.Errorf("outcomes %q, want %q", got, want)
	}
	if got := outcomes(t, m, vm.Behaviours{}); !slices.Equal(got, []string{"001000"}) {
		t.Errorf("LODIN's platform: outcomes %q, want one run that sees no reuse", got)
	}
}

// TestAddrReuseRealloc: realloc may grow a block in place, so the old
// pointer may equal the new one; a block freed after the other's
// allocation never equals it; two blocks freed in turn share an address
// only if the second was allocated after the first's free.
func TestAddrReuseRealloc(t *testing.T) {
	const src = `#include <stdio.h>
#include <stdlib.h>
int main(void) {
  int *p = malloc(4);
  int *q = realloc(p, 8);
  printf("%d", p == q);
  int *x = malloc(4), *y = malloc(4);
  free(y); free(x);
  printf("%d", x == y);
  int *z = malloc(4);
  free(z);
  int *w = malloc(4);
  free(w);
  printf("%d", z == w);
  free(q);
  return 0;
}
`
	prog, err := loadSrc(t, "reuse_realloc", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	m := vm.NewMachine(prog)
	want := []string{"000", "001", "100", "101"}
	if got := outcomes(t, m, vm.PosixBehaviours); !slices.Equal(got, want) {
		t.Errorf("outcomes %q, want %q", got, want)
	}
}

// TestNoReuseWithoutFree: a program that never frees keeps its pointer
// comparisons as they were (no draws, no new state).
func TestNoReuseWithoutFree(t *testing.T) {
	const src = `#include <stdio.h>
#include <stdlib.h>
int main(void) {
  int *a = malloc(4), *b = malloc(4);
  printf("%d", a == b);
  return 0;
}
`
	prog, err := loadSrc(t, "noreuse", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	if prog.ReusesAddresses() {
		t.Fatal("ReusesAddresses: true for a program without free")
	}
	if got := outcomes(t, vm.NewMachine(prog), vm.PosixBehaviours); !slices.Equal(got, []string{"0"}) {
		t.Errorf("outcomes %q, want [0]", got)
	}
}
