/* Safe, but out of k-induction's reach (stays incomplete): the loop stores
 * at a symbolic index (a[i % 8]), so what it writes cannot be bounded to
 * constant addresses and the step case is not attempted. */
void reach_error(void);

int main(void) {
  unsigned a[8] = {0};
  for (unsigned i = 0; i < 1000000u; i++)
    a[i % 8] = i;
  if (a[0] > 1000000u)
    reach_error();
  return 0;
}
