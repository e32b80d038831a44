// The input is copied to a global before the assumption bounds it, so a
// rejected value is observable: explicit search must still refuse the
// 2^32-valued input (issue #30).
extern unsigned int __VERIFIER_nondet_uint(void);
extern void __VERIFIER_assume(int);
extern void __VERIFIER_error(void);

unsigned int last;

int main(void) {
	unsigned int v = __VERIFIER_nondet_uint();
	last = v;
	__VERIFIER_assume(v < 4);
	if (last == 3)
		__VERIFIER_error();
	return 0;
}
