// A pointer converted to a 32-bit integer, moved back two elements and converted back designates the array's first element.
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", __FILE__, __LINE__, "reach_error"); }

int main(void) {
  int a[4];
  unsigned long u = (unsigned long)&a[2];
  int *q = (int *)(u - 2 * sizeof(int));
  if (q == a) reach_error();
  return 0;
}
