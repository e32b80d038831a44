/* Dereferencing the address of a local of a function that has returned is
 * UseAfterReturn. */
int *leak(void) {
  int local = 3;
  int *p = &local;
  return p;
}

int main(void) {
  int *q = leak();
  return *q; // ERROR: UseAfterReturn
}
