/* A load through a null pointer is a NullDeref error. */
int main(void) {
  int *p = 0;
  int x = *p; // ERROR: NullDeref
  return x;
}
