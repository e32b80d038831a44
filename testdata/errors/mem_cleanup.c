/* A heap block still allocated when the program exits is MemCleanup
   (checked where the machine's leak checks are on: SV-COMP's
   valid-memcleanup), even while a global still points to it. */
#include <stdlib.h>

char *g;

int main(void) {
  g = malloc(16);
  exit(0); // ERROR: MemCleanup
}
