/* Safe (sorted insertion): three nondet keys are inserted in order into a
 * singly linked list through a pointer to the link; the list is sorted and
 * holds three nodes. Loops run at most 3 times: unwind 3. Exhaustive
 * natively over keys restricted to 0..3. */
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
  struct node *head = 0;
  UNWIND_DECL(b)
  for (int i = 0; i < 3; i++) {
    int k = __VERIFIER_nondet_uchar();
    __VERIFIER_assume(k < 4);
    struct node **pp = &head;
    UNWIND_DECL(a)
    while (*pp && (*pp)->val < k) {
      UNWIND_CHECK(a, 3);
      pp = &(*pp)->next;
    }
    struct node *e = malloc(sizeof *e);
    if (!e)
      return 1;
    e->val = k;
    e->next = *pp;
    *pp = e;
  }
  int count = 0;
  for (struct node *p = head; p; p = p->next) {
    UNWIND_CHECK(b, 3);
    assert(!p->next || p->val <= p->next->val);
    count++;
  }
  assert(count == 3);
  return 0;
}
