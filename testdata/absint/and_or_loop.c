// expect: proved
// A loop whose condition is an && (a phi at its head at -O0): the body
// sees i < 10, so its store stays in bounds, and i stops at 10.
extern signed char __VERIFIER_nondet_char(void);
extern void reach_error(void);
int a[10];
int main(void) {
  int i = 0;
  int j = __VERIFIER_nondet_char();
  while (i < 10 && j != 5) {
    a[i] = 1;
    i++;
    j = __VERIFIER_nondet_char();
  }
  if (i > 10)
    reach_error();
  return 0;
}
