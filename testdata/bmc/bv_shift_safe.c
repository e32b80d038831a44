/* Safe (shifts): every shift amount is masked or reduced below 32, so no
 * shift reaches the width; the assertion holds because 1 << s has exactly one
 * bit set. The input is 8-bit: the native check is exhaustive. */
#include <assert.h>
extern unsigned char __VERIFIER_nondet_uchar(void);

int main(void) {
  unsigned char s = __VERIFIER_nondet_uchar();
  unsigned a = 1u << (s & 31u);
  unsigned b = 0x80000000u >> (s % 32u);
  int c = (int)(a | 1u) >> (s & 15u);
  assert(a != 0 && (a & (a - 1u)) == 0);
  return (int)(b != 0) + c;
}
