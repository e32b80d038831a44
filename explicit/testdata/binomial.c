/* binomial.c -- 20 independent trials of probability 1/100:
 * Pr[<=100000](<> hits >= 3) = P(Bin(20, 0.01) >= 3). */
#include "wyvern.h"

int hits = 0;

int main(void) {
  for (int i = 0; i < 20; i++)
    if (wyvern_coin(1, 100))
      hits++;
  return 0;
}
