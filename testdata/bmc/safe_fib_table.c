/* Safe (constant-bound loop, arrays): fill fib[0..24] and check fib[24] ==
 * 46368 and that no entry overflows an int. The fill loop runs 23 times:
 * unwind 23. */
#include <assert.h>

int main(void) {
  int fib[25];
  fib[0] = 0;
  fib[1] = 1;
  for (int i = 2; i < 25; i++)
    fib[i] = fib[i - 1] + fib[i - 2];
  assert(fib[24] == 46368);
  return 0;
}
