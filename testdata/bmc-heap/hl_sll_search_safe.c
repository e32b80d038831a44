/* Safe (list search): the same 3-node list, searched for a nondet key, the
 * result checked before use; a found node holds the key. Loops run at most 3
 * times: unwind 3. Exhaustive natively over the 8-bit key. */
#include <assert.h>
#include <stdlib.h>
extern unsigned char __VERIFIER_nondet_uchar(void);

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
  UNWIND_DECL(a)
  UNWIND_DECL(b)
  for (int i = 2; i >= 0; i--) {
    UNWIND_CHECK(a, 3);
    struct node *e = malloc(sizeof *e);
    if (!e)
      return 1;
    e->val = i;
    e->next = head;
    head = e;
  }
  int key = __VERIFIER_nondet_uchar();
  struct node *p = head;
  while (p && p->val != key) {
    UNWIND_CHECK(b, 3);
    p = p->next;
  }
  if (p)
    assert(p->val == key && key < 3);
  else
    assert(key >= 3);
  return 0;
}
