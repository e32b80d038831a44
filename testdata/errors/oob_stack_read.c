/* Reading one element past the end of a stack array is OutOfBounds. */
int main(void) {
  int a[4] = {1, 2, 3, 4};
  int i = 4;
  int x = a[i]; // ERROR: OutOfBounds
  return x;
}
