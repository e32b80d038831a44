/* Bug (aliasing): an xor swap through two pointers zeroes the value when
 * both point to the same heap cell, which a nondet choice makes happen. */
#include <assert.h>
#include <stdlib.h>
extern unsigned char __VERIFIER_nondet_uchar(void);

#ifdef WITNESS
WITNESS_INPUTS(1)
#endif

static void xswap(int *a, int *b) {
  *a ^= *b;
  *b ^= *a;
  *a ^= *b;
}

int main(void) {
  int *x = malloc(sizeof *x), *y = malloc(sizeof *y);
  if (!x || !y)
    return 1;
  *x = 3;
  *y = 4;
  int *p = __VERIFIER_nondet_uchar() ? x : y;
  xswap(x, p);
  assert(*x != 0); /* BUG: p == x zeroes *x */
  free(x);
  free(y);
  return 0;
}
