package ir

import "strings"

// Platform functions: identifiers and names only. The vm implements each in
// one entry of its platform table (vm/platform.go: implementation, when it
// blocks, whether it yields, the choice it draws); a call to any other
// external function is rejected at load time. To add one, add its
// identifier before NumBuiltins, its name(s) to builtinNames, and its vm
// table entry.
const (
	BNone Builtin = iota
	// pthreads
	BPthreadCreate
	BPthreadJoin
	BPthreadExit
	BPthreadSelf
	BPthreadEqual
	BMutexInit
	BMutexLock
	BMutexTrylock
	BMutexUnlock
	BMutexDestroy
	BCondInit
	BCondWait
	BCondSignal
	BCondBroadcast
	BCondDestroy
	BRwlockInit
	BRwlockRdlock
	BRwlockWrlock
	BRwlockTryrdlock
	BRwlockTrywrlock
	BRwlockUnlock
	BRwlockDestroy
	BOnce
	BAttrInit // pthread_*attr_init / destroy / set*: accepted, no effect
	// SV-COMP
	BNondet // __VERIFIER_nondet_*: Aux-less, the result type decides the range
	BAssume
	BVerifierError
	BAtomicBegin
	BAtomicEnd
	BReachError
	BAssertFail
	BAbort
	BExit
	// memory
	BMalloc
	BCalloc
	BRealloc
	BFree
	BMemcpy
	BMemmove
	BMemset
	BMemcmp
	// strings
	BStrlen
	BStrcmp
	BStrncmp
	BStrcpy
	BStrncpy
	BStrchr
	// output
	BPrintf
	BPuts
	BPutchar
	// wyvern.h
	BCoin
	BUniform
	// libc breadth (vm/libc_*.go)
	BStrcat
	BStrncat
	BStrstr
	BStrrchr
	BMemchr
	BStrtol  // strtol, strtoll, atoi, atol, atoll
	BStrtoul // strtoul, strtoull
	BIsalnum
	BIsalpha
	BIsblank
	BIscntrl
	BIsdigit
	BIsgraph
	BIslower
	BIsprint
	BIspunct
	BIsspace
	BIsupper
	BIsxdigit
	BToupper
	BTolower
	BCtypeBLoc
	BCtypeToupperLoc
	BCtypeTolowerLoc
	BAbs // abs, labs, llabs
	BSqrt
	BPow
	BFloor
	BCeil
	BTrunc
	BRound
	BFabs
	BFmod
	BExp
	BExp2
	BLog
	BLog2
	BLog10
	BSin
	BCos
	BTan
	BAsin
	BAcos
	BAtan
	BAtan2
	BSinh
	BCosh
	BTanh
	BHypot
	BCbrt
	BFmin
	BFmax
	BRand
	BSrand
	BTime
	BYield // sleep, usleep, sched_yield, nanosleep: a scheduling point
	BQsort
	BSprintf
	BSnprintf
	BFprintf
	BFputs
	BFputc // fputc, putc
	BFflush
	BFwrite
	BSscanf
	BSemInit
	BSemWait
	BSemTrywait
	BSemPost
	BSemDestroy
	BSemGetvalue
	BBarrierInit
	BBarrierWait
	BBarrierDestroy
	BAttrInitDetach // pthread_attr_init: joinable
	BAttrSetDetach
	BAttrGetDetach
	BDetach
	BKeyCreate
	BKeyDelete
	BGetspecific
	BSetspecific
	BStrtod // strtod, strtof, atof
	BErrnoLocation
	BStrdup // strdup, strndup
	BStrnlen
	BStrspn
	BStrcspn
	BStrpbrk
	BStrcasecmp // strcasecmp, strncasecmp
	BStrtok     // strtok, strtok_r
	BStpcpy
	BPerror
	BClock
	BGettimeofday
	BClockGettime

	NumBuiltins // the number of identifiers (the vm table's size)
)

var builtinNames = map[string]Builtin{
	"pthread_create": BPthreadCreate, "pthread_join": BPthreadJoin, "pthread_exit": BPthreadExit,
	"pthread_self": BPthreadSelf, "pthread_equal": BPthreadEqual,
	"pthread_mutex_init": BMutexInit, "pthread_mutex_lock": BMutexLock,
	"pthread_mutex_trylock": BMutexTrylock, "pthread_mutex_unlock": BMutexUnlock,
	"pthread_mutex_destroy": BMutexDestroy,
	"pthread_cond_init":     BCondInit, "pthread_cond_wait": BCondWait, "pthread_cond_signal": BCondSignal,
	"pthread_cond_broadcast": BCondBroadcast, "pthread_cond_destroy": BCondDestroy,
	"pthread_rwlock_init": BRwlockInit, "pthread_rwlock_rdlock": BRwlockRdlock,
	"pthread_rwlock_wrlock": BRwlockWrlock, "pthread_rwlock_tryrdlock": BRwlockTryrdlock,
	"pthread_rwlock_trywrlock": BRwlockTrywrlock, "pthread_rwlock_unlock": BRwlockUnlock,
	"pthread_rwlock_destroy": BRwlockDestroy, "pthread_once": BOnce,
	"pthread_attr_init": BAttrInitDetach, "pthread_attr_destroy": BAttrInit,
	"pthread_attr_setdetachstate": BAttrSetDetach, "pthread_attr_getdetachstate": BAttrGetDetach,
	"pthread_attr_setstacksize": BAttrInit, "pthread_attr_setscope": BAttrInit,
	"pthread_attr_setschedpolicy": BAttrInit, "pthread_attr_setinheritsched": BAttrInit,
	"pthread_attr_setguardsize": BAttrInit, "pthread_detach": BDetach,
	"pthread_mutexattr_init":    BAttrInit,
	"pthread_mutexattr_destroy": BAttrInit, "pthread_mutexattr_settype": BAttrInit,
	"pthread_condattr_init": BAttrInit, "pthread_condattr_destroy": BAttrInit,
	"__VERIFIER_assume": BAssume, "__VERIFIER_error": BVerifierError,
	"__VERIFIER_atomic_begin": BAtomicBegin, "__VERIFIER_atomic_end": BAtomicEnd,
	"reach_error": BReachError, "__assert_fail": BAssertFail, "abort": BAbort, "exit": BExit,
	"_exit": BExit, "_Exit": BExit,
	"malloc": BMalloc, "calloc": BCalloc, "realloc": BRealloc, "free": BFree,
	"memcpy": BMemcpy, "memmove": BMemmove, "memset": BMemset, "memcmp": BMemcmp,
	"strlen": BStrlen, "strcmp": BStrcmp, "strncmp": BStrncmp, "strcpy": BStrcpy,
	"strncpy": BStrncpy, "strchr": BStrchr,
	"printf": BPrintf, "puts": BPuts, "putchar": BPutchar,
	"wyvern_coin": BCoin, "wyvern_uniform": BUniform,

	"strcat": BStrcat, "strncat": BStrncat, "strstr": BStrstr, "strrchr": BStrrchr, "memchr": BMemchr,
	"strtol": BStrtol, "strtoll": BStrtol, "atoi": BStrtol, "atol": BStrtol, "atoll": BStrtol,
	"strtoul": BStrtoul, "strtoull": BStrtoul,
	"isalnum": BIsalnum, "isalpha": BIsalpha, "isblank": BIsblank, "iscntrl": BIscntrl,
	"isdigit": BIsdigit, "isgraph": BIsgraph, "islower": BIslower, "isprint": BIsprint,
	"ispunct": BIspunct, "isspace": BIsspace, "isupper": BIsupper, "isxdigit": BIsxdigit,
	"toupper": BToupper, "tolower": BTolower, "__ctype_b_loc": BCtypeBLoc,
	"__ctype_toupper_loc": BCtypeToupperLoc, "__ctype_tolower_loc": BCtypeTolowerLoc,
	"abs": BAbs, "labs": BAbs, "llabs": BAbs,
	"sqrt": BSqrt, "sqrtf": BSqrt, "pow": BPow, "powf": BPow, "floor": BFloor, "floorf": BFloor,
	"ceil": BCeil, "ceilf": BCeil, "trunc": BTrunc, "truncf": BTrunc, "round": BRound,
	"roundf": BRound, "fabs": BFabs, "fabsf": BFabs, "fmod": BFmod, "fmodf": BFmod,
	"exp": BExp, "expf": BExp, "exp2": BExp2, "exp2f": BExp2, "log": BLog, "logf": BLog,
	"log2": BLog2, "log2f": BLog2, "log10": BLog10, "log10f": BLog10,
	"sin": BSin, "sinf": BSin, "cos": BCos, "cosf": BCos, "tan": BTan, "tanf": BTan,
	"asin": BAsin, "asinf": BAsin, "acos": BAcos, "acosf": BAcos, "atan": BAtan, "atanf": BAtan,
	"atan2": BAtan2, "atan2f": BAtan2, "sinh": BSinh, "sinhf": BSinh, "cosh": BCosh,
	"coshf": BCosh, "tanh": BTanh, "tanhf": BTanh, "hypot": BHypot, "hypotf": BHypot,
	"cbrt": BCbrt, "cbrtf": BCbrt, "fmin": BFmin, "fminf": BFmin, "fmax": BFmax, "fmaxf": BFmax,
	"rand": BRand, "srand": BSrand, "random": BRand, "srandom": BSrand, "time": BTime,
	"sleep": BYield, "usleep": BYield, "sched_yield": BYield, "nanosleep": BYield,
	"pthread_yield": BYield, "qsort": BQsort,
	"sprintf": BSprintf, "snprintf": BSnprintf, "fprintf": BFprintf, "fputs": BFputs,
	"fputc": BFputc, "putc": BFputc, "fflush": BFflush, "fwrite": BFwrite,
	"sscanf": BSscanf, "__isoc99_sscanf": BSscanf,
	"sem_init": BSemInit, "sem_wait": BSemWait, "sem_trywait": BSemTrywait, "sem_post": BSemPost,
	"sem_destroy": BSemDestroy, "sem_getvalue": BSemGetvalue,
	"pthread_barrier_init": BBarrierInit, "pthread_barrier_wait": BBarrierWait,
	"pthread_barrier_destroy":  BBarrierDestroy,
	"pthread_barrierattr_init": BAttrInit, "pthread_barrierattr_destroy": BAttrInit,
	"pthread_key_create": BKeyCreate, "pthread_key_delete": BKeyDelete,
	"pthread_getspecific": BGetspecific, "pthread_setspecific": BSetspecific,
	"strtod": BStrtod, "strtof": BStrtod, "atof": BStrtod, "__errno_location": BErrnoLocation,
	"strdup": BStrdup, "strndup": BStrdup, "strnlen": BStrnlen, "strspn": BStrspn, "strcspn": BStrcspn,
	"strpbrk": BStrpbrk, "strcasecmp": BStrcasecmp, "strncasecmp": BStrcasecmp, "strtok": BStrtok,
	"strtok_r": BStrtok, "stpcpy": BStpcpy, "perror": BPerror, "clock": BClock,
	"gettimeofday": BGettimeofday, "clock_gettime": BClockGettime,
}

// mathIntrinsics maps the LLVM intrinsics clang emits for libm functions
// (at -O1, and for those that never set errno) to their platform functions.
var mathIntrinsics = map[string]Builtin{
	"llvm.floor.": BFloor, "llvm.ceil.": BCeil, "llvm.trunc.": BTrunc, "llvm.round.": BRound,
	"llvm.pow.": BPow, "llvm.exp.": BExp, "llvm.exp2.": BExp2, "llvm.log.": BLog,
	"llvm.log2.": BLog2, "llvm.log10.": BLog10, "llvm.sin.": BSin, "llvm.cos.": BCos,
	"llvm.minnum.": BFmin, "llvm.maxnum.": BFmax,
}

// IsMathIntrinsic reports whether an intrinsic is a libm function that
// returns a value (its call site needs a result slot).
func IsMathIntrinsic(name string) bool {
	_, ok := lookupMathIntrinsic(name)
	return ok
}

func lookupMathIntrinsic(name string) (Builtin, bool) {
	i := strings.LastIndexByte(name, '.')
	if i < 0 {
		return BNone, false
	}
	b, ok := mathIntrinsics[name[:i+1]]
	return b, ok
}

// LookupBuiltin returns the platform function implementing an external
// function name, including the intrinsic spellings clang emits.
func LookupBuiltin(name string) (Builtin, bool) {
	if b, ok := builtinNames[name]; ok {
		return b, true
	}
	if strings.HasPrefix(name, "__VERIFIER_nondet_") {
		return BNondet, true
	}
	switch {
	case strings.HasPrefix(name, "llvm.memcpy."):
		return BMemcpy, true
	case strings.HasPrefix(name, "llvm.memmove."):
		return BMemmove, true
	case strings.HasPrefix(name, "llvm.memset."):
		return BMemset, true
	}
	if strings.HasPrefix(name, "llvm.") {
		return lookupMathIntrinsic(name)
	}
	return BNone, false
}

// String returns the function's name: the first of its names in byte order, one
// without a leading underscore if it has such a name.
func (b Builtin) String() string {
	// (exit, not _Exit; sscanf, not __isoc99_sscanf)
	best := ""
	for n, v := range builtinNames {
		if v != b {
			continue
		}
		if best == "" || (n[0] == '_') == (best[0] == '_') && n < best || best[0] == '_' && n[0] != '_' {
			best = n
		}
	}
	if best != "" {
		return best
	}
	switch b {
	case BNondet:
		return "__VERIFIER_nondet"
	}
	return "builtin?"
}
