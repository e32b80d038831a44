package ir

import "testing"

// TestBitcastPlatformCall: clang calls an unprototyped declaration through
// a bitcast of its address (SV-COMP's `void __VERIFIER_atomic_begin();`
// under ILP32). Such a call of a platform function compiles to the direct
// platform call (OpCallB), so every analysis that looks for one finds it;
// a call with fewer arguments than the declaration's parameters, and a call
// through a pointer that is not a constant, stay indirect.
func TestBitcastPlatformCall(t *testing.T) {
	const src = `
declare void @__VERIFIER_atomic_begin(...)
declare i32 @__VERIFIER_nondet_int(...)
declare void @__VERIFIER_assume(i32)

define i32 @main() {
  call void bitcast (void (...)* @__VERIFIER_atomic_begin to void ()*)()
  %x = call i32 bitcast (i32 (...)* @__VERIFIER_nondet_int to i32 ()*)()
  call void bitcast (void (i32)* @__VERIFIER_assume to void ()*)()
  %p = alloca void ()*
  store void ()* bitcast (void (...)* @__VERIFIER_atomic_begin to void ()*), void ()** %p
  %f = load void ()*, void ()** %p
  call void %f()
  ret i32 %x
}
`
	p, err := ParseLL("t.ll", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	main := p.Funcs[p.Entry]
	var got []string
	for _, in := range main.Code {
		switch in.Op {
		case OpCallB:
			got = append(got, "callb "+Builtin(in.B).String())
		case OpCallInd:
			got = append(got, "callind")
		case OpCall:
			got = append(got, "call")
		}
	}
	want := []string{"callb " + BAtomicBegin.String(), "callb " + BNondet.String(), "callind", "callind"}
	if len(got) != len(want) {
		t.Fatalf("calls %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("calls %v, want %v", got, want)
		}
	}
}
