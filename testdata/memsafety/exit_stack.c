// valid-memsafety: TRUE
// valid-memcleanup: FALSE(valid-memcleanup)
// exit() while a local of main still points to the block: tracked (the
// stack is still there), not cleaned up.
#include <stdlib.h>
int main(void) {
  int *p = malloc(sizeof(int));
  *p = 1;
  exit(0);
}
