/* Integer division by zero is DivZero. */
int main(void) {
  volatile int zero = 0;
  int a = 10;
  int q = a / zero; // ERROR: DivZero
  return q;
}
