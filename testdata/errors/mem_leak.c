/* A heap block that nothing points to any more when main returns is
   MemLeak (checked where the machine's leak checks are on: SV-COMP's
   valid-memtrack); it is reported at main. */
#include <stdlib.h>

int main(void) { // ERROR: MemLeak
  char *p = malloc(16);
  p[0] = 1;
  p = 0;
  return 0;
}
