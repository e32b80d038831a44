// Pointer differences are byte distances; a pointer difference fits in a 32-bit long.
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", __FILE__, __LINE__, "reach_error"); }

int main(void) {
  int a[10];
  int *p = &a[9];
  long d = (char *)p - (char *)a;
  long n = p - a;
  if (d != 36 || n != 9) reach_error();
  return 0;
}
