// expect: unsafe
// An assume of a || that always holds refines nothing.
extern signed char __VERIFIER_nondet_char(void);
extern void __VERIFIER_assume(int);
extern void reach_error(void);
int main(void) {
  int x = __VERIFIER_nondet_char();
  __VERIFIER_assume(x >= 2 || x <= 5);
  if (x > 5)
    reach_error();
  return 0;
}
