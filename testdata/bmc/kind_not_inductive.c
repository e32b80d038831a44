/* Safe, but not k-inductive (stays incomplete, never a proof): 2x == y(y-1)
 * holds at every evaluation of the loop's head, but the havocked state may
 * break it and no candidate (ranges, affine equalities) is the quadratic
 * invariant that would rule out the error at the exit. */
void reach_error(void);

int main(void) {
  unsigned x = 0, y = 0;
  while (y < 1000u) {
    x += y;
    y++;
  }
  if (2 * x != y * (y - 1))
    reach_error();
  return 0;
}
