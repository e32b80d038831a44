/* Freeing a pointer that malloc did not return (a stack variable) is
 * InvalidFree. */
#include <stdlib.h>

int main(void) {
  int x = 1;
  int *p = &x;
  free(p); // ERROR: InvalidFree
  return 0;
}
