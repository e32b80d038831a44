// expect: unsafe
// and_or_conds.c's other twin: the || lets 10 through to an array of
// 10 elements (an out-of-bounds store).
extern signed char __VERIFIER_nondet_char(void);
int a[10];
int main(void) {
  int x = __VERIFIER_nondet_char();
  if (x < 0 || x > 10)
    return 0;
  a[x] = 2;
  return 0;
}
