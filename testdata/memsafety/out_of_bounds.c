// valid-memsafety: FALSE(valid-deref)
// valid-memcleanup: -
// One element past the end of a heap array.
#include <stdlib.h>
int main(void) {
  int *p = malloc(4 * sizeof(int));
  for (int i = 0; i <= 4; i++)
    p[i] = i;
  free(p);
  return 0;
}
