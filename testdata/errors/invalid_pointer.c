/* Loading through a pointer to a function (not data memory) is
 * InvalidPointer. */
int f(void) { return 1; }

int main(void) {
  int *p = (int *)&f;
  return *p; // ERROR: InvalidPointer
}
