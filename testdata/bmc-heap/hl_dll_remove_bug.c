/* Bug (doubly linked list): removing a node relinks next but forgets the
 * successor's prev: after removing the middle node, c->prev still points to
 * the freed b, and following it is a use after free. */
#include <stdlib.h>
extern unsigned char __VERIFIER_nondet_uchar(void);

#ifdef WITNESS
WITNESS_INPUTS(1)
#endif

struct node {
  int val;
  struct node *prev, *next;
};

static struct node *mk(int v) {
  struct node *n = malloc(sizeof *n);
  if (!n)
    exit(1);
  n->val = v;
  n->prev = n->next = 0;
  return n;
}

int main(void) {
  struct node *a = mk(0), *b = mk(1), *c = mk(2);
  a->next = b; b->prev = a; b->next = c; c->prev = b;
  unsigned char k = __VERIFIER_nondet_uchar() % 3;
  struct node *x = k == 0 ? a : k == 1 ? b : c;
  if (x->prev)
    x->prev->next = x->next; /* BUG: x->next->prev is not updated */
  free(x);
  if (k != 2)
    return c->prev->val; /* k == 1: c->prev is the freed b */
  return 0;
}
