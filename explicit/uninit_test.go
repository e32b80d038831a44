package explicit

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// TestUninitRead: a search that meets a local variable read before it is
// written, whose 32-bit value no use narrows, refuses it and says which
// variable, rather than search the program as if it held 0.
func TestUninitRead(t *testing.T) {
	m := machine(t, "testdata/uninit_read.c")
	_, err := Search(context.Background(), compile(t, m, "E<> Error"), Options{})
	var be *BranchError
	if !errors.As(err, &be) || be.Outcomes != "2^32" {
		t.Fatalf("error %v, want a BranchError of 2^32 outcomes", err)
	}
	if msg := err.Error(); !strings.Contains(msg, "reads the local variable declared at testdata/uninit_read.c:5") {
		t.Errorf("message %q does not name the variable's declaration", msg)
	}
}
