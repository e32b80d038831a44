/* Safe (array bounds, bounded loop): binary search with lo + (hi - lo) / 2
 * over a sorted 8-element array; mid stays in [0, 7] and the loop body runs
 * at most 4 times (log2 8 + 1), so unwind 4 unrolls it completely. If the key
 * is found, it is at the returned index. Exhaustive natively (8-bit key), with
 * the iteration bound checked. */
#include <assert.h>
extern char __VERIFIER_nondet_char(void);

#ifndef BMC_HARNESS
#define UNWIND_DECL(v)
#define UNWIND_CHECK(v, k)
#endif

int main(void) {
  static const int a[8] = {-50, -3, 0, 4, 9, 27, 64, 100};
  int key = __VERIFIER_nondet_char();
  int lo = 0, hi = 7, found = -1;
  UNWIND_DECL(it)
  while (lo <= hi) {
    UNWIND_CHECK(it, 4);
    int mid = lo + (hi - lo) / 2;
    if (a[mid] == key) {
      found = mid;
      break;
    }
    if (a[mid] < key)
      lo = mid + 1;
    else
      hi = mid - 1;
  }
  if (found >= 0)
    assert(a[found] == key);
  return found;
}
