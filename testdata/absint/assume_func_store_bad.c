// expect: unsafe
// A function that overwrites its parameter's copy before it tests it:
// the test says nothing of the argument.
extern signed char __VERIFIER_nondet_char(void);
extern void abort(void);
extern void reach_error(void);
void f(int cond) {
  cond = cond + 1;
  if (!cond)
    abort();
}
int main(void) {
  int x = __VERIFIER_nondet_char();
  f(x);
  if (x == 0)
    reach_error();
  return 0;
}
