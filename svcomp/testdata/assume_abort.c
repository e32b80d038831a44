// abort() is an assumption in SV-COMP: x < 10 holds after it, so x > 20
// never does and reach_error is unreachable.
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", "assume_abort.c", 5, "reach_error"); }
void assume_abort_if_not(int cond) { if (!cond) { abort(); } }
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int x = __VERIFIER_nondet_int();
  assume_abort_if_not(x >= 0 && x < 10);
  int s = 0;
  for (int i = 0; i < x; i++) {
    s += i;
  }
  if (s > 45) {
    reach_error();
  }
  return 0;
}
