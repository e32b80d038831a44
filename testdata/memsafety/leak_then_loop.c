// valid-memsafety: FALSE(valid-memtrack)
// valid-memcleanup: TRUE
// The only pointer is overwritten, then main loops forever: the leak is
// found although main never returns (valid-memcleanup, checked at
// termination, holds).
#include <stdlib.h>
int main(void) {
  int *p = malloc(sizeof(int));
  *p = 1;
  p = 0;
  while (1) {
  }
}
