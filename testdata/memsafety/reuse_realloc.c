// valid-memsafety: FALSE(valid-free)
// valid-memcleanup: -
// realloc may grow a block in place: the old pointer may equal the new
// one, and freeing both is a double free.
#include <stdlib.h>
int main(void) {
  int *p = malloc(sizeof(int));
  int *q = realloc(p, 2 * sizeof(int));
  if (q == p)
    free(p);
  free(q);
  return 0;
}
