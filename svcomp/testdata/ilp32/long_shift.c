// 1UL << 31, shifted once more, is 0 in a 32-bit unsigned long.
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", __FILE__, __LINE__, "reach_error"); }

int main(void) {
  unsigned long x = 1UL << 31;
  x <<= 1;
  if (x == 0) reach_error();
  return 0;
}
