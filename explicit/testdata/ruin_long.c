/* ruin.c -- gambler's ruin: from x = 1, win a unit with probability 3/10,
 * lose one otherwise, stop at 0 or at 5, or after T rounds.
 * Pr[<=100000](<> x == 5): with T = 30 the program ends by itself, so the
 * value is the unbounded one up to the mass left after the step bound
 * (the test computes it by dynamic programming); with T large it tends to
 * (1 - r) / (1 - r^5), r = 7/3. */
#include "wyvern.h"

#ifndef T
#define T 1000000
#endif

int x = 1;

int main(void) {
  for (int t = 0; t < T && x > 0 && x < 5; t++) {
    if (wyvern_coin(3, 10))
      x++;
    else
      x--;
  }
  return 0;
}
