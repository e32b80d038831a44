/* Safe (k-induction; the loop runs n <= 10^6 times, n an input): counting n
 * down to 0 with a second counter up, the exit sees n == 0 and the guard's
 * range keeps the count below the bound. Sampled natively (edge values of n
 * that pass the assume). */
extern unsigned __VERIFIER_nondet_uint(void);
extern void __VERIFIER_assume(int);
void reach_error(void);

int main(void) {
  unsigned n = __VERIFIER_nondet_uint();
  __VERIFIER_assume(n <= 1000000u);
  while (n > 0) {
    n--;
    if (n >= 1000000u)
      reach_error();
  }
  if (n != 0)
    reach_error();
  return 0;
}
