/* Bug (binary search tree): the search goes right for smaller keys, so the
 * key in the left subtree is not found and reach_error is called. The tree
 * is 2 with children 1 and 3; key 1 is lost. */
#include <stdlib.h>
extern unsigned char __VERIFIER_nondet_uchar(void);
void reach_error(void);

#ifdef WITNESS
WITNESS_INPUTS(1)
#endif

struct tree {
  int key;
  struct tree *l, *r;
};

static struct tree *mk(int key, struct tree *l, struct tree *r) {
  struct tree *n = malloc(sizeof *n);
  if (!n)
    exit(1);
  n->key = key;
  n->l = l;
  n->r = r;
  return n;
}

int main(void) {
  struct tree *root = mk(2, mk(1, 0, 0), mk(3, 0, 0));
  int key = __VERIFIER_nondet_uchar();
  if (key < 1 || key > 3)
    return 0;
  struct tree *t = root;
  while (t && t->key != key)
    t = key > t->key ? t->l : t->r; /* BUG: directions swapped */
  if (!t)
    reach_error();
  return 0;
}
