/* Writing past the end of a global array is OutOfBounds. */
long g[3];

int main(void) {
  int k = 3;
  g[k] = 1; // ERROR: OutOfBounds
  return 0;
}
