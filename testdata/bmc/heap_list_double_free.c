/* Bug (double free in a malloc'd list, ownership confusion): remove_val()
 * unlinks and frees the node holding the key but returns its (now dangling)
 * address as "the removed node", and the caller frees it again. Keys 0..2 are
 * in the list, 3 is not; the build loop runs 3 times, the search at most 3
 * (unwind 3). */
#include <stdlib.h>
extern unsigned char __VERIFIER_nondet_uchar(void);

#ifdef WITNESS
WITNESS_INPUTS(1)
#endif

struct node {
  int val;
  struct node *next;
};

static struct node *remove_val(struct node **head, int key) {
  for (struct node **pp = head; *pp; pp = &(*pp)->next) {
    struct node *p = *pp;
    if (p->val == key) {
      *pp = p->next;
      free(p);
      return p; /* BUG: the caller takes this as a node it owns */
    }
  }
  return 0;
}

int main(void) {
  struct node *head = 0;
  for (int i = 0; i < 3; i++) {
    struct node *n = malloc(sizeof *n);
    if (!n)
      return 1;
    n->val = i;
    n->next = head;
    head = n;
  }
  struct node *removed = remove_val(&head, __VERIFIER_nondet_uchar() % 4);
  if (removed)
    free(removed);
  return 0;
}
