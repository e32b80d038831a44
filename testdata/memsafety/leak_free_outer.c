// valid-memsafety: FALSE(valid-memtrack)
// valid-memcleanup: TRUE
// Freeing a struct loses the block its field points to. The program never
// terminates: valid-memcleanup, checked at termination, holds.
#include <stdlib.h>
struct s { int *in; };
static void mk(struct s **o) {
  *o = malloc(sizeof(struct s));
  (*o)->in = malloc(sizeof(int));
}
int main(void) {
  struct s *o;
  mk(&o);
  free(o);
  for (;;) {
  }
}
