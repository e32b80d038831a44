/* Bug after 10^6 iterations (k-induction must not prove it): the error is in
 * the loop's 10^6-th iteration, beyond any unwinding BMC can check, and a
 * havocked i reaches it in one step: the verdict stays incomplete. Natively
 * the witness (no input) hits it. */
void reach_error(void);

int main(void) {
  unsigned i = 0;
  while (i < 1000000u) {
    i++;
    if (i == 1000000u)
      reach_error();
  }
  return 0;
}
