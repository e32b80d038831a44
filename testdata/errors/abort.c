/* Calling abort() is Abort. */
#include <stdlib.h>

int main(void) {
  int bad = 1;
  if (bad)
    abort(); // ERROR: Abort
  return 0;
}
