/* Bug (signed overflow, abs of INT_MIN): negating a negative int overflows
 * for x == INT_MIN (`sub nsw 0, x`): the vm reports Overflow before the
 * assertion that |x| >= 0 can fail. One input in 2^32. */
#include <assert.h>
extern int __VERIFIER_nondet_int(void);

#ifdef WITNESS
WITNESS_INPUTS(-2147483647 - 1)
#endif

int main(void) {
  int x = __VERIFIER_nondet_int();
  if (x < 0)
    x = -x;
  assert(x >= 0);
  return 0;
}
