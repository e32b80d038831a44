/* Safe (k-induction; 10^6 iterations): after the loop i is exactly 10^6. From
 * a havocked i the loop may leave at any i >= 10^6, but with one iteration
 * assumed (i - 1 < 10^6 before the last increment) it leaves at 10^6 only. */
void reach_error(void);

int main(void) {
  unsigned i = 0;
  while (i < 1000000u)
    i++;
  if (i != 1000000u)
    reach_error();
  return 0;
}
