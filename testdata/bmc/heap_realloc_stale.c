/* Bug (use after free through a stale pointer): a pointer into a buffer is
 * kept across realloc, which moves the block (it always does in the vm: a
 * fresh block, the old one freed), and is then read. */
#include <stdlib.h>

int main(void) {
  int *buf = malloc(4 * sizeof(int));
  if (!buf)
    return 1;
  buf[0] = 7;
  int *first = &buf[0];
  int *bigger = realloc(buf, 64 * sizeof(int));
  if (!bigger)
    return 1;
  int v = *first; /* BUG: first points into the freed block */
  free(bigger);
  return v;
}
