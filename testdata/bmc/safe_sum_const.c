/* Safe (constant-bound loop): the sum of 0..9 is 45. The loop body runs
 * exactly 10 times, so unwind 10 unrolls it completely: not-satisfied. */
#include <assert.h>

int main(void) {
  int sum = 0;
  for (int i = 0; i < 10; i++)
    sum += i;
  assert(sum == 45);
  return 0;
}
