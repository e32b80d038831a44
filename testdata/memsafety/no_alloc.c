// valid-memsafety: TRUE
// valid-memcleanup: TRUE
// No heap at all.
int main(void) {
  int a[4] = {1, 2, 3, 4};
  int s = 0;
  for (int i = 0; i < 4; i++)
    s += a[i];
  return s - 10;
}
