// valid-memsafety: TRUE
// valid-memcleanup: TRUE
// realloc moves the block; the new one is freed.
#include <stdlib.h>
int main(void) {
  int *p = malloc(2 * sizeof(int));
  p[1] = 3;
  p = realloc(p, 8 * sizeof(int));
  p[7] = p[1];
  free(p);
  return 0;
}
