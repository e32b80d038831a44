/* Signed addition that overflows (add nsw at -O0) is Overflow. */
#include <limits.h>

int main(void) {
  volatile int one = 1;
  int x = INT_MAX;
  x = x + one; // ERROR: Overflow
  return x;
}
