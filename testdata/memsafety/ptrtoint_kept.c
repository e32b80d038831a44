// valid-memsafety: TRUE
// valid-memcleanup: TRUE
// The only reference is an integer (ptrtoint) for a while: not a leak.
#include <stdint.h>
#include <stdlib.h>
static uintptr_t hidden;
static void keep(void) {
  int *p = malloc(sizeof(int));
  *p = 9;
  hidden = (uintptr_t)p;
}
int main(void) {
  keep();
  int *q = (int *)hidden;
  int v = *q;
  free(q);
  return v - 9;
}
