/* Safe (in-place reversal): a list of n <= 3 nodes with nondet values is
 * reversed twice; the values come back in the original order. Loops run at
 * most 3 times: unwind 3. Exhaustive natively over the 8-bit inputs (n and
 * one value, the others derived). */
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

static struct node *reverse(struct node *h) {
  struct node *r = 0;
  UNWIND_DECL(a)
  while (h) {
    UNWIND_CHECK(a, 3);
    struct node *n = h->next;
    h->next = r;
    r = h;
    h = n;
  }
  return r;
}

int main(void) {
  unsigned char n = __VERIFIER_nondet_uchar();
  __VERIFIER_assume(n <= 3);
  int v = __VERIFIER_nondet_uchar();
  struct node *head = 0;
  UNWIND_DECL(b)
  UNWIND_DECL(c)
  for (int i = 0; i < n; i++) {
    UNWIND_CHECK(b, 3);
    struct node *e = malloc(sizeof *e);
    if (!e)
      return 1;
    e->val = v + i;
    e->next = head;
    head = e;
  }
  head = reverse(reverse(head));
  int i = n;
  for (struct node *p = head; p; p = p->next) {
    UNWIND_CHECK(c, 3);
    i--;
    assert(p->val == v + i);
  }
  assert(i == 0);
  return 0;
}
