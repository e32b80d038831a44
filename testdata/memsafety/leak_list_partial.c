// valid-memsafety: FALSE(valid-memtrack)
// valid-memcleanup: FALSE(valid-memcleanup)
// The freeing loop stops one node early.
#include <stdlib.h>
struct node { struct node *next; };
int main(void) {
  struct node *h = 0;
  for (int i = 0; i < 3; i++) {
    struct node *n = malloc(sizeof *n);
    n->next = h;
    h = n;
  }
  while (h->next) {
    struct node *n = h->next;
    free(h);
    h = n;
  }
  return 0;
}
