// valid-memsafety: TRUE
// valid-memcleanup: TRUE
// Only a pointer into the middle of the block is kept for a while.
#include <stdlib.h>
static char *mid;
static void keep(void) {
  char *p = malloc(32);
  mid = p + 16;
}
int main(void) {
  keep();
  mid[0] = 1;
  free(mid - 16);
  return 0;
}
