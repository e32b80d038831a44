/* Safe (doubly linked list): three nodes a <-> b <-> c; a nondet one is
 * removed with both neighbours relinked, and the links are checked both
 * ways. No loops: unwind 1. Exhaustive natively over the 8-bit choice. */
#include <assert.h>
#include <stdlib.h>
extern unsigned char __VERIFIER_nondet_uchar(void);

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
  struct node *head = a;
  unsigned char k = __VERIFIER_nondet_uchar() % 3;
  struct node *x = k == 0 ? a : k == 1 ? b : c;
  if (x->prev)
    x->prev->next = x->next;
  else
    head = x->next;
  if (x->next)
    x->next->prev = x->prev;
  free(x);
  struct node *first = head, *second = head->next;
  assert(first->prev == 0 && second->prev == first && second->next == 0);
  assert(first->val + second->val == 3 - k);
  free(first);
  free(second);
  return 0;
}
