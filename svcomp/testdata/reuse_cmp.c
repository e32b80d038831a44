// A new block compared with a freed one: an allocator may give the new
// block the freed one's address, so the error is reachable (a wrong TRUE
// of BMC and explicit search while pointers of distinct blocks always
// differed; BMC now cuts the path and gives no proof).
#include <stdlib.h>
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error() { __assert_fail("0", "reuse_cmp.c", 3, "reach_error"); }
int main() {
  int *y = malloc(sizeof(int));
  free(y);
  int *x = malloc(sizeof(int));
  if (x == y) reach_error();
  free(x);
  return 0;
}
