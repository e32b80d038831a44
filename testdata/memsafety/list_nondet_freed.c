// valid-memsafety: TRUE
// valid-memcleanup: TRUE
// A list of nondeterministic length (up to 3) freed completely.
#include <stdlib.h>
extern _Bool __VERIFIER_nondet_bool(void);
struct node { struct node *next; };
int main(void) {
  struct node *h = 0;
  for (int i = 0; i < 3 && __VERIFIER_nondet_bool(); i++) {
    struct node *n = malloc(sizeof *n);
    n->next = h;
    h = n;
  }
  while (h) {
    struct node *n = h->next;
    free(h);
    h = n;
  }
  return 0;
}
