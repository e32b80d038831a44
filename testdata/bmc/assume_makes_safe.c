/* Safe only because of the assume: the index is a nondet 32-bit value, and
 * __VERIFIER_assume(i < 8) removes every run where it would be out of bounds
 * of a[8]. Without the assume it is the bug of assume_too_weak.c. */
extern unsigned int __VERIFIER_nondet_uint(void);
void __VERIFIER_assume(int cond);

#ifdef EXHAUSTIVE
EXHAUSTIVE_DOMAIN(0, 1000) /* covers [0, 7], all the assume admits */
#endif

int main(void) {
  int a[8] = {0};
  unsigned i = __VERIFIER_nondet_uint();
  __VERIFIER_assume(i < 8u);
  a[i] = 1;
  return a[7 - i];
}
