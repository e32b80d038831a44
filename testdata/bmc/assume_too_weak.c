/* Bug (assume off by one): __VERIFIER_assume(i <= 8) admits i == 8, one past
 * the end of a[8]. The assume admits 9 of 2^32 values, so random simulation
 * practically never gets past it (a failed assume ends the run). */
extern unsigned int __VERIFIER_nondet_uint(void);
void __VERIFIER_assume(int cond);

#ifdef WITNESS
WITNESS_INPUTS(8)
#endif

int main(void) {
  int a[8] = {0};
  unsigned i = __VERIFIER_nondet_uint();
  __VERIFIER_assume(i <= 8u);
  a[i] = 1;
  return 0;
}
