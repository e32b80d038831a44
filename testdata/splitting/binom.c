/* binom.c -- analytic model for importance splitting: 100 trials, each a
 * success with probability 1/100; the property is at least 8 successes, so
 * P = P(Bin(100, 0.01) >= 8) = 8.2202e-6. The score is the number of
 * successes so far; the trial counter is part of the state, so a restarted
 * run has only the trials that remain.
 *
 *   wyvern check binom.c 'Pr[<=100000](<> c >= 8) {Split=fixed, Score=c, Levels=[1,2,3,4,5,6,7], N=1000}'
 */
#include "wyvern.h"

int c;

int main(void) {
  for (int i = 0; i < 100; i++)
    if (wyvern_coin(1, 100))
      c++;
  return 0;
}
