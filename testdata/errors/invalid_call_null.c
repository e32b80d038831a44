/* Calling through a null function pointer is InvalidCall. */
int (*fp)(int) = 0;

int main(void) {
  int r = fp(3); // ERROR: InvalidCall
  return r;
}
