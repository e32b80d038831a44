/* Bug (needs unwind 4, nested loops): the assertion fails at i == 2, j == 3,
 * the 3rd execution of the outer body and the 4th of the inner one. At unwind
 * 3 the inner loop is cut before j == 3 (and can run again): incomplete. */
#include <assert.h>

int main(void) {
  int cells = 0;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 4; j++) {
      cells++;
      assert(!(i == 2 && j == 3));
    }
  return cells;
}
