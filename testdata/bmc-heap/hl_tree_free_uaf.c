/* Bug (use after free): a tree is freed parent first, and the child
 * pointers are read from the freed parent afterwards. */
#include <stdlib.h>

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

static void drop(struct tree *t) {
  if (!t)
    return;
  free(t);
  drop(t->l); /* BUG: t was freed */
  drop(t->r);
}

int main(void) {
  drop(mk(2, mk(1, 0, 0), mk(3, 0, 0)));
  return 0;
}
