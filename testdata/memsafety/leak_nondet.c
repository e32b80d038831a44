// valid-memsafety: FALSE(valid-memtrack)
// valid-memcleanup: FALSE(valid-memcleanup)
// The block is freed on one branch only.
#include <stdlib.h>
extern _Bool __VERIFIER_nondet_bool(void);
int main(void) {
  int *p = malloc(sizeof(int));
  *p = 0;
  if (__VERIFIER_nondet_bool())
    free(p);
  return 0;
}
