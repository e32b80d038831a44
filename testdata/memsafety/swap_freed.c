// valid-memsafety: TRUE
// valid-memcleanup: TRUE
// Two blocks swapped through a temporary, both freed.
#include <stdlib.h>
int main(void) {
  int *a = malloc(sizeof(int)), *b = malloc(sizeof(int));
  int *t = a;
  a = b;
  b = t;
  free(a);
  free(b);
  return 0;
}
