/* A failing assert() (<assert.h>, i.e. __assert_fail) is AssertFail; the
 * location is the line of the assert. */
#include <assert.h>

int main(void) {
  int x = 1;
  x = x + 1;
  assert(x == 3); // ERROR: AssertFail
  return 0;
}
