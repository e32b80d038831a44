/* Safe (k-induction with a range invariant; 10^6 iterations): j saturates at
 * 10. A havocked j = 11 never changes (j < 10 is false), so no number of
 * assumed iterations rules out the error; the invariant j <= 10 (a
 * constant of the program, checked to hold after one iteration and to be
 * preserved by every iteration) does. No input: one native run. */
void reach_error(void);

int main(void) {
  unsigned i = 0, j = 0;
  while (i < 1000000u) {
    i++;
    if (j < 10)
      j++;
  }
  if (j > 10)
    reach_error();
  return 0;
}
