// valid-memsafety: TRUE
// valid-memcleanup: FALSE(valid-memcleanup)
// A global still points to the block at exit: tracked, not cleaned up.
#include <stdlib.h>
int *g;
int main(void) {
  g = malloc(sizeof(int));
  *g = 5;
  return 0;
}
