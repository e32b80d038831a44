/* Bug (invalid free): on one branch the pointer is the address of a local
 * variable, not a malloc'd block, and it is freed anyway. */
#include <stdlib.h>
extern _Bool __VERIFIER_nondet_bool(void);

#ifdef WITNESS
WITNESS_INPUTS(0)
#endif

int main(void) {
  int local = 3;
  int *p;
  if (__VERIFIER_nondet_bool())
    p = malloc(sizeof *p);
  else
    p = &local;
  if (!p)
    return 1;
  *p = 4;
  free(p);
  return 0;
}
