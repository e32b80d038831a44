/* Calling reach_error(), declared but not defined, is ReachError. */
void reach_error(void);

int main(void) {
  int x = 2;
  if (x * x == 4)
    reach_error(); // ERROR: ReachError
  return 0;
}
