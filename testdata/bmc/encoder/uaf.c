// A malloc'd buffer read after free on one branch.
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int *p = malloc(4 * sizeof(int));
  if (!p)
    return 1;
  p[0] = 1;
  p[3] = 4;
  free(p);
  if (__VERIFIER_nondet_int() == 42)
    return p[3];
  return 0;
}
