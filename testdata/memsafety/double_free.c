// valid-memsafety: FALSE(valid-free)
// valid-memcleanup: -
// A node freed twice on one branch.
#include <stdlib.h>
extern _Bool __VERIFIER_nondet_bool(void);
int main(void) {
  int *p = malloc(sizeof(int));
  free(p);
  if (__VERIFIER_nondet_bool())
    free(p);
  return 0;
}
