// expect: unsafe
// and_or_conds.c's twin: || where && is meant lets x be 10.
extern signed char __VERIFIER_nondet_char(void);
extern void reach_error(void);
int a[10];
int main(void) {
  int x = __VERIFIER_nondet_char();
  if (x >= 0 || x < 10)
    if (x > 8)
      reach_error();
  return 0;
}
