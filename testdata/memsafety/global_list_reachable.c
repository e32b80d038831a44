// valid-memsafety: TRUE
// valid-memcleanup: FALSE(valid-memcleanup)
// A global list is still reachable when main returns.
#include <stdlib.h>
struct node { struct node *next; int v; };
struct node *list;
int main(void) {
  for (int i = 0; i < 3; i++) {
    struct node *n = malloc(sizeof *n);
    n->v = i;
    n->next = list;
    list = n;
  }
  return 0;
}
