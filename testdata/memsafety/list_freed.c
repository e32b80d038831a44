// valid-memsafety: TRUE
// valid-memcleanup: TRUE
// A singly linked list built and freed completely.
#include <stdlib.h>
struct node { struct node *next; int v; };
int main(void) {
  struct node *h = 0;
  for (int i = 0; i < 4; i++) {
    struct node *n = malloc(sizeof *n);
    n->v = i;
    n->next = h;
    h = n;
  }
  while (h) {
    struct node *n = h->next;
    free(h);
    h = n;
  }
  return 0;
}
