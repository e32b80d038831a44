/* Safe (pointer swap): two heap cells are swapped through pointers to
 * pointers, nondet-many times (at most 3); the values follow the parity.
 * Loops run at most 3 times: unwind 3. Exhaustive natively. */
#include <assert.h>
#include <stdlib.h>
extern unsigned char __VERIFIER_nondet_uchar(void);
void __VERIFIER_assume(int cond);

#ifndef BMC_HARNESS
#define UNWIND_DECL(v)
#define UNWIND_CHECK(v, k)
#endif

static void swap(int **a, int **b) {
  int *t = *a;
  *a = *b;
  *b = t;
}

int main(void) {
  int *x = malloc(sizeof *x), *y = malloc(sizeof *y);
  if (!x || !y)
    return 1;
  *x = 1;
  *y = 2;
  unsigned char n = __VERIFIER_nondet_uchar();
  __VERIFIER_assume(n <= 3);
  UNWIND_DECL(a)
  for (int i = 0; i < n; i++) {
    UNWIND_CHECK(a, 3);
    swap(&x, &y);
  }
  assert(*x == (n % 2 ? 2 : 1) && *y == 3 - *x);
  free(x);
  free(y);
  return 0;
}
