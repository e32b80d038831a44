package vm

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/wyvernmc/wyvern/internal/testutil"
	"github.com/wyvernmc/wyvern/ir"
)

// idxPrograms are -O0 programs made of the array accesses a[j] and
// a[j + 1] that fused code runs as one chain (fuse.go: idxChain): loads
// and stores of 1, 4 and 8 bytes, local, global and paged (larger than a
// page) arrays, and chains that must not run whole: an index past the end
// (the access misses the cache and fails alone), a j + 1 that overflows,
// and stores to a global array of the program's image, which a state
// copies on its first write (a read-only window: the store misses).
var idxPrograms = []struct {
	name, src string
	status    Status
}{
	{"sort", `#include <stdio.h>
#define N 12
int g[N];
int main(void) {
  int b[N]; long c[N]; char d[N]; int big[2000];
  unsigned x = 1;
  for (int i = 0; i < N; i++) {
    x = x * 1103515245u + 12345u;
    b[i] = (int)(x >> 8) % 100; c[i] = b[i] * 3L; d[i] = (char)b[i]; g[i] = -b[i];
  }
  for (int i = 0; i < 2000; i++) big[i] = i;
  for (int i = 0; i < N; i++)
    for (int j = 0; j + 1 < N - i; j++)
      if (b[j] > b[j + 1]) { int t = b[j]; b[j] = b[j + 1]; b[j + 1] = t; }
  long s = 0;
  for (int j = 0; j + 1 < N; j++) { s += c[j + 1] - c[j]; d[j + 1] += d[j]; g[j + 1] += g[j]; c[j + 1] = s; }
  for (int j = 0; j + 1 < 2000; j += 97) { s += big[j + 1]; big[j + 1] = big[j]; }
  printf("%d %d %ld %d %d %d\n", b[0], b[N - 1], s, d[N - 1], g[N - 1], big[1941]);
  return 0;
}
`, Exited},
	{"global_image", `int g[8] = {1, 2, 3, 4, 5, 6, 7, 8};
int main(void) {
  int s = 0;
  for (int i = 0; i < 40; i++)
    for (int j = 0; j < 7; j++) {
      s += g[j];
      if (j == 5)
        g[j + 1] = i;
    }
  return s & 127;
}
`, Exited},
	{"past_end", `int main(void) {
  int a[8]; int s = 0;
  for (int j = 0; j < 8; j++) a[j] = j;
  for (int j = 0; j < 9; j++) s += a[j + 1];
  return s;
}
`, Failed},
	{"store_past_end", `int main(void) {
  int a[8];
  for (int j = 0; j < 9; j++) a[j + 1] = j;
  return a[0];
}
`, Failed},
	// (not chains: unsigned add, sub and mul after loads, fused with
	// their load as auxAdd, auxSub, auxMul, of locals and a global)
	{"unsigned", `unsigned g = 7;
int main(void) {
  unsigned s = 3, t = 1, u = 100;
  for (unsigned i = 0; i < 60; i++) {
    s = s * 2654435761u + i;
    t = t - s;
    u = u - i * 3u;
    g = g - 1u;
    g = g * 5u + u;
    g = g + 3u;
    if ((s - t) & 4)
      t = t + 1u;
  }
  return (int)((s ^ t ^ u ^ g) & 127);
}
`, Exited},
	{"overflow", `int main(void) {
  int a[8] = {5, 1, 2, 3, 4, 5, 6, 7}, s = 0;
  int *p = a + 2147483648L; /* p[INT_MIN] is a[0] */
  for (int i = 0; i < 40; i++)
    s += a[i & 7];
  int j = 2147483647;
  s += p[j + 1];
  return s;
}
`, Failed},
}

// TestIdxChains checks the fused a[j] chains (fuseIdx) as TestPromotedSteps
// checks promotion: runs of the fused, promoted code with step budgets
// ending at every place (long ones, in which whole chains run, included)
// go through exactly the states of runs of the unpromoted code (which has
// no chains) taking one step per exec call, to the end of the program and
// its error. It also checks that the programs have chains of each kind, so
// that the comparison is not vacuous.
func TestIdxChains(t *testing.T) {
	testutil.NeedClang(t)
	dir := t.TempDir()
	for _, tc := range idxPrograms {
		t.Run(tc.name, func(t *testing.T) {
			mp, mu := fusedMachines(t, dir, tc.name, tc.src)
			if tc.name == "sort" {
				kinds := map[[2]bool]int{} // (an add, a store)
				for _, c := range mp.code {
					for pc := range c {
						if c[pc].Op != opLoadSIdx {
							continue
						}
						h := slices.Clone(c[pc:])
						h[0].Op = opLoadSOp
						if n := idxChain(h); n > 0 {
							y := c[pc+n-1].Op
							kinds[[2]bool{n == 5, y == ir.OpStore || y == opStoreJmp}]++
						}
					}
				}
				if len(kinds) != 4 {
					t.Fatalf("chains of %d kinds (%v), want all 4", len(kinds), kinds)
				}
			}
			checkLongRuns(t, mp, mu, tc.status)
		})
	}
}

// fusedMachines compiles C source src (named name, in dir) at -O0 and
// returns two machines of it: mp runs the fused, promoted code, mu the
// unpromoted code, which has no superinstructions.
func fusedMachines(t *testing.T, dir, name, src string) (mp, mu *Machine) {
	t.Helper()
	f := filepath.Join(dir, name+".c")
	if err := os.WriteFile(f, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := ir.Load(f, ir.Options{OptLevel: 0})
	if err != nil {
		t.Fatal(err)
	}
	mp, mu = NewMachine(p), NewMachine(p)
	mu.code = fuseProgram(p, false, mu.reuse)
	if mp.code == nil || mu.code == nil {
		t.Fatal("no fused code: a function's Index is not its position")
	}
	return mp, mu
}

// checkLongRuns checks that runs of mp (fused and promoted code) with step
// budgets ending at every place (long ones, in which whole chains run,
// included) go through exactly the states of runs of mu (the same program
// unpromoted) taking one step per exec call, to the end of the program,
// which must have the given status; and then so does one long run.
func checkLongRuns(t *testing.T, mp, mu *Machine, status Status) {
	t.Helper()
	steps := []uint64{1, 2, 3, 5, 1, 7, 2, 11, 4, 150, 1, 1000, 3, 6, 9, 4}
	a, b := mp.NewState(), mu.NewState()
	ra, rb := NewRand(7, 1), NewRand(7, 1)
	for i := 0; ; i++ {
		// every other call runs on a clone, which shares the blocks with
		// the state it was cloned from until it writes them (read-only
		// windows): that state must not change
		var old *State
		var oldKey []uint64
		if i%2 == 1 {
			old, oldKey = a, mp.AppendKey(nil, a)
			a = a.Clone()
		}
		target := a.Steps + steps[i%len(steps)]
		mp.Run(a, target, ra)
		if a.Steps > target || a.Status == StepBound && a.Steps != target {
			t.Fatalf("a run to %d steps took %d", target, a.Steps)
		}
		if old != nil && !slices.Equal(mp.AppendKey(nil, old), oldKey) {
			t.Fatalf("after %d steps: a clone's run changed the state it was cloned from", a.Steps)
		}
		catchUp(t, mp, mu, a, b, rb, i)
		if a.Status != StepBound {
			break
		}
	}
	if a.Status != status {
		t.Fatalf("status %v, want %v (%v)", a.Status, status, a.Err)
	}
	// one long exec call, as wyvern run makes (the image is unchanged by
	// the runs above)
	c := mp.NewState()
	mp.Run(c, a.Steps+1000, NewRand(7, 1))
	if d := diffStates(c, b); d != "" || !slices.Equal(mp.AppendKey(nil, c), mu.AppendKey(nil, b)) {
		t.Fatalf("one long run: %s (%s), one step at a time: %s", c.Describe(), d, b.Describe())
	}
}

// TestIdxChain checks which instruction sequences idxChain takes for a
// chain: only the exact data flow of a[j] and a[j + 1], with results that
// no other operand of the chain reads.
func TestIdxChain(t *testing.T) {
	// registers: 1 j, 2 j+1, 3 sext, 4 address, 5 loaded, 6 base, 7 one, 8 stored
	sext := func() []ir.Inst {
		return []ir.Inst{
			{Op: opLoadSOp, Dst: 1, Aux: uint8(ir.OpSExt), Flags: fuseOp | fuseChain},
			{Op: ir.OpSExt, Dst: 3, A: 1, W: 32, Imm: ^uint64(0)},
			{Op: opGEPLoad, Dst: 4, A: 6, B: 3, W: 64, Imm: 4},
			{Op: ir.OpLoad, Dst: 5, A: 4, W: 4},
			{Op: ir.OpRet, A: -1},
		}
	}
	add := func() []ir.Inst {
		return []ir.Inst{
			{Op: opLoadSOp, Dst: 1, Aux: uint8(auxAddNSW32), Flags: fuseOp | fuseChain},
			{Op: ir.OpAdd, Dst: 2, A: 1, B: 7, W: 32, Flags: ir.FlagNSW, Imm: 0xffffffff},
			{Op: opSExtGEP, Dst: 3, A: 2, W: 32, Imm: ^uint64(0)},
			{Op: ir.OpGEP1, Dst: 4, A: 6, B: 3, W: 64, Imm: 4},
			{Op: opStoreJmp, A: 4, B: 8, W: 4},
			{Op: ir.OpJmp},
		}
	}
	for _, tc := range []struct {
		name string
		code []ir.Inst
		edit func(c []ir.Inst)
		want int
	}{
		{"a[j] load", sext(), func(c []ir.Inst) {}, 4},
		{"a[j] store", sext(), func(c []ir.Inst) { c[2].Op, c[3] = opGEPStore, ir.Inst{Op: ir.OpStore, A: 4, B: 8, W: 4} }, 4},
		{"a[j+1] store", add(), func(c []ir.Inst) {}, 5},
		{"a[j+1] load", add(), func(c []ir.Inst) {
			c[4] = ir.Inst{Op: opLoadOp, Dst: 5, A: 4, W: 4, Aux: uint8(ir.OpSgt), Flags: fuseOp}
		}, 5},
		{"not a promoted load", sext(), func(c []ir.Inst) { c[0].Op = opLoadOp }, 0},
		{"no fuseChain", sext(), func(c []ir.Inst) { c[0].Flags = fuseOp }, 0},
		{"a zext pair", sext(), func(c []ir.Inst) { c[0].Aux = uint8(ir.OpTrunc) }, 0},
		{"sext of another register", sext(), func(c []ir.Inst) { c[1].A = 6 }, 0},
		{"add of another register", add(), func(c []ir.Inst) { c[1].A = 7 }, 0},
		{"GEP not by the sext", sext(), func(c []ir.Inst) { c[2].B = 1 }, 0},
		{"GEP of 32 bits", sext(), func(c []ir.Inst) { c[2].W = 32 }, 0},
		{"GEPN", sext(), func(c []ir.Inst) { c[2].Op = ir.OpGEPN }, 0},
		{"access not through the GEP", sext(), func(c []ir.Inst) { c[3].A = 6 }, 0},
		{"atomic load", sext(), func(c []ir.Inst) { c[3].Aux = 1 }, 0},
		{"promoted store", add(), func(c []ir.Inst) { c[4].Flags = fuseSlot }, 0},
		{"stored value is the address", add(), func(c []ir.Inst) { c[4].B = 4 }, 0},
		{"stored value is j", add(), func(c []ir.Inst) { c[4].B = 1 }, 0},
		{"base is the sext", sext(), func(c []ir.Inst) { c[2].A = 3 }, 0},
		{"base is j", sext(), func(c []ir.Inst) { c[2].A = 1 }, 0},
		{"add of its own result", add(), func(c []ir.Inst) { c[1].B = 2 }, 0},
		{"sext into j", sext(), func(c []ir.Inst) { c[1].Dst, c[2].B = 1, 1 }, 0},
		{"address into the sext", sext(), func(c []ir.Inst) { c[2].Dst, c[3].A = 3, 3 }, 0},
		{"too short", sext()[:4], func(c []ir.Inst) {}, 0},
	} {
		tc.edit(tc.code)
		if got := idxChain(tc.code); got != tc.want {
			t.Errorf("%s: idxChain = %d, want %d", tc.name, got, tc.want)
		}
	}
}
