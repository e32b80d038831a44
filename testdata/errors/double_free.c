/* Freeing a heap block twice is DoubleFree. */
#include <stdlib.h>

int main(void) {
  char *p = malloc(16);
  free(p);
  free(p); // ERROR: DoubleFree
  return 0;
}
