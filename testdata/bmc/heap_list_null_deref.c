/* Bug (null dereference after a wrong condition): find() returns NULL when the
 * key is absent, and the caller tests `n != NULL || key > 0`, so a positive
 * absent key dereferences NULL. Keys 1..2 are present, 3.. are not. */
#include <stdlib.h>
extern unsigned char __VERIFIER_nondet_uchar(void);

#ifdef WITNESS
WITNESS_INPUTS(7)
#endif

struct node {
  int val;
  struct node *next;
};

static struct node *find(struct node *p, int key) {
  for (; p; p = p->next)
    if (p->val == key)
      return p;
  return 0;
}

int main(void) {
  struct node *head = 0;
  for (int i = 0; i < 3; i++) {
    struct node *n = malloc(sizeof *n);
    n->val = i;
    n->next = head;
    head = n;
  }
  int key = __VERIFIER_nondet_uchar();
  struct node *n = find(head, key);
  if (n != 0 || key > 0)
    n->val = -1;
  return 0;
}
