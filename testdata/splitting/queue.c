/* queue.c -- analytic model for importance splitting: a discrete-time queue.
 * Each tick a customer arrives with probability 3/10 and, independently, the
 * one in service leaves with probability 6/10. From one customer, the queue
 * overflows (reaches 10) before it empties with probability
 * (r - 1)/(r^10 - 1), r = (7/10)(6/10) / ((3/10)(4/10)) = 3.5: 9.0628e-6
 * (ticks where both or neither happen do not move it).
 *
 *   wyvern check queue.c 'Pr[<=1000000](<> q >= 10) {Split=adaptive, Score=q, N=200}'
 */
#include "wyvern.h"

int q = 1;

int main(void) {
  while (q > 0 && q < 10) {
    int in = wyvern_coin(3, 10);
    int out = wyvern_coin(6, 10);
    q += in - out;
  }
  return 0;
}
