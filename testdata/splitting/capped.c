/* capped.c -- a score whose maximum is below the property: x climbs to 8
 * (each step with probability 1/2), then the run is done with
 * probability 1/10, x staying 8. Pr(<> done == 1) = 0.5^8 / 10 = 3.90625e-4.
 * An adaptive run's last score level is 8: a fixed level above it (9)
 * would never be crossed (--emit-levels must not propose it).
 *
 *   wyvern check capped.c 'Pr[<=100000](<> done == 1) {Split=adaptive, Score=x}' --emit-levels
 */
#include "wyvern.h"

int x, done;

int main(void) {
  while (x < 8) {
    if (!wyvern_coin(1, 2))
      return 0;
    x++;
  }
  if (wyvern_coin(1, 10))
    done = 1;
  return 0;
}
