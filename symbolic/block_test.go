package symbolic

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

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
