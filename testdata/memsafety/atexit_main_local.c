// valid-memsafety: FALSE(valid-memtrack)
// valid-memcleanup: FALSE(valid-memcleanup)
// The exit handlers run after main has returned, as the C runtime calls
// them: a block only a local of main pointed to is lost at main's return,
// although a handler is still to run.
#include <stdlib.h>
int *g;
static void release(void) { free(g); }
int main(void) {
  int *p = malloc(sizeof *p);
  g = malloc(sizeof *g);
  atexit(release);
  *p = 1;
  return *p - 1;
}
