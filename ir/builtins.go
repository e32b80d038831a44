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
	"pthread_attr_init": BAttrInit, "pthread_attr_destroy": BAttrInit,
	"pthread_attr_setdetachstate": BAttrInit, "pthread_mutexattr_init": BAttrInit,
	"pthread_mutexattr_destroy": BAttrInit, "pthread_mutexattr_settype": BAttrInit,
	"pthread_condattr_init": BAttrInit, "pthread_condattr_destroy": BAttrInit,
	"__VERIFIER_assume": BAssume, "__VERIFIER_error": BVerifierError,
	"__VERIFIER_atomic_begin": BAtomicBegin, "__VERIFIER_atomic_end": BAtomicEnd,
	"reach_error": BReachError, "__assert_fail": BAssertFail, "abort": BAbort, "exit": BExit,
	"_exit":  BExit,
	"malloc": BMalloc, "calloc": BCalloc, "realloc": BRealloc, "free": BFree,
	"memcpy": BMemcpy, "memmove": BMemmove, "memset": BMemset, "memcmp": BMemcmp,
	"strlen": BStrlen, "strcmp": BStrcmp, "strncmp": BStrncmp, "strcpy": BStrcpy,
	"strncpy": BStrncpy, "strchr": BStrchr,
	"printf": BPrintf, "puts": BPuts, "putchar": BPutchar,
	"wyvern_coin": BCoin, "wyvern_uniform": BUniform,
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
	return BNone, false
}

// String returns the function's name (the smallest of its names).
func (b Builtin) String() string {
	best := ""
	for n, v := range builtinNames {
		if v == b && (best == "" || n < best) {
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
