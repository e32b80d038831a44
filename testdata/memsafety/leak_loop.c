// valid-memsafety: FALSE(valid-memtrack)
// valid-memcleanup: FALSE(valid-memcleanup)
// Each turn of the loop drops the block of the turn before.
#include <stdlib.h>
int main(void) {
  char *p = 0;
  for (int i = 0; i < 3; i++) {
    p = malloc(8);
    p[0] = (char)i;
  }
  free(p);
  return 0;
}
