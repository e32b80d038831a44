/* Bug (null dereference): a 3-node list is searched for a nondet key; the
 * loop stops at the key or the end, and the result is dereferenced without
 * a check: an absent key (3..255) reads p->val through null. */
#include <stdlib.h>
extern unsigned char __VERIFIER_nondet_uchar(void);

#ifdef WITNESS
WITNESS_INPUTS(7)
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
  int key = __VERIFIER_nondet_uchar();
  struct node *p = head;
  while (p && p->val != key)
    p = p->next;
  return p->val; /* BUG: p is null when key is absent */
}
