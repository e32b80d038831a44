// long is 32 bits: LONG_MAX + 1 overflows (signed).
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", __FILE__, __LINE__, "reach_error"); }

extern int __VERIFIER_nondet_int(void);
int main(void) {
  long x = 2147483647L;
  int d = __VERIFIER_nondet_int();
  if (d > 0 && d < 10) x = x + d;
  return (int)(x & 1);
}
