// valid-memsafety: TRUE
// valid-memcleanup: TRUE
// A binary tree built and freed recursively.
#include <stdlib.h>
struct tree { struct tree *l, *r; };
static struct tree *build(int d) {
  if (d == 0)
    return 0;
  struct tree *t = malloc(sizeof *t);
  t->l = build(d - 1);
  t->r = build(d - 1);
  return t;
}
static void destroy(struct tree *t) {
  if (!t)
    return;
  destroy(t->l);
  destroy(t->r);
  free(t);
}
int main(void) {
  struct tree *t = build(3);
  destroy(t);
  return 0;
}
