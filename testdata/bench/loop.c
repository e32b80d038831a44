/* Compute-bound integer loop: arithmetic, shifts, a data-dependent branch. */
#include <stdio.h>
int main(void) {
  unsigned s = 0, t = 1;
  for (unsigned i = 0; i < 10000000u; i++) {
    s += (i * i) ^ (s >> 3);
    if (s & 1)
      t = t * 3 + i;
  }
  printf("%u %u\n", s, t);
  return 0;
}
