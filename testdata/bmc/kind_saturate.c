/* Safe (k-induction; 10^6 iterations with an input before the loop): a
 * counter that wraps to 0 above 10 never exceeds 10, whatever the input
 * step (clamped to 1..3). Exhaustive natively over the step's domain. */
extern unsigned char __VERIFIER_nondet_uchar(void);
extern void __VERIFIER_assume(int);
void reach_error(void);

#ifndef BMC_HARNESS
#define EXHAUSTIVE_DOMAIN(lo, hi)
#endif
EXHAUSTIVE_DOMAIN(0, 255)

int main(void) {
  unsigned step = __VERIFIER_nondet_uchar();
  __VERIFIER_assume(step >= 1 && step <= 3);
  unsigned x = 0;
  for (unsigned t = 0; t < 1000000u; t++) {
    if (x + step <= 10)
      x += step;
    else
      x = 0;
    if (x > 10)
      reach_error();
  }
  return 0;
}
