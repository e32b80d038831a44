/* Bug (bitvector trap, INT_MIN / -1): the divisor is checked against zero,
 * but INT_MIN / -1 = 2^31 does not fit in an int (sdiv overflow: Overflow in
 * the vm, SIGFPE on x86). One input pair in 2^64. */
extern int __VERIFIER_nondet_int(void);
void __VERIFIER_assume(int cond);

#ifdef WITNESS
WITNESS_INPUTS(-2147483647 - 1, -1)
#endif

int main(void) {
  int a = __VERIFIER_nondet_int();
  int b = __VERIFIER_nondet_int();
  if (b == 0)
    return 0;
  int q = a / b;
  return q & 1;
}
