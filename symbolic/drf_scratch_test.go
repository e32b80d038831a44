package symbolic

import (
	"context"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/wyvernmc/wyvern/internal/testutil"
)

func TestDRFScratch(t *testing.T) {
	f := os.Getenv("DRF_FILE")
	if f == "" {
		t.Skip()
	}
	p := testutil.Program(t, f)
	u, _ := strconv.Atoi(os.Getenv("DRF_UNWIND"))
	c, _ := strconv.Atoi(os.Getenv("DRF_CTX"))
	off := os.Getenv("DRF_OFF") != ""
	t0 := time.Now()
	enc, err := Encode(p, EncodeOptions{Unwind: u, Contexts: c, NoLockReduction: off, Complete: true, Spurious: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("encode %.1fs terms %d complete rounds %d sw %v", time.Since(t0).Seconds(), enc.Terms, enc.CompleteRounds, enc.Switches)
	s, err := New(os.Getenv("DRF_SOLVER"), Options{Timeout: 100 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	ans, err := s.Check(context.Background(), withGoal(enc, enc.Violation, true))
	t.Logf("violation: %v %v %.1fs", ans.Status, err, ans.Elapsed.Seconds())
	ans, err = s.Check(context.Background(), withGoal(enc, enc.Unwound, false))
	t.Logf("unwound: %v %v %.1fs", ans.Status, err, ans.Elapsed.Seconds())
}
