package vm

import "github.com/wyvernmc/wyvern/ir"

// BMC's column of the platform table.
//
// Bounded model checking (package symbolic) is a second reading of the
// platform's semantics: every platform function is either encoded in its
// formulas, bit for bit as run implements it, or refused with a reason
// (an error naming the call, never a wrong verdict). The decision is one
// entry of bmcColumn, indexed by the same ir.Builtin as the table platform;
// TestPlatformTable fails when a function has none, symbolic refuses a call
// with the entry's reason, and symbolic's TestBMCColumn checks that its
// encoder handles exactly the functions declared encoded. docs/bmc.md's
// list of supported functions is generated from it (BMCTable).

// BMCSupport is BMC's decision for a platform function.
type BMCSupport uint8

// The decisions.
const (
	bmcUndecided BMCSupport = iota // no decision: a test fails
	BMCEncoded                     // encoded in the formula (How says how, and its limits)
	BMCRefused                     // refused: How says why
)

func (s BMCSupport) String() string {
	switch s {
	case BMCEncoded:
		return "encoded"
	case BMCRefused:
		return "refused"
	}
	return "undecided"
}

// BMCEntry is one platform function's entry of BMC's column.
type BMCEntry struct {
	Support BMCSupport
	// How: for an encoded function, how the encoding reads it (and the
	// uses it refuses); for a refused one, why.
	How string
}

// BMC returns BMC's decision for platform function b.
func BMC(b ir.Builtin) BMCEntry {
	if b >= ir.NumBuiltins {
		return BMCEntry{Support: BMCRefused, How: "not a platform function"}
	}
	return bmcColumn[b]
}

func bmcEnc(how string) BMCEntry { return BMCEntry{Support: BMCEncoded, How: how} }
func bmcRef(why string) BMCEntry { return BMCEntry{Support: BMCRefused, How: why} }

// Reasons shared by several entries.
var (
	bmcFloat   = bmcRef("floating point: the formulas are bitvectors only (no FP theory)")
	bmcString  = bmcRef("string function not encoded yet (issue 29, item 2)")
	bmcStream  = bmcRef("output to buffers and streams is not modelled")
	bmcEnv     = bmcRef("reads the environment (time, clocks, errno, rand's hidden state), which the formula does not model")
	bmcThreads = bmcRef("not encoded by the threaded encoding (round-robin rounds) yet")
	bmcCtype   = bmcRef("character classes read libc's locale tables, which the formula does not model")
	bmcPthread = "encoded by the threaded encoding (round-robin rounds, docs/bmc.md \"Threads\")"
)

// bmcColumn is BMC's column of the platform table, by ir.Builtin.
var bmcColumn = [ir.NumBuiltins]BMCEntry{
	ir.BNone: bmcRef("not a platform function"),

	// pthreads: a program calling any of them is encoded by the threaded
	// encoding (symbolic/encode_threads.go).
	ir.BPthreadCreate:   bmcEnc(bmcPthread + "; the start routine must be a constant function pointer"),
	ir.BPthreadJoin:     bmcEnc(bmcPthread + "; blocks until the target returned, decided from the round it returned in"),
	ir.BPthreadExit:     bmcEnc(bmcPthread + "; only in a thread's start routine"),
	ir.BPthreadSelf:     bmcEnc(bmcPthread),
	ir.BPthreadEqual:    bmcEnc(bmcPthread),
	ir.BMutexInit:       bmcEnc(bmcPthread),
	ir.BMutexLock:       bmcEnc(bmcPthread + "; blocks on a held word"),
	ir.BMutexTrylock:    bmcEnc(bmcPthread + "; EBUSY on a held word"),
	ir.BMutexUnlock:     bmcEnc(bmcPthread + "; unlocking another's mutex is an error"),
	ir.BMutexDestroy:    bmcEnc(bmcPthread),
	ir.BCondInit:        bmcEnc(bmcPthread),
	ir.BCondWait:        bmcEnc(bmcPthread + "; LODIN's platform (first waiter signalled, no spurious wake-up), at most 16 threads"),
	ir.BCondSignal:      bmcEnc(bmcPthread + "; wakes the waiter that arrived first"),
	ir.BCondBroadcast:   bmcEnc(bmcPthread),
	ir.BCondDestroy:     bmcEnc(bmcPthread),
	ir.BRwlockInit:      bmcEnc(bmcPthread),
	ir.BRwlockRdlock:    bmcEnc(bmcPthread),
	ir.BRwlockWrlock:    bmcEnc(bmcPthread),
	ir.BRwlockTryrdlock: bmcEnc(bmcPthread),
	ir.BRwlockTrywrlock: bmcEnc(bmcPthread),
	ir.BRwlockUnlock:    bmcEnc(bmcPthread),
	ir.BRwlockDestroy:   bmcEnc(bmcPthread),
	ir.BOnce:            bmcRef("pthread_once runs its routine in a new frame, which the threaded encoding does not inline"),
	ir.BAttrInit:        bmcEnc(bmcPthread + "; no effect"),
	ir.BAttrInitDetach:  bmcThreads,
	ir.BAttrSetDetach:   bmcThreads,
	ir.BAttrGetDetach:   bmcThreads,
	ir.BDetach:          bmcThreads,
	ir.BKeyCreate:       bmcThreads,
	ir.BKeyDelete:       bmcThreads,
	ir.BGetspecific:     bmcThreads,
	ir.BSetspecific:     bmcThreads,
	ir.BSemInit:         bmcThreads,
	ir.BSemWait:         bmcThreads,
	ir.BSemTrywait:      bmcThreads,
	ir.BSemPost:         bmcThreads,
	ir.BSemDestroy:      bmcThreads,
	ir.BSemGetvalue:     bmcThreads,
	ir.BBarrierInit:     bmcThreads,
	ir.BBarrierWait:     bmcThreads,
	ir.BBarrierDestroy:  bmcThreads,
	ir.BYield:           bmcRef("a scheduling point only: not encoded yet"),
	ir.BErrnoLocation:   bmcEnv,
	ir.BNondet:          bmcEnc("an input: the k-th execution of the call returns select(in, k), any value of the result's width (Choice Bits)"),
	ir.BAssume:          bmcEnc("ends the path where the argument is 0"),
	ir.BVerifierError:   bmcEnc("the error VerifierError"),
	ir.BAtomicBegin:     bmcEnc("no context switch until the matching __VERIFIER_atomic_end"),
	ir.BAtomicEnd:       bmcEnc("ends an atomic section"),
	ir.BReachError:      bmcEnc("the error ReachError (when the program does not define reach_error)"),
	ir.BAssertFail:      bmcEnc("the error AssertFail"),
	ir.BAbort:           bmcEnc("the error Abort"),
	ir.BExit:            bmcEnc("ends the run without an error"),
	ir.BMalloc:          bmcEnc("a fresh heap block of the given size, null above 2^31 bytes; its bytes are undefined, free in the formula (the flat array's `mem0` at the block's addresses; object memory's and the threaded encodings' constant `hb_<key>` per byte): a proof covers every value, and a witness answers the vm's draws of undefined bytes with the model's (`symbolic/encode_undef.go`, docs/design/uninit-memory.md)"),
	ir.BCalloc:          bmcEnc("malloc of n*size with the vm's overflow check, zeroed when the size is a constant up to 64 KiB (else reading before writing is over-approximated)"),
	ir.BRealloc:         bmcEnc("the vm's checks, a new block (malloc: the bytes past the old size undefined) receiving min(old size, n) bytes and the old one freed; the copy is unrolled to max(64, unwind) bytes, longer ones cut (incomplete); single-threaded programs only"),
	ir.BFree:            bmcEnc("the vm's checks (null, invalid, double free) and the block marked freed"),
	ir.BMemcpy:          bmcEnc("bytewise copy with the vm's bounds checks; a constant length up to 64 KiB, or a variable one unrolled to max(64, unwind) bytes (longer ones cut: incomplete; single-threaded programs only)"),
	ir.BMemmove:         bmcEnc("as memcpy (all bytes read before any is written)"),
	ir.BMemset:          bmcEnc("bytewise stores with the vm's bounds checks; a constant length up to 64 KiB, or a variable one unrolled to max(64, unwind) bytes (longer ones cut: incomplete; single-threaded programs only)"),
	ir.BMemcmp:          bmcString,
	ir.BStrlen:          bmcEnc("the index of the first NUL among the first max(64, unwind) bytes with the vm's checks up to it; a longer string is cut (incomplete); single-threaded programs only"),
	ir.BStrcmp:          bmcEnc("the vm's loop over the first max(64, unwind) bytes: the difference of the first differing bytes (or 0 at p's NUL), with the vm's checks of both strings up to it; a longer comparison is cut (incomplete); single-threaded programs only"),
	ir.BStrncmp:         bmcEnc("strcmp's encoding, stopping at the length argument too"),
	ir.BStrcpy:          bmcString,
	ir.BStrncpy:         bmcString,
	ir.BStrchr:          bmcString,
	ir.BPrintf:          bmcEnc("output is not modelled: only a constant format without %s, %n or *, with enough arguments; its result may not be read"),
	ir.BPuts:            bmcEnc("output is not modelled: only a constant string; its result may not be read"),
	ir.BPutchar:         bmcEnc("returns its argument as unsigned char; the output is not modelled"),
	ir.BCoin:            bmcEnc("an input constrained to the coin's support (Choice Coin: CoinBad, CoinCan); invalid arguments are the error BadArg"),
	ir.BUniform:         bmcEnc("an input constrained to [lo, hi] (Choice Uniform: UniformBad, UniformCan); lo > hi is the error BadArg"),
	ir.BStrcat:          bmcString,
	ir.BStrncat:         bmcString,
	ir.BStrstr:          bmcString,
	ir.BStrrchr:         bmcString,
	ir.BMemchr:          bmcString,
	ir.BStrtol:          bmcString,
	ir.BStrtoul:         bmcString,
	ir.BStrtod:          bmcFloat,
	ir.BStrdup:          bmcString,
	ir.BStrnlen:         bmcString,
	ir.BStrspn:          bmcString,
	ir.BStrcspn:         bmcString,
	ir.BStrpbrk:         bmcString,
	ir.BStrcasecmp:      bmcString,
	ir.BStrtok:          bmcString,
	ir.BStpcpy:          bmcString,
	ir.BIsalnum:         bmcCtype,
	ir.BIsalpha:         bmcCtype,
	ir.BIsblank:         bmcCtype,
	ir.BIscntrl:         bmcCtype,
	ir.BIsdigit:         bmcCtype,
	ir.BIsgraph:         bmcCtype,
	ir.BIslower:         bmcCtype,
	ir.BIsprint:         bmcCtype,
	ir.BIspunct:         bmcCtype,
	ir.BIsspace:         bmcCtype,
	ir.BIsupper:         bmcCtype,
	ir.BIsxdigit:        bmcCtype,
	ir.BToupper:         bmcCtype,
	ir.BTolower:         bmcCtype,
	ir.BCtypeBLoc:       bmcCtype,
	ir.BCtypeToupperLoc: bmcCtype,
	ir.BCtypeTolowerLoc: bmcCtype,
	ir.BAbs:             bmcRef("abs not encoded yet"),
	ir.BSqrt:            bmcFloat,
	ir.BPow:             bmcFloat,
	ir.BFloor:           bmcFloat,
	ir.BCeil:            bmcFloat,
	ir.BTrunc:           bmcFloat,
	ir.BRound:           bmcFloat,
	ir.BFabs:            bmcFloat,
	ir.BFmod:            bmcFloat,
	ir.BExp:             bmcFloat,
	ir.BExp2:            bmcFloat,
	ir.BLog:             bmcFloat,
	ir.BLog2:            bmcFloat,
	ir.BLog10:           bmcFloat,
	ir.BSin:             bmcFloat,
	ir.BCos:             bmcFloat,
	ir.BTan:             bmcFloat,
	ir.BAsin:            bmcFloat,
	ir.BAcos:            bmcFloat,
	ir.BAtan:            bmcFloat,
	ir.BAtan2:           bmcFloat,
	ir.BSinh:            bmcFloat,
	ir.BCosh:            bmcFloat,
	ir.BTanh:            bmcFloat,
	ir.BHypot:           bmcFloat,
	ir.BCbrt:            bmcFloat,
	ir.BFmin:            bmcFloat,
	ir.BFmax:            bmcFloat,
	ir.BRand:            bmcEnv,
	ir.BSrand:           bmcEnv,
	ir.BTime:            bmcEnv,
	ir.BClock:           bmcEnv,
	ir.BGettimeofday:    bmcEnv,
	ir.BClockGettime:    bmcEnv,
	ir.BQsort:           bmcRef("qsort calls a comparison function through a pointer, which the encoder does not follow"),
	ir.BSprintf:         bmcStream,
	ir.BSnprintf:        bmcStream,
	ir.BFprintf:         bmcStream,
	ir.BFputs:           bmcStream,
	ir.BFputc:           bmcStream,
	ir.BFflush:          bmcStream,
	ir.BFwrite:          bmcStream,
	ir.BPerror:          bmcStream,
	ir.BSscanf:          bmcRef("sscanf parses strings and formats, which the encoder does not model"),
}

// BMCRow is one row of BMCTable.
type BMCRow struct {
	Builtin ir.Builtin
	Name    string // the function's first name (ir.Builtin's String)
	BMCEntry
}

// BMCTable is BMC's column with the functions' names, in ir.Builtin
// order (BNone left out): the source of docs/bmc.md's list.
func BMCTable() []BMCRow {
	out := make([]BMCRow, 0, ir.NumBuiltins-1)
	for b := ir.Builtin(1); b < ir.NumBuiltins; b++ {
		out = append(out, BMCRow{Builtin: b, Name: b.String(), BMCEntry: bmcColumn[b]})
	}
	return out
}
