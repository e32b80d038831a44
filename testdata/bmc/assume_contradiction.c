/* Safe (vacuous): the two assumes contradict each other, so no run reaches
 * the error; a checker must not report it (nor report the assume). */
extern int __VERIFIER_nondet_int(void);
void __VERIFIER_assume(int cond);
void reach_error(void);

#ifdef EXHAUSTIVE
EXHAUSTIVE_DOMAIN(-100, 100)
#endif

int main(void) {
  int x = __VERIFIER_nondet_int();
  __VERIFIER_assume(x > 10);
  __VERIFIER_assume(x < 5);
  reach_error();
  return 0;
}
