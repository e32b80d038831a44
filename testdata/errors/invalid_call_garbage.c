/* Calling through a pointer that designates data, not a function, is
 * InvalidCall. */
int data = 42;

int main(void) {
  int (*fp)(void) = (int (*)(void))&data;
  return fp(); // ERROR: InvalidCall
}
