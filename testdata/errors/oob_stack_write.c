/* Writing one element past the end of a stack array is OutOfBounds. */
int main(void) {
  int a[4];
  for (int i = 0; i < 4; i++)
    a[i] = i;
  int j = 4;
  a[j] = 7; // ERROR: OutOfBounds
  return a[0];
}
