// Issue #35: a * 2UL wraps in a 32-bit unsigned long for a >= 2^31.
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", __FILE__, __LINE__, "reach_error"); }

extern unsigned int __VERIFIER_nondet_uint(void);
int main(void) {
  unsigned int a = __VERIFIER_nondet_uint();
  unsigned long b = a * 2UL;
  if (b < a) reach_error();
  return 0;
}
