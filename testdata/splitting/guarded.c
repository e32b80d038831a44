/* guarded.c -- a rare error call behind a guard, for Split=auto: 30
 * trials, each a hit with probability 1/10; reach_error() is called when
 * at least 12 hit. P = P(Bin(30, 0.1) >= 12) = 1.5284e-5 (binomTail in
 * splitting's tests). Split=auto finds the guards on the way to the call,
 * the loop's exit i >= 30 and hits >= 12, and scores
 * min(min(main::i, 30)*2, min(hits, 12)*5): both normalised to 60, the
 * least-advanced one counts.
 *
 *   wyvern check guarded.c 'Pr[<=100000](<> [0.reach_error]) {Split=auto}'
 */
#include "wyvern.h"

extern void reach_error(void);

#ifndef LIMIT
#define LIMIT 12 /* -DLIMIT=13: P(Bin(30, 0.1) >= 13) = 2.3023e-6 */
#endif

int hits;

int main(void) {
  for (int i = 0; i < 30; i++)
    if (wyvern_coin(1, 10))
      hits++;
  if (hits >= LIMIT)
    reach_error();
  return 0;
}
