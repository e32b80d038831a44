// valid-memsafety: TRUE
// valid-memcleanup: TRUE
// Every byte of the malloc'd blocks is written before it is read, by a
// store, memset or a copy of written bytes, so nothing is drawn.
#include <stdlib.h>
#include <string.h>
struct pair { int *data; int len; };
int main(void) {
  struct pair *p = malloc(sizeof *p);
  if (!p)
    return 0;
  p->data = 0;
  p->len = 3;
  char *buf = malloc(8);
  if (!buf) {
    free(p);
    return 0;
  }
  memset(buf, 1, 8);
  struct pair *q = malloc(sizeof *q);
  if (!q) {
    free(buf);
    free(p);
    return 0;
  }
  memcpy(q, p, sizeof *p);
  free(q->data);
  if (buf[7] != 1 || q->len != 3)
    free(buf); // not reached: the memory was written
  free(buf);
  free(q);
  free(p);
  return 0;
}
