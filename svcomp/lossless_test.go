package svcomp

import (
	"testing"

	"github.com/wyvernmc/wyvern/explicit"
)

// TestLossless checks that only a search that stored every state whole
// counts as a proof (issue #30: verify never answers TRUE from a
// hash-compacted search).
func TestLossless(t *testing.T) {
	if !lossless(&explicit.Result{Verdict: explicit.NotSatisfied}) {
		t.Error("a full-storage search is not taken as lossless")
	}
	if lossless(&explicit.Result{Verdict: explicit.NotSatisfied, Compact: true, OmissionProbability: 1e-12}) {
		t.Error("a hash-compacted search is taken as lossless")
	}
}
