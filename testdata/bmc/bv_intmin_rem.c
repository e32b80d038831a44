/* Bug (bitvector trap, INT_MIN % -1): the remainder is mathematically 0, but
 * LLVM's srem of INT_MIN by -1 is undefined (it traps on x86); the vm reports
 * Overflow. The divisor is any negative int, so one pair in 2^63. */
extern int __VERIFIER_nondet_int(void);
void __VERIFIER_assume(int cond);

#ifdef WITNESS
WITNESS_INPUTS(-2147483647 - 1, -1)
#endif

int main(void) {
  int a = __VERIFIER_nondet_int();
  int b = __VERIFIER_nondet_int();
  __VERIFIER_assume(b < 0);
  int r = a % b;
  return r == 0;
}
