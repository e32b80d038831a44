/* counter.c -- analytic model for importance splitting with a poor score: in
 * each of 20 rounds a counter c goes up with probability 1/4 and is reset to
 * 0 otherwise; the run is done when c reaches 9. The score c falls back on
 * every reset, so the effort spent raising it is lost again and again, and
 * the replication estimates are skewed. The exact probability, a recurrence
 * over (round, c), is computed by counterExact in splitting's tests:
 * 3.5286e-5 (counterExact in soundness_test.go).
 *
 *   wyvern check counter.c 'Pr[<=100000](<> c >= 9) {Split=adaptive, Score=c, N=200}'
 */
#include "wyvern.h"

int c;

int main(void) {
  for (int round = 0; round < 20 && c < 9; round++) {
    if (wyvern_coin(1, 4))
      c++;
    else
      c = 0;
  }
  return 0;
}
