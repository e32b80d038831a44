#include "textflag.h"

// func prefetch(p uintptr)
TEXT ·prefetch(SB), NOSPLIT|NOFRAME, $0-8
	MOVQ p+0(FP), AX
	PREFETCHT0 (AX)
	RET

// func prefetchRange(p, n uintptr)
TEXT ·prefetchRange(SB), NOSPLIT|NOFRAME, $0-16
	MOVQ p+0(FP), AX
	MOVQ n+8(FP), BX
	TESTQ BX, BX
	JZ done
	LEAQ -1(AX)(BX*1), BX
	ANDQ $~63, AX
loop:
	PREFETCHT0 (AX)
	ADDQ $64, AX
	CMPQ AX, BX
	JLS loop
done:
	RET
