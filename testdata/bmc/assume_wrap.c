/* Bug (assume over wrapping arithmetic): a + b == 10 with a, b > 0 looks like
 * it bounds a by 9, but unsigned addition wraps: a = 0xFFFFFFFF, b = 11. The
 * assume admits about 10 of 2^64 pairs over small values plus 2^32 wrapping
 * pairs, still 2^-32 of all: random simulation misses it. */
extern unsigned int __VERIFIER_nondet_uint(void);
void __VERIFIER_assume(int cond);
void reach_error(void);

#ifdef WITNESS
WITNESS_INPUTS(0xffffffffLL, 11)
#endif

int main(void) {
  unsigned a = __VERIFIER_nondet_uint();
  unsigned b = __VERIFIER_nondet_uint();
  __VERIFIER_assume(a > 0 && b > 0 && a + b == 10u);
  if (a > 9u)
    reach_error();
  return 0;
}
