/* dice.c -- two dice, then a bool nondet input (uniform over {0, 1} in the
 * probabilistic semantics) adds one more pip half of the time.
 * Pr[<=1000](<> sum == 7) = 6/36 + 5/36 * 1/2 = 17/72 (7 thrown, or 6 thrown
 * and the extra pip); Pr[<=1000](<> sum == 8) = 5/36 + 6/36 * 1/2 = 2/9. */
#include "wyvern.h"

int sum = 0;

int main(void) {
  int a = wyvern_uniform(1, 6);
  int b = wyvern_uniform(1, 6);
  sum = a + b;
  if (__VERIFIER_nondet_bool())
    sum = sum + 1;
  return 0;
}
