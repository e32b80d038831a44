/* Bug (double free): two 2-node lists share their tail node when the flag
 * is set, and freeing both lists node by node frees it twice. */
#include <stdlib.h>
extern unsigned char __VERIFIER_nondet_uchar(void);

#ifdef WITNESS
WITNESS_INPUTS(1)
#endif

struct node {
  int val;
  struct node *next;
};

static struct node *mk(int v, struct node *next) {
  struct node *n = malloc(sizeof *n);
  if (!n)
    exit(1);
  n->val = v;
  n->next = next;
  return n;
}

static void drop2(struct node *p) {
  struct node *n = p->next;
  free(p);
  free(n);
}

int main(void) {
  struct node *tail = mk(9, 0);
  struct node *a = mk(1, tail);
  struct node *b = mk(2, __VERIFIER_nondet_uchar() ? tail : mk(9, 0)); /* BUG: shared */
  drop2(a);
  drop2(b);
  return 0;
}
