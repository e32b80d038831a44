/* Safe (loop whose bound depends on the input): Euclid's gcd of two 8-bit
 * values divides both. For inputs below 256 the loop body runs at most 12
 * times (the worst pair is 144, 233: one swap, then 11 Fibonacci steps):
 * unwind 12 unrolls it completely. Exhaustive natively (65536 input pairs), with
 * the bound checked. */
#include <assert.h>
extern unsigned char __VERIFIER_nondet_uchar(void);

#ifndef BMC_HARNESS
#define UNWIND_DECL(v)
#define UNWIND_CHECK(v, k)
#endif

int main(void) {
  unsigned a = __VERIFIER_nondet_uchar();
  unsigned b = __VERIFIER_nondet_uchar();
  unsigned x = a, y = b;
  UNWIND_DECL(it)
  while (y != 0) {
    UNWIND_CHECK(it, 12);
    unsigned r = x % y;
    x = y;
    y = r;
  }
  if (x != 0)
    assert(a % x == 0 && b % x == 0);
  else
    assert(a == 0 && b == 0);
  return (int)x;
}
