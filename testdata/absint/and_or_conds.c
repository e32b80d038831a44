// expect: proved
// Conditions combined with && and || (a phi at -O0) refine what each
// comparison tests: in a branch, in __VERIFIER_assume, and in a
// condition's negation. (One variable, overwritten: explicit search
// stays small.)
extern signed char __VERIFIER_nondet_char(void);
extern void __VERIFIER_assume(int);
extern void reach_error(void);
int a[10];
int main(void) {
  int x = __VERIFIER_nondet_char();
  if (x >= 0 && x < 10)
    a[x] = 1;
  x = __VERIFIER_nondet_char();
  if (x < 0 || x >= 10)
    return 0;
  a[x] = 2;
  x = __VERIFIER_nondet_char();
  __VERIFIER_assume(x >= 2 && x <= 5 && x != 3);
  if (x < 2 || x > 5)
    reach_error();
  x = __VERIFIER_nondet_char();
  if (!(x > -3 && x < 3))
    return 0;
  if (x * x > 4)
    reach_error();
  return 0;
}
