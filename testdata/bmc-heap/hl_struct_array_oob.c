/* Bug (out of bounds): an array of 4 structs on the heap is indexed by a
 * nondet value checked with <= instead of <: index 4 writes past the end. */
#include <stdlib.h>
extern unsigned char __VERIFIER_nondet_uchar(void);

#ifdef WITNESS
WITNESS_INPUTS(4)
#endif

struct point {
  int x, y;
};

int main(void) {
  struct point *ps = calloc(4, sizeof *ps);
  if (!ps)
    return 1;
  unsigned char i = __VERIFIER_nondet_uchar();
  if (i <= 4) /* BUG: should be i < 4 */
    ps[i].y = 1;
  free(ps);
  return 0;
}
