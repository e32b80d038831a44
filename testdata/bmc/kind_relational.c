/* Safe, and k-inductive once an affine equality strengthens the step: x == 2 * y
 * holds at every evaluation of the loop's head; the havocked state alone may
 * break it (the loop preserves the difference), but Karr's analysis
 * (symbolic/karr.go) guesses x - 2y = 0 at the head and Houdini keeps it. */
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
