// valid-memsafety: TRUE
// valid-memcleanup: TRUE
// A block allocated before another is freed never gets its address: the
// comparison is false, the block is freed once.
#include <stdlib.h>
int main(void) {
  int *p = malloc(sizeof(int));
  int *q = malloc(sizeof(int));
  free(p);
  if (p == q)
    free(q);
  free(q);
  return 0;
}
