/* Bug (needs unwind 16): the Collatz sequence from 7 reaches 1 after 16 steps
 * (7 22 11 34 17 52 26 13 40 20 10 5 16 8 4 2 1); the error follows the loop
 * when it took 16 steps. No input: at unwind 15 the loop is not fully
 * unrolled, so the verdict is incomplete; at 16 it is satisfied. */
void reach_error(void);

int main(void) {
  unsigned n = 7, steps = 0;
  while (n != 1) {
    n = (n % 2) ? 3 * n + 1 : n / 2;
    steps++;
  }
  if (steps == 16)
    reach_error();
  return 0;
}
