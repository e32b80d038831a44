/* Bug (heap out of bounds, needs unwind 2): a[n] is written after a loop over
 * a malloc'd array of n ints, 1 <= n <= 8, with `i <= n`. The smallest n, 1,
 * writes a[1] in the 2nd execution of the loop body: satisfied at unwind 2,
 * incomplete at unwind 1 (the loop can run again). */
#include <stdlib.h>
extern unsigned char __VERIFIER_nondet_uchar(void);
void __VERIFIER_assume(int cond);

#ifdef WITNESS
WITNESS_INPUTS(1)
#endif

int main(void) {
  unsigned char n = __VERIFIER_nondet_uchar();
  __VERIFIER_assume(n >= 1 && n <= 8);
  int *a = malloc(n * sizeof(int));
  if (!a)
    return 1;
  for (int i = 0; i <= n; i++)
    a[i] = i;
  free(a);
  return 0;
}
