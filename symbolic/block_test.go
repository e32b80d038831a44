package symbolic

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/wyvernmc/wyvern/internal/testutil"
	"github.com/wyvernmc/wyvern/ir"
)

// TestBlockMeasure logs the partial-order formula of the programs in
// WYVERN_PO_FILES (comma-separated; a name ending in @32 is loaded as
// ILP32) at WYVERN_PO_UNWIND (default 2), with and without critical
// sections as blocks: terms, events, reads, writes, reads-from choices.
func TestBlockMeasure(t *testing.T) {
	files := os.Getenv("WYVERN_PO_FILES")
	if files == "" {
		t.Skip("set WYVERN_PO_FILES")
	}
	k := 2
	if u := os.Getenv("WYVERN_PO_UNWIND"); u != "" {
		var err error
		if k, err = strconv.Atoi(u); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range strings.Split(files, ",") {
		dm := ir.LP64
		if strings.HasSuffix(f, "@32") {
			f, dm = strings.TrimSuffix(f, "@32"), ir.ILP32
		}
		testutil.NeedClang(t)
		p, err := ir.Load(f, ir.Options{DataModel: dm})
		if err != nil {
			t.Fatal(err)
		}
		for _, nb := range []bool{true, false} {
			opts := EncodeOptions{Unwind: k, PartialOrder: true, Spurious: true, Complete: true, NoBlocks: nb}
			enc, err := Encode(p, opts)
			if err != nil {
				t.Logf("%s noblocks=%v: %v", f, nb, err)
				continue
			}
			t.Logf("%s unwind %d noblocks=%v: %d terms; %s", f, k, nb, enc.Terms, enc.PO.Stats)
			if dir := os.Getenv("WYVERN_PO_DUMP"); dir != "" { // the violation check, for a solver by hand
				name := filepath.Join(dir, fmt.Sprintf("%s-u%d-noblocks%v.smt2", filepath.Base(f), k, nb))
				if err := os.WriteFile(name, []byte(withGoal(enc, enc.Violation, false).String()), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}

// TestBlocks: the partial-order check with critical sections as blocks
// (encode_block.go) gives each program the verdict it gives without
// them, the right one (safe and buggy twins: protected and unprotected
// accesses, trylock, condition variables, two mutexes, an error inside a
// section, inputs and calls in sections, a section held to the thread's
// end, atomic sections), and uses blocks where the premise holds (blocks: the least number
// of sections encoded as blocks; 0: none expected). About 25 s on a loaded
// 2-core machine, half of it without blocks (skipped under -short).
func TestBlocks(t *testing.T) {
	tests := []struct {
		file    string
		unwind  int
		verdict string
		blocks  int
	}{
		{"mt_blk_pair_ok.c", 1, VerdictNotSatisfied, 2},
		{"mt_blk_pair_bug.c", 1, VerdictSatisfied, 3},
		{"mt_blk_flag_ok.c", 1, VerdictNotSatisfied, 2},
		{"mt_blk_flag_bug.c", 1, VerdictSatisfied, 3},
		{"mt_blk_trylock_ok.c", 1, VerdictNotSatisfied, 0}, // a trylock: no blocks of m
		{"mt_blk_trylock_bug.c", 1, VerdictSatisfied, 0},
		{"mt_blk_cond_ok.c", 1, VerdictNotSatisfied, 1},
		{"mt_blk_cond_bug.c", 1, VerdictSatisfied, 2},
		{"mt_blk_two_ok.c", 1, VerdictNotSatisfied, 3},
		{"mt_blk_two_bug.c", 1, VerdictSatisfied, 3},
		{"mt_blk_div_ok.c", 1, VerdictNotSatisfied, 2},
		{"mt_blk_div_bug.c", 1, VerdictSatisfied, 2},
		{"mt_blk_input_ok.c", 2, VerdictNotSatisfied, 2},
		{"mt_blk_input_bug.c", 2, VerdictSatisfied, 2},
		{"mt_blk_some_bug.c", 1, VerdictSatisfied, 2}, // x unprotected: the sections hold the lock alone
		{"mt_blk_hold_ok.c", 1, VerdictNotSatisfied, 2},
		{"mt_blk_hold_bug.c", 1, VerdictSatisfied, 3},
		{"mt_locked.c", 1, VerdictNotSatisfied, 2},
		// atomic sections as blocks: the sections' order decides (fib), a
		// section moving two variables read together or apart (pair, with
		// a branch and a loop inside), an assertion inside a section (err)
		{"mt_atomblk_fib_ok.c", 3, VerdictNotSatisfied, 6},
		{"mt_atomblk_fib_bug.c", 3, VerdictSatisfied, 6},
		{"mt_atomblk_pair_ok.c", 3, VerdictNotSatisfied, 2},
		{"mt_atomblk_pair_bug.c", 3, VerdictSatisfied, 2},
		{"mt_atomblk_err_ok.c", 1, VerdictNotSatisfied, 2},
		{"mt_atomblk_err_bug.c", 1, VerdictSatisfied, 2},
	}
	for _, tc := range tests {
		for _, nb := range []bool{false, true} {
			t.Run(tc.file+"/noblocks="+strconv.FormatBool(nb), func(t *testing.T) {
				if nb && testing.Short() {
					t.Skip("the encoding without blocks: not under -short")
				}
				p := testutil.Program(t, filepath.Join("..", "testdata", "bmc", "encoder", tc.file))
				q, target, s := poSetup(t, "E<> Error")
				defer s.Close()
				ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
				defer cancel()
				opts := EncodeOptions{Unwind: tc.unwind, NoBlocks: nb}
				enc, err := Encode(p, EncodeOptions{Unwind: tc.unwind, NoBlocks: nb, PartialOrder: true, Spurious: true, Complete: true})
				if err != nil {
					t.Fatal(err)
				}
				if want := tc.blocks; nb {
					if enc.PO.Blocks != 0 {
						t.Fatalf("%d blocks with NoBlocks", enc.PO.Blocks)
					}
				} else if (want == 0) != (enc.PO.Blocks == 0) || enc.PO.Blocks < want {
					t.Fatalf("%d blocks, want at least %d (0: none)", enc.PO.Blocks, want)
				}
				provePOWant(ctx, t, p, q, target, s, opts, tc.verdict)
			})
		}
	}
}
