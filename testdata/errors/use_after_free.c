/* Reading a heap block after free is UseAfterFree. */
#include <stdlib.h>

int main(void) {
  int *p = malloc(sizeof(int));
  *p = 5;
  free(p);
  return *p; // ERROR: UseAfterFree
}
