/* Safe (signed arithmetic): lo + (hi - lo) / 2 cannot overflow when
 * 0 <= lo <= hi (hi - lo is in [0, INT_MAX]), and the midpoint lies between
 * lo and hi. Wide inputs: the native check only samples edge values. */
#include <assert.h>
extern int __VERIFIER_nondet_int(void);
void __VERIFIER_assume(int cond);

int main(void) {
  int lo = __VERIFIER_nondet_int();
  int hi = __VERIFIER_nondet_int();
  __VERIFIER_assume(0 <= lo && lo <= hi);
  int mid = lo + (hi - lo) / 2;
  assert(lo <= mid && mid <= hi);
  return 0;
}
