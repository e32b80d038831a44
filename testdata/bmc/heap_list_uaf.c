/* Bug (use after free in a malloc'd list): the list is freed with
 * `for (p = head; p; p = p->next) free(p)`, which reads p->next after freeing
 * p. The list has 3 nodes (loops run 3 times: unwind 3). Every run hits it. */
#include <stdlib.h>

struct node {
  int val;
  struct node *next;
};

int main(void) {
  struct node *head = 0;
  for (int i = 0; i < 3; i++) {
    struct node *n = malloc(sizeof *n);
    n->val = i;
    n->next = head;
    head = n;
  }
  for (struct node *p = head; p; p = p->next)
    free(p);
  return 0;
}
