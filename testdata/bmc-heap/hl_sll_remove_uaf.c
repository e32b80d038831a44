/* Bug (use after free): the node holding a nondet key is unlinked and freed,
 * but the caller's cursor still points to it and reads its next field. */
#include <stdlib.h>
extern unsigned char __VERIFIER_nondet_uchar(void);

#ifdef WITNESS
WITNESS_INPUTS(1)
#endif

struct node {
  int val;
  struct node *next;
};

int main(void) {
  struct node *head = 0;
  for (int i = 2; i >= 0; i--) {
    struct node *e = malloc(sizeof *e);
    if (!e)
      return 1;
    e->val = i;
    e->next = head;
    head = e;
  }
  int key = __VERIFIER_nondet_uchar() % 3;
  struct node *cur = head->next; /* the middle node */
  struct node **pp = &head;
  while ((*pp)->val != key)
    pp = &(*pp)->next;
  struct node *dead = *pp;
  *pp = dead->next;
  free(dead);
  return cur->next != 0; /* BUG when key == 1: cur was freed */
}
