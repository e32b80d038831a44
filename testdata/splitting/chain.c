/* chain.c -- analytic model for importance splitting: a counter advances
 * with probability 9/10 and the run stops at the first failure. The
 * probability that it reaches 100 is 0.9^100 = 2.6561e-5.
 *
 *   wyvern check chain.c 'Pr[<=100000](<> x >= 100) {Split=fixed, Score=x, Levels=[10,20,30,40,50,60,70,80,90], N=1000}'
 */
#include "wyvern.h"

int x;

int main(void) {
  while (x < 100) {
    if (!wyvern_coin(9, 10))
      return 0;
    x++;
  }
  return 0;
}
