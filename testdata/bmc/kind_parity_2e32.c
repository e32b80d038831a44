/* Safe (k-induction; the loop runs 2^32 - 1 times, far past any unwinding):
 * parity tracks the low bit of i. Not an invariant of the havocked state
 * (parity and i arbitrary), but one iteration establishes it, so the step
 * case with k = 1 assumed iteration proves it. No input: one native run
 * (about 4.3e9 iterations). */
void reach_error(void);

int main(void) {
  unsigned i = 0, parity = 0;
  while (i < 0xFFFFFFFFu) {
    i++;
    parity ^= 1u;
    if (parity != (i & 1u))
      reach_error();
  }
  return 0;
}
