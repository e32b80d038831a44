/* chain.c -- a chain of 10 stages, each passed with probability 9/10.
 * Pr[<=100000](<> x == 10) = 0.9^10: the program ends by itself long before
 * the bound. */
#include "wyvern.h"

int x = 0;

int main(void) {
  for (int i = 0; i < 10; i++) {
    if (!wyvern_coin(9, 10))
      return 1;
    x++;
  }
  return 0;
}
