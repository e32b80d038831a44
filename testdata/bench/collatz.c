/* Branch-bound: Collatz step counts over a range of start values. */
#include <stdio.h>
int main(void) {
  unsigned long sum = 0, best = 0, arg = 0;
  for (unsigned long n = 1; n <= 500000ul; n++) {
    unsigned long x = n, steps = 0;
    while (x != 1) {
      if (x & 1)
        x = 3 * x + 1;
      else
        x >>= 1;
      steps++;
    }
    sum += steps;
    if (steps > best) {
      best = steps;
      arg = n;
    }
  }
  printf("%lu %lu %lu\n", sum, best, arg);
  return 0;
}
