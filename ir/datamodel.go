package ir

import (
	"fmt"
	"strings"
)

// DataModel is the C data model a module was compiled for.
type DataModel uint8

const (
	// LP64: x86-64 (clang-14's host target); long and pointers are 8 bytes.
	LP64 DataModel = iota
	// ILP32: i386 (clang -m32); int, long and pointers are 4 bytes.
	ILP32
)

func (d DataModel) String() string {
	if d == ILP32 {
		return "ILP32"
	}
	return "LP64"
}

// ParseDataModel reads "ILP32" or "LP64" ("" is LP64).
func ParseDataModel(s string) (DataModel, error) {
	switch s {
	case "", "LP64":
		return LP64, nil
	case "ILP32":
		return ILP32, nil
	}
	return LP64, fmt.Errorf("data model %q: want ILP32 or LP64", s)
}

// 32-bit pointers (ILP32). In registers a pointer keeps its 64-bit form
// (MakePtr) in both data models, so the interpreter's memory accesses are
// the same; in memory and as an integer (ptrtoint, inttoptr) an ILP32
// pointer is 32 bits: block b's offset o is b<<20 + 2^16 + o for b != 0
// (o in [-2^16, 2^20-2^16)), and o for the null block (o < 2^20). So
// block ids up to 4095 and offsets from -64 KiB to 960 KiB (one past the
// end of a block of up to 960 KiB included) are representable; null is 0,
// the non-null pointers are at least 2^20 - 2^16 (non-zero), a block's first
// byte is 64 KiB-aligned, integer differences are byte distances within a
// block and integers order like pointers. A pointer outside that range
// cannot be stored or converted: the vm ends the run with ResourceLimit,
// naming it, rather than store another pointer.
const (
	Ptr32BlockShift = 20
	Ptr32Bias       = 1 << 16
	Ptr32MaxBlock   = 1<<(32-Ptr32BlockShift) - 1
)

// Ptr32 returns the 32-bit form of pointer p and whether p has one.
func Ptr32(p uint64) (uint32, bool) {
	b, off := PtrBlock(p), PtrOff(p)
	if b == 0 {
		return off, off < 1<<Ptr32BlockShift
	}
	s := int64(int32(off))
	if b > Ptr32MaxBlock || s < -Ptr32Bias || s >= 1<<Ptr32BlockShift-Ptr32Bias {
		return 0, false
	}
	return b<<Ptr32BlockShift + uint32(Ptr32Bias+s), true
}

// FromPtr32 returns the pointer whose 32-bit form is x.
func FromPtr32(x uint32) uint64 {
	b := x >> Ptr32BlockShift
	if b == 0 {
		return MakePtr(0, x)
	}
	return MakePtr(b, x-b<<Ptr32BlockShift-Ptr32Bias)
}

// dataModelOf reads the data model from a module's target datalayout:
// x86-64's (64-bit pointers, or no pointer spec) is LP64, i386's
// ("p:32:32" with "f64:32:64") ILP32; other 32-bit layouts (whose
// alignments of i64 and double differ) are refused.
func dataModelOf(dl string) (DataModel, error) {
	ptr := ""
	for _, part := range strings.Split(dl, "-") {
		if strings.HasPrefix(part, "p:") || strings.HasPrefix(part, "p0:") {
			ptr = strings.Split(part, ":")[1]
		}
	}
	switch ptr {
	case "", "64":
		return LP64, nil
	case "32":
		if strings.Contains(dl, "f64:32:64") && !strings.Contains(dl, "i64:64") {
			return ILP32, nil
		}
		return LP64, fmt.Errorf("target datalayout %q: 32-bit pointers with a layout other than i386's (clang -m32) are not supported", dl)
	}
	return LP64, fmt.Errorf("target datalayout %q has %s-bit pointers: Wyvern runs x86-64 (LP64) and i386 (ILP32) modules", dl, ptr)
}

// ilp32Builtins are the platform functions whose vm implementations
// follow the ILP32 data model (argument and result widths come from the
// call, pointers in memory are 32-bit, printf's l, z and t are 32-bit). A
// call to any other platform function in an ILP32 module is refused at
// load time, by name, rather than run with 64-bit assumptions.
var ilp32Builtins = map[Builtin]bool{
	BPthreadCreate: true, BPthreadJoin: true, BPthreadExit: true, BPthreadSelf: true, BPthreadEqual: true,
	BMutexInit: true, BMutexLock: true, BMutexTrylock: true, BMutexUnlock: true, BMutexDestroy: true,
	BCondInit: true, BCondWait: true, BCondSignal: true, BCondBroadcast: true, BCondDestroy: true,
	BRwlockInit: true, BRwlockRdlock: true, BRwlockWrlock: true, BRwlockTryrdlock: true,
	BRwlockTrywrlock: true, BRwlockUnlock: true, BRwlockDestroy: true, BOnce: true, BAttrInit: true,
	BNondet: true, BAssume: true, BVerifierError: true, BAtomicBegin: true, BAtomicEnd: true,
	BReachError: true, BAssertFail: true, BAbort: true, BExit: true,
	BMalloc: true, BCalloc: true, BRealloc: true, BFree: true,
	BMemcpy: true, BMemmove: true, BMemset: true, BMemcmp: true,
	BStrlen: true, BStrcmp: true, BStrncmp: true, BStrcpy: true, BStrncpy: true, BStrchr: true,
	BStrcat: true, BStrncat: true, BStrstr: true, BStrrchr: true, BMemchr: true,
	BPrintf: true, BPuts: true, BPutchar: true,
	BCoin: true, BUniform: true, BYield: true, BAbs: true,
	BSemInit: true, BSemWait: true, BSemTrywait: true, BSemPost: true, BSemDestroy: true, BSemGetvalue: true,
	BBarrierInit: true, BBarrierWait: true, BBarrierDestroy: true,
	BAttrInitDetach: true, BAttrSetDetach: true, BAttrGetDetach: true, BDetach: true,
	BStrdup: true, BStrnlen: true, BStrspn: true, BStrcspn: true, BStrpbrk: true, BStrcasecmp: true, BStpcpy: true,
	BSprintf: true, BSnprintf: true, BFprintf: true, BFputs: true, BFputc: true, BFflush: true, BFwrite: true,
	BQsort: true, BRand: true, BSrand: true,
	BErrnoLocation: true, BPerror: true, BStrtod: true, BStrtok: true, BStrtol: true, BStrtoul: true, BSscanf: true,
	BTime: true, BClock: true, BGettimeofday: true, BClockGettime: true,
	BKeyCreate: true, BKeyDelete: true, BGetspecific: true, BSetspecific: true,
	BIsalnum: true, BIsalpha: true, BIsblank: true, BIscntrl: true, BIsdigit: true, BIsgraph: true,
	BIslower: true, BIsprint: true, BIspunct: true, BIsspace: true, BIsupper: true, BIsxdigit: true,
	BToupper: true, BTolower: true, BCtypeBLoc: true, BCtypeToupperLoc: true, BCtypeTolowerLoc: true,
	// libm: doubles and floats are the same in both data models
	BSqrt: true, BPow: true, BFloor: true, BCeil: true, BTrunc: true, BRound: true, BFabs: true,
	BFmod: true, BExp: true, BExp2: true, BLog: true, BLog2: true, BLog10: true, BSin: true,
	BCos: true, BTan: true, BAsin: true, BAcos: true, BAtan: true, BAtan2: true, BSinh: true,
	BCosh: true, BTanh: true, BHypot: true, BCbrt: true, BFmin: true, BFmax: true,
}

// ILP32Ready reports whether platform function b may be called by an ILP32
// program (see ilp32Builtins).
func (b Builtin) ILP32Ready() bool { return ilp32Builtins[b] }
