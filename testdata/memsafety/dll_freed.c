// valid-memsafety: TRUE
// valid-memcleanup: TRUE
// A doubly linked list, unlinked from the middle and freed node by node.
#include <stdlib.h>
struct node { struct node *next, *prev; };
int main(void) {
  struct node *h = 0;
  for (int i = 0; i < 3; i++) {
    struct node *n = malloc(sizeof *n);
    n->prev = 0;
    n->next = h;
    if (h)
      h->prev = n;
    h = n;
  }
  struct node *m = h->next;
  m->prev->next = m->next;
  m->next->prev = m->prev;
  free(m);
  while (h) {
    struct node *n = h->next;
    free(h);
    h = n;
  }
  return 0;
}
