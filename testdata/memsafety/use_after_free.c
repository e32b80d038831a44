// valid-memsafety: FALSE(valid-deref)
// valid-memcleanup: -
// A list node read after it is freed.
#include <stdlib.h>
struct node { struct node *next; int v; };
int main(void) {
  struct node *a = malloc(sizeof *a);
  a->next = 0;
  a->v = 1;
  free(a);
  return a->v;
}
