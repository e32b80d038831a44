// valid-memsafety: FALSE(valid-memtrack)
// valid-memcleanup: FALSE(valid-memcleanup)
// The only pointer to the first block is overwritten.
#include <stdlib.h>
int main(void) {
  int *p = malloc(sizeof(int));
  *p = 1;
  p = malloc(sizeof(int));
  *p = 2;
  free(p);
  return 0;
}
