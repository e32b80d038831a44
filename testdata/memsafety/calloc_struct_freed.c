// valid-memsafety: TRUE
// valid-memcleanup: TRUE
// A struct from calloc holding a second block; both freed.
#include <stdlib.h>
struct s { int n; char *data; };
int main(void) {
  struct s *s = calloc(1, sizeof *s);
  s->data = calloc(4, 1);
  s->n = 4;
  free(s->data);
  free(s);
  return 0;
}
