/* Writing past the end of a malloc'd block is OutOfBounds. */
#include <stdlib.h>

int main(void) {
  char *p = malloc(8);
  for (int i = 0; i < 8; i++)
    p[i] = 'a';
  int n = 8;
  p[n] = 0; // ERROR: OutOfBounds
  free(p);
  return 0;
}
