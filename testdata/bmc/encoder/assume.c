// assume constrains the input: x == 5 is excluded, x == 15 is not.
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
extern void reach_error(void);
extern void abort(void);
int main(void) {
  int x = __VERIFIER_nondet_int();
  __VERIFIER_assume(x > 10);
  __VERIFIER_assume(x < 20);
  if (x == 5)
    reach_error();
  if (x == 15)
    abort();
  return 0;
}
