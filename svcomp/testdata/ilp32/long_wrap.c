// Issue #35: unsigned long is 32 bits under ILP32, so ULONG_MAX + 1 wraps to 0.
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", __FILE__, __LINE__, "reach_error"); }

int main(void) {
  unsigned long x = 4294967295UL;
  x++;
  if (x == 0) reach_error();
  return 0;
}
