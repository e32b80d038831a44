/* Safe (malloc'd list): build a list of n <= 4 nodes, reverse it in place,
 * check the order and the sum, free every node exactly once (saving next
 * before free). Every loop runs at most 4 times: unwind 4 unrolls them all.
 * Exhaustive natively over the 8-bit n, with the loop bounds checked. */
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
  __VERIFIER_assume(n <= 4);
  struct node *head = 0;
  UNWIND_DECL(i1)
  UNWIND_DECL(i2)
  UNWIND_DECL(i3)
  UNWIND_DECL(i4)
  for (int i = 0; i < n; i++) {
    UNWIND_CHECK(i1, 4);
    struct node *e = malloc(sizeof *e);
    if (!e)
      return 1;
    e->val = i;
    e->next = head;
    head = e;
  }
  struct node *rev = 0;
  while (head) {
    UNWIND_CHECK(i2, 4);
    struct node *next = head->next;
    head->next = rev;
    rev = head;
    head = next;
  }
  int sum = 0, expect = 0;
  for (struct node *p = rev; p; p = p->next) {
    UNWIND_CHECK(i3, 4);
    assert(p->val == expect);
    sum += p->val;
    expect++;
  }
  assert(sum == n * (n - 1) / 2);
  while (rev) {
    UNWIND_CHECK(i4, 4);
    struct node *next = rev->next;
    free(rev);
    rev = next;
  }
  return 0;
}
