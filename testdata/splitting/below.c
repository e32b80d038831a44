/* below.c -- analytic model for importance splitting where the property can
 * hold below the next level. With probability 1/1000 the run is done at once
 * (score 0); otherwise three coins of 1/10 must all come up to raise x to 3,
 * and then it is done. P(done) = 1/1000 + (999/1000)(1/1000) = 0.001999.
 *
 *   wyvern check below.c 'Pr[<=1000](<> done == 1) {Split=fixed, Score=x, Levels=[1,2], N=200}'
 */
#include "wyvern.h"

int x, done;

int main(void) {
  if (wyvern_coin(1, 1000)) {
    done = 1;
    return 0;
  }
  for (int i = 0; i < 3; i++) {
    if (!wyvern_coin(1, 10))
      return 0;
    x++;
  }
  done = 1;
  return 0;
}
