// valid-memsafety: TRUE
// valid-memcleanup: FALSE(valid-memcleanup)
// _Exit ends the program without calling the exit handlers: the block the
// handler would free is still allocated (still pointed to by a global).
#include <stdlib.h>
extern _Bool __VERIFIER_nondet_bool(void);
int *g;
static void release(void) { free(g); }
int main(void) {
  g = malloc(sizeof *g);
  atexit(release);
  if (__VERIFIER_nondet_bool())
    _Exit(1);
  return 0;
}
