// valid-memsafety: TRUE
// valid-memcleanup: TRUE
// A block chosen by a conditional expression (a phi at -O0) in a loop,
// tested with &&, and freed.
#include <stdlib.h>
extern _Bool __VERIFIER_nondet_bool(void);
struct node { struct node *next; };
int main(void) {
  for (int i = 0; i < 2; i++) {
    struct node *a = malloc(sizeof *a);
    a->next = __VERIFIER_nondet_bool() ? malloc(sizeof *a) : 0;
    if (a && a->next)
      free(a->next);
    free(a);
  }
  return 0;
}
