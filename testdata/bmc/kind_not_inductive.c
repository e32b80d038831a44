/* Safe, but not k-inductive (stays incomplete, never a proof): x == 2 * y holds
 * at every evaluation of the loop's head, but the havocked state may break it
 * and the loop preserves the difference, so no number of assumed iterations
 * rules out the error at the exit; a relational invariant would be needed. */
void reach_error(void);

int main(void) {
  unsigned x = 0, y = 0;
  while (y < 1000000u) {
    x += 2;
    y++;
  }
  if (x != 2 * y)
    reach_error();
  return 0;
}
