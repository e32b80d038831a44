// Safe for every input: a loop, a call, an array, malloc and free.
#include <stdlib.h>
extern unsigned int __VERIFIER_nondet_uint(void);
extern void reach_error(void);
static unsigned int add(unsigned int a, unsigned int b) { return a + b; }
int main(void) {
  unsigned int x = __VERIFIER_nondet_uint();
  unsigned int a[3];
  unsigned int y = x;
  for (int i = 0; i < 3; i++) {
    a[i] = y;
    y = add(y, 1u);
  }
  unsigned int *p = malloc(sizeof(unsigned int));
  if (p) {
    *p = a[2];
    if (*p - x != 2u)
      reach_error();
    free(p);
  }
  if (y - x != 3u)
    reach_error();
  return 0;
}
