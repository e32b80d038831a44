/* Safe (k-induction; 2^31 iterations): a three-state machine 0 -> 1 -> 2 -> 1
 * never reaches state 3; the step case from an arbitrary state needs no
 * invariant (every transition lands in 1 or 2). No input. */
void reach_error(void);

int main(void) {
  unsigned state = 0;
  for (unsigned t = 0; t < 0x80000000u; t++) {
    if (state == 0)
      state = 1;
    else if (state == 1)
      state = 2;
    else
      state = 1;
    if (state == 3 || state == 0)
      reach_error();
  }
  return 0;
}
