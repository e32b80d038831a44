package vm

import (
	"fmt"

	"github.com/wyvernmc/wyvern/ir"
)

// ErrKind is the kind of an error state.
type ErrKind uint8

// Error kinds. The names are what propositions (Error(kind)) and reports use.
const (
	ErrNone ErrKind = iota
	ErrNullDeref
	ErrOutOfBounds
	ErrUseAfterFree
	ErrUseAfterReturn
	ErrInvalidPtr
	ErrWriteConst
	ErrDoubleFree
	ErrInvalidFree
	ErrDivZero
	ErrOverflow      // signed overflow under nsw, or other poison-producing flag violated
	ErrShiftOverflow // shift amount >= bit width
	ErrUnreachable
	ErrAssertFail  // __assert_fail / assert
	ErrReachError  // reach_error() without a definition in the program
	ErrVerifierErr // __VERIFIER_error()
	ErrAbort
	ErrTrap
	ErrInvalidCall // call through a pointer that is not a function, or wrong arguments
	ErrStackOverflow
	ErrPthread // misuse of a pthread object (unlock of a mutex not held, ...)
	ErrBadArg  // invalid argument to a platform function
	// ErrResourceLimit: the run passed a per-run limit of the machine
	// (Machine.MaxMemory, MaxProcs): not a bug of the program, the end of
	// what the platform gives it; the detail names the limit.
	ErrResourceLimit
	// ErrMemLeak: a heap block became unreachable while allocated
	// (SV-COMP's valid-memtrack), checked only where the machine's Leaks
	// ask for it (leak.go).
	ErrMemLeak
	// ErrMemCleanup: heap blocks were still allocated when the program
	// terminated (SV-COMP's valid-memcleanup), checked likewise.
	ErrMemCleanup
	numErrKinds
)

var errNames = [...]string{
	ErrNone: "none", ErrNullDeref: "NullDeref", ErrOutOfBounds: "OutOfBounds",
	ErrUseAfterFree: "UseAfterFree", ErrUseAfterReturn: "UseAfterReturn", ErrInvalidPtr: "InvalidPointer",
	ErrWriteConst: "WriteConst", ErrDoubleFree: "DoubleFree", ErrInvalidFree: "InvalidFree",
	ErrDivZero: "DivZero", ErrOverflow: "Overflow", ErrShiftOverflow: "ShiftOverflow",
	ErrUnreachable: "Unreachable", ErrAssertFail: "AssertFail", ErrReachError: "ReachError",
	ErrVerifierErr: "VerifierError", ErrAbort: "Abort", ErrTrap: "Trap", ErrInvalidCall: "InvalidCall",
	ErrStackOverflow: "StackOverflow", ErrPthread: "PthreadMisuse", ErrBadArg: "BadArgument",
	ErrResourceLimit: "ResourceLimit", ErrMemLeak: "MemLeak", ErrMemCleanup: "MemCleanup",
}

var errText = [...]string{
	ErrNullDeref: "null pointer dereference", ErrOutOfBounds: "out-of-bounds memory access",
	ErrUseAfterFree: "use after free", ErrUseAfterReturn: "use of a stack variable after its function returned",
	ErrInvalidPtr: "access through an invalid pointer", ErrWriteConst: "write to constant memory",
	ErrDoubleFree: "double free", ErrInvalidFree: "free of a pointer not returned by malloc",
	ErrDivZero: "division by zero", ErrOverflow: "signed integer overflow",
	ErrShiftOverflow: "shift amount not smaller than the bit width", ErrUnreachable: "unreachable instruction executed",
	ErrAssertFail: "assertion failed", ErrReachError: "reach_error() called",
	ErrVerifierErr: "__VERIFIER_error() called", ErrAbort: "abort() called", ErrTrap: "trap instruction executed",
	ErrInvalidCall: "invalid call", ErrStackOverflow: "call stack overflow",
	ErrPthread: "pthread object misused", ErrBadArg: "invalid argument to a platform function",
	ErrResourceLimit: "per-run resource limit exceeded",
	ErrMemLeak:       "memory leak: a heap block is no longer reachable", ErrMemCleanup: "heap memory still allocated at exit",
}

func (k ErrKind) String() string {
	if int(k) < len(errNames) {
		return errNames[k]
	}
	return "Error?"
}

// ErrKindByName returns the kind named by s (as printed by String).
func ErrKindByName(s string) (ErrKind, bool) {
	for i, n := range errNames {
		if n == s && i != 0 {
			return ErrKind(i), true
		}
	}
	return ErrNone, false
}

// ErrorState describes an error state: kind, process and source location.
type ErrorState struct {
	Kind   ErrKind
	Thread int32
	Func   string
	PC     int32
	Loc    ir.SrcLoc
	Detail string
}

func (e *ErrorState) Error() string {
	msg := errText[e.Kind]
	if e.Detail != "" {
		msg += ": " + e.Detail
	}
	return fmt.Sprintf("%s: %s (%s) in process %d, function %s", e.Loc, msg, e.Kind, e.Thread, e.Func)
}

// ErrKindNames lists the names of all error kinds.
func ErrKindNames() []string {
	var out []string
	for i := ErrKind(1); i < numErrKinds; i++ {
		out = append(out, i.String())
	}
	return out
}
