// valid-memsafety: FALSE(valid-memtrack)
// valid-memcleanup: FALSE(valid-memcleanup)
// Only a local of main points to the block when main returns.
#include <stdlib.h>
int main(void) {
  int *p = malloc(4 * sizeof(int));
  p[3] = 7;
  return 0;
}
