/* Safe (constant-bound nested loops): bubble sort of 5 values drawn from
 * [0, 3], then every adjacent pair is ordered. Fill loop 5 iterations, outer 4, inner
 * at most 4, check loop 4: unwind 5 unrolls everything. Exhaustive natively
 * (4^5 inputs), with the bounds checked. */
#include <assert.h>
int wyvern_uniform(int lo, int hi);

#ifndef BMC_HARNESS
#define UNWIND_DECL(v)
#define UNWIND_CHECK(v, k)
#endif

int main(void) {
  int a[5];
  for (int i = 0; i < 5; i++)
    a[i] = wyvern_uniform(0, 3);
  UNWIND_DECL(outer)
  for (int i = 0; i < 4; i++) {
    UNWIND_CHECK(outer, 4);
    UNWIND_DECL(inner)
    for (int j = 0; j < 4 - i; j++) {
      UNWIND_CHECK(inner, 4);
      if (a[j] > a[j + 1]) {
        int t = a[j];
        a[j] = a[j + 1];
        a[j + 1] = t;
      }
    }
  }
  for (int i = 0; i < 4; i++)
    assert(a[i] <= a[i + 1]);
  return a[0];
}
