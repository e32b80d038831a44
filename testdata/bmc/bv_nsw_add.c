/* Bug (signed overflow under nsw): a positive a plus any b overflows when
 * b > INT_MAX - a; `a + b` is `add nsw` at -O0, so the vm reports Overflow.
 * About one random input in four does it. */
extern int __VERIFIER_nondet_int(void);
void __VERIFIER_assume(int cond);

#ifdef WITNESS
WITNESS_INPUTS(2147483000, 1000)
#endif

int main(void) {
  int a = __VERIFIER_nondet_int();
  int b = __VERIFIER_nondet_int();
  __VERIFIER_assume(a > 0);
  int c = a + b;
  return c > 0;
}
