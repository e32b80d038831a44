/* Safe (list with a sentinel): a heap sentinel heads a list of n <= 3
 * nodes; deleting the node after the sentinel n times empties it, each node
 * freed once. Loops run at most 3 times: unwind 3. Exhaustive natively. */
#include <assert.h>
#include <stdlib.h>
extern unsigned char __VERIFIER_nondet_uchar(void);
void __VERIFIER_assume(int cond);

#ifndef BMC_HARNESS
#define UNWIND_DECL(v)
#define UNWIND_CHECK(v, k)
#endif

struct node {
  int val;
  struct node *next;
};

int main(void) {
  unsigned char n = __VERIFIER_nondet_uchar();
  __VERIFIER_assume(n <= 3);
  struct node *s = malloc(sizeof *s);
  if (!s)
    return 1;
  s->next = 0;
  UNWIND_DECL(a)
  UNWIND_DECL(b)
  for (int i = 0; i < n; i++) {
    UNWIND_CHECK(a, 3);
    struct node *e = malloc(sizeof *e);
    if (!e)
      return 1;
    e->val = i;
    e->next = s->next;
    s->next = e;
  }
  for (int i = 0; i < n; i++) {
    UNWIND_CHECK(b, 3);
    struct node *d = s->next;
    assert(d != 0);
    s->next = d->next;
    free(d);
  }
  assert(s->next == 0);
  free(s);
  return 0;
}
