/* Reading past the end of a global array is OutOfBounds. */
int g[5] = {1, 2, 3, 4, 5};

int main(void) {
  int s = 0;
  for (int i = 0; i <= 5; i++)
    s += g[i]; // ERROR: OutOfBounds
  return s;
}
