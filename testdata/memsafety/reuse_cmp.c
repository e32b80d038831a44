// valid-memsafety: FALSE(valid-free)
// valid-memcleanup: -
// A pointer to a freed block compared with a new block: an allocator may
// give the new block the freed one's address, and then the block is freed
// twice (SV-COMP's memsafety/cmp-freed-ptr; a wrong TRUE before).
#include <stdlib.h>
struct node { struct node *next; };
int main(void) {
  struct node *old = malloc(sizeof(struct node));
  free(old);
  struct node *fresh = malloc(sizeof(struct node));
  if (fresh == old)
    free(fresh);
  free(fresh);
  return 0;
}
