// valid-memsafety: TRUE
// valid-memcleanup: FALSE(valid-memcleanup)
// exit() with the block held by a global.
#include <stdlib.h>
char *buf;
int main(void) {
  buf = malloc(16);
  buf[0] = 'x';
  exit(0);
}
