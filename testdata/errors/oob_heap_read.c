/* Reading past the end of a malloc'd block is OutOfBounds. */
#include <stdlib.h>

int main(void) {
  int *p = malloc(3 * sizeof(int));
  p[0] = p[1] = p[2] = 1;
  int n = 3;
  int x = p[n]; // ERROR: OutOfBounds
  free(p);
  return x;
}
