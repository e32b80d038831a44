/* ruin.c -- analytic model for importance splitting: gambler's ruin. From
 * x = 1 the walk steps up with probability 3/10 and down otherwise, until it
 * hits 0 or 20. With r = 7/3, P(20 before 0) = (r - 1) / (r^20 - 1) = 5.8264e-8.
 *
 *   wyvern check ruin.c 'Pr[<=1000000](<> x >= 20) {Split=adaptive, Score=x, N=200, K=20}'
 */
#include "wyvern.h"

int x = 1;

int main(void) {
  while (x > 0 && x < 20) {
    if (wyvern_coin(3, 10))
      x++;
    else
      x--;
  }
  return 0;
}
