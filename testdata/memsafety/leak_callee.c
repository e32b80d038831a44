// valid-memsafety: FALSE(valid-memtrack)
// valid-memcleanup: TRUE
// A function allocates and returns without storing the block anywhere. The
// program never terminates: valid-memcleanup, checked at termination, holds.
#include <stdlib.h>
static int f(int x) {
  int *t = malloc(sizeof(int));
  *t = x * 2;
  return *t;
}
int main(void) {
  int r = f(3);
  while (r == 6) {
  }
  return r;
}
