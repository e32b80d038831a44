/* Safe (binary search tree): three nondet keys are inserted (duplicates
 * ignored) into a BST through a pointer to the link to change; each key is
 * then found. Loops run at most 3 times: unwind 3. Exhaustive natively over
 * the three keys restricted to 0..3 by assumes. */
#include <assert.h>
#include <stdlib.h>
extern unsigned char __VERIFIER_nondet_uchar(void);
void __VERIFIER_assume(int cond);

#ifndef BMC_HARNESS
#define UNWIND_DECL(v)
#define UNWIND_CHECK(v, k)
#endif

struct tree {
  int key;
  struct tree *l, *r;
};

static void insert(struct tree **t, int key) {
  UNWIND_DECL(a)
  while (*t && (*t)->key != key) {
    UNWIND_CHECK(a, 3);
    t = key < (*t)->key ? &(*t)->l : &(*t)->r;
  }
  if (*t)
    return;
  struct tree *n = malloc(sizeof *n);
  if (!n)
    exit(1);
  n->key = key;
  n->l = n->r = 0;
  *t = n;
}

static int find(struct tree *t, int key) {
  UNWIND_DECL(b)
  while (t) {
    UNWIND_CHECK(b, 3);
    if (t->key == key)
      return 1;
    t = key < t->key ? t->l : t->r;
  }
  return 0;
}

int main(void) {
  int k[3];
  struct tree *root = 0;
  for (int i = 0; i < 3; i++) {
    k[i] = __VERIFIER_nondet_uchar();
    __VERIFIER_assume(k[i] < 4);
    insert(&root, k[i]);
  }
  for (int i = 0; i < 3; i++)
    assert(find(root, k[i]));
  return 0;
}
