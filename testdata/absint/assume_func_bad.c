// expect: unsafe
// assume_func.c's twins: a function that aborts on a non-zero argument
// (it refines nothing: the call returns with 0) and one that may return
// either way.
extern signed char __VERIFIER_nondet_char(void);
extern void abort(void);
extern void reach_error(void);
void abort_if(int cond) {
  if (cond)
    abort();
}
void check(int cond) {
  if (!cond)
    return;
}
int main(void) {
  int x = __VERIFIER_nondet_char();
  abort_if(x > 3);
  check(x > 2);
  if (x == 2)
    reach_error();
  return 0;
}
