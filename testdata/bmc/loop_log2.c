/* Bug (needs unwind 6): counting the bits of x < 64 by shifting right; c == 6
 * needs x in [32, 63], i.e. 6 executions of the loop body. At unwind 5 the
 * loop is not fully unrolled for those inputs: incomplete. The assume admits 64
 * of 2^32 values, so random simulation practically never gets past it. */
extern unsigned int __VERIFIER_nondet_uint(void);
void __VERIFIER_assume(int cond);
void reach_error(void);

#ifdef WITNESS
WITNESS_INPUTS(40)
#endif

int main(void) {
  unsigned x = __VERIFIER_nondet_uint();
  __VERIFIER_assume(x < 64u);
  int c = 0;
  while (x != 0) {
    x >>= 1;
    c++;
  }
  if (c == 6)
    reach_error();
  return 0;
}
