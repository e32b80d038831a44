// valid-memsafety: FALSE(valid-free)
// valid-memcleanup: -
// A field of a malloc'd struct that is never written is freed: its value
// is indeterminate, so free may receive any pointer (ldv-memsafety's
// memleaks_test12-1; a wrong TRUE while fresh heap memory read as 0).
#include <stdlib.h>
struct pair { int *data; int len; };
int main(void) {
  struct pair *p = malloc(sizeof *p);
  if (!p)
    return 0;
  p->len = 0;
  free(p->data);
  free(p);
  return 0;
}
