// A signed bound admits every negative value: explicit search must still
// refuse the 2^32-valued input (issue #30).
#include <pthread.h>

extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
extern void __VERIFIER_error(void);

int main(void) {
	int v = __VERIFIER_nondet_int();
	__VERIFIER_assume(v < 4);
	if (v == -7)
		__VERIFIER_error();
	return 0;
}
