// valid-memsafety: FALSE(valid-memtrack)
// valid-memcleanup: FALSE(valid-memcleanup)
// The middle node of a global list is unlinked without being freed.
#include <stdlib.h>
struct node { struct node *next; int v; };
struct node *head;
int main(void) {
  for (int i = 0; i < 3; i++) {
    struct node *n = malloc(sizeof *n);
    n->v = i;
    n->next = head;
    head = n;
  }
  head->next = head->next->next;
  while (head) {
    struct node *n = head->next;
    free(head);
    head = n;
  }
  return 0;
}
