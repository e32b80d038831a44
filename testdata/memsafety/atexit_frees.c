// valid-memsafety: TRUE
// valid-memcleanup: TRUE
// An exit handler frees the global list before the program ends, on both
// ways out: exit() from a callee and the return from main.
#include <stdlib.h>
extern _Bool __VERIFIER_nondet_bool(void);
struct node { struct node *next; };
struct node *head;
static void release(void) {
  while (head) {
    struct node *n = head->next;
    free(head);
    head = n;
  }
}
static void push(void) {
  struct node *n = malloc(sizeof *n);
  if (!n) exit(1);
  n->next = head;
  head = n;
  if (__VERIFIER_nondet_bool()) exit(2);
}
int main(void) {
  atexit(release);
  push();
  push();
  return 0;
}
