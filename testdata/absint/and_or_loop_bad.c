// expect: unsafe
// and_or_loop.c's twin: with || the body runs with i = 10 (out of
// bounds) as long as j is not 5.
extern signed char __VERIFIER_nondet_char(void);
int a[10];
int main(void) {
  int i = 0;
  int j = __VERIFIER_nondet_char();
  while (i < 10 || j != 5) {
    a[i] = 1;
    i++;
    j = __VERIFIER_nondet_char();
  }
  return 0;
}
