// Issue #35: sizeof(long) is 4 under ILP32.
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", __FILE__, __LINE__, "reach_error"); }

int main(void) {
  if (sizeof(long) == 8) reach_error();
  return 0;
}
