/* Safe (append at the tail): n <= 3 nodes appended through a pointer to the
 * last next field, then counted and freed (next saved before free). Loops
 * run at most 3 times: unwind 3. Exhaustive natively over the 8-bit n. */
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
  struct node *head = 0, **tail = &head;
  UNWIND_DECL(a)
  UNWIND_DECL(b)
  UNWIND_DECL(c)
  for (int i = 0; i < n; i++) {
    UNWIND_CHECK(a, 3);
    struct node *e = malloc(sizeof *e);
    if (!e)
      return 1;
    e->val = i;
    e->next = 0;
    *tail = e;
    tail = &e->next;
  }
  int count = 0;
  for (struct node *p = head; p; p = p->next) {
    UNWIND_CHECK(b, 3);
    assert(p->val == count);
    count++;
  }
  assert(count == n);
  while (head) {
    UNWIND_CHECK(c, 3);
    struct node *next = head->next;
    free(head);
    head = next;
  }
  return 0;
}
