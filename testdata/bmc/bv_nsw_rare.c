/* Bug (signed overflow under nsw, rare): x + 1000 overflows only for the 1000
 * inputs x > INT_MAX - 1000, i.e. with probability 2.3e-7 per random run. */
extern int __VERIFIER_nondet_int(void);

#ifdef WITNESS
WITNESS_INPUTS(2147483000)
#endif

int main(void) {
  int x = __VERIFIER_nondet_int();
  int y = 0;
  if (x > 2147482000)
    y = x + 1000;
  return y != 0;
}
