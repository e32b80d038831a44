/* nonmarkov.c -- analytic model for importance splitting with a score that
 * is not monotone along a run and forgets its past: x climbs with three coins
 * of 1/10; at x == 3 the run is done with probability 1/2. Then x is reset to
 * 0 (the score drops), and the run gets a second, independent chance of
 * 1/1000 at score 0.
 *   P(done) = (1/1000)(1/2) + (1 - 1/2000)(1/1000) = 0.0014995.
 *
 *   wyvern check nonmarkov.c 'Pr[<=1000](<> done == 1) {Split=fixed, Score=x, Levels=[1,2,3], N=200}'
 */
#include "wyvern.h"

int x, done;

int main(void) {
  int i;
  for (i = 0; i < 3; i++) {
    if (!wyvern_coin(1, 10))
      break;
    x++;
  }
  if (x == 3 && wyvern_coin(1, 2)) {
    done = 1;
    return 0;
  }
  x = 0;
  if (wyvern_coin(1, 1000))
    done = 1;
  return 0;
}
