// expect: unsafe
// A sum of two signed ranges across 0 reaches its lower end: -128 + -5.
extern signed char __VERIFIER_nondet_char(void);
extern void reach_error(void);
int main(void) {
  int x = __VERIFIER_nondet_char();
  int y = __VERIFIER_nondet_char();
  if (y < -5 || y > 7)
    return 0;
  int z = x + y;
  if (z == -133)
    reach_error();
  return 0;
}
