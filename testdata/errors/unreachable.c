/* Executing __builtin_unreachable() is Unreachable. */
int classify(int x) {
  if (x > 0)
    return 1;
  if (x < 0)
    return -1;
  __builtin_unreachable(); // ERROR: Unreachable
}

int main(void) {
  volatile int z = 0;
  return classify(z);
}
